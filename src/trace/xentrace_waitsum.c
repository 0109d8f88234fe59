// SPDX-License-Identifier: GPL-2.0-or-later
/* Running wait totals of a domain (see xentrace_waitsum.h). */
#include "xgtop/trace/xentrace_waitsum.h"
#include "xgtop/trace/xentrace.h"

#include <stdlib.h>
#include <string.h>

unsigned xt_waitsum_bucket(unsigned b)
{
	uint64_t lo, hi;
	xt_wh_bounds(b, &lo, &hi);
	/* The bounds are powers of two, so a bucket lies wholly below one
	 * or wholly at or above it. */
	unsigned i = 0;
	while (i < XG_WAIT_LE_N && lo >= xg_wait_le_ns[i])
		i++;
	return i;
}

static void add_part(struct xt_waitsum *s, uint32_t who, uint64_t ns)
{
	for (size_t i = 0; i < s->nby; i++)
		if (s->by[i].who == who) {
			s->by[i].ns += ns;
			return;
		}
	xg_grow(&s->by, &s->cby, s->nby + 1, sizeof(*s->by));
	s->by[s->nby].who = who;
	s->by[s->nby].ns = ns;
	s->nby++;
}

/* Whether part a ranks before b: more ns, then the lower id. */
static bool ranks_before(const struct xg_wait_part *a, const struct xg_wait_part *b)
{
	return a->ns != b->ns ? a->ns > b->ns : a->who < b->who;
}

/* The n largest of parts into top (biggest first); returns how many. */
static uint32_t pick_top(const struct xg_wait_part *parts, size_t n, struct xg_wait_part top[XG_BEHIND_TOP])
{
	uint32_t k = 0;
	for (size_t i = 0; i < n; i++) {
		if (!parts[i].ns)
			continue;
		uint32_t at = k < XG_BEHIND_TOP ? k : XG_BEHIND_TOP;
		while (at > 0 && ranks_before(&parts[i], &top[at - 1]))
			at--;
		if (at >= XG_BEHIND_TOP)
			continue;
		uint32_t last = k < XG_BEHIND_TOP ? k : XG_BEHIND_TOP - 1;
		memmove(&top[at + 1], &top[at], (last - at) * sizeof(*top));
		top[at] = parts[i];
		if (k < XG_BEHIND_TOP)
			k++;
	}
	return k;
}

void xt_waitsum_take(struct xt_waitsum *s, const struct xt_dom_waits *w, double hz, struct xg_waits *out)
{
	struct xg_wait_part last[XG_BEHIND_TOP];
	uint32_t nlast = 0;
	uint64_t cyc = 0, ns_was = 0;
	for (size_t i = 0; i < w->nby; i++) {
		cyc += w->by[i].cyc;
		uint64_t ns_now = xt_cyc_to_ns(cyc, hz);
		uint64_t ns = ns_now - ns_was;
		ns_was = ns_now;
		add_part(s, w->by[i].who, ns);
		/* w->by is biggest first already. */
		if (nlast < XG_BEHIND_TOP && ns)
			last[nlast++] = (struct xg_wait_part){ w->by[i].who, ns };
	}
	s->total_ns += ns_was;
	s->count += w->nwaits;
	s->sum_ns += w->sum_ns;
	if (w->nwaits)
		for (unsigned b = 0; b < XT_WH_N; b++)
			if (w->hist[b])
				s->bucket[xt_waitsum_bucket(b)] += w->hist[b];

	memset(out, 0, sizeof(*out));
	out->total_ns = s->total_ns;
	out->ntop = pick_top(s->by, s->nby, out->top);
	out->nlast = nlast;
	memcpy(out->last, last, nlast * sizeof(*last));
	out->count = s->count;
	out->sum_ns = s->sum_ns;
	memcpy(out->bucket, s->bucket, sizeof(out->bucket));
}

void xt_waitsum_free(struct xt_waitsum *s)
{
	free(s->by);
	memset(s, 0, sizeof(*s));
}

void xt_waits_fill(struct xt_acct *a, struct xt_waitsum *sum, struct xt_dom_waits *w, double hz,
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
