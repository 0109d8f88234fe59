// SPDX-License-Identifier: GPL-2.0-or-later
/* Wait attribution ("behind") and wait-length histograms for the native
 * runstate accounting.
 *
 * The rule (doc/trace.md, "Who a vCPU waited behind"): a runnable
 * interval of vCPU v from t0 to t1 is split over time among whatever ran
 * on the pCPU where v ran next (the one whose record takes it to
 * running at t1); a wait that does not end in running (records lost,
 * paused, end of trace) uses the pCPU v last ran on. At each instant that
 * pCPU ran one vCPU (its domain is the culprit), its idle vCPU (the idle
 * domain, 32767) or nothing between two vCPUs (XT_BEHIND_XEN, Xen
 * itself; also what is not known: before a pCPU's first record, or a
 * vCPU that never ran in the trace). The parts of one wait cover
 * [t0, t1) without gap or overlap, so they add up to its cycles exactly.
 *
 * Each pCPU keeps a log of (tsc, who) from its runstate records; a wait
 * closing at t1 looks up t0 in its pCPU's log and walks to t1. Entries
 * older than every open wait are dropped when a log fills. */
#include "xentrace_acct_rules.h"
#include "xgtop/model/waitsum.h"

#include <stdlib.h>
#include <string.h>

void xt_acct_behind(struct xt_acct *a, bool behind, bool wait_hist, double hz)
{
	if (a->mode != XT_NATIVE)
		return;
	a->behind = behind;
	a->wait_hist = wait_hist && hz > 0;
	a->waits = a->behind || a->wait_hist;
	a->ns_mult = hz > 0 ? (uint64_t)(1e9 / hz * 4294967296.0 + 0.5) : 0;
}

_Static_assert(XT_WH_SUB_BITS == XG_WH_SUB_BITS, "the trace's wait histogram has the shared layout");

void xt_wh_bounds(unsigned b, uint64_t *lo, uint64_t *hi)
{
	waitsum_wh_bounds(b, lo, hi);
}

double xt_wh_quantile(const uint64_t *hist, double q)
{
	return waitsum_wh_quantile(hist, XT_WH_N, q);
}

static struct xt_seglog *seglog_add(struct xt_acct *a, uint32_t p)
{
	{
		size_t cap = a->nplog;
		xg_grow(&a->plog, &cap, (size_t)p + 1, sizeof(*a->plog));
		memset(a->plog + a->nplog, 0, (cap - a->nplog) * sizeof(*a->plog));
		a->nplog = cap;
	}
	return &a->plog[p];
}

static inline struct xt_seglog *seglog(struct xt_acct *a, uint32_t p)
{
	return p < a->nplog ? &a->plog[p] : seglog_add(a, p);
}

/* Drops the entries of l that end before every open wait began. */
static void trim(struct xt_acct *a, struct xt_seglog *l)
{
	uint64_t oldest = UINT64_MAX;
	for (size_t i = 0; i < a->nv; i++)
		if (a->v[i].state == XT_RUNNABLE && a->v[i].since < oldest)
			oldest = a->v[i].since;
	/* Live, a vCPU may stay runnable for good (its domain died between
	 * two records): entries older than the horizon go all the same, and
	 * what such a wait spent before them is not known (xen). */
	if (a->behind_horizon && l->n && l->s[l->n - 1].tsc > a->behind_horizon) {
		uint64_t floor = l->s[l->n - 1].tsc - a->behind_horizon;
		if (oldest < floor)
			oldest = floor;
	}
	size_t k = 0;   /* keep from the entry in force at `oldest` */
	while (k + 1 < l->n && l->s[k + 1].tsc <= oldest)
		k++;
	if (!k)
		return;
	memmove(l->s, l->s + k, (l->n - k) * sizeof(*l->s));
	l->n -= k;
}

static __attribute__((noinline)) void seg_room(struct xt_acct *a, struct xt_seglog *l)
{
	{
		if (l->cap >= 4096)
			trim(a, l);
		/* Grow unless trimming freed at least half. */
		if (l->n == l->cap || l->n * 2 > l->cap)
			xg_grow(&l->s, &l->cap, l->n + 1, sizeof(*l->s));
	}
}

static inline void seg_push(struct xt_acct *a, struct xt_seglog *l, uint64_t tsc, uint32_t who)
{
	if (__builtin_expect(l->n == l->cap, 0))
		seg_room(a, l);
	l->s[l->n].tsc = tsc;
	l->s[l->n].who = who;
	l->n++;
}

static inline __attribute__((always_inline)) void pcpu_who(struct xt_acct *a, uint32_t p, uint32_t before, uint32_t who, uint64_t t)
{
	if (!a->behind)
		return;
	struct xt_seglog *l = seglog(a, p);
	if (__builtin_expect(!l->n, 0)) {
		if (a->started && t > a->start_tsc)
			seg_push(a, l, a->start_tsc, before);
		if (!l->n) {
			seg_push(a, l, t, who);
			return;
		}
	}
	struct xt_seg *last = &l->s[l->n - 1];
	if (last->who == who)
		return;
	if (last->tsc == t)
		last->who = who;   /* a zero-length entry: replaced */
	else
		seg_push(a, l, t, who);
}

void xt_behind_pcpu(struct xt_acct *a, uint32_t p, uint32_t before, uint32_t who, uint64_t t)
{
	pcpu_who(a, p, before, who, t);
}

/* Adds cyc to v's part behind who. */
static __attribute__((noinline)) void credit_new(struct xt_vcpu_acct *v, uint32_t who, uint64_t cyc)
{
	for (uint32_t i = 0; i < v->nby; i++)
		if (v->by[i].who == who) {
			v->by[i].cyc += cyc;
			return;
		}
	if (v->nby == v->cby) {
		size_t cap = v->cby;
		xg_grow(&v->by, &cap, (size_t)v->nby + 1, sizeof(*v->by));
		v->cby = (uint32_t)cap;
	}
	v->by[v->nby].who = who;
	v->by[v->nby].cyc = cyc;
	v->nby++;
}

/* The first two culprits are most of the calls (the pCPU's other vCPU,
 * Xen's switch between them): checked inline. */
static inline void credit(struct xt_vcpu_acct *v, uint32_t who, uint64_t cyc)
{
	if (v->nby && v->by[0].who == who)
		v->by[0].cyc += cyc;
	else if (v->nby > 1 && v->by[1].who == who)
		v->by[1].cyc += cyc;
	else if (cyc)
		credit_new(v, who, cyc);
}

/* Splits [t0, t1) among the entries of l. */
static void split(struct xt_vcpu_acct *v, const struct xt_seglog *l, uint64_t t0, uint64_t t1)
{
	if (!l || !l->n || t0 < l->s[0].tsc) {
		uint64_t end = l && l->n && l->s[0].tsc < t1 ? l->s[0].tsc : t1;
		credit(v, XT_BEHIND_XEN, end - t0);
		t0 = end;
		if (t0 >= t1)
			return;
	}
	/* The last entry at or before t0: waits are short, so it is
	 * near the end of the log; scan back from there. */
	size_t lo = l->n - 1;
	while (lo && l->s[lo].tsc > t0)
		lo--;
	for (size_t k = lo; t0 < t1; k++) {
		uint64_t end = k + 1 < l->n && l->s[k + 1].tsc < t1 ? l->s[k + 1].tsc : t1;
		if (end > t0)
			credit(v, l->s[k].who, end - t0);
		if (end > t0)
			t0 = end;
		if (k + 1 >= l->n)
			break;
	}
	if (t0 < t1)   /* cannot happen: the last entry runs to t1 */
		credit(v, XT_BEHIND_XEN, t1 - t0);
}

void xt_behind_close(struct xt_acct *a, struct xt_vcpu_acct *v, int32_t p, uint64_t t, bool ran)
{
	bool whole = ran && !v->wait_censored;
	v->wait_censored = false;   /* the open wait ends here, however short */
	if (t <= v->since)
		return;
	if (a->wait_hist && whole) {
		if (!v->whist)
			v->whist = xg_calloc(XT_WH_N, sizeof(*v->whist));
		uint64_t ns = xt_wh_ns(t - v->since, a->ns_mult);
		v->whist[xt_wh_bucket(ns)]++;
		v->wsum_ns += ns;
	}
	/* The idle domain does not wait for a pCPU: its vCPU is runnable
	 * while its pCPU is busy. No parts for it. */
	if (!a->behind || v->dom == XT_IDLE_DOMID)
		return;
	if (p < 0)
		p = v->ran_pcpu;
	split(v, p >= 0 && (size_t)p < a->nplog ? &a->plog[p] : NULL, v->since, t);
}

void xt_behind_free(struct xt_acct *a)
{
	for (size_t i = 0; i < a->nv; i++) {
		free(a->v[i].by);
		free(a->v[i].whist);
	}
	for (size_t p = 0; p < a->nplog; p++)
		free(a->plog[p].s);
	free(a->plog);
	a->plog = NULL;
	a->nplog = 0;
}

/* Culprits by share, biggest first; ties by id, so the order is one. */
static int by_desc(const void *x, const void *y)
{
	const struct xt_wait_by *a = x, *b = y;
	if (a->cyc != b->cyc)
		return a->cyc < b->cyc ? 1 : -1;
	return (a->who > b->who) - (a->who < b->who);
}

static void take_add(struct xt_dom_waits *w, uint32_t who, uint64_t cyc)
{
	for (size_t i = 0; i < w->nby; i++)
		if (w->by[i].who == who) {
			w->by[i].cyc += cyc;
			return;
		}
	xg_grow(&w->by, &w->cby, w->nby + 1, sizeof(*w->by));
	w->by[w->nby].who = who;
	w->by[w->nby].cyc = cyc;
	w->nby++;
}

void xt_behind_take(struct xt_acct *a, uint32_t dom, struct xt_dom_waits *w)
{
	w->nby = 0;
	w->total_cyc = 0;
	w->nwaits = 0;
	w->sum_ns = 0;
	memset(w->hist, 0, sizeof(w->hist));
	if (dom >= a->ndix)
		return;
	const struct xt_dom_ix *dx = &a->dix[dom];
	for (uint32_t k = 0; k < dx->cap; k++) {
		if (!dx->ix[k])
			continue;
		struct xt_vcpu_acct *v = &a->v[dx->ix[k] - 1];
		for (uint32_t i = 0; i < v->nby; i++) {
			if (!v->by[i].cyc)
				continue;
			take_add(w, v->by[i].who, v->by[i].cyc);
			w->total_cyc += v->by[i].cyc;
			v->by[i].cyc = 0;   /* the entry stays: the next interval reuses it */
		}
		if (v->whist) {
			for (unsigned b = 0; b < XT_WH_N; b++) {
				w->hist[b] += v->whist[b];
				w->nwaits += v->whist[b];
			}
			memset(v->whist, 0, XT_WH_N * sizeof(*v->whist));
			w->sum_ns += v->wsum_ns;
			v->wsum_ns = 0;
		}
	}
	if (w->nby > 1)
		qsort(w->by, w->nby, sizeof(*w->by), by_desc);
}

void xt_dom_waits_free(struct xt_dom_waits *w)
{
	free(w->by);
	memset(w, 0, sizeof(*w));
}
