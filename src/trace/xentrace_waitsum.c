// SPDX-License-Identifier: GPL-2.0-or-later
/* A domain's Xen waits into its running totals (see xentrace_waitsum.h). */
#include "xgtop/trace/xentrace_waitsum.h"
#include "xgtop/trace/xentrace.h"


unsigned xt_waitsum_bucket(unsigned b)
{
	uint64_t lo, hi;
	xt_wh_bounds(b, &lo, &hi);
	/* The bounds are powers of two, so a bucket lies wholly below one
	 * or wholly at or above it. */
	return waitsum_bucket(lo);
}

void xt_waitsum_take(struct xg_waitsum *s, const struct xt_dom_waits *w, double hz, struct xg_waits *out)
{
	uint64_t cyc = 0, ns_was = 0;
	for (size_t i = 0; i < w->nby; i++) {
		cyc += w->by[i].cyc;
		uint64_t ns_now = xt_cyc_to_ns(cyc, hz);
		waitsum_add(s, w->by[i].who, ns_now - ns_was);
		ns_was = ns_now;
	}
	if (w->nwaits) {
		for (unsigned b = 0; b < XT_WH_N; b++)
			if (w->hist[b]) {
				uint64_t lo, hi;
				xt_wh_bounds(b, &lo, &hi);
				waitsum_add_lengths(s, lo, w->hist[b]);
			}
		waitsum_add_length_ns(s, w->sum_ns);
	}
	waitsum_take(s, out);
}

void xt_waits_fill(struct xt_acct *a, struct xg_waitsum *sum, struct xt_dom_waits *w, double hz,
                   struct xg_sample *out, struct xg_dom *d)
{
	static const char none[] = "no wait ended in the interval";
	xt_behind_take(a, d->id, w);
	xt_waitsum_take(sum, w, hz, sample_add_waits(out, d));
	dom_set(d, XG_F_BEHIND_WAIT_NS, xt_cyc_to_ns(w->total_cyc, hz));
	if (w->nby && w->total_cyc) {
		uint32_t who = w->by[0].who;
		dom_set(d, XG_F_BEHIND_ID, who == XT_BEHIND_XEN ? XG_BEHIND_XEN : who);
		dom_set(d, XG_F_BEHIND_NS, xt_cyc_to_ns(w->by[0].cyc, hz));
	} else {
		dom_invalid(out, d, XG_F_BEHIND_ID, none);
		dom_invalid(out, d, XG_F_BEHIND_NS, none);
	}
	if (w->nwaits) {
		dom_set(d, XG_F_WAIT_P50_NS, (uint64_t)(xt_wh_quantile(w->hist, 0.50) + 0.5));
		dom_set(d, XG_F_WAIT_P99_NS, (uint64_t)(xt_wh_quantile(w->hist, 0.99) + 0.5));
	} else {
		dom_invalid(out, d, XG_F_WAIT_P50_NS, none);
		dom_invalid(out, d, XG_F_WAIT_P99_NS, none);
	}
}
