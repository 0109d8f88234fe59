// SPDX-License-Identifier: GPL-2.0-or-later
/* Runstate accounting per (domain, vCPU) from merged scheduler events.
 *
 * Native rules (xgtop's own):
 *  - every runstate record closes the interval of its *old* state; a vCPU
 *    stays in a state until a record says otherwise, so a vCPU that runs
 *    or blocks through a whole window with no record is accounted 100 %
 *    in that state for the window;
 *  - a vCPU is back-dated to the trace start in the state its first
 *    record says it was in (or seeded from a look-ahead, xt_acct_seed_from);
 *  - when a record's old state contradicts what we believed (records were
 *    lost, or TSCs of two pCPUs disagree), the time since our last known
 *    transition is "lost", not credited to a guess;
 *  - TRC_LOST_RECORDS on pCPU p makes every vCPU not running elsewhere
 *    "lost" from the first lost TSC until its next record; the vCPU the
 *    record names was running on p when tracing resumed.
 * xenalyze's rules are in xentrace_compat.c. */
#include "xentrace_acct_int.h"

#include <stdlib.h>
#include <string.h>

static void index_free(struct xt_acct *a);

void xt_acct_init(struct xt_acct *a, enum xt_mode mode)
{
	memset(a, 0, sizeof(*a));
	a->mode = mode;
}

void xt_acct_free(struct xt_acct *a)
{
	free(a->v);
	index_free(a);
	free(a->p);
	memset(a, 0, sizeof(*a));
}

/* Points the direct index for (dom, vcpu) at v[i]. */
static void index_put(struct xt_acct *a, uint32_t dom, uint32_t vcpu, size_t i)
{
	if (dom > 0xffffu)
		return;   /* not indexed: see xt_acct_vcpu_add */
	if (dom >= a->ndix) {
		size_t cap = a->ndix;
		xg_grow(&a->dix, &cap, (size_t)dom + 1, sizeof(*a->dix));
		memset(a->dix + a->ndix, 0, (cap - a->ndix) * sizeof(*a->dix));
		a->ndix = cap;
	}
	struct xt_dom_ix *d = &a->dix[dom];
	if (vcpu >= d->cap) {
		size_t cap = d->cap;
		xg_grow(&d->ix, &cap, (size_t)vcpu + 1, sizeof(*d->ix));
		memset(d->ix + d->cap, 0, (cap - d->cap) * sizeof(*d->ix));
		d->cap = (uint32_t)cap;
	}
	d->ix[vcpu] = (uint32_t)i + 1;
}

static void reindex(struct xt_acct *a)
{
	for (size_t d = 0; d < a->ndix; d++)
		if (a->dix[d].cap)
			memset(a->dix[d].ix, 0, a->dix[d].cap * sizeof(*a->dix[d].ix));
	for (size_t i = 0; i < a->nv; i++)
		index_put(a, a->v[i].dom, a->v[i].vcpu, i);
}

static void index_free(struct xt_acct *a)
{
	for (size_t d = 0; d < a->ndix; d++)
		free(a->dix[d].ix);
	free(a->dix);
	a->dix = NULL;
	a->ndix = 0;
}

size_t xt_acct_vcpu_add(struct xt_acct *a, uint32_t dom, uint32_t vcpu)
{
	vcpu &= 0xffffu;   /* vCPU ids are 16 bits in every record */
	if (dom < a->ndix && vcpu < a->dix[dom].cap && a->dix[dom].ix[vcpu])
		return a->dix[dom].ix[vcpu] - 1;
	/* Records carry 16-bit domids; a caller's larger id is looked up by
	 * a search rather than growing the table to it. */
	if (dom > 0xffffu)
		for (size_t i = 0; i < a->nv; i++)
			if (a->v[i].dom == dom && a->v[i].vcpu == vcpu)
				return i;
	xg_grow(&a->v, &a->vcap, a->nv + 1, sizeof(*a->v));
	struct xt_vcpu_acct *v = &a->v[a->nv++];
	memset(v, 0, sizeof(*v));
	v->dom = dom;
	v->vcpu = (uint16_t)vcpu;
	v->state = XT_NSTATES;
	v->xs = XT_CS_INIT;
	v->xp = -1;
	v->lo_wrong = XT_CS_INIT;
	index_put(a, dom, (uint16_t)vcpu, a->nv - 1);
	return a->nv - 1;
}

struct xt_pcpu_acct *xt_acct_pcpu_add(struct xt_acct *a, uint32_t p)
{
	while (p >= a->np) {
		xg_grow(&a->p, &a->pcap, a->np + 1, sizeof(*a->p));
		struct xt_pcpu_acct *pc = &a->p[a->np++];
		memset(pc, 0, sizeof(*pc));
		pc->current = pc->dflt = -1;
		pc->seen_valid_schedule = true;
	}
	return &a->p[p];
}

void xt_acct_start(struct xt_acct *a, uint64_t tsc)
{
	a->start_tsc = a->end_tsc = tsc;
	a->started = true;
}

void xt_acct_pcpu_first(struct xt_acct *a, uint32_t p, uint64_t tsc)
{
	xt_acct_pcpu(a, p)->first_tsc = tsc;
}

/* Ends v's current interval at tsc and starts state s there. */
static inline void set_state(struct xt_vcpu_acct *v, unsigned s, uint64_t tsc)
{
	if (v->state < XT_NSTATES && tsc > v->since) {
		v->cyc[v->state] += tsc - v->since;
		v->n[v->state]++;
	}
	v->state = (uint8_t)s;
	/* A record older than the open interval (TSC skew between pCPUs)
	 * must not make time count twice. */
	if (tsc > v->since || s >= XT_NSTATES)
		v->since = tsc;
}

/* Declares that (dom, vcpu) was in state s from tsc on, unless it is known. */
static void acct_seed(struct xt_acct *a, uint16_t dom, uint16_t vcpu, enum xt_state s, uint64_t tsc)
{
	size_t i = xt_acct_vcpu(a, dom, vcpu);   /* may move a->v */
	struct xt_vcpu_acct *v = &a->v[i];
	if (v->state == XT_NSTATES) {
		v->state = (uint8_t)s;
		v->since = tsc;
	}
}

void xt_acct_seed_from(struct xt_acct *a, const struct xt_ev *ev, size_t n, uint64_t start)
{
	for (size_t i = 0; i < n; i++) {
		if (ev[i].kind == XT_EV_CHANGE)
			acct_seed(a, ev[i].dom, ev[i].vcpu, xt_ev_old(&ev[i]), start);
		else if (ev[i].kind == XT_EV_CONTINUE)
			acct_seed(a, ev[i].dom, ev[i].vcpu, XT_RUNNING, start);
	}
}

/* First record of a vCPU nobody seeded: before it, the vCPU was in its
 * old state since the trace start, unless records were lost meanwhile. */
static __attribute__((noinline)) void first_sight(struct xt_acct *a, struct xt_vcpu_acct *v, unsigned old, uint64_t t)
{
	if (!a->started) {
		v->state = (uint8_t)old;
		v->since = t;
		return;
	}
	v->state = (uint8_t)old;
	v->since = a->start_tsc;
	if (a->first_lost_tsc && a->first_lost_tsc < t)
		set_state(v, XT_LOST, a->first_lost_tsc > a->start_tsc ? a->first_lost_tsc : a->start_tsc);
}

/* Inlined into the batch loop: it runs once per scheduler event. */
static inline __attribute__((always_inline)) void native_event(struct xt_acct *a, const struct xt_ev *ev)
{
	struct xt_pcpu_acct *p = xt_acct_pcpu(a, ev->pcpu);
	uint64_t t = ev->tsc;
	if (a->started && t > a->end_tsc)
		a->end_tsc = t;
	switch (ev->kind) {
	case XT_EV_CHANGE:
	case XT_EV_CONTINUE: {
		unsigned old = xt_ev_old(ev), nw = xt_ev_new(ev);
		int32_t vi = (int32_t)xt_acct_vcpu(a, ev->dom, ev->vcpu);
		struct xt_vcpu_acct *v = &a->v[vi];
		if (v->state == XT_NSTATES)
			first_sight(a, v, old, t);
		if (v->state != old) {
			if (v->state != XT_LOST)
				a->inconsistent++;
			/* What happened since the last transition we saw is unknown. */
			v->state = XT_LOST;
		}
		if (ev->kind == XT_EV_CHANGE || v->state != XT_RUNNING)
			set_state(v, nw, t);
		if (old == XT_RUNNING && p->current == vi && nw != XT_RUNNING)
			p->current = -1;
		if (nw == XT_RUNNING) {
			p->current = vi;
			v->pcpu = ev->pcpu;
		}
		break;
	}
	case XT_EV_LOST_START:
		a->lost_records += xt_ev_count(ev);
		a->lost_events++;
		if (!a->first_lost_tsc)
			a->first_lost_tsc = t ? t : 1;
		for (size_t i = 0; i < a->nv; i++) {
			struct xt_vcpu_acct *v = &a->v[i];
			if (v->state == XT_NSTATES)
				continue;
			if (v->state != XT_RUNNING || v->pcpu == ev->pcpu)
				set_state(v, XT_LOST, t);
		}
		p->current = -1;
		p->lost_active = true;
		break;
	case XT_EV_LOST_END:
		p->lost_active = false;
		if (ev->old_new) {
			int32_t vi = (int32_t)xt_acct_vcpu(a, ev->dom, ev->vcpu);
			struct xt_vcpu_acct *v = &a->v[vi];
			if (v->state == XT_NSTATES) {
				v->state = XT_LOST;
				v->since = a->started ? a->start_tsc : t;
			}
			if (v->state != XT_RUNNING)
				set_state(v, XT_RUNNING, t);
			v->pcpu = ev->pcpu;
			p->current = vi;
		}
		break;
	case XT_EV_PCPU_END:
		break;
	}
}

void xt_acct_event(struct xt_acct *a, const struct xt_ev *ev)
{
	if (a->mode == XT_COMPAT)
		xt_compat_event(a, ev);
	else
		native_event(a, ev);
}

void xt_acct_events(struct xt_acct *a, const struct xt_ev *ev, size_t n)
{
	if (a->mode == XT_COMPAT)
		xt_compat_events(a, ev, n);
	else
		for (size_t i = 0; i < n; i++)
			native_event(a, &ev[i]);
}

void xt_acct_finish(struct xt_acct *a, uint64_t tsc)
{
	if (a->mode == XT_COMPAT)
		return;   /* xenalyze leaves final intervals open (see compat) */
	for (size_t i = 0; i < a->nv; i++)
		if (a->v[i].state < XT_NSTATES)
			set_state(&a->v[i], a->v[i].state, tsc);
	a->end_tsc = tsc;
}

void xt_acct_at(const struct xt_acct *a, const struct xt_vcpu_acct *v, uint64_t tsc,
                uint64_t cyc[XT_NSTATES])
{
	(void)a;
	memcpy(cyc, v->cyc, sizeof(v->cyc));
	if (v->state < XT_NSTATES && tsc > v->since)
		cyc[v->state] += tsc - v->since;
}

static int cmp_vcpu(const void *x, const void *y)
{
	const struct xt_vcpu_acct *a = x, *b = y;
	if (a->dom != b->dom)
		return a->dom < b->dom ? -1 : 1;
	return (a->vcpu > b->vcpu) - (a->vcpu < b->vcpu);
}

void xt_acct_sort(struct xt_acct *a)
{
	/* pCPU "current" indices would dangle: only call once accounting is done. */
	if (a->nv > 1)
		qsort(a->v, a->nv, sizeof(*a->v), cmp_vcpu);
	for (size_t i = 0; i < a->np; i++)
		a->p[i].current = a->p[i].dflt = -1;
	reindex(a);
}
