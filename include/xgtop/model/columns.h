/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The column table: the one place that says what each column is, how it is
 * computed (help text), shown, sorted and named in CSV/JSON/Prometheus. */
#ifndef XGTOP_COLUMNS_H
#define XGTOP_COLUMNS_H

#include "xgtop/core/common.h"
#include "xgtop/core/unit.h"
#include "xgtop/model/metric_defs.h"

enum xg_col {
	XG_COL_HOST,        /* pool view only */
	XG_COL_ID, XG_COL_NAME, XG_COL_STATE,
	XG_COL_CPU_PCT, XG_COL_CPU_S, XG_COL_VCPU,
	XG_COL_MEM, XG_COL_MEM_PCT, XG_COL_MAXMEM,
	XG_COL_NET_RX, XG_COL_NET_TX, XG_COL_NET_RXP, XG_COL_NET_TXP,
	XG_COL_DISK_RD, XG_COL_DISK_WR, XG_COL_DISK_RDB, XG_COL_DISK_WRB,
	XG_COL_RUN, XG_COL_WAIT, XG_COL_BLK, XG_COL_OFF,
	XG_COL_LLC_REF, XG_COL_LLC_MISS, XG_COL_HIT, XG_COL_MPKI,
	XG_COL_L3_OCC, XG_COL_MEM_BW,
	/* cache breakdown (shown instead of the sums with `m`/--nosumcache) */
	XG_COL_MISS_GU, XG_COL_MISS_GK, XG_COL_MISS_H,
	XG_COL_HIT_GU, XG_COL_HIT_GK, XG_COL_HIT_H,
	/* virtual machines on a KVM host */
	XG_COL_EMU, XG_COL_EXITS, XG_COL_POLL, XG_COL_SWAP,
	/* Linux pressure stall information: some, then full */
	XG_COL_CPU_PSI, XG_COL_MEM_PSI, XG_COL_IO_PSI,
	XG_COL_CPU_PSI_FULL, XG_COL_MEM_PSI_FULL, XG_COL_IO_PSI_FULL,
	/* who the waits were behind, and their lengths (Xen live trace) */
	XG_COL_BEHIND, XG_COL_BEHIND_PCT, XG_COL_WAIT_P50, XG_COL_WAIT_P99,
	/* the CPI2 rule over the last windows (compute/suspects.h) */
	XG_COL_VICTIM,
	/* the full-screen view's sparkline of the sort column (no value) */
	XG_COL_TREND,
	XG_COL_COUNT
};

/* Column groups, toggled from the keyboard and options. */
enum xg_colgroup {
	XG_GRP_BASE,
	XG_GRP_NET,      /* n, --nonet */
	XG_GRP_DISK,     /* d, --nodisk */
	XG_GRP_SCHED,    /* w, --notrace */
	XG_GRP_CACHE,    /* c, --nocache; summed figures */
	XG_GRP_CACHE_BD, /* c + m / --nosumcache: by where the events happened */
	XG_GRP_CMT,      /* c: L3 occupancy and memory bandwidth, in both modes */
	XG_GRP_HOST,     /* shown when the rows come from several hosts (pool view) */
	XG_GRP_VM,       /* shown when the domains are VMs on a KVM host */
	XG_GRP_PSI,      /* shown when the source reads pressure (Linux) */
	XG_GRP_WAITS,    /* w, and shown when the source attributes waits (Xen trace) */
	XG_GRP_CONTENTION, /* the full-screen view: cache victims (not in batch output) */
	XG_GRP_TREND,    /* g: drawn from the history by the full-screen view */
};

struct xg_coldef {
	enum xg_col id;
	const char *header;     /* TUI / text header, e.g. "CPU%" */
	const char *key;        /* stable name for --sort, CSV, JSON: "cpu_pct" */
	const struct xg_metric *metric; /* what the exporter publishes for it: the sample
	                           field (counter or gauge) the figure is computed from */
	int width;              /* TUI/text width */
	enum xg_unit unit;
	enum xg_colgroup group;
	int priority;           /* narrow terminals drop the highest number first */
	bool descending;        /* natural sort order: numbers biggest first */
	const char *help;       /* what it is and its formula, with unit */
};

extern const struct xg_coldef xg_columns[XG_COL_COUNT];

/* Does column c hold a figure? Not TREND, the full-screen view's drawing:
 * outputs, sorting and reports leave it out. */
static inline bool col_has_value(enum xg_col c)
{
	return xg_columns[c].group != XG_GRP_TREND;
}

/* Looks up a column by key ("cpu_pct"), header ("CPU%") or a short alias
 * ("cpu", "mem", "name" ...), case-insensitively. Returns -1 if none. */
int col_lookup(const char *name);

/* The unit and group names every listing of the columns prints
 * ("bytes/s", "1/s"; "net", "cache-breakdown"). */
const char *col_unit_name(enum xg_unit u);
const char *col_group_name(enum xg_colgroup g);

#endif
