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
	uint64_t *key;        /* (pool host) << 32 | id */
	uint32_t *rank;
	size_t n, cap, rank_cap;
	/* This frame's table rows: who each is (it becomes key) and whether
	 * it is new (no baseline: placed afresh). */
	uint64_t *ckey;
	uint8_t *cnew;
	size_t ccap;
	uint32_t *cat;        /* this frame's row -> the last frame's row (match_rows) */
	size_t cat_cap;
	bool sorted;          /* key strictly increasing: binary search works */
	bool have;            /* a last order to start from */
	enum xg_col col;
	bool reverse, has_filter;
	char filter[256];
	size_t nvmnames;
	/* Scratch, by row of this frame: its last place; and the order built. */
	uint32_t *prev;
	size_t *start, *slot, *out;
	double *val, *oval, *rval;   /* the sort column times the sort's sign: by exact-order
	                                index, by place shown, by row */
	size_t prev_cap, start_cap, slot_cap, out_cap, val_cap, oval_cap, rval_cap;
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
	case XG_UNIT_MS: return 0.1;                  /* 0.1 ms of WAIT-P50, WAIT-P99 */
	default: return 0.5;                          /* counts and ids: whole steps */
	}
}

/* Is a value ahead of another by more than the margin? Values are the
 * sort column's times the sort's sign (smaller comes first), NaN when not
 * measured (last). */
static bool clearly_ahead(double a, double b, double floor_)
{
	if (isnan(a) || isnan(b))
		return !isnan(a) && isnan(b);
	return b - a > fmax(STABLE_REL * fmax(fabs(a), fabs(b)), floor_);
}

/* Who row r is: (pool host, id). The domain's incarnation needs no more:
 * a domain without a baseline (new, or its id reused) is placed afresh. */
static uint64_t row_ident(const struct xg_table *t, const struct xg_row *r)
{
	const struct xg_sample *cur = t->cur;
	if (!cur || !cur->npeer || r->dom_index >= cur->ndom)
		return r->id;
	return (uint64_t)cur->dom[r->dom_index].host << 32 | r->id;
}

/* Row i's place in the last order shown, or NO_RANK. */
static uint32_t last_rank(const struct xg_stable *s, size_t i)
{
	uint32_t at = s->cat[i];
	if (s->cnew[i] || at == NO_RANK || (s->rank[at] & RANK_UNMEASURED))
		return NO_RANK;
	return s->rank[at];
}

/* cat[i]: where this frame's row i was in the last frame's table
 * (NO_RANK: not there). Both tables come in (host, id) order, so one walk
 * through both finds them all; should this table not be in order, a
 * binary search in the last one does. */
static void match_rows(struct xg_stable *s, size_t rows)
{
	xg_grow(&s->cat, &s->cat_cap, rows ? rows : 1, sizeof(*s->cat));
	bool in_order = true;
	for (size_t i = 1; i < rows && in_order; i++)
		in_order = s->ckey[i] > s->ckey[i - 1];
	size_t j = 0;
	for (size_t i = 0; i < rows; i++) {
		uint64_t k = s->ckey[i];
		s->cat[i] = NO_RANK;
		if (!s->sorted)
			continue;
		if (in_order) {
			while (j < s->n && s->key[j] < k)
				j++;
		} else {
			size_t lo = 0, hi = s->n;
			while (lo < hi) {
				size_t mid = lo + (hi - lo) / 2;
				if (s->key[mid] < k)
					lo = mid + 1;
				else
					hi = mid;
			}
			j = lo;
		}
		if (j < s->n && s->key[j] == k)
			s->cat[i] = (uint32_t)j;
	}
}

/* Has the user asked for another order since the last one shown? */
static bool order_changed(const struct xg_stable *s, const struct xg_view *v)
{
	return !s->have || s->col != v->sort_col || s->reverse != v->reverse ||
	       s->has_filter != v->has_filter || (v->has_filter && strcmp(s->filter, v->filter_text)) ||
	       s->nvmnames != v->nvmnames;
}

/* Keeps the order shown (v->order[0..n), its values val[0..n) when known,
 * else read from the rows) for the next refresh. */
static void remember(struct xg_stable *s, const struct xg_view *v, const struct xg_table *t, size_t n,
		     const double *val)
{
	size_t rows = t->ndom_rows;
	/* This frame's identities become the last frame's: swap the arrays. */
	uint64_t *okey = s->key;
	size_t ocap = s->cap;
	s->key = s->ckey, s->cap = s->ccap;
	s->ckey = okey, s->ccap = ocap;
	xg_grow(&s->rank, &s->rank_cap, rows ? rows : 1, sizeof(*s->rank));
	s->sorted = true;
	for (size_t i = 0; i < rows; i++) {
		s->rank[i] = NO_RANK;
		if (i && s->key[i] <= s->key[i - 1])
			s->sorted = false;
	}
	for (size_t k = 0; k < n; k++) {
		bool has = val ? !isnan(val[k]) : row_has(&t->rows[v->order[k]], v->sort_col);
		s->rank[v->order[k]] = (uint32_t)k | (has ? 0 : RANK_UNMEASURED);
	}
	s->n = rows;
	s->have = true;
	s->col = v->sort_col;
	s->reverse = v->reverse;
	s->has_filter = v->has_filter;
	memcpy(s->filter, v->filter_text, sizeof(s->filter));
	s->nvmnames = v->nvmnames;
}

/* The order to start from, as indexes into the exact order (s->start):
 * the rows shown last time in their places, each new row right after the
 * row it follows in the exact order (those above every known row first).
 * Gathers each row's value once (s->val, by exact-order index). Returns
 * false when no row was shown last time (nothing to hold still). */
static bool start_order(struct xg_stable *s, struct xg_view *v, size_t n)
{
	xg_grow(&s->prev, &s->prev_cap, n ? n : 1, sizeof(*s->prev));
	xg_grow(&s->start, &s->start_cap, n ? n : 1, sizeof(*s->start));
	xg_grow(&s->val, &s->val_cap, n ? n : 1, sizeof(*s->val));
	/* slot[p]: 1 + the exact-order index of the row last shown at place p. */
	xg_grow(&s->slot, &s->slot_cap, s->n + 1, sizeof(*s->slot));
	memset(s->slot, 0, (s->n + 1) * sizeof(*s->slot));
	size_t first_known = n;
	/* s->rval: each row's value, read with its identity (view_stable_apply). */
	for (size_t k = 0; k < n; k++) {
		s->val[k] = s->rval[v->order[k]];
		uint32_t p = last_rank(s, v->order[k]);
		if (p != NO_RANK && p <= s->n) {
			s->slot[p] = k + 1;
			if (first_known == n)
				first_known = k;
		} else {
			p = NO_RANK;
		}
		s->prev[k] = p;
	}
	if (first_known == n)
		return false;
	size_t o = 0;
	for (size_t k = 0; k < first_known; k++)
		s->start[o++] = k;
	for (size_t p = 0; p <= s->n; p++) {
		if (!s->slot[p])
			continue;
		size_t k = s->slot[p] - 1;
		s->start[o++] = k;
		for (size_t q = k + 1; q < n && s->prev[q] == NO_RANK; q++)
			s->start[o++] = q;
	}
	return o == n;
}

/* Lets each entry rise past its upper neighbours while clearly ahead of
 * them (insertion with the margin as the test), on the gathered values.
 * Few rows move on a calm refresh, so this is one pass; when more than a
 * budget of moves is needed the exact order is kept instead (the list
 * changed beyond following anyway). Returns false then. */
static bool settle(size_t *o, size_t n, const double *val, double floor_)
{
	size_t budget = 8 * n + 1024, moves = 0;
	for (size_t i = 1; i < n; i++) {
		size_t x = o[i], j = i;
		double vx = val[x];
		while (j > 0 && clearly_ahead(vx, val[o[j - 1]], floor_)) {
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
	if (s->ccap != had || !s->cnew)
		s->cnew = xg_realloc(s->cnew, s->ccap * sizeof(*s->cnew));
	double sign = xg_columns[c].descending ? -1.0 : 1.0;
	if (v->reverse)
		sign = -sign;
	/* One pass through the rows in table order (one after another, not
	 * scattered as in the sorted order): who each is, and its value. */
	xg_grow(&s->rval, &s->rval_cap, rows ? rows : 1, sizeof(*s->rval));
	for (size_t i = 0; i < rows; i++) {
		const struct xg_row *r = &t->rows[i];
		s->ckey[i] = row_ident(t, r);
		s->cnew[i] = r->base_index == XG_NO_BASE;
		s->rval[i] = row_has(r, c) ? sign * r->v[c] : NAN;
	}
	bool exact = v->stable_reset || order_changed(s, v) || xg_columns[c].unit == XG_UNIT_TEXT;
	v->stable_reset = false;
	if (!exact)
		match_rows(s, rows);
	if (exact || !start_order(s, v, n) ||
	    !settle(s->start, n, s->val, view_stable_floor(xg_columns[c].unit))) {
		remember(s, v, t, n, NULL);
		return;
	}
	/* The settled order, as rows; and its values, by place, for next time. */
	xg_grow(&s->out, &s->out_cap, n ? n : 1, sizeof(*s->out));
	xg_grow(&s->oval, &s->oval_cap, n ? n : 1, sizeof(*s->oval));
	for (size_t o = 0; o < n; o++) {
		s->out[o] = v->order[s->start[o]];
		s->oval[o] = s->val[s->start[o]];
	}
	memcpy(v->order, s->out, n * sizeof(*v->order));
	remember(s, v, t, n, s->oval);
}

void view_stable_free(struct xg_view *v)
{
	struct xg_stable *s = v->stab;
	if (!s)
		return;
	free(s->key);
	free(s->ckey);
	free(s->cnew);
	free(s->out);
	free(s->val);
	free(s->oval);
	free(s->rval);
	free(s->cat);
	free(s->rank);
	free(s->prev);
	free(s->start);
	free(s->slot);
	free(s);
	v->stab = NULL;
}
