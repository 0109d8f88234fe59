// SPDX-License-Identifier: GPL-2.0-or-later
/* Gathering the report: each interval's domain rows go to their domain's
 * entry (found by identity, as metrics tells one domain from the next
 * user of its id), column by column: count, time-weighted sum, maximum,
 * and the largest values for the percentile. */
#include "report_data.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool rep_col_reported(const struct xg_report *r, enum xg_col c)
{
	if (xg_columns[c].group == XG_GRP_VM && !r->vms)
		return false;
	if (xg_columns[c].group == XG_GRP_PSI && !r->psi)
		return false;
	if (r->put_cols && !(r->put_cols >> c & 1))
		return false;
	return c != XG_COL_ID && xg_columns[c].unit != XG_UNIT_TEXT && col_has_value(c) &&
	       xg_columns[c].group != XG_GRP_CONTENTION;   /* judged by the full-screen view, not per interval */
}

struct xg_report *report_new(uint64_t max_intervals)
{
	struct xg_report *r = xg_calloc(1, sizeof(*r));
	r->keep = stats_keep(max_intervals, XG_REPORT_PCT);
	r->nwhy = 1;
	return r;
}

void report_free(struct xg_report *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->ndom; i++) {
		for (int c = 0; c < XG_COL_COUNT; c++)
			topk_free(&r->dom[i]->col[c].top);
		free(r->dom[i]);
	}
	for (size_t i = 1; i < r->nwhy; i++)
		free(r->why[i]);
	for (size_t i = 0; i < r->nhosts; i++)
		free(r->hosts[i]);
	free(r->hosts);
	free(r->dom);
	free(r->live);
	free(r->next);
	free(r);
}

static bool same_dom(const struct rep_dom *a, const struct xg_dom *d)
{
	return a->host == d->host && a->id == d->id && a->gen == d->gen &&
	       !memcmp(a->handle, d->handle, sizeof(a->handle)) && !strcmp(a->name, d->name);
}

/* The samples' order (dom_order): by pool host, then id. */
static bool dom_before(const struct rep_dom *a, const struct xg_dom *d)
{
	return a->host != d->host ? a->host < d->host : a->id < d->id;
}

/* A domain not in the last interval: one seen before (it came back), or
 * a new entry. */
static struct rep_dom *dom_entry(struct xg_report *r, const struct xg_dom *d, uint64_t start_ns)
{
	for (size_t i = r->ndom; i-- > 0;)
		if (same_dom(r->dom[i], d))
			return r->dom[i];
	struct rep_dom *e = xg_calloc(1, sizeof(*e));
	e->id = d->id;
	e->gen = d->gen;
	e->host = d->host;
	memcpy(e->handle, d->handle, sizeof(e->handle));
	memcpy(e->name, d->name, sizeof(e->name));
	e->name[sizeof(e->name) - 1] = 0;
	e->from_ns = start_ns;
	for (int c = 0; c < XG_COL_COUNT; c++)
		topk_init(&e->col[c].top, r->keep);
	xg_grow(&r->dom, &r->dom_cap, r->ndom + 1, sizeof(*r->dom));
	r->dom[r->ndom++] = e;
	return e;
}

static uint8_t intern_why(struct xg_report *r, const char *why)
{
	if (!why)
		return 0;
	for (size_t i = 1; i < r->nwhy; i++)
		if (!strcmp(r->why[i], why))
			return (uint8_t)i;
	if (r->nwhy == REP_WHY_MAX)
		return 0;
	r->why[r->nwhy] = xg_strdup(why);
	return (uint8_t)r->nwhy++;
}

static void add_row(struct xg_report *r, struct rep_dom *e, const struct xg_table *t,
		    const struct xg_row *row, uint64_t start_ns)
{
	double dt = t->sum.interval_s;
	if (!e->intervals)
		e->from_ns = start_ns;
	e->to_ns = t->cur->host.real_ns;
	e->intervals++;
	for (int c = 0; c < XG_COL_COUNT; c++) {
		struct rep_col *k = &e->col[c];
		if (!rep_col_reported(r, (enum xg_col)c))
			continue;
		if (!row_has(row, (enum xg_col)c) || !isfinite(row->v[c])) {
			k->why = intern_why(r, row_why(t, row, (enum xg_col)c));
			continue;
		}
		double v = row->v[c];
		k->max = k->n && k->max > v ? k->max : v;
		k->n++;
		k->sum += v;
		k->wsum += v * dt;
		k->w += dt;
		topk_push(&k->top, v);
	}
}

/* The interval's top parts go to their culprits, the rest to other. */
static void add_behind(struct rep_dom *e, const struct xg_sample *s, const struct xg_dom *d)
{
	const struct xg_waits *w = sample_waits(s, d);
	if (!w || !dom_has(d, XG_F_BEHIND_WAIT_NS))
		return;
	e->by_seen = true;
	e->by_linux = !strcmp(sample_dom_host(s, d)->source, "linux");
	uint64_t all = d->v[XG_F_BEHIND_WAIT_NS], named = 0;
	for (uint32_t i = 0; i < w->nlast && i < XG_BEHIND_TOP; i++) {
		uint32_t k = 0;
		while (k < e->nby && e->by[k].who != w->last[i].who)
			k++;
		if (k == e->nby && e->nby < REP_BEHIND_MAX)
			e->by[e->nby++] = (struct rep_behind){ w->last[i].who, 0 };
		if (k < e->nby) {
			e->by[k].ns += w->last[i].ns;
			named += w->last[i].ns;
		}
	}
	e->by_wait += all;
	e->by_other += all > named ? all - named : 0;
}

void report_add(struct xg_report *r, const struct xg_table *t, uint64_t start_ns)
{
	size_t nd = t->ndom_rows, j = 0;
	r->vms = r->vms || (t->cur && host_has(&t->cur->host, XG_H_VMS));
	r->psi = r->psi || (t->cur && host_has(&t->cur->host, XG_H_PSI));
	xg_grow(&r->next, &r->next_cap, nd ? nd : 1, sizeof(*r->next));
	for (size_t i = 0; i < nd; i++) {
		const struct xg_row *row = &t->rows[i];
		const struct xg_dom *d = &t->cur->dom[row->dom_index];
		while (j < r->nlive && dom_before(r->live[j], d))
			j++;
		struct rep_dom *e = j < r->nlive && same_dom(r->live[j], d) ? r->live[j++]
									    : dom_entry(r, d, start_ns);
		add_row(r, e, t, row, start_ns);
		add_behind(e, t->cur, d);
		r->next[i] = e;
	}
	xg_swap_arrays(&r->live, &r->live_cap, &r->next, &r->next_cap);
	r->nlive = nd;
}

double rep_mean(const struct rep_col *k)
{
	if (k->given)
		return k->n ? k->gmean : NAN;
	if (!k->n)
		return NAN;
	/* Intervals of no length weigh nothing; if all were, a plain mean. */
	return k->w > 0 ? k->wsum / k->w : k->sum / (double)k->n;
}

double rep_pct(struct rep_col *k)
{
	if (k->given)
		return k->n ? k->gp95 : NAN;
	return topk_percentile(&k->top, k->n, XG_REPORT_PCT);
}

static uint16_t host_index(struct xg_report *r, const char *host)
{
	for (size_t i = 0; i < r->nhosts; i++)
		if (!strcmp(r->hosts[i], host))
			return (uint16_t)i;
	r->hosts = xg_realloc(r->hosts, (r->nhosts + 1) * sizeof(*r->hosts));
	r->hosts[r->nhosts] = xg_strdup(host);
	return (uint16_t)r->nhosts++;
}

void report_put(struct xg_report *r, const char *host, const char *name, uint32_t id, enum xg_col col,
		uint64_t n, double mean, double p95, double max, uint64_t from_ns, uint64_t to_ns)
{
	uint16_t h = host_index(r, host);
	r->put_cols |= 1ull << col;
	struct rep_dom *e = NULL;
	for (size_t i = r->ndom; i-- > 0 && !e;)
		if (r->dom[i]->host == h && !strcmp(r->dom[i]->name, name))
			e = r->dom[i];
	if (!e) {
		e = xg_calloc(1, sizeof(*e));
		e->id = id;
		e->host = h;
		snprintf(e->name, sizeof(e->name), "%s", name);
		e->from_ns = from_ns;
		e->to_ns = to_ns;
		xg_grow(&r->dom, &r->dom_cap, r->ndom + 1, sizeof(*r->dom));
		r->dom[r->ndom++] = e;
	}
	struct rep_col *k = &e->col[col];
	bool have = n && !isnan(mean) && !isnan(max);
	k->given = true;
	k->n = have ? n : 0;
	k->gmean = mean;
	k->gp95 = p95;
	k->max = max;
	if (have && n > e->intervals)
		e->intervals = n;
	if (!have)
		k->why = intern_why(r, col == XG_COL_MAXMEM ? "no limit (+Inf), or no such series in the period"
							  : "the server holds no such series for this domain in the period");
	r->vms = r->vms || (have && xg_columns[col].group == XG_GRP_VM);
	r->psi = r->psi || (have && xg_columns[col].group == XG_GRP_PSI);
}
