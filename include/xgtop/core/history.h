/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The last N samples' figures of every domain, for the detail pane's graphs
 * and the sparkline column. Not whole samples: per domain one block of
 * rows of XG_HIST_NCOLS floats (a ring, one row per sample), so 1,000
 * domains x 300 samples take 1000 * 300 * 20 * 4 bytes = 24 MB. A figure
 * not measured in a sample, or a sample before the domain appeared, is NaN.
 * All blocks together stay within XG_HIST_BUDGET: with more domains than
 * fit, the history keeps fewer samples (and more again when they leave).
 * The blocks are kept in the order of the last table's domain rows, so a
 * row finds its domain's block by its dom_index. */
#ifndef XGTOP_HISTORY_H
#define XGTOP_HISTORY_H

#include "xgtop/core/metrics.h"

#define XG_HIST_DEFAULT 300
#define XG_HIST_MAX 100000
/* Columns kept per domain and sample (those that change; see hist_slot). */
#define XG_HIST_NCOLS 20
/* Bytes all domains' blocks may take together. */
#define XG_HIST_BUDGET (32u << 20)

/* One domain's series, and who it is (id, handle, generation and name, as
 * metrics tells one domain from the next user of its id). */
struct xg_hist_dom {
	uint32_t id, gen;
	uint8_t handle[16];
	char name[XG_NAME_MAX];
	float v[];                  /* cap rows of XG_HIST_NCOLS, row = sample % cap */
};

struct xg_history {
	unsigned want;              /* samples asked for (--history) */
	unsigned cap;               /* samples kept now: want, or fewer to fit the budget */
	uint64_t first, n;          /* sample numbers held: first .. first + n - 1 */
	uint64_t *real_ns;          /* per ring row: wall-clock time of the sample */
	struct xg_hist_dom **dom;   /* the domain rows of the last table added */
	size_t ndom, dom_cap;
	struct xg_hist_dom **spare; /* the next domain list, built beside it */
	size_t spare_cap;
};

/* The column table's columns in history slot order. */
extern const enum xg_col xg_hist_cols[XG_HIST_NCOLS];
/* The slot holding column c, or a column of the same shape (MEM% is MEM
 * over a constant: its graph is MEM's), or -1 when the history does not
 * keep it (ID, NAME, STATE, CPU(s), VCPU, MAXMEM, the cache breakdown). */
int hist_slot(enum xg_col c);

/* Keeps up to want samples (1 .. XG_HIST_MAX). */
void hist_init(struct xg_history *h, unsigned want);
void hist_free(struct xg_history *h);
/* Forgets every sample and domain. */
void hist_clear(struct xg_history *h);
/* Adds the domain rows of t as sample number seq. A seq that does not
 * follow the last one (a replay stepped back) starts the history again. */
void hist_add(struct xg_history *h, uint64_t seq, const struct xg_table *t);
/* The series of the domain of row r of the table added last, or NULL. */
const struct xg_hist_dom *hist_dom(const struct xg_history *h, const struct xg_row *r);
/* The last up to n values of slot k of d, oldest first, NaN where not
 * measured, ending at the newest sample; returns how many (at most the
 * samples held). */
size_t hist_values(const struct xg_history *h, const struct xg_hist_dom *d, int k, float *out,
		   size_t n);
/* Wall-clock time of the sample `back` samples before the newest (0 = the
 * newest), or 0 when not held. */
uint64_t hist_time(const struct xg_history *h, uint64_t back);
/* Bytes the history holds now (blocks, lists, times). */
size_t hist_bytes(const struct xg_history *h);

#endif
