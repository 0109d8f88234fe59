/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Shared by the two sets of accounting rules, xgtop's own
 * (xentrace_account.c) and xenalyze's (xentrace_compat.c), and by the
 * tables both fill (xentrace_acct_table.c); nothing else
 * includes it. */
#ifndef XGTOP_XENTRACE_ACCT_RULES_H
#define XGTOP_XENTRACE_ACCT_RULES_H

#include "xgtop/trace/xentrace_account.h"

/* xenalyze's vCPU states beyond enum xt_state (xt_vcpu_acct.xs). */
enum { XT_CS_INIT = XT_NSTATES, XT_CS_QUEUED };

struct xt_pcpu_acct *xt_acct_pcpu_add(struct xt_acct *a, uint32_t p);
static inline struct xt_pcpu_acct *xt_acct_pcpu(struct xt_acct *a, uint32_t p)
{
	return p < a->np ? &a->p[p] : xt_acct_pcpu_add(a, p);
}

/* Wait attribution and latency (xentrace_behind.c), called by the native
 * rules only when a->waits (behind or wait_hist) is on. */
/* v, runnable since v->since, leaves that state at t: its wait goes to
 * who ran on pCPU p meanwhile (p < 0: the pCPU it last ran on); ran says
 * it left for running (a whole wait, for the histogram). */
void xt_behind_close(struct xt_acct *a, struct xt_vcpu_acct *v, int32_t p, uint64_t t, bool ran);
/* From t on, who (a domid or XT_BEHIND_XEN) runs on pCPU p; before the
 * first entry of p's log, `before` ran there since the trace start. */
void xt_behind_pcpu(struct xt_acct *a, uint32_t p, uint32_t before, uint32_t who, uint64_t t);
/* The same, inline for the usual case: p's log exists, has room, and
 * this is not its first entry. */
static inline void xt_behind_note(struct xt_acct *a, uint32_t p, uint32_t before, uint32_t who, uint64_t t)
{
	struct xt_seglog *l = p < a->nplog ? &a->plog[p] : NULL;
	if (__builtin_expect(l && l->n && l->n < l->cap, 1)) {
		struct xt_seg *last = &l->s[l->n - 1];
		if (last->who == who)
			return;
		if (last->tsc == t) {
			last->who = who;   /* a zero-length entry: replaced */
			return;
		}
		l->s[l->n].tsc = t;
		l->s[l->n].who = who;
		l->n++;
		return;
	}
	xt_behind_pcpu(a, p, before, who, t);
}
void xt_behind_free(struct xt_acct *a);

void xt_compat_event(struct xt_acct *a, const struct xt_ev *ev);
void xt_compat_events(struct xt_acct *a, const struct xt_ev *ev, size_t n);

#endif
