/* SPDX-License-Identifier: GPL-2.0-or-later */
/* MBM counter continuity, for xen_cmt.c: a hardware counter that wraps,
 * folded into a total that never goes back. Pure arithmetic, so its unit
 * test drives it read by read. */
#ifndef XGTOP_XEN_CMT_MBM_H
#define XGTOP_XEN_CMT_MBM_H

#include <stdint.h>

/* The MBM counters are 24 bits wide on the first parts that have them
 * (wider ones exist, and the width is not visible through Xen), and the
 * hardware promises at most one wrap per second. */
#define XG_MBM_WIDTH 24
#define XG_MBM_WIDTH_WIDE 62     /* bits 62/63 are the error flags */
#define XG_MBM_MAX_GAP_NS 1500000000ull

struct xg_mbm {
	uint64_t last;      /* raw value at the previous read */
	uint64_t last_ns;
	uint64_t total;     /* cumulative counter units since the first read */
	unsigned width;     /* 0 until the first read */
};

enum xg_mbm_rc {
	XG_MBM_OK,          /* total advanced (or first read: total 0) */
	XG_MBM_GAP,         /* too long since the last read: wraps uncountable */
	XG_MBM_RESET,       /* went backwards without a possible wrap */
};

/* Folds one raw read into m->total. The first read (width 0: set width to
 * 0 to start over on another counter) and XG_MBM_GAP / _RESET make the raw
 * value the new baseline and add nothing; the total never goes back. */
enum xg_mbm_rc xen_cmt_mbm_advance(struct xg_mbm *m, uint64_t raw, uint64_t now_ns);

#define XG_CMT_WHY_GAP "MBM read more than 1.5 s after the last: the counter may have wrapped " \
		       "more than once (refresh every second or faster)"
#define XG_CMT_WHY_RESET "MBM counter went backwards (RMID reassigned?): new baseline"

#endif
