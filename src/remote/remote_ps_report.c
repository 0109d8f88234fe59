// SPDX-License-Identifier: GPL-2.0-or-later
/* `xgtop report --source prometheus URL`: a period's mean, 95th
 * percentile and maximum of every column of every domain, computed by the
 * server. Each column's per-interval figure (remote_ps_cols.c) goes into a
 * subquery over the period at the interval's step, and avg_over_time,
 * quantile_over_time(0.95), max_over_time and count_over_time summarise
 * it: four instant queries at the period's end, one answer series per
 * domain and column, whatever the period's length. */
#include "xgtop/remote/promsrc.h"
#include "promsrc_state.h"
#include "xgtop/model/columns.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Queries may scan days of samples: far longer than a refresh's. */
#define REP_LIMIT_S 120

enum { ST_N, ST_MEAN, ST_P95, ST_MAX, ST_COUNT };
static const char *const stat_fn[ST_COUNT] = {
	"count_over_time(", "avg_over_time(", "quantile_over_time(0.95, ", "max_over_time(",
};

struct rep_fig {
	double v[ST_COUNT][XG_COL_COUNT];
	uint64_t got[ST_COUNT];       /* bit c: v[.][c] came */
};

struct rep_ctx {
	struct xg_source *s;
	struct rep_fig *fig;          /* by domain index (s->d) */
	size_t nfig;
	int stat;
};

/* The figures of the series' domain (*dom: its entry); NULL with *skip
 * for a series without the labels, NULL with err past the bounds. */
static struct rep_fig *fig_of(struct rep_ctx *x, const struct rm_qpoint *p, struct xg_err *err, bool *skip,
			      struct ps_dom **dom)
{
	const char *inst = rm_qlabel(p, "instance"), *name = rm_qlabel(p, "domain");
	*skip = !inst || !name;
	if (*skip)
		return NULL;
	struct ps_host *h = rm_ps_host_of(x->s, inst);
	if (!h) {
		xg_fail(err, "%s", "more hosts than a report holds");
		return NULL;
	}
	char raw[XG_NAME_MAX];
	rm_unescape_name(raw, sizeof(raw), name);
	struct ps_dom *d = rm_ps_dom_of(x->s, (uint16_t)(h - x->s->h), raw);
	if (!d) {
		xg_fail(err, "more than %d domains", XG_PS_DOMS_MAX);
		return NULL;
	}
	d->seen = true;
	*dom = d;
	size_t i = (size_t)(d - x->s->d);
	if (i >= x->nfig) {
		size_t n = x->s->dcap;
		x->fig = xg_realloc(x->fig, n * sizeof(*x->fig));
		memset(x->fig + x->nfig, 0, (n - x->nfig) * sizeof(*x->fig));
		x->nfig = n;
	}
	return &x->fig[i];
}

static int on_figure(void *ctx, const struct rm_qpoint *p, struct xg_err *err)
{
	struct rep_ctx *x = ctx;
	const char *col = rm_qlabel(p, "xgtop_c");
	char *end;
	unsigned long c = col ? strtoul(col, &end, 10) : XG_COL_COUNT;
	if (!col || *end || c >= XG_COL_COUNT || !isfinite(p->v))
		return 0;
	bool skip;
	struct ps_dom *d;
	struct rep_fig *f = fig_of(x, p, err, &skip, &d);
	if (!f)
		return skip ? 0 : -1;
	f->v[x->stat][c] = p->v;
	f->got[x->stat] |= 1ull << c;
	return 0;
}

/* Each domain's domid (the last it had in the period). */
static int on_info(void *ctx, const struct rm_qpoint *p, struct xg_err *err)
{
	struct rep_ctx *x = ctx;
	bool skip;
	struct ps_dom *d;
	if (!fig_of(x, p, err, &skip, &d))
		return skip ? 0 : -1;
	rm_ps_take_domid(d, p);
	return 0;
}

/* One statistic of every column: label_replace(STAT((E)[R:S]), "xgtop_c", "C") or ... */
static void stat_query(const struct xg_source *s, struct xg_strbuf *b, int st, unsigned range, unsigned w)
{
	const char *lead = "";
	for (int c = 0; c < XG_COL_COUNT; c++) {
		size_t at = b->len;
		strbuf_printf(b, "%slabel_replace(%s(", lead, stat_fn[st]);
		if (!rm_ps_col_expr(s, c, w, b)) {
			b->len = at;
			b->p[at] = 0;
			continue;
		}
		strbuf_printf(b, ")[%us:%us]),\"xgtop_c\",\"%d\",\"\",\"\")", range, w, c);
		lead = " or ";
	}
}

/* The interval: --step, but at least three scrapes of the slowest host
 * at the period's end, so that each window spans two samples. */
static int settle_step(struct xg_source *s, struct rm_ps_period *per, const char *at, struct xg_err *err)
{
	struct xg_strbuf b = { 0 };
	rm_ps_host_query(s, &b);
	int rc = rm_ps_ask(s, "query", at, b.p, REP_LIMIT_S, rm_ps_on_host, s, err);
	strbuf_free(&b);
	if (!rc && !s->nh)
		return xg_fail(err, "the server holds no xgtop exporter's figures at the period's end (--to)%s: "
			       "does it keep that time, and scrape the exporters?",
			       s->sel_host[0] ? " that --host-match selects" : "");
	if (!rc)
		rc = rm_ps_hosts_settle(s, err);
	if (rc)
		return -1;
	per->used_step = s->window;
	return 0;
}

static void hand_over(struct xg_source *s, struct rep_ctx *x, rm_ps_figure_fn fn, void *ctx)
{
	uint64_t asked = 0;
	struct xg_strbuf probe = { 0 };
	for (int c = 0; c < XG_COL_COUNT; c++)
		asked |= (uint64_t)rm_ps_col_expr(s, c, 2, &probe) << c;
	strbuf_free(&probe);
	for (size_t i = 0; i < s->nd && i < x->nfig; i++) {
		const struct ps_dom *d = &s->d[i];
		const struct rep_fig *f = &x->fig[i];
		for (int c = 0; c < XG_COL_COUNT; c++) {
			struct rm_ps_figure o = {
				.host = s->h[d->host].name, .name = d->name, .col = c,
				.id = d->has_domid ? d->domid : d->id,
				.n = f->got[ST_N] >> c & 1 ? f->v[ST_N][c] : 0,
				.mean = f->got[ST_MEAN] >> c & 1 ? f->v[ST_MEAN][c] : NAN,
				.p95 = f->got[ST_P95] >> c & 1 ? f->v[ST_P95][c] : NAN,
				.max = f->got[ST_MAX] >> c & 1 ? f->v[ST_MAX][c] : NAN,
			};
			if (asked >> c & 1)
				fn(ctx, &o);
		}
	}
}

int rm_ps_report(const struct xg_config *cfg, struct rm_ps_period *per, rm_ps_figure_fn fn, void *ctx,
		 struct xg_err *err)
{
	struct xg_source *s = NULL;
	if (source_prometheus_ops.open(&s, cfg, err) < 0)
		return -1;
	struct rep_ctx x = { .s = s };
	struct xg_strbuf b = { 0 };
	char at[48];   /* every query is an instant one at the period's end */
	snprintf(at, sizeof(at), "&time=%.3f", per->to);
	int rc = settle_step(s, per, at, err);
	unsigned w = s->window;
	double span = per->to - per->from;
	unsigned range = (unsigned)ceil(span);
	if (!rc && span < w)
		rc = xg_fail(err, "the period (%.0f s) is shorter than one interval (%u s): give an earlier --from", span,
			     w);
	if (!rc) {
		strbuf_printf(&b, "last_over_time(xgtop_domain_info{domain!=\"\"%s}[%us])", s->sel_dom, range);
		rc = rm_ps_ask(s, "query", at, b.p, REP_LIMIT_S, on_info, &x, err);
	}
	for (x.stat = 0; !rc && x.stat < ST_COUNT; x.stat++) {
		b.len = 0;
		b.p[0] = 0;
		stat_query(s, &b, x.stat, range, w);
		rc = rm_ps_ask(s, "query", at, b.p, REP_LIMIT_S, on_figure, &x, err);
	}
	if (!rc && !s->nd)
		rc = xg_fail(err, "%s", "the server holds no domain's figures in that period: check --from, --to, "
			     "--filter and --host-match");
	if (!rc)
		hand_over(s, &x, fn, ctx);
	strbuf_free(&b);
	free(x.fig);
	source_prometheus_ops.close(s);
	return rc;
}
