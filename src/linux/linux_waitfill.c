// SPDX-License-Identifier: GPL-2.0-or-later
/* Shares the drained waits out to the domains of a refresh: a waiting
 * thread counts for its process's domain (a VM: its vCPU threads only,
 * as its WAIT is theirs), a culprit process for its own domain, found by
 * its pid in this refresh's scan, else (cgroup mode) by its cgroup. The
 * rules are in doc/linux-source.md ("Wait attribution"). */
#include "linux_waits.h"

#include <stdlib.h>
#include <string.h>

_Static_assert(LW_SUB_BITS == XG_WH_SUB_BITS, "the BPF program's wait histogram has the shared layout");

double lx_waits_quantile(const uint64_t *hist, double q)
{
	return waitsum_wh_quantile(hist, LW_BUCKETS, q);
}

#define NO_DOM UINT32_MAX

/* The domain (index in ds) whose WAIT thread tid's waits belong to, or
 * NO_DOM: a thread not seen by this refresh's scan, or a VM's thread
 * that is not a vCPU. */
static uint32_t waiter_dom(const struct lx_waits *w, const struct lx_scan *sc,
			   const struct lx_doms *ds, uint32_t tid)
{
	int64_t ti = lx_index_get(&w->tidx, tid);
	if (ti < 0)
		return NO_DOM;
	int32_t pi = w->thr_proc[ti];
	int32_t d = sc->proc[pi].dom;
	if (d < 0)
		return NO_DOM;
	if (ds->dom[d].vm >= 0 && sc->tnow[ti].vcpu_no == LX_NO_VCPU)
		return NO_DOM;
	return (uint32_t)d;
}

/* The culprit's id as XG_F_BEHIND_ID holds it. */
static uint32_t culprit_id(const struct lx_waits *w, const struct lx_scan *sc,
			   const struct lx_doms *ds, const struct lx_cgroup *cg, bool vm_mode,
			   uint32_t tgid, uint64_t cgid)
{
	if (tgid == 0)
		return XG_BEHIND_IDLE;
	if (tgid == LW_TGID_UNKNOWN)
		return XG_BEHIND_XEN;
	int64_t pi = lx_index_get(&w->pidx, tgid);
	if (pi >= 0 && sc->proc[pi].dom >= 0)
		return ds->dom[sc->proc[pi].dom].id;
	/* gone before the scan: its cgroup may still be a domain's */
	if (cg && cgid)
		for (size_t j = 0; j < cg->ndom && j < ds->ndom; j++)
			if (cg->dom[j].ino == cgid && ds->dom[j].cg == (int32_t)j)
				return ds->dom[j].id;
	return vm_mode ? LX_HOST_ID : XG_BEHIND_XEN;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

static void index_scan(struct lx_waits *w, const struct lx_scan *sc)
{
	lx_index_reset(&w->tidx, sc->ntnow);
	lx_index_reset(&w->pidx, sc->nproc);
	xg_grow(&w->thr_proc, &w->thr_proc_cap, sc->ntnow + 1, sizeof(*w->thr_proc));
	for (size_t i = 0; i < sc->nproc; i++) {
		const struct lx_proc *p = &sc->proc[i];
		lx_index_put(&w->pidx, p->pid, (uint32_t)i);
		for (uint32_t k = 0; k < p->nthr; k++) {
			uint32_t ti = p->thr_first + k;
			lx_index_put(&w->tidx, sc->tnow[ti].tid, ti);
			w->thr_proc[ti] = (int32_t)i;
		}
	}
}

/* The running totals of this fill's domains, in ds order: each one's of
 * the last fill when it is still that domain, else new ones; those of
 * domains gone are dropped. */
static void sums_for(struct lx_waits *w, const struct lx_doms *ds, const struct xg_sample *out, size_t first)
{
	xg_grow(&w->wnext, &w->cwnext, ds->ndom + 1, sizeof(*w->wnext));
	for (size_t i = 0; i < ds->ndom; i++) {
		const struct xg_dom *x = &out->dom[first + i];
		struct lx_wsum *e = &w->wnext[i];
		int64_t j = lx_index_get(&w->widx, x->id);
		if (j >= 0 && w->wsum[j].used && dom_same(&w->wsum[j].ident, x, XG_SAME_OBJECT)) {
			*e = w->wsum[j];
			w->wsum[j].used = false;
		} else {
			memset(e, 0, sizeof(*e));
			e->ident = dom_ident(x);
			e->used = true;
		}
	}
	for (size_t j = 0; j < w->nwsum; j++)
		if (w->wsum[j].used)
			waitsum_free(&w->wsum[j].s);
	xg_swap_arrays(&w->wsum, &w->cwsum, &w->wnext, &w->cwnext);
	w->nwsum = ds->ndom;
	lx_index_reset(&w->widx, ds->ndom);
	for (size_t i = 0; i < ds->ndom; i++)
		lx_index_put(&w->widx, out->dom[first + i].id, (uint32_t)i);
}

/* Each domain's waits: the culprits' parts (pairs sorted by domain, then
 * culprit), their sum and the top one. */
static void fill_behind(struct lx_waits *w, const struct lx_scan *sc, const struct lx_doms *ds,
			const struct lx_cgroup *cg, bool vm_mode, struct xg_sample *out, size_t first)
{
	/* (domain << 32 | culprit id, ns) pairs, sorted by the first */
	size_t n = 0;
	xg_grow(&w->order, &w->order_cap, 2 * w->npair + 1, sizeof(*w->order));
	uint64_t *pairs = w->order;
	for (size_t i = 0; i < w->npair; i++) {
		const struct lx_wpair *p = &w->pair[i];
		uint32_t d = waiter_dom(w, sc, ds, p->tid);
		if (d == NO_DOM || !p->ns)
			continue;
		pairs[2 * n] = (uint64_t)d << 32 | culprit_id(w, sc, ds, cg, vm_mode, p->tgid, p->cgid);
		pairs[2 * n + 1] = p->ns;
		n++;
	}
	qsort(pairs, n, 2 * sizeof(*pairs), cmp_u64);
	size_t i = 0;
	while (i < n) {
		uint32_t d = (uint32_t)(pairs[2 * i] >> 32);
		uint64_t total = 0, top_ns = 0;
		uint32_t top = 0;
		while (i < n && (uint32_t)(pairs[2 * i] >> 32) == d) {
			uint32_t c = (uint32_t)pairs[2 * i];
			uint64_t part = 0;
			for (; i < n && pairs[2 * i] == ((uint64_t)d << 32 | c); i++)
				part += pairs[2 * i + 1];
			total += part;
			waitsum_add(&w->wsum[d].s, c, part);
			if (part > top_ns) {   /* ties: the lower id, met first */
				top_ns = part;
				top = c;
			}
		}
		struct xg_dom *x = &out->dom[first + d];
		dom_set(x, XG_F_BEHIND_WAIT_NS, total);
		dom_set(x, XG_F_BEHIND_ID, top);
		dom_set(x, XG_F_BEHIND_NS, top_ns);
	}
}

/* Each domain's wait lengths: its threads' buckets summed (over all
 * CPUs). */
static void fill_latency(struct lx_waits *w, const struct lx_scan *sc, const struct lx_doms *ds,
			 struct xg_sample *out, size_t first)
{
	size_t n = 0;
	xg_grow(&w->order, &w->order_cap, w->nlen + 1, sizeof(*w->order));
	for (size_t i = 0; i < w->nlen; i++) {
		uint32_t d = waiter_dom(w, sc, ds, w->len[i].tid);
		if (d != NO_DOM)
			w->order[n++] = (uint64_t)d << 32 | i;
	}
	qsort(w->order, n, sizeof(*w->order), cmp_u64);
	if (!w->hsum)
		w->hsum = xg_calloc(LW_BUCKETS, sizeof(*w->hsum));
	for (size_t i = 0; i < n;) {
		uint32_t d = (uint32_t)(w->order[i] >> 32);
		memset(w->hsum, 0, LW_BUCKETS * sizeof(*w->hsum));
		uint64_t len_ns = 0;
		for (; i < n && (uint32_t)(w->order[i] >> 32) == d; i++) {
			const struct lx_wlen *l = &w->len[(uint32_t)w->order[i]];
			if (l->bucket < LW_BUCKETS)
				w->hsum[l->bucket] += l->count;
			len_ns += l->len_ns;
		}
		struct xg_waitsum *sum = &w->wsum[d].s;
		for (unsigned b = 0; b < LW_BUCKETS; b++)
			if (w->hsum[b]) {
				/* octaves cut in 8: a power of two of ns is an edge */
				uint64_t lo, hi;
				waitsum_wh_bounds(b, &lo, &hi);
				waitsum_add_lengths(sum, lo, w->hsum[b]);
			}
		waitsum_add_length_ns(sum, len_ns);
		struct xg_dom *x = &out->dom[first + d];
		dom_set(x, XG_F_WAIT_P50_NS, (uint64_t)(lx_waits_quantile(w->hsum, 0.50) + 0.5));
		dom_set(x, XG_F_WAIT_P99_NS, (uint64_t)(lx_waits_quantile(w->hsum, 0.99) + 0.5));
	}
}

void lx_waits_fill(struct lx_waits *w, const struct lx_scan *sc, const struct lx_doms *ds,
		   const struct lx_cgroup *cg, bool vm_mode, struct xg_sample *out, size_t first)
{
	static const char none[] = "no wait ended in the interval";
	host_mark(&out->host, XG_H_WAITS);
	for (size_t i = 0; i < ds->ndom; i++) {
		struct xg_dom *x = &out->dom[first + i];
		dom_set(x, XG_F_BEHIND_WAIT_NS, 0);
		for (int f = XG_F_BEHIND_NS; f <= XG_F_WAIT_P99_NS; f++)
			dom_invalid(out, x, (enum xg_field)f, none);
	}
	index_scan(w, sc);
	sums_for(w, ds, out, first);
	fill_behind(w, sc, ds, cg, vm_mode, out, first);
	fill_latency(w, sc, ds, out, first);
	/* wait totals only for the domains that ever waited: in process
	 * mode most of a thousand processes never do, and each entry is an
	 * entry of the sample, a recording and the exporter */
	for (size_t i = 0; i < ds->ndom; i++) {
		struct lx_wsum *e = &w->wsum[i];
		if (e->s.total_ns || e->s.count)
			waitsum_take(&e->s, sample_add_waits(out, &out->dom[first + i]));
	}
}
