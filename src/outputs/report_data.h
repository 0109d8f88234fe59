/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Shared by report.c (gathering) and report_out.c (writing). */
#ifndef XGTOP_REPORT_DATA_H
#define XGTOP_REPORT_DATA_H

#include "xgtop/compute/stats.h"
#include "xgtop/outputs/report.h"

/* One column of one domain over the intervals. */
struct rep_col {
	uint64_t n;                 /* intervals it was measured in */
	double sum;                 /* of the values */
	double wsum, w;             /* sum of value x interval length; of the lengths */
	double max;
	struct xg_topk top;         /* the largest values, for the percentile */
	uint8_t why;                /* last reason it was not measured (report why[]), 0 = none */
	bool given;                 /* mean and p95 below came from a server */
	double gmean, gp95;
};

/* Whom a domain waited behind over the report's intervals: each
 * interval's top parts (struct xg_waits.last) summed by culprit, the
 * rest of its attributed WAIT as other. */
#define REP_BEHIND_MAX 16
struct rep_behind {
	uint32_t who;
	uint64_t ns;
};

struct rep_dom {
	uint32_t id, gen;
	uint16_t host;              /* the pool host (xg_dom.host) */
	uint8_t handle[16];
	char name[XG_NAME_MAX];
	uint64_t from_ns, to_ns;    /* start of its first interval, end of its last */
	uint64_t intervals;
	struct rep_col col[XG_COL_COUNT];
	bool by_seen;               /* some interval had wait totals */
	bool by_linux;              /* ... from a Linux host: XG_BEHIND_XEN is "host" */
	uint32_t nby;
	struct rep_behind by[REP_BEHIND_MAX];
	uint64_t by_wait, by_other; /* attributed WAIT; the part of no culprit in by[] */
};

#define REP_WHY_MAX 64

struct xg_report {
	size_t keep;                /* values the percentile keeps per column */
	struct rep_dom **dom;       /* every domain seen, in the order first seen */
	size_t ndom, dom_cap;
	struct rep_dom **live;      /* the domains of the last interval, by id */
	size_t nlive, live_cap;
	struct rep_dom **next;
	size_t next_cap;
	char *why[REP_WHY_MAX];     /* reasons, interned; [0] unused */
	size_t nwhy;
	bool vms;                   /* some sample's domains were VMs (the vm columns) */
	bool psi;                   /* some sample's source read pressure (the pressure columns) */
	char **hosts;               /* report_put's hosts, by rep_dom.host; NULL: no HOST column */
	uint64_t put_cols;          /* bit c: report_put gave column c (the only ones reported then) */
	size_t nhosts;
};

/* Columns the report summarises: the numbers (not ID, NAME, STATE, TREND;
 * the VM columns only when the domains were VMs, the pressure columns
 * only when a source read pressure, as --explain). */
bool rep_col_reported(const struct xg_report *r, enum xg_col c);
/* Column c's mean, percentile and maximum; NaN when never measured. */
double rep_mean(const struct rep_col *k);
double rep_pct(struct rep_col *k);

#endif
