/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Rates between two samples, computed in one place. A row holds one
 * domain's (or one vCPU's, or one socket's) values for every column. */
#ifndef XGTOP_METRICS_H
#define XGTOP_METRICS_H

#include "xgtop/model/columns.h"
#include "xgtop/model/sample.h"

/* Reasons the metrics layer adds (beyond the source's): indexes above
 * XG_REASON_MAX in xg_row.why. */
enum xg_mwhy {
	XG_WHY_NONE = 0,
	XG_WHY_FIRST = XG_REASON_MAX,  /* first sample of this domain: a rate needs two */
	XG_WHY_RESET,                  /* counter went backwards or id reused: new baseline */
	XG_WHY_NOREFS,                 /* no references in the interval: ratio undefined */
	XG_WHY_NOINSTR,                /* no instructions counted: MPKI undefined */
	XG_WHY_NOTIME,                 /* zero-length interval */
	XG_WHY_NOTOTAL,                /* host memory total unknown */
	XG_WHY_NOLIMIT,                /* no memory limit set (shown as "nolim") */
	XG_WHY_DOMONLY,                /* a vCPU row: the figure exists per domain only */
	XG_WHY_NOBREAKDOWN,            /* cache sum counted, breakdown not */
	XG_WHY_SOCKFIRST,              /* socket entry new (or its counter was not valid before) */
	XG_WHY_SOCKNONE,               /* socket value invalid, the domain's sum valid */
	XG_WHY_NOPCPU,                 /* the sample has no per-pCPU times */
	XG_WHY_PCPUFIRST,              /* pCPU new (or its times were not valid before) */
	XG_WHY_NOWAIT,                 /* no wait ended in the interval: nobody to blame */
	XG_WHY_SUSP_LEARN,             /* VICTIM: too few windows for a baseline yet */
	XG_WHY_SUSP_NOCPI,             /* VICTIM: neither cycles nor misses per instruction counted */
	XG_WHY_SUSP_POOL,              /* VICTIM: a pool's hosts share no cache */
	XG_WHY_SUSP_OFF,               /* VICTIM: nothing judges victims here (batch output) */
	XG_WHY_COUNT
};

#define XG_NO_BASE UINT32_MAX

struct xg_row {
	uint32_t id;
	int32_t vcpu;               /* -1 for a domain or socket row, else the vCPU id */
	uint8_t sock_row;           /* 1: a socket row (CMT/MBM on one socket) */
	uint32_t socket;            /* socket rows: the socket index */
	uint32_t dom_index;         /* index of the domain in table->cur */
	uint32_t base_index;        /* domain rows: index of the same domain in
	                               table->prev (its baseline), XG_NO_BASE if none */
	uint8_t nobase;             /* domain rows without a baseline: why (enum xg_mwhy
	                               or a sample reason) */
	uint32_t child_first;       /* domain rows: first sub-row in the table */
	uint32_t child_count;       /* domain rows: number of sub-rows (sockets, then vCPUs) */
	const char *name;           /* raw, points into the current sample */
	const char *host;           /* pool view: the host's name (in the sample), else NULL */
	uint8_t host_stale;         /* pool view: the host did not answer this refresh */
	char state[8];              /* "dsbcpr" letters, '-' where clear */
	uint8_t guest_reported;     /* cache figures come from an in-guest agent */
	uint32_t behind_id;         /* BEHIND valid: the top culprit (XG_F_BEHIND_ID's value) */
	const char *behind_name;    /* its name in the current sample, NULL when it is
	                               idle, Xen or a domain not in the sample */
	uint8_t victim;             /* VICTIM valid: the CPI2 rule holds (compute/suspects.h) */
	uint8_t victim_of;          /* the windows VICTIM's count is out of */
	uint64_t valid;             /* bit per enum xg_col */
	uint64_t todo;              /* columns deferred (table.defer) and not computed
	                               yet: table_fill_row computes them */
	double v[XG_COL_COUNT];
	uint8_t why[XG_COL_COUNT];  /* sample reason index or enum xg_mwhy */
};

/* Host-level figures for the summary line. */
struct xg_summary {
	double interval_s;          /* between the two samples */
	double self_cpu_ms;         /* monitor's CPU per refresh, ms; <0 = unknown */
	double cpu_pct_total;       /* sum of domain CPU% */
	double wait_pct;            /* the host's waiting share: 100 * sum of
	                               delta(waiting ns) / sum of delta(vCPU-time ns)
	                               over the domains with a scheduler split; <0 = unknown */
	unsigned ndom, nrunning, nblocked, npaused, ncrashed, ndying, nshutdown;
};

/* Sub-rows metrics_compute_rows can add under each domain. */
enum xg_rows {
	XG_ROWS_VCPUS = 1u << 0,    /* one per vCPU (`v`) */
	XG_ROWS_SOCKETS = 1u << 1,  /* one per CMT/MBM socket entry (`m`) */
};

/* One pCPU's busy share of the interval, for the meters. */
struct xg_pcpu_load {
	uint32_t id;
	bool valid;
	uint8_t why;                /* when !valid: sample reason index or enum xg_mwhy */
	double busy_pct;            /* 0 .. 100 */
};

struct xg_table {
	struct xg_row *rows;        /* domain rows first (sample order), then each
	                               domain's sub-rows together: sockets, vCPUs */
	size_t n, cap;
	size_t ndom_rows;
	unsigned row_kinds;         /* enum xg_rows computed into rows */
	const struct xg_sample *cur;
	const struct xg_sample *prev;   /* the rates' other sample, or NULL */
	struct xg_summary sum;
	/* Columns (bit per enum xg_col) the caller lets metrics leave out of
	 * the domain rows until it asks for them (table_fill_row): 0, the
	 * default, computes everything. The full-screen view computes for
	 * every domain only what its sort and history need, and the rest for
	 * the rows it shows. The summary's columns (ID, CPU%, RUN/WAIT/BLK/OFF)
	 * are always computed. */
	uint64_t defer;
	struct xg_pcpu_load *pcpu;  /* one per pCPU entry of cur, in its order */
	size_t npcpu, pcpu_cap;
	uint8_t pcpu_why;           /* why there are none (npcpu 0) */
	uint64_t dom_valid;         /* the fields (bit per enum xg_field) valid in
	                               at least one domain of cur: a host-level
	                               "no domain has counters" for one test */
	/* The reason the domain rows' VICTIM starts with (metrics writes it into
	 * every row anyway): 0 for XG_WHY_SUSP_OFF, else what compute/suspects.c
	 * said of every row last time (no counters, a pool), so that it need
	 * not walk the rows again while that holds. rows_victim_why: what the
	 * rows were built with. */
	uint8_t victim_why, rows_victim_why;
};

/* The sample fields (bit per enum xg_field) column c is computed from
 * (compute/col_fields.c): 0 for those not computed from fields (HOST,
 * NAME, ID, STATE, TREND) and for the PMU breakdown (its own families). */
uint64_t col_fields(enum xg_col c);

/* Computes out from the previous sample (NULL for the first) and cur, both
 * sorted by id. rows (enum xg_rows) adds sub-rows after the domain rows:
 * per vCPU, and per socket for domains with per-socket CMT/MBM entries
 * (L3-OCC and MEM-BW of that socket; other columns do not apply).
 * out->cur points at cur, which must outlive the use of out. */
void metrics_compute_rows(const struct xg_sample *prev, const struct xg_sample *cur, unsigned rows,
			  struct xg_table *out);
void table_free(struct xg_table *t);
/* Computes what row i of t deferred (nothing for a sub-row, or a row
 * already complete); the samples t was computed from must still be there. */
void table_fill_row(struct xg_table *t, size_t i);
/* The same for columns cols (bit per enum xg_col) of every domain row: a
 * new sort column. */
void table_fill_cols(struct xg_table *t, uint64_t cols);
/* Everything every row deferred: for a consumer that reads all rows. */
void table_fill(struct xg_table *t);
/* The text of the reason a row's column is `-`, or NULL. */
const char *row_why(const struct xg_table *t, const struct xg_row *r, enum xg_col c);
/* The text of a reason index of t (a sample reason or enum xg_mwhy), or NULL. */
const char *table_why_text(const struct xg_table *t, uint8_t why);
/* Was column c of r measured? */
static inline bool row_has(const struct xg_row *r, enum xg_col c)
{
	return (r->valid >> c) & 1;
}
/* BEHIND's culprit as text: the domain's name (raw), "idle", "xen", or
 * "dom N" for a domain not in the sample. */
const char *row_behind_name(const struct xg_row *r, char *buf, size_t n);
/* A domain row (not a vCPU or socket sub-row)? */
static inline bool row_is_dom(const struct xg_row *r)
{
	return r->vcpu < 0 && !r->sock_row;
}
/* Does column c mean anything in row r? False for the columns of a socket
 * row other than NAME, L3-OCC and MEM-BW: shown blank, not `-`. */
bool row_col_applies(const struct xg_row *r, enum xg_col c);
/* The NAME cell of a sub-row ("  vCPU 3", "  socket 1"); false (buf
 * untouched) for a domain row, whose NAME is its name. */
bool row_label(const struct xg_row *r, char *buf, size_t n);

#endif
