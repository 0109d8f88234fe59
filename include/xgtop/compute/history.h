/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The last N samples' figures of every domain, for the detail pane's graphs
 * and the TREND column. Not whole samples: one ring of rows, one row per
 * sample holding XG_HIST_NCOLS floats per domain slot, so 1,000 domains x
 * 300 samples take 1000 * 300 * 20 * 4 bytes = 24 MB. A domain keeps its
 * slot while it is there; a figure not measured in a sample, or a sample
 * before the domain appeared, is NaN. Adding a sample writes one row from
 * start to end, which costs little even for 10,000 domains. All of it
 * stays within XG_HIST_BUDGET: with more domains than fit, the history
 * keeps fewer samples (and more again when they leave). */
#ifndef XGTOP_HISTORY_H
#define XGTOP_HISTORY_H

#include "xgtop/compute/metrics.h"
#include "xgtop/model/config.h"

/* Columns kept per domain and sample (those that change; see hist_slot). */
#define XG_HIST_NCOLS 20
/* Bytes all domains' blocks may take together. */
#define XG_HIST_BUDGET (32u << 20)

/* Who holds a slot: the domain's id, handle, generation and name, as
 * metrics tells one domain from the next user of its id. In the order of
 * the last table's domain rows, so a row finds its slot by dom_index. */
struct xg_hist_id {
	uint32_t id, gen;
	uint8_t handle[16];
	uint16_t host;              /* the pool host (xg_dom.host) */
	uint32_t slot;
};

struct xg_history {
	unsigned want;              /* samples asked for (--history) */
	unsigned cap;               /* samples kept now: want, or fewer to fit the budget */
	uint64_t first, n;          /* sample numbers held: first .. first + n - 1 */
	uint64_t *real_ns;          /* per ring row: wall-clock time of the sample */
	float *ring;                /* cap rows of nslots x XG_HIST_NCOLS */
	size_t nslots, used;        /* slots per row; slots ever given out */
	char (*names)[XG_NAME_MAX]; /* per slot: its domain's name */
	uint32_t *free;             /* slots of domains that left */
	size_t nfree, free_cap;
	uint64_t last_mono;         /* the last sample added (when ndom > 0) */
	struct xg_hist_id *ids;     /* the domain rows of the last table added */
	size_t ndom, ids_cap;
	struct xg_hist_id *spare;   /* the next list, built beside it */
	size_t spare_cap;
};

/* The column table's columns in history slot order. */
extern const enum xg_col xg_hist_cols[XG_HIST_NCOLS];
/* The slot holding column c, or a column of the same shape (MEM% is MEM
 * over a constant: its graph is MEM's), or -1 when the history does not
 * keep it (ID, NAME, STATE, CPU(s), VCPU, MAXMEM, the cache breakdown). */
int hist_slot(enum xg_col c);
/* The columns it keeps, bit per enum xg_col (a table computes them for
 * every domain). */
uint64_t hist_cols(void);

/* Keeps up to want samples (1 .. XG_HIST_MAX). */
void hist_init(struct xg_history *h, unsigned want);
void hist_free(struct xg_history *h);
/* Forgets every sample and domain. */
void hist_clear(struct xg_history *h);
/* Adds the domain rows of t as sample number seq. A seq that does not
 * follow the last one (a replay stepped back) starts the history again. */
void hist_add(struct xg_history *h, uint64_t seq, const struct xg_table *t);
/* The slot of the domain of row r of the table added last, or -1. */
long hist_find(const struct xg_history *h, const struct xg_row *r);
/* The last up to n values of column slot k (hist_slot) of domain slot d,
 * oldest first, NaN where not measured, ending at the newest sample;
 * returns how many (at most the samples held; 0 when d is -1). */
size_t hist_values(const struct xg_history *h, long d, int k, float *out, size_t n);
/* Wall-clock time of the sample `back` samples before the newest (0 = the
 * newest), or 0 when not held. */
uint64_t hist_time(const struct xg_history *h, uint64_t back);
/* Bytes the history holds now (ring, names, lists, times): the measure of
 * XG_HIST_BUDGET, which test_history and the TUI bench check and report. */
size_t hist_bytes(const struct xg_history *h);

#endif
