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
 * xenalyze's rules are in xentrace_compat.c; the tables of vCPUs and pCPUs
 * both sets of rules fill are in xentrace_acct_table.c. */
#include "xentrace_acct_rules.h"

#include <string.h>

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
	v->wait_censored = old == XT_RUNNABLE;   /* a wait seen from its end only */
	if (a->first_lost_tsc && a->first_lost_tsc < t) {
		uint64_t lt = a->first_lost_tsc > a->start_tsc ? a->first_lost_tsc : a->start_tsc;
		if (a->waits && v->state == XT_RUNNABLE)
			xt_behind_close(a, v, -1, lt, false);
		set_state(v, XT_LOST, lt);
	}
}

/* Without --behind: only the wait-length histogram, inline (once per
 * wait), with no call but the one that allocates at each vCPU's first
 * wait. The idle vCPUs' waits (half of them on a busy host, shown by no
 * output) are kept all the same: leaving them out is a branch the data
 * decides, dearer than the few instructions it saves. */
static inline __attribute__((always_inline)) void wait_end(struct xt_acct *a, struct xt_vcpu_acct *v,
                                                           uint64_t t, bool ran)
{
	if (__builtin_expect(v->wait_censored, 0)) {
		v->wait_censored = false;
		return;
	}
	if (!ran || t <= v->since)
		return;
	if (__builtin_expect(!v->whist, 0)) {
		xt_behind_close(a, v, -1, t, true);
		return;
	}
	uint64_t ns = xt_wh_ns(t - v->since, a->ns_mult);
	v->whist[xt_wh_bucket(ns)]++;
	v->wsum_ns += ns;
}

/* Inlined into the batch loop: it runs once per scheduler event. */
/* What native_event keeps besides the runstate times; a constant where
 * it is inlined, so each loop is compiled apart and the one without wait
 * bookkeeping runs as before it existed. */
enum waits_mode { WAITS_NONE, WAITS_HIST, WAITS_BEHIND };

static inline enum waits_mode waits_mode(const struct xt_acct *a)
{
	return a->behind ? WAITS_BEHIND : a->wait_hist ? WAITS_HIST : WAITS_NONE;
}

/* *end: the latest TSC seen, kept by the caller (a register in the loops
 * below, written back to a->end_tsc once the trace has started). */
static inline __attribute__((always_inline)) void native_event(struct xt_acct *a, const struct xt_ev *ev,
                                                               const enum waits_mode waits, uint64_t *end)
{
	struct xt_pcpu_acct *p = xt_acct_pcpu(a, ev->pcpu);
	uint64_t t = ev->tsc;
	if (t > *end)
		*end = t;
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
			v->wait_censored = false;
		}
		if (waits == WAITS_BEHIND) {
			if (v->state == XT_RUNNABLE)
				xt_behind_close(a, v, nw == XT_RUNNING ? (int32_t)ev->pcpu : -1, t,
				                nw == XT_RUNNING);
			/* Who is on this pCPU from now: nobody (Xen) when its vCPU
			 * leaves, the vCPU that arrives. */
			if (old == XT_RUNNING && nw != XT_RUNNING)
				xt_behind_note(a, ev->pcpu, v->dom, XT_BEHIND_XEN, t);
			else if (nw == XT_RUNNING)
				xt_behind_note(a, ev->pcpu, old == XT_RUNNING ? v->dom : XT_BEHIND_XEN, v->dom, t);
			if (old == XT_RUNNING || nw == XT_RUNNING)
				v->ran_pcpu = ev->pcpu;
		} else if (waits == WAITS_HIST && v->state == XT_RUNNABLE)
			wait_end(a, v, t, nw == XT_RUNNING);
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
			if (v->state != XT_RUNNING || v->pcpu == ev->pcpu) {
				if (v->state == XT_RUNNABLE && a->waits)
					xt_behind_close(a, v, -1, t, false);
				set_state(v, XT_LOST, t);
			}
		}
		if (a->behind)
			xt_behind_pcpu(a, ev->pcpu, XT_BEHIND_XEN, XT_BEHIND_XEN, t);
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
			if (v->state == XT_RUNNABLE && a->waits)
				xt_behind_close(a, v, ev->pcpu, t, false);
			if (v->state != XT_RUNNING)
				set_state(v, XT_RUNNING, t);
			v->pcpu = ev->pcpu;
			v->ran_pcpu = ev->pcpu;
			if (a->behind)
				xt_behind_pcpu(a, ev->pcpu, XT_BEHIND_XEN, v->dom, t);
			p->current = vi;
		}
		break;
	case XT_EV_PCPU_END:
		break;
	}
}

/* Before xt_acct_start, the end is not kept. */
static inline void end_back(struct xt_acct *a, uint64_t end)
{
	if (a->started)
		a->end_tsc = end;
}

void xt_acct_event(struct xt_acct *a, const struct xt_ev *ev)
{
	uint64_t end = a->end_tsc;
	if (a->mode == XT_COMPAT) {
		xt_compat_event(a, ev);
		return;
	}
	native_event(a, ev, waits_mode(a), &end);
	end_back(a, end);
}

/* One loop per mode, each with its mode a constant (see enum waits_mode). */
#define NATIVE_LOOP(a, ev, n, waits, end) \
	for (size_t i_ = 0; i_ < (n); i_++) \
		native_event((a), &(ev)[i_], (waits), &(end))

/* The mode is chosen once for the whole file, not once per run (a run
 * is four events on average on the credit2 capture). */
void xt_acct_merged(struct xt_acct *a, struct xt_merge *m)
{
	const struct xt_ev *run;
	size_t n;
	uint64_t end = a->end_tsc;
	if (a->mode == XT_COMPAT) {
		while ((n = xt_merge_run(m, &run)))
			xt_compat_events(a, run, n);
		return;
	}
	switch (waits_mode(a)) {
	case WAITS_BEHIND:
		while ((n = xt_merge_run(m, &run)))
			NATIVE_LOOP(a, run, n, WAITS_BEHIND, end);
		break;
	case WAITS_HIST:
		while ((n = xt_merge_run(m, &run)))
			NATIVE_LOOP(a, run, n, WAITS_HIST, end);
		break;
	case WAITS_NONE:
		while ((n = xt_merge_run(m, &run)))
			NATIVE_LOOP(a, run, n, WAITS_NONE, end);
		break;
	}
	end_back(a, end);
}

void xt_acct_finish(struct xt_acct *a, uint64_t tsc)
{
	if (a->mode == XT_COMPAT)
		return;   /* xenalyze leaves final intervals open (see compat) */
	for (size_t i = 0; i < a->nv; i++)
		if (a->v[i].state < XT_NSTATES) {
			if (a->v[i].state == XT_RUNNABLE && a->waits)
				xt_behind_close(a, &a->v[i], -1, tsc, false);
			set_state(&a->v[i], a->v[i].state, tsc);
		}
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
