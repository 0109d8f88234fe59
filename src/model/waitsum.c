// SPDX-License-Identifier: GPL-2.0-or-later
/* Running wait totals of a domain (see waitsum.h). */
#include "xgtop/model/waitsum.h"

#include <stdlib.h>
#include <string.h>

unsigned waitsum_bucket(uint64_t lo_ns)
{
	unsigned i = 0;
	while (i < XG_WAIT_LE_N && lo_ns >= xg_wait_le_ns[i])
		i++;
	return i;
}

static void add_to(struct xg_wait_part **v, size_t *n, size_t *cap, uint32_t who, uint64_t ns)
{
	for (size_t i = 0; i < *n; i++)
		if ((*v)[i].who == who) {
			(*v)[i].ns += ns;
			return;
		}
	xg_grow(v, cap, *n + 1, sizeof(**v));
	(*v)[*n] = (struct xg_wait_part){ who, ns };
	(*n)++;
}

void waitsum_add(struct xg_waitsum *s, uint32_t who, uint64_t ns)
{
	if (!ns)
		return;
	add_to(&s->by, &s->nby, &s->cby, who, ns);
	add_to(&s->now, &s->nnow, &s->cnow, who, ns);
	s->total_ns += ns;
}

void waitsum_add_lengths(struct xg_waitsum *s, uint64_t lo_ns, uint64_t n)
{
	s->bucket[waitsum_bucket(lo_ns)] += n;
	s->count += n;
}

void waitsum_add_length_ns(struct xg_waitsum *s, uint64_t ns)
{
	s->sum_ns += ns;
}

/* Whether part a ranks before b: more ns, then the lower id. */
static bool ranks_before(const struct xg_wait_part *a, const struct xg_wait_part *b)
{
	return a->ns != b->ns ? a->ns > b->ns : a->who < b->who;
}

/* The largest of parts into top (biggest first); returns how many. */
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

void waitsum_take(struct xg_waitsum *s, struct xg_waits *out)
{
	memset(out, 0, sizeof(*out));
	out->total_ns = s->total_ns;
	out->ntop = pick_top(s->by, s->nby, out->top);
	out->nlast = pick_top(s->now, s->nnow, out->last);
	out->count = s->count;
	out->sum_ns = s->sum_ns;
	memcpy(out->bucket, s->bucket, sizeof(out->bucket));
	s->nnow = 0;
}

void waitsum_free(struct xg_waitsum *s)
{
	free(s->by);
	free(s->now);
	memset(s, 0, sizeof(*s));
}

void waitsum_wh_bounds(unsigned b, uint64_t *lo, uint64_t *hi)
{
	if (b < XG_WH_SUB) {
		*lo = b;
		*hi = b + 1;
		return;
	}
	unsigned msb = b / XG_WH_SUB + XG_WH_SUB_BITS - 1, sub = b % XG_WH_SUB;
	uint64_t step = 1ull << (msb - XG_WH_SUB_BITS);
	*lo = (1ull << msb) + sub * step;
	*hi = *lo + step;   /* wraps to 0 for the very last bucket: unused */
}

double waitsum_wh_quantile(const uint64_t *hist, unsigned n, double q)
{
	uint64_t total = 0;
	for (unsigned b = 0; b < n; b++)
		total += hist[b];
	if (!total)
		return 0;
	/* The rank of the quantile among total sorted lengths, 1-based. */
	double rank = q * (double)total;
	if (rank < 1)
		rank = 1;
	uint64_t seen = 0;
	for (unsigned b = 0; b < n; b++) {
		if (!hist[b])
			continue;
		if ((double)(seen + hist[b]) >= rank) {
			uint64_t lo, hi;
			waitsum_wh_bounds(b, &lo, &hi);
			double f = (rank - (double)seen) / (double)hist[b];
			return (double)lo + f * (double)(hi - lo);
		}
		seen += hist[b];
	}
	return 0;
}
