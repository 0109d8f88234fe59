// SPDX-License-Identifier: GPL-2.0-or-later
/* xenalyze-compatible runstate accounting (`--xenalyze-compat`), so that
 * `xgtop trace` and `xenalyze --summary` can be compared line by line.
 * The rules, as xenalyze 4.17 applies them (reference xen-tools.md §6.4):
 *  - an interval counts only if its start TSC is non-zero and before its
 *    end; zero-length intervals are not counted;
 *  - a vCPU starts in INIT and is not accounted until a record shows it
 *    running; a first "still running" record back-dates running to its
 *    pCPU's first TSC; each pCPU starts with a placeholder vCPU current;
 *  - CONTINUE_RUNNING closes and reopens the running interval (so it
 *    counts as one more running interval);
 *  - a record whose old state contradicts the vCPU's state drops that
 *    interval, except that a running vCPU is then left alone;
 *  - TRC_LOST_RECORDS makes every non-running vCPU and the pCPU's current
 *    vCPU "lost" from the first lost TSC until next seen running; while any
 *    pCPU is in that window a vCPU leaving "running" goes to lost; the
 *    vCPU named in the record becomes current when tracing resumed;
 *  - at the end of each pCPU's data its current vCPU's running interval
 *    is closed at that pCPU's last TSC and the vCPU goes to lost; every
 *    other open interval (blocked, runnable ...) is never closed.
 * Where xenalyze would stop with a fatal error we count it in
 * compat_abort and carry on; where it would apply a TSC skew correction we
 * count it in compat_skew. Either makes the comparison inexact. */
#include "xentrace_acct_rules.h"

static struct xt_vcpu_acct *V(struct xt_acct *a, int32_t i) { return &a->v[i]; }

static void update(struct xt_vcpu_acct *v, unsigned nw, uint64_t tsc)
{
	if (v->xtsc > 0 && v->xtsc < tsc && v->xs < XT_NSTATES) {
		v->cyc[v->xs] += tsc - v->xtsc;
		v->n[v->xs]++;
	}
	v->xs = (uint8_t)nw;
	v->xtsc = tsc;
}

static struct xt_pcpu_acct *pcpu_activate(struct xt_acct *a, uint32_t p)
{
	struct xt_pcpu_acct *pc = xt_acct_pcpu(a, p);
	/* xenalyze makes a placeholder vCPU current on each new pCPU. */
	pc->active = true;
	int32_t d = (int32_t)xt_acct_vcpu(a, XT_DEFAULT_DOMID, p);
	pc = xt_acct_pcpu(a, p);
	pc->dflt = d;
	pc->current = d;
	a->v[d].xs = XT_RUNNING;
	a->v[d].xtsc = 0;
	a->v[d].xp = (int32_t)p;
	a->v[d].activated = true;
	return pc;
}

/* Runs several times per event: the common case stays inline. */
static inline struct xt_pcpu_acct *pcpu(struct xt_acct *a, uint32_t p)
{
	if (__builtin_expect(p < a->np && a->p[p].active, 1))
		return &a->p[p];
	return pcpu_activate(a, p);
}

static inline __attribute__((always_inline)) void prev_update(struct xt_acct *a, int32_t p, int32_t vi, uint64_t tsc, unsigned nw)
{
	struct xt_vcpu_acct *v = V(a, vi);
	struct xt_pcpu_acct *pc = p >= 0 ? pcpu(a, (uint32_t)p) : NULL;
	if (v->xp != p || !pc)
		v->xtsc = 0;
	else if (pc->current < 0) {
		a->compat_abort++;
	} else if (pc->current != vi || v->xs != XT_RUNNING)
		v->xtsc = 0;
	if (pc)
		pc->current = -1;
	update(v, nw, tsc);
}

static inline __attribute__((always_inline)) void next_update(struct xt_acct *a, uint32_t p, int32_t vi, uint64_t tsc)
{
	struct xt_pcpu_acct *pc = pcpu(a, p);
	struct xt_vcpu_acct *v;
	if (pc->current >= 0) {
		if (!pc->seen_valid_schedule)
			update(V(a, pc->current), XT_LOST, tsc);
		else
			a->compat_abort++;
		pc->current = -1;
	}
	v = V(a, vi);
	if (v->activated) {
		if (v->xs == XT_RUNNING && v->dom != XT_DEFAULT_DOMID)
			v->xtsc = 0;
	} else
		v->activated = true;
	update(v, XT_RUNNING, tsc);
	v->xp = (int32_t)p;
	pc = pcpu(a, p);
	pc->current = vi;
	pc->seen_valid_schedule = true;
}

static void vcpu_start(struct xt_acct *a, uint32_t p, int32_t vi, unsigned old, unsigned nw,
                       uint64_t tsc)
{
	struct xt_pcpu_acct *pc = pcpu(a, p);
	if (old == XT_RUNNING) {
		if (pc->current < 0 || V(a, pc->current)->dom != XT_DEFAULT_DOMID) {
			a->compat_abort++;
			return;
		}
		update(V(a, pc->current), XT_CS_QUEUED, pc->first_tsc);
		pc->current = -1;
	}
	if (nw != XT_RUNNING)
		return;
	if (old == XT_RUNNING)
		tsc = pc->first_tsc;
	update(V(a, vi), XT_RUNNING, tsc);
	pc->current = vi;
	V(a, vi)->xp = (int32_t)p;
}

static void lose_all_idle(struct xt_acct *a, uint64_t tsc)
{
	for (size_t i = 0; i < a->nv; i++)
		if (a->v[i].dom != XT_DEFAULT_DOMID && a->v[i].xs != XT_RUNNING)
			update(&a->v[i], XT_LOST, tsc);
}

static inline __attribute__((always_inline)) void runstate(struct xt_acct *a, const struct xt_ev *ev)
{
	bool cont = ev->kind == XT_EV_CONTINUE;
	unsigned old = xt_ev_old(ev), nw = xt_ev_new(ev);
	uint32_t p = ev->pcpu;
	uint64_t t = ev->tsc;
	pcpu(a, p);
	int32_t vi = (int32_t)xt_acct_vcpu(a, ev->dom, ev->vcpu);
	struct xt_vcpu_acct *v = V(a, vi);
	uint8_t lo_wrong = v->lo_wrong, lo_actual = v->lo_actual;
	v->lo_wrong = XT_CS_INIT;

	if (v->xs == XT_CS_INIT) {
		vcpu_start(a, p, vi, old, nw, t);
		return;
	}
	if (v->xs != old) {
		if (v->xs == XT_LOST) {
			if (nw != XT_RUNNING)
				return;
		} else if (lo_wrong == nw && lo_actual == old) {
			a->compat_skew++;
			return;
		} else {
			v->lo_wrong = (uint8_t)old;
			v->lo_actual = v->xs;
			v->lo_tsc = t;
			v->lo_pid = (int32_t)p;
			if (v->xs == XT_RUNNING)
				return;
		}
	}
	if (cont) {
		if (v->xs == XT_LOST) {
			struct xt_pcpu_acct *pc = pcpu(a, p);
			if (pc->current >= 0)
				prev_update(a, (int32_t)p, pc->current, t, XT_LOST);
			next_update(a, p, vi, t);
		} else if (v->xs != XT_RUNNING || v->xp != (int32_t)p) {
			a->compat_abort++;
		}
		update(V(a, vi), XT_RUNNING, t);
	} else if (old == XT_RUNNING || v->xs == XT_RUNNING) {
		if (old == XT_RUNNING) {
			if (v->xs != XT_RUNNING && v->xs != XT_LOST)
				a->compat_abort++;
			prev_update(a, (int32_t)p, vi, t, nw);
		} else {
			prev_update(a, v->xp, vi, t, nw);
		}
		if (a->lost_cpus && V(a, vi)->dom != XT_IDLE_DOMID)
			update(V(a, vi), XT_LOST, t);
	} else if (nw == XT_RUNNING) {
		next_update(a, p, vi, t);
	} else {
		update(v, nw, t);
	}
}

static inline __attribute__((always_inline)) void compat_event(struct xt_acct *a,
                                                               const struct xt_ev *ev)
{
	uint32_t p = ev->pcpu;
	struct xt_pcpu_acct *pc;
	switch (ev->kind) {
	case XT_EV_CHANGE:
	case XT_EV_CONTINUE:
		runstate(a, ev);
		break;
	case XT_EV_LOST_START:
		a->lost_records += xt_ev_count(ev);
		a->lost_events++;
		pc = pcpu(a, p);
		if (!ev->old_new) {          /* xenalyze rejects the short layout */
			a->compat_abort++;
			break;
		}
		if (pc->current >= 0)
			prev_update(a, (int32_t)p, pc->current, ev->tsc, XT_LOST);
		pc = pcpu(a, p);
		if (!pc->lost_active)
			a->lost_cpus++;
		pc->lost_active = true;
		pc->lost_tsc = ev->tsc;
		lose_all_idle(a, ev->tsc);
		pc->lost_dom_valid = true;   /* the END event carries dom/vcpu */
		break;
	case XT_EV_LOST_END:
		pc = pcpu(a, p);
		if (!ev->old_new)
			break;
		if (!pc->lost_active) {
			a->compat_abort++;
			break;
		}
		if (ev->tsc <= pc->lost_tsc) {
			a->compat_abort++;
			break;
		}
		if (pc->lost_dom_valid) {
			if (pc->current >= 0) {
				a->compat_abort++;
				break;
			}
			int32_t vi = (int32_t)xt_acct_vcpu(a, ev->dom, ev->vcpu);
			next_update(a, p, vi, ev->tsc);
			pc = pcpu(a, p);
			pc->lost_dom_valid = false;
			pc->seen_valid_schedule = false;
		}
		pc->lost_active = false;
		a->lost_cpus--;
		break;
	case XT_EV_PCPU_END:
		pc = pcpu(a, p);
		if (pc->current >= 0)
			update(V(a, pc->current), XT_LOST, ev->tsc);
		pc->current = -1;
		break;
	}
}

void xt_compat_event(struct xt_acct *a, const struct xt_ev *ev)
{
	compat_event(a, ev);
}

void xt_compat_events(struct xt_acct *a, const struct xt_ev *ev, size_t n)
{
	for (size_t i = 0; i < n; i++)
		compat_event(a, &ev[i]);
}
