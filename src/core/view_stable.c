// SPDX-License-Identifier: GPL-2.0-or-later
/* Rows that hold still: the full-screen view's order after the exact sort.
 * Each refresh starts from the order shown last time (a domain new to the
 * list, or one without a figure last time, goes where the exact sort put
 * it, after the row it follows there),
 * and a row moves up past its neighbour only when it is ahead of it in the
 * sort's direction by more than a margin: 10 % of the larger of the two
 * values, and never less than the unit's floor (view_stable_floor). A row
 * that falls behind moves down the same way, as the rows that now clearly
 * beat it pass it. So two domains near each other keep their places, one
 * that overtakes by a clear amount moves at once.
 *
 * The exact order comes back at once on a new sort column or direction, a
 * new filter, and when the caller asks (v->stable_reset: Ctrl-L, a
 * freeze); text columns (NAME, STATE, HOST) always sort exactly. */
#include "view_stable.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define STABLE_REL 0.10
#define NO_RANK UINT32_MAX
/* Marks a place whose row had no figure to sort by (the first refresh,
 * before rates): the row then goes where the exact sort puts it. */
#define RANK_UNMEASURED (1u << 31)

/* The last order shown, by table row of that frame: who each row was and
 * its place (NO_RANK: not shown). Table rows come in (host, id) order, so
 * a domain is found again at the same index, at its baseline's, or by a
 * binary search. */
struct xg_stable {
	uint64_t *key;        /* host << 32 | id */
	uint32_t *gen, *rank;
	size_t n, cap, rank_cap;
	/* This frame's table rows, who each is (read once from the sample:
	 * the domain's entry is far from the row); they become key and gen. */
	uint64_t *ckey;
	uint32_t *cgen;
	size_t ccap;
	bool sorted;          /* key strictly increasing: binary search works */
	bool have;            /* a last order to start from */
	enum xg_col col;
	bool reverse, has_filter;
	char filter[256];
	size_t nvmnames;
	/* Scratch, by row of this frame: its last place; and the order built. */
	uint32_t *prev;
	size_t *start, *slot;
	size_t prev_cap, start_cap, slot_cap;
};

double view_stable_floor(enum xg_unit u)
{
	switch (u) {
	case XG_UNIT_PCT: return 1.0;                 /* 1 point of CPU%, RUN% ... */
	case XG_UNIT_SEC: return 1.0;                 /* 1 s of CPU(s) */
	case XG_UNIT_BYTES: return 1024.0 * 1024.0;   /* 1 MiB of MEM, L3-OCC */
	case XG_UNIT_BPS: return 1024.0;              /* 1 KiB/s of network, disk, MEM-BW */
	case XG_UNIT_PER_S: return 2.0;               /* 2 IOPS, packets/s, exits/s */
	case XG_UNIT_RATIO: return 0.1;               /* 0.1 MPKI */
	default: return 0.5;                          /* counts and ids: whole steps */
	}
}

/* Does row a belong above row b by more than the margin? */
static bool clearly_ahead(const struct xg_row *a, const struct xg_row *b, enum xg_col c, double sign,
			  double floor_)
{
	bool ha = row_has(a, c), hb = row_has(b, c);
	if (!ha || !hb)
		return ha && !hb;   /* unmeasured values stay last */
	double x = a->v[c], y = b->v[c];
	double lead = sign * (y - x);   /* > 0: a comes first in the sort's order */
	double big = fmax(fabs(x), fabs(y));
	return lead > fmax(STABLE_REL * big, floor_);
}

static uint64_t row_ident(const struct xg_table *t, const struct xg_row *r, uint32_t *gen)
{
	const struct xg_dom *d = t->cur && r->dom_index < t->cur->ndom ? &t->cur->dom[r->dom_index] : NULL;
	*gen = d ? d->gen : 0;
	return (uint64_t)(d ? d->host : 0) << 32 | r->id;
}

/* Row i's place in the last order shown, or NO_RANK. */
static uint32_t last_rank(const struct xg_stable *s, const struct xg_table *t, size_t i)
{
	const struct xg_row *r = &t->rows[i];
	uint32_t gen = s->cgen[i];
	uint64_t k = s->ckey[i];
	size_t at = SIZE_MAX;
	if (i < s->n && s->key[i] == k)
		at = i;
	else if (r->base_index != XG_NO_BASE && r->base_index < s->n && s->key[r->base_index] == k)
		at = r->base_index;
	else if (s->sorted) {
		size_t lo = 0, hi = s->n;
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			if (s->key[mid] < k)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo < s->n && s->key[lo] == k)
			at = lo;
	}
	if (at == SIZE_MAX || s->gen[at] != gen || (s->rank[at] & RANK_UNMEASURED))
		return NO_RANK;
	return s->rank[at];
}

/* Has the user asked for another order since the last one shown? */
static bool order_changed(const struct xg_stable *s, const struct xg_view *v)
{
	return !s->have || s->col != v->sort_col || s->reverse != v->reverse ||
	       s->has_filter != v->has_filter || (v->has_filter && strcmp(s->filter, v->filter_text)) ||
	       s->nvmnames != v->nvmnames;
}

static void remember(struct xg_stable *s, const struct xg_view *v, const struct xg_table *t, size_t n)
{
	size_t rows = t->ndom_rows;
	/* This frame's identities become the last frame's: swap the arrays. */
	uint64_t *okey = s->key;
	uint32_t *ogen = s->gen;
	size_t ocap = s->cap;
	s->key = s->ckey, s->gen = s->cgen, s->cap = s->ccap;
	s->ckey = okey, s->cgen = ogen, s->ccap = ocap;
	xg_grow(&s->rank, &s->rank_cap, rows ? rows : 1, sizeof(*s->rank));
	s->sorted = true;
	for (size_t i = 0; i < rows; i++) {
		s->rank[i] = NO_RANK;
		if (i && s->key[i] <= s->key[i - 1])
			s->sorted = false;
	}
	for (size_t k = 0; k < n; k++)
		s->rank[v->order[k]] = (uint32_t)k |
				       (row_has(&t->rows[v->order[k]], v->sort_col) ? 0 : RANK_UNMEASURED);
	s->n = rows;
	s->have = true;
	s->col = v->sort_col;
	s->reverse = v->reverse;
	s->has_filter = v->has_filter;
	memcpy(s->filter, v->filter_text, sizeof(s->filter));
	s->nvmnames = v->nvmnames;
}

/* The order to start from: the rows shown last time in their places,
 * each new row right after the row it follows in the exact order (those
 * above every known row first). Returns false when no row was shown last
 * time (nothing to hold still). */
static bool start_order(struct xg_stable *s, struct xg_view *v, const struct xg_table *t, size_t n)
{
	xg_grow(&s->prev, &s->prev_cap, n ? n : 1, sizeof(*s->prev));
	xg_grow(&s->start, &s->start_cap, n ? n : 1, sizeof(*s->start));
	/* slot[p]: 1 + the exact-order index of the row last shown at place p. */
	xg_grow(&s->slot, &s->slot_cap, s->n + 1, sizeof(*s->slot));
	memset(s->slot, 0, (s->n + 1) * sizeof(*s->slot));
	size_t first_known = n;
	for (size_t k = 0; k < n; k++) {
		uint32_t p = last_rank(s, t, v->order[k]);
		s->prev[k] = p;
		if (p != NO_RANK && p <= s->n) {
			s->slot[p] = k + 1;
			if (first_known == n)
				first_known = k;
		} else {
			s->prev[k] = NO_RANK;
		}
	}
	if (first_known == n)
		return false;
	size_t o = 0;
	for (size_t k = 0; k < first_known; k++)
		s->start[o++] = v->order[k];
	for (size_t p = 0; p <= s->n; p++) {
		if (!s->slot[p])
			continue;
		size_t k = s->slot[p] - 1;
		s->start[o++] = v->order[k];
		for (size_t q = k + 1; q < n && s->prev[q] == NO_RANK; q++)
			s->start[o++] = v->order[q];
	}
	return o == n;
}

/* Lets each row rise past its upper neighbours while clearly ahead of
 * them (insertion with the margin as the test). Few rows move on a calm
 * refresh, so this is one pass; when more than a budget of moves is
 * needed the exact order is kept instead (the list changed beyond
 * following anyway). Returns false then. */
static bool settle(size_t *o, size_t n, const struct xg_table *t, enum xg_col c, double sign)
{
	double fl = view_stable_floor(xg_columns[c].unit);
	size_t budget = 8 * n + 1024, moves = 0;
	for (size_t i = 1; i < n; i++) {
		size_t x = o[i], j = i;
		const struct xg_row *rx = &t->rows[x];
		while (j > 0 && clearly_ahead(rx, &t->rows[o[j - 1]], c, sign, fl)) {
			o[j] = o[j - 1];
			j--;
			if (++moves > budget)
				return false;
		}
		o[j] = x;
	}
	return true;
}

void view_stable_apply(struct xg_view *v, const struct xg_table *t, size_t n)
{
	if (!v->stable || !v->stable_live) {
		v->stable_reset = false;
		return;
	}
	if (!v->stab)
		v->stab = xg_calloc(1, sizeof(*v->stab));
	struct xg_stable *s = v->stab;
	enum xg_col c = v->sort_col;
	size_t rows = t->ndom_rows, had = s->ccap;
	xg_grow(&s->ckey, &s->ccap, rows ? rows : 1, sizeof(*s->ckey));
	if (s->ccap != had)
		s->cgen = xg_realloc(s->cgen, s->ccap * sizeof(*s->cgen));
	for (size_t i = 0; i < rows; i++)
		s->ckey[i] = row_ident(t, &t->rows[i], &s->cgen[i]);
	bool exact = v->stable_reset || order_changed(s, v) || xg_columns[c].unit == XG_UNIT_TEXT;
	v->stable_reset = false;
	if (!exact && start_order(s, v, t, n)) {
		double sign = xg_columns[c].descending ? -1.0 : 1.0;
		if (v->reverse)
			sign = -sign;
		if (settle(s->start, n, t, c, sign))
			memcpy(v->order, s->start, n * sizeof(*v->order));
	}
	remember(s, v, t, n);
}

void view_stable_free(struct xg_view *v)
{
	struct xg_stable *s = v->stab;
	if (!s)
		return;
	free(s->key);
	free(s->gen);
	free(s->ckey);
	free(s->cgen);
	free(s->rank);
	free(s->prev);
	free(s->start);
	free(s->slot);
	free(s);
	v->stab = NULL;
}
