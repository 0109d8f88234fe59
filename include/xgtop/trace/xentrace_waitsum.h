/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A domain's waits from Xen's trace accounting into its running totals
 * (struct xg_waitsum, model/waitsum.h: the bookkeeping the Linux source
 * shares). */
#ifndef XGTOP_XENTRACE_WAITSUM_H
#define XGTOP_XENTRACE_WAITSUM_H

#include "xgtop/model/waitsum.h"
#include "xgtop/trace/xentrace_account.h"

/* Adds one interval (xt_behind_take's w, cycles at hz) to s and writes
 * the cumulative figures, with the interval's largest parts, to out. The
 * parts' ns are differences of converted running sums, so they add up to
 * xt_cyc_to_ns(w->total_cyc, hz) exactly. */
void xt_waitsum_take(struct xg_waitsum *s, const struct xt_dom_waits *w, double hz, struct xg_waits *out);
/* The xg_waits bucket of a wait-length histogram bucket (XT_WH_N). */
unsigned xt_waitsum_bucket(unsigned b);

/* One domain's waits since the last call, into a sample: takes them from
 * a (scratch w), adds them to sum, and sets d's wait fields (the
 * interval's attributed WAIT, top culprit and its part, P50/P99 of the
 * lengths; "no wait ended in the interval" where none did) and its
 * xg_waits entry. The live Xen source and the trace source share it. */
void xt_waits_fill(struct xt_acct *a, struct xg_waitsum *sum, struct xt_dom_waits *w, double hz,
                   struct xg_sample *out, struct xg_dom *d);

#endif
