// SPDX-License-Identifier: GPL-2.0-or-later
/* The `prometheus` source's graphs: one range query (/api/v1/query_range)
 * for the fields behind the detail pane's graphs of one domain, over the
 * span the view zooms to, ending at the time the figures are of, with a
 * step that gives one point per column of the pane. Each counter's point
 * is its change over max(step, the rate window) divided by its host's
 * clock's change, as the table's figures are; the columns are then made
 * from the fields as compute/metrics makes them from two samples. */
#include "promsrc_state.h"
#include "xgtop/model/metric_defs.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The fields the graphs are made of. */
static const enum xg_field fields[] = {
	XG_F_CPU_NS, XG_F_RUN_NS, XG_F_WAIT_NS, XG_F_BLK_NS, XG_F_OFF_NS, XG_F_MEM,
	XG_F_NET_RX_BYTES, XG_F_NET_TX_BYTES, XG_F_DISK_RD_BYTES, XG_F_DISK_WR_BYTES,
	XG_F_LLC_REF, XG_F_LLC_MISS, XG_F_MBM_TOTAL,
};
#define NF XG_ARRAY_LEN(fields)

/* A column that is one field times a factor (a rate per second, or a
 * gauge as it is). */
static const struct {
	enum xg_col c;
	enum xg_field f;
	double k;
} plain_cols[] = {
	{ XG_COL_CPU_PCT, XG_F_CPU_NS, 100 }, { XG_COL_MEM, XG_F_MEM, 1 },
	{ XG_COL_NET_RX, XG_F_NET_RX_BYTES, 1 }, { XG_COL_NET_TX, XG_F_NET_TX_BYTES, 1 },
	{ XG_COL_DISK_RDB, XG_F_DISK_RD_BYTES, 1 }, { XG_COL_DISK_WRB, XG_F_DISK_WR_BYTES, 1 },
	{ XG_COL_LLC_MISS, XG_F_LLC_MISS, 1 }, { XG_COL_MEM_BW, XG_F_MBM_TOTAL, 1 },
};

struct range_ctx {
	const struct xg_range *r;
	double *v;                    /* v[slot * n + i], NAN where none */
};

static int slot_of(enum xg_field f)
{
	for (size_t i = 0; i < NF; i++)
		if (fields[i] == f)
			return (int)i;
	return -1;
}

static int on_point(void *ctx, const struct rm_qpoint *p, struct xg_err *err)
{
	(void)err;
	struct range_ctx *c = ctx;
	const char *f = rm_qlabel(p, "xgtop_f");
	char *end;
	unsigned long k = f ? strtoul(f, &end, 10) : NF;
	if (!f || *end || k >= NF || !isfinite(p->v) || p->v < 0)
		return 0;   /* a counter that went back in the window: no point */
	double i = round((p->t - c->r->from) / c->r->step);
	if (i >= 0 && i < (double)c->r->n)
		c->v[k * c->r->n + (size_t)i] = p->v;
	return 0;
}

/* The query: every field of the domain, each labelled with its slot. */
static void range_query(const struct xg_source *s, const struct ps_dom *d, unsigned w, struct xg_strbuf *b)
{
	char inst[4 * XG_PEER_NAME_MAX], dom[4 * sizeof(d->label)];
	rm_ps_promql_string(inst, sizeof(inst), s->h[d->host].name);
	rm_ps_promql_string(dom, sizeof(dom), d->label);
	for (size_t i = 0; i < NF; i++) {
		const struct xg_metric *m = &xg_field_metric[fields[i]];
		char sel[sizeof(inst) + sizeof(dom) + 128];
		snprintf(sel, sizeof(sel), "{instance=\"%s\",domain=\"%s\"%s%s}", inst, dom, m->label ? "," : "",
			 m->label ? m->label : "");
		strbuf_printf(b, "%slabel_replace(", i ? " or " : "");
		if (m->type == XG_MT_COUNTER)
			strbuf_printf(b, "delta(%s_total%s[%us]) / on(instance,job) group_left "
				      "delta(xgtop_sample_monotonic_seconds{instance=\"%s\"}[%us])", m->name, sel, w,
				      inst, w);
		else
			strbuf_printf(b, "%s%s", m->name, sel);
		strbuf_printf(b, ",\"xgtop_f\",\"%zu\",\"\",\"\")", i);
	}
}

static float col_value(enum xg_col c, const double *v, size_t n, size_t i)
{
#define F(f) v[(size_t)slot_of(f) * n + i]
	for (size_t k = 0; k < XG_ARRAY_LEN(plain_cols); k++)
		if (plain_cols[k].c == c)
			return (float)(F(plain_cols[k].f) * plain_cols[k].k);
	double run = F(XG_F_RUN_NS), wait = F(XG_F_WAIT_NS), blk = F(XG_F_BLK_NS), off = F(XG_F_OFF_NS);
	double total = run + wait + blk + off;   /* NAN when one is */
	double ref = F(XG_F_LLC_REF), miss = F(XG_F_LLC_MISS);
#undef F
	switch (c) {
	case XG_COL_RUN: return total > 0 ? (float)(100 * run / total) : NAN;
	case XG_COL_WAIT: return total > 0 ? (float)(100 * wait / total) : NAN;
	case XG_COL_BLK: return total > 0 ? (float)(100 * blk / total) : NAN;
	case XG_COL_HIT: return ref > 0 ? (float)(100 * (1 - miss / ref)) : NAN;
	default: return NAN;   /* not a graph the server's fields make */
	}
}

static struct ps_dom *dom_by_key(struct xg_source *s, struct xg_dom_key k)
{
	for (size_t i = 0; i < s->nd; i++) {
		struct ps_dom *d = &s->d[i];
		if (d->host == k.host && (d->has_domid ? d->domid : d->id) == k.id && d->label[0] && d->host < s->nh)
			return d;
	}
	return NULL;
}

int rm_ps_range(struct xg_source *s, struct xg_range *r, float *out, struct xg_err *err)
{
	size_t n = r->n < 2 ? 2 : r->n;
	r->n = n;
	for (size_t i = 0; i < n * r->ncols; i++)
		out[i] = NAN;
	struct ps_dom *d = dom_by_key(s, r->key);
	if (!d)
		return xg_fail(err, "%s", "the server holds no such domain now");
	/* Steps of whole seconds, points on multiples of the step (as
	 * VictoriaMetrics aligns them), the last at the figures' time. */
	double to = s->at > 0 ? s->at : rm_ps_figures_time(s);
	if (!(to > 0))
		to = (double)xg_now_real_ns() / 1e9;
	double step = ceil(r->span / (double)(n - 1));
	step = step < 1 ? 1 : step;
	r->step = step;
	r->from = floor(to / step) * step - (double)(n - 1) * step;
	unsigned w = (unsigned)(step > s->window ? step : s->window);
	struct xg_strbuf b = { 0 };
	range_query(s, d, w, &b);
	char params[128];
	snprintf(params, sizeof(params), "&start=%.0f&end=%.0f&step=%.0f", r->from,
		 r->from + (double)(n - 1) * step, step);
	struct range_ctx c = { .r = r, .v = xg_calloc(NF * n, sizeof(double)) };
	for (size_t i = 0; i < NF * n; i++)
		c.v[i] = NAN;
	int rc = rm_ps_ask(s, "query_range", params, b.p, 0, on_point, &c, err);
	strbuf_free(&b);
	for (size_t k = 0; !rc && k < r->ncols; k++)
		for (size_t i = 0; i < n; i++)
			out[k * n + i] = col_value(r->cols[k], c.v, n, i);
	free(c.v);
	return rc;
}
