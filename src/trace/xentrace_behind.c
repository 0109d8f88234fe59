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
#include "xentrace_acct_int.h"

#include <stdlib.h>
#include <string.h>

void xt_acct_behind(struct xt_acct *a, bool behind, bool wait_hist, double hz)
{
	if (a->mode != XT_NATIVE)
		return;
	a->behind = behind;
	a->wait_hist = wait_hist && hz > 0;
	a->wait_hz = hz;
}

void xt_wh_bounds(unsigned b, uint64_t *lo, uint64_t *hi)
{
	if (b < XT_WH_SUB) {
		*lo = b;
		*hi = b + 1;
		return;
	}
	unsigned msb = b / XT_WH_SUB + XT_WH_SUB_BITS - 1, sub = b % XT_WH_SUB;
	uint64_t step = 1ull << (msb - XT_WH_SUB_BITS);
	*lo = (1ull << msb) + sub * step;
	*hi = *lo + step;   /* wraps to 0 for the very last bucket: unused */
}

double xt_wh_quantile(const uint64_t *hist, double q)
{
	uint64_t total = 0;
	for (unsigned b = 0; b < XT_WH_N; b++)
		total += hist[b];
	if (!total)
		return 0;
	/* The rank of the quantile among total sorted lengths, 1-based. */
	double rank = q * (double)total;
	if (rank < 1)
		rank = 1;
	uint64_t seen = 0;
	for (unsigned b = 0; b < XT_WH_N; b++) {
		if (!hist[b])
			continue;
		if ((double)(seen + hist[b]) >= rank) {
			uint64_t lo, hi;
			xt_wh_bounds(b, &lo, &hi);
			double f = (rank - (double)seen) / (double)hist[b];
			return (double)lo + f * (double)(hi - lo);
		}
		seen += hist[b];
	}
	return 0;
}

static struct xt_seglog *seglog(struct xt_acct *a, uint32_t p)
{
	if (p >= a->nplog) {
		size_t cap = a->nplog;
		xg_grow(&a->plog, &cap, (size_t)p + 1, sizeof(*a->plog));
		memset(a->plog + a->nplog, 0, (cap - a->nplog) * sizeof(*a->plog));
		a->nplog = cap;
	}
	return &a->plog[p];
}

/* Drops the entries of l that end before every open wait began. */
static void trim(struct xt_acct *a, struct xt_seglog *l)
{
	uint64_t oldest = UINT64_MAX;
	for (size_t i = 0; i < a->nv; i++)
		if (a->v[i].state == XT_RUNNABLE && a->v[i].since < oldest)
			oldest = a->v[i].since;
	size_t k = 0;   /* keep from the entry in force at `oldest` */
	while (k + 1 < l->n && l->s[k + 1].tsc <= oldest)
		k++;
	if (!k)
		return;
	memmove(l->s, l->s + k, (l->n - k) * sizeof(*l->s));
	l->n -= k;
}

static void seg_push(struct xt_acct *a, struct xt_seglog *l, uint64_t tsc, uint32_t who)
{
	if (l->n == l->cap) {
		if (l->cap >= 4096)
			trim(a, l);
		/* Grow unless trimming freed at least half. */
		if (l->n == l->cap || l->n * 2 > l->cap)
			xg_grow(&l->s, &l->cap, l->n + 1, sizeof(*l->s));
	}
	l->s[l->n].tsc = tsc;
	l->s[l->n].who = who;
	l->n++;
}

void xt_behind_pcpu(struct xt_acct *a, uint32_t p, uint32_t before, uint32_t who, uint64_t t)
{
	if (!a->behind)
		return;
	struct xt_seglog *l = seglog(a, p);
	if (!l->n && a->started && t > a->start_tsc)
		seg_push(a, l, a->start_tsc, before);
	if (l->n && l->s[l->n - 1].who == who)
		return;
	if (l->n && l->s[l->n - 1].tsc == t)
		l->s[l->n - 1].who = who;   /* a zero-length entry: replaced */
	else
		seg_push(a, l, t, who);
}

/* Adds cyc to v's part behind who. */
static void credit(struct xt_vcpu_acct *v, uint32_t who, uint64_t cyc)
{
	if (!cyc)
		return;
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
	/* The last entry at or before t0. */
	size_t lo = 0, hi = l->n;
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		if (l->s[mid].tsc <= t0)
			lo = mid;
		else
			hi = mid;
	}
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
	if (t <= v->since)
		return;
	if (a->wait_hist && ran && !v->wait_censored) {
		if (!v->whist)
			v->whist = xg_calloc(XT_WH_N, sizeof(*v->whist));
		v->whist[xt_wh_bucket(xt_cyc_to_ns(t - v->since, a->wait_hz))]++;
	}
	v->wait_censored = false;
	if (!a->behind)
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
