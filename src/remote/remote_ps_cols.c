// SPDX-License-Identifier: GPL-2.0-or-later
/* Each column as one PromQL expression of its per-interval figure, the
 * one the live view shows: a counter's change over the window divided by
 * the change of its host's own sample clock (as remote_ps_doms.c asks),
 * shares and ratios of two counters' changes, gauges as they are. The
 * report (remote_ps_report.c) puts them inside subqueries. A change that
 * went back (a restart within the window) is left out, as the live view
 * shows `-` for it. */
#include "promsrc_state.h"
#include "xgtop/model/columns.h"
#include "xgtop/model/metric_defs.h"

#include <stdio.h>

/* The selector of field f: the view's domain matchers and its label. */
static void sel(const struct xg_source *s, struct xg_strbuf *b, enum xg_field f, bool any_label)
{
	const struct xg_metric *m = &xg_field_metric[f];
	bool lab = m->label && !any_label;
	strbuf_printf(b, "%s%s{domain!=\"\"%s%s%s}", m->name, m->type == XG_MT_COUNTER ? "_total" : "",
		      s->sel_dom, lab ? "," : "", lab ? m->label : "");
}

/* (delta(counter[W]) >= 0): its change over the window, not one that went back. */
static void change(const struct xg_source *s, struct xg_strbuf *b, enum xg_field f, unsigned w)
{
	strbuf_printf(b, "(delta(");
	sel(s, b, f, false);
	strbuf_printf(b, "[%us]) >= 0)", w);
}

static void rate(const struct xg_source *s, struct xg_strbuf *b, enum xg_field f, double scale, unsigned w)
{
	strbuf_printf(b, "%.17g * ", scale);
	change(s, b, f, w);
	strbuf_printf(b, " / on(instance,job) group_left delta(xgtop_sample_monotonic_seconds{instance!=\"\"%s}[%us])",
		      s->sel_host, w);
}

static const struct {
	enum xg_col c;
	enum xg_field f;
	double scale;
} rates[] = {
	{ XG_COL_CPU_PCT, XG_F_CPU_NS, 100 }, { XG_COL_NET_RX, XG_F_NET_RX_BYTES, 1 },
	{ XG_COL_NET_TX, XG_F_NET_TX_BYTES, 1 }, { XG_COL_NET_RXP, XG_F_NET_RX_PKTS, 1 },
	{ XG_COL_NET_TXP, XG_F_NET_TX_PKTS, 1 }, { XG_COL_DISK_RD, XG_F_DISK_RD_OPS, 1 },
	{ XG_COL_DISK_WR, XG_F_DISK_WR_OPS, 1 }, { XG_COL_DISK_RDB, XG_F_DISK_RD_BYTES, 1 },
	{ XG_COL_DISK_WRB, XG_F_DISK_WR_BYTES, 1 }, { XG_COL_LLC_REF, XG_F_LLC_REF, 1 },
	{ XG_COL_LLC_MISS, XG_F_LLC_MISS, 1 }, { XG_COL_MEM_BW, XG_F_MBM_TOTAL, 1 },
	{ XG_COL_EMU, XG_F_EMU_NS, 100 }, { XG_COL_EXITS, XG_F_VM_EXITS, 1 },
	{ XG_COL_POLL, XG_F_HALT_POLL_NS, 100 }, { XG_COL_CPU_PSI, XG_F_PSI_CPU_SOME, 100 },
	{ XG_COL_MEM_PSI, XG_F_PSI_MEM_SOME, 100 }, { XG_COL_IO_PSI, XG_F_PSI_IO_SOME, 100 },
	{ XG_COL_CPU_PSI_FULL, XG_F_PSI_CPU_FULL, 100 }, { XG_COL_MEM_PSI_FULL, XG_F_PSI_MEM_FULL, 100 },
	{ XG_COL_IO_PSI_FULL, XG_F_PSI_IO_FULL, 100 },
};

/* Published in seconds, shown in the column's unit. */
static const struct {
	enum xg_col c;
	enum xg_field f;
	double scale;
} gauges[] = {
	{ XG_COL_VCPU, XG_F_VCPUS, 1 }, { XG_COL_MEM, XG_F_MEM, 1 }, { XG_COL_L3_OCC, XG_F_L3_OCC, 1 },
	{ XG_COL_SWAP, XG_F_SWAP, 1 }, { XG_COL_WAIT_P50, XG_F_WAIT_P50_NS, 1000 },
	{ XG_COL_WAIT_P99, XG_F_WAIT_P99_NS, 1000 },
};

static void share(const struct xg_source *s, struct xg_strbuf *b, enum xg_field f, unsigned w)
{
	strbuf_printf(b, "100 * ");
	change(s, b, f, w);
	strbuf_printf(b, " / ignoring(state) (sum without(state) (delta(");
	sel(s, b, f, true);
	strbuf_printf(b, "[%us])) > 0)", w);
}

bool rm_ps_col_expr(const struct xg_source *s, int col, unsigned w, struct xg_strbuf *b)
{
	enum xg_col c = (enum xg_col)col;
	for (size_t i = 0; i < XG_ARRAY_LEN(rates); i++)
		if (rates[i].c == c) {
			rate(s, b, rates[i].f, rates[i].scale, w);
			return true;
		}
	for (size_t i = 0; i < XG_ARRAY_LEN(gauges); i++)
		if (gauges[i].c == c) {
			strbuf_printf(b, "%.17g * ", gauges[i].scale);
			sel(s, b, gauges[i].f, false);
			return true;
		}
	switch (c) {
	case XG_COL_CPU_S:
		sel(s, b, XG_F_CPU_NS, false);
		return true;
	case XG_COL_MAXMEM:   /* no limit (+Inf) is `-` */
		sel(s, b, XG_F_MAXMEM, false);
		strbuf_printf(b, " < +Inf");
		return true;
	case XG_COL_MEM_PCT:   /* a host of no memory (+Inf) is `-` */
		strbuf_printf(b, "(100 * ");
		sel(s, b, XG_F_MEM, false);
		strbuf_printf(b, " / on(instance,job) group_left xgtop_host_memory_bytes{instance!=\"\"%s}) < +Inf",
			      s->sel_host);
		return true;
	case XG_COL_RUN: share(s, b, XG_F_RUN_NS, w); return true;
	case XG_COL_WAIT: share(s, b, XG_F_WAIT_NS, w); return true;
	case XG_COL_BLK: share(s, b, XG_F_BLK_NS, w); return true;
	case XG_COL_OFF: share(s, b, XG_F_OFF_NS, w); return true;
	case XG_COL_HIT:
		strbuf_printf(b, "100 * (1 - ");
		change(s, b, XG_F_LLC_MISS, w);
		strbuf_printf(b, " / (");
		change(s, b, XG_F_LLC_REF, w);
		strbuf_printf(b, " > 0))");
		return true;
	case XG_COL_MPKI:
		strbuf_printf(b, "1000 * ");
		change(s, b, XG_F_LLC_MISS, w);
		strbuf_printf(b, " / (");
		change(s, b, XG_F_INSTR, w);
		strbuf_printf(b, " > 0)");
		return true;
	default:
		return false;
	}
}
