// SPDX-License-Identifier: GPL-2.0-or-later
/* The triage line (see triage.h): each part looks for the worst domain of
 * its figure, says it when it passes its rule's warn level, and keeps the
 * numbers for --explain either way. */
#include "xgtop/view/triage.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define NAME_W 32
/* Where the source sent every figure of the rows on screen only (the
 * Prometheus source's full-screen view): a part made from a column the
 * other rows lack judges those rows, and says so. */
#define PARTIAL_WHY "of the rows on screen and half a screen either side only: the source sends the " \
	"other domains' sort column alone; sorted by this column, or in --explain and batch mode, " \
	"it judges every domain"

/* Whether column c is of the rows on screen only (see PARTIAL_WHY). */
static bool partial(const struct xg_table *t, enum xg_col c)
{
	const struct xg_totals *x = &t->cur->totals;
	return x->rows_partial && (col_fields(c) & ~x->rows_fields);
}

/* A name safe to print, cut to NAME_W bytes of its escaped form. */
static const char *short_name(const char *raw, char *buf, size_t n)
{
	xg_escape_name(buf, n, raw ? raw : "");
	if (strlen(buf) > NAME_W)
		buf[NAME_W] = 0;
	return buf;
}

/* The domain row with the largest value of c, or -1. */
static long top_row(const struct xg_table *t, enum xg_col c)
{
	long best = -1;
	for (size_t i = 0; i < t->ndom_rows; i++) {
		const struct xg_row *r = &t->rows[i];
		if (row_has(r, c) && isfinite(r->v[c]) && (best < 0 || r->v[c] > t->rows[best].v[c]))
			best = (long)i;
	}
	return best;
}

static bool passes(const struct xg_view *v, enum xg_rule rule, double x)
{
	return threshold_level(&v->thr, rule, x) != XG_LEVEL_OK;
}

static void rule_text(const struct xg_view *v, enum xg_rule rule, char *buf, size_t n)
{
	if (v->thr.off[rule])
		snprintf(buf, n, "rule %s: off", xg_rules[rule].key);
	else
		snprintf(buf, n, "rule %s: warn %g", xg_rules[rule].key, v->thr.warn[rule]);
}

static void part_cpu(struct xg_triage *tr, struct xg_table *t, const struct xg_view *v)
{
	char rule[64], name[4 * NAME_W + 8], demand[128] = "", behind[160] = "";
	rule_text(v, XG_RULE_WAIT, rule, sizeof(rule));
	long top = top_row(t, XG_COL_WAIT);
	if (top < 0) {
		snprintf(tr->why[XG_TRI_CPU], sizeof(tr->why[0]), "no WAIT%% figures (no scheduler split, or one sample)");
		return;
	}
	table_fill_row(t, (size_t)top);
	const struct xg_row *r = &t->rows[top];
	const struct xg_host *h = &t->cur->host;
	double want = 0;
	size_t n = 0;
	for (size_t i = 0; i < t->ndom_rows; i++) {
		const struct xg_row *x = &t->rows[i];
		const struct xg_dom *d = &t->cur->dom[x->dom_index];
		if (!row_has(x, XG_COL_RUN) || !row_has(x, XG_COL_WAIT) || !dom_has(d, XG_F_VCPUS))
			continue;
		want += (x->v[XG_COL_RUN] + x->v[XG_COL_WAIT]) / 100 * (double)d->v[XG_F_VCPUS];
		n++;
	}
	/* Where the rows lack those figures, the source's sum over every
	 * domain: the same, as each domain's runstates add up to VCPU x
	 * the interval. */
	const struct xg_totals *tot = &t->cur->totals;
	bool own = tot->busy && tot->rows_partial &&
		   (partial(t, XG_COL_RUN) || partial(t, XG_COL_WAIT) || partial(t, XG_COL_VCPU));
	char sum[96];
	if (own) {
		want = tot->busy_vcpus;
		snprintf(sum, sizeof(sum), "every domain's running + runnable seconds per second, summed by the source");
	} else {
		snprintf(sum, sizeof(sum), "sum over %zu domains of (RUN%% + WAIT%%) / 100 x VCPU", n);
	}
	if ((n || own) && host_has(h, XG_H_PCPUS))
		snprintf(demand, sizeof(demand), "%.1f runnable vCPUs on %u pCPUs; ", want, (unsigned)h->pcpus);
	if (row_has(r, XG_COL_BEHIND)) {
		char id[16], who[4 * NAME_W + 8];
		snprintf(behind, sizeof(behind), " (%.0f %% behind %s)", r->v[XG_COL_BEHIND_PCT],
			 short_name(row_behind_name(r, id, sizeof(id)), who, sizeof(who)));
	}
	short_name(r->name, name, sizeof(name));
	char pcpus[16] = "unknown", share[32] = "unknown";
	if (host_has(h, XG_H_PCPUS))
		snprintf(pcpus, sizeof(pcpus), "%u", (unsigned)h->pcpus);
	if (t->sum.wait_pct >= 0)
		snprintf(share, sizeof(share), "%.1f %%", t->sum.wait_pct);
	bool part = partial(t, XG_COL_WAIT);
	int o = snprintf(tr->why[XG_TRI_CPU], sizeof(tr->why[0]),
			 "the most waiting domain%s: %.64s, WAIT%% %.1f (%.64s)%.80s; runnable vCPUs = %s = %.1f, "
			 "pCPUs %s; host waiting share %s", part ? " on screen" : "", name, r->v[XG_COL_WAIT], rule,
			 behind, sum, want, pcpus, share);
	if (part && o > 0 && (size_t)o < sizeof(tr->why[0]))
		snprintf(tr->why[XG_TRI_CPU] + o, sizeof(tr->why[0]) - (size_t)o, "; WAIT%% %s", PARTIAL_WHY);
	if (!passes(v, XG_RULE_WAIT, r->v[XG_COL_WAIT]))
		return;
	tr->hit[XG_TRI_CPU] = true;
	snprintf(tr->text[XG_TRI_CPU], sizeof(tr->text[0]), "CPU%s: %s%.40s waits %.0f %%%.60s",
		 part ? " on screen" : "", demand, name, r->v[XG_COL_WAIT], behind);
}

static void part_psi(struct xg_triage *tr, struct xg_table *t, const struct xg_view *v,
		     enum xg_triage_part part, enum xg_col c, const char *what)
{
	char rule[64], name[4 * NAME_W + 8];
	if (!v->show_psi) {
		snprintf(tr->why[part], sizeof(tr->why[0]), "no %s figures: the source reads no pressure (Linux cgroups only)",
			 xg_columns[c].header);
		return;
	}
	table_fill_cols(t, 1ull << c);
	rule_text(v, XG_RULE_PSI, rule, sizeof(rule));
	long top = top_row(t, c);
	if (top < 0) {
		snprintf(tr->why[part], sizeof(tr->why[0]), "no domain has a %s figure this interval", xg_columns[c].header);
		return;
	}
	const struct xg_row *r = &t->rows[top];
	short_name(r->name, name, sizeof(name));
	bool some = partial(t, c);
	snprintf(tr->why[part], sizeof(tr->why[0]), "the highest %s: %s, %.1f %% (%s)%s%s%s", xg_columns[c].header,
		 name, r->v[c], rule, some ? "; " : "", some ? xg_columns[c].header : "", some ? " " PARTIAL_WHY : "");
	if (!passes(v, XG_RULE_PSI, r->v[c]))
		return;
	tr->hit[part] = true;
	snprintf(tr->text[part], sizeof(tr->text[0]), "%s pressure%s: %s %.0f %%", what, some ? " on screen" : "",
		 name, r->v[c]);
}

static void part_cache(struct xg_triage *tr, const struct xg_table *t, const struct xg_suspects *s)
{
	char rule[160], name[4 * NAME_W + 8], sname[4 * NAME_W + 8];
	char *w = tr->why[XG_TRI_CACHE];
	size_t wn = sizeof(tr->why[0]);
	if (!s || s->cur != t->cur) {
		snprintf(w, wn, "not judged here (the full-screen view and xgtop report --contention judge cache victims)");
		return;
	}
	susp_cfg_format(&s->cfg, rule, sizeof(rule));
	long best = -1;
	size_t learning = s->nlearning, judged = s->njudged;
	for (size_t v = 0; v < s->nvictims; v++) {   /* the victims only: few */
		size_t i = s->victims[v];
		const struct xg_susp_dom *d = &s->res[i];
		if (best < 0 || d->hits > s->res[best].hits ||
		    (d->hits == s->res[best].hits && d->now / d->mean > s->res[best].now / s->res[best].mean))
			best = (long)i;
	}
	if (t->cur->npeer) {
		snprintf(w, wn, "not judged: a pool's hosts share no cache, so no domain has neighbours to judge");
		return;
	}
	if (best < 0) {
		snprintf(w, wn, "no victim among %zu judged domains (%zu still learning their baseline, which takes "
			 "%u windows of %u refresh%s; rule %s)", judged, learning, XG_SUSP_MIN_BASE + s->cfg.recent,
			 s->cfg.window, s->cfg.window == 1 ? "" : "es", rule);
		return;
	}
	const struct xg_susp_dom *d = suspects_of(s, (size_t)best);   /* ranks its suspects */
	short_name(t->cur->dom[best].name, name, sizeof(name));
	int o = snprintf(w, wn, "%zu victim%s of %zu judged domains (rule %s); %s: %s %.3f now, threshold %.3f "
			 "(baseline mean %.3f sd %.3f), above it in %d of the last %u windows", s->nvictims,
			 s->nvictims == 1 ? "" : "s", judged, rule, name, susp_metric_name(d->metric), d->now, d->thr,
			 d->mean, d->sd, d->hits, s->cfg.recent);
	const struct xg_suspect *x = d->nsusp && d->susp[0].flagged ? &d->susp[0] : NULL;
	if (x) {
		short_name(t->cur->dom[x->dom].name, sname, sizeof(sname));
		if (o > 0 && (size_t)o < wn)
			snprintf(w + o, wn - (size_t)o, "; top suspect %s: r=%.2f of its %s with the CPI, high in %u of "
				 "those windows%s", sname, x->r, susp_press_name(d->press ? d->press : XG_SUSP_MISS),
				 x->together, x->sock_unknown ? " (socket unknown)" : "");
		snprintf(tr->text[XG_TRI_CACHE], sizeof(tr->text[0]), "cache: %.40s victim, suspect %.40s r=%.2f", name, sname,
			 x->r);
	} else {
		if (o > 0 && (size_t)o < wn)
			snprintf(w + o, wn - (size_t)o, "; no neighbour passes r >= %g and %u windows", s->cfg.min_r,
				 s->cfg.hits);
		snprintf(tr->text[XG_TRI_CACHE], sizeof(tr->text[0]), "cache: %s victim, no clear suspect", name);
	}
	if (s->nvictims > 1) {
		size_t l = strlen(tr->text[XG_TRI_CACHE]);
		snprintf(tr->text[XG_TRI_CACHE] + l, sizeof(tr->text[0]) - l, " (+%zu more)", s->nvictims - 1);
	}
	tr->hit[XG_TRI_CACHE] = true;
}

void triage_compute(struct xg_triage *tr, struct xg_table *t, const struct xg_view *v,
		    const struct xg_suspects *s)
{
	memset(tr, 0, sizeof(*tr));
	if (!t->cur)
		return;
	part_cpu(tr, t, v);
	part_psi(tr, t, v, XG_TRI_MEM, XG_COL_MEM_PSI, "memory");
	part_psi(tr, t, v, XG_TRI_IO, XG_COL_IO_PSI, "io");
	part_cache(tr, t, s);
	size_t o = 0;
	for (int p = 0; p < XG_TRI_COUNT; p++) {
		if (!tr->hit[p])
			continue;
		int k = snprintf(tr->line + o, sizeof(tr->line) - o, "%s%s", o ? "; " : "", tr->text[p]);
		if (k < 0 || (size_t)k >= sizeof(tr->line) - o)
			break;
		o += (size_t)k;
	}
	bool some = partial(t, XG_COL_WAIT) ||
		    (v->show_psi && (partial(t, XG_COL_MEM_PSI) || partial(t, XG_COL_IO_PSI)));
	if (!o)
		snprintf(tr->line, sizeof(tr->line), "nothing stands out%s", some ? " on screen" : "");
}
