// SPDX-License-Identifier: GPL-2.0-or-later
/* Rows that hold still: the full-screen view's order.
 * Each refresh starts from the order shown last time (a domain new to the
 * list, or one without a figure last time, goes where the exact sort puts
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
 * freeze); text columns (NAME, STATE, HOST) always sort exactly.
 *
 * The exact sort (view_sort_rows) is done here, and only when it is
 * needed: when few rows are new to the order (at most FEW_NEW), the order
 * to start from is the last one shown, walked once, with each new row
 * after the row it follows in the exact order, found by comparing sort
 * keys (view_sort_key) in one pass: the order the exact sort would have
 * led to, without sorting. So holding rows still costs about what the
 * exact sort it replaces does. */
#include "view_stable.h"
#include "view_sort.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define STABLE_REL 0.10
#define NO_RANK UINT32_MAX
/* Marks a place whose row had no figure to sort by (the first refresh,
 * before rates): the row then goes where the exact sort puts it. */
#define RANK_UNMEASURED (1u << 31)
/* Rows new to the order that are placed without the exact sort. */
#define FEW_NEW 64
/* cnew's bits: the row has no baseline; it has a figure in the sort column. */
#define ROW_NEW 1u
#define ROW_HAS 2u
#define ROW_SEL 4u      /* start_unsorted: to be shown */
#define ROW_PLACED 8u   /* start_unsorted: in its last place */

/* The last order shown, as table rows of that frame, and who each row
 * was. Table rows come in (host, id) order, so a domain is found again at
 * the same index, by one walk through both tables, or by a binary search. */
struct xg_stable {
	uint64_t *key;        /* (pool host) << 32 | id */
	size_t n, cap;
	/* The order shown, in that frame's table rows, and whether each place
	 * had a figure; rank: by row, its place (only the general path builds
	 * it, from these). */
	size_t *shown;
	uint8_t *shown_has;
	size_t nshown, shown_cap, shown_has_cap;
	uint32_t *rank;
	size_t rank_cap;
	/* This frame's table rows: who each is (it becomes key), whether it
	 * is new (no baseline: placed afresh) and has a figure, and its value
	 * (the sort column times the sort's sign, NaN when not measured). */
	uint64_t *ckey;
	uint8_t *cnew;        /* ROW_NEW, ROW_HAS */
	double *rval;
	size_t ccap, rval_cap;
	bool cin_order;       /* ckey strictly increasing */
	uint32_t *cat;        /* this frame's row -> the last frame's row (match_rows) */
	uint32_t *icat;       /* the last frame's row -> this frame's (match_back) */
	size_t cat_cap, icat_cap;
	bool sorted;          /* key strictly increasing: binary search works */
	bool have;            /* a last order to start from */
	enum xg_col col;
	bool reverse, has_filter;
	char filter[256];
	size_t nvmnames;
	/* Scratch: the order built (row indexes, or exact-order indexes on
	 * the general path) and its values by place (pval); on the general
	 * path, by exact-order index, each row's last place and value, and by
	 * last place, 1 + who is there now. */
	size_t *start, *out;
	uint32_t *prev, *slot;
	double *val, *pval;   /* pval: by place in start */
	size_t start_cap, out_cap, prev_cap, slot_cap, val_cap, pval_cap;
	/* The rows new to the order (placed without the exact sort), and
	 * after which known row each goes. */
	size_t fresh[FEW_NEW], after[FEW_NEW];
	uint64_t fkey[FEW_NEW];
	struct group {
		size_t at;        /* the known row's index in start */
		size_t first;     /* its first new row in fresh[] */
	} group[FEW_NEW];
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
static inline bool clearly_ahead(double a, double b, double floor_)
{
	if (isnan(a) || isnan(b))
		return !isnan(a) && isnan(b);
	double fa = fabs(a), fb = fabs(b);
	double m = STABLE_REL * (fa > fb ? fa : fb);
	return b - a > (m > floor_ ? m : floor_);
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
	if ((s->cnew[i] & ROW_NEW) || at == NO_RANK || (s->rank[at] & RANK_UNMEASURED))
		return NO_RANK;
	return s->rank[at];
}

/* cat[i]: where this frame's row i was in the last frame's table
 * (NO_RANK: not there). Both tables come in (host, id) order, so one walk
 * through both finds them all; should this table not be in order, a
 * binary search in the last one does. same: the same domains in the same
 * rows as last time. */
static void match_rows(struct xg_stable *s, size_t rows, bool same)
{
	xg_grow(&s->cat, &s->cat_cap, rows ? rows : 1, sizeof(*s->cat));
	if (same) {
		for (size_t i = 0; i < rows; i++)
			s->cat[i] = (uint32_t)i;
		return;
	}
	bool in_order = s->cin_order;
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

/* Keeps the order shown (v->order[0..n)) for the next refresh: a row has
 * a figure when its value (val, by place) is known, or, with val NULL
 * (the exact order shown), when the row has one. */
static void remember(struct xg_stable *s, const struct xg_view *v, const struct xg_table *t, size_t n,
		     const double *val)
{
	/* This frame's identities become the last frame's: swap the arrays. */
	uint64_t *okey = s->key;
	size_t ocap = s->cap;
	s->key = s->ckey, s->cap = s->ccap;
	s->ckey = okey, s->ccap = ocap;
	s->sorted = s->cin_order;
	xg_grow(&s->shown, &s->shown_cap, n ? n : 1, sizeof(*s->shown));
	xg_grow(&s->shown_has, &s->shown_has_cap, n ? n : 1, sizeof(*s->shown_has));
	memcpy(s->shown, v->order, n * sizeof(*s->shown));
	for (size_t k = 0; k < n; k++)
		s->shown_has[k] = val ? !isnan(val[k]) : row_has(&t->rows[v->order[k]], v->sort_col);
	s->nshown = n;
	s->n = t->ndom_rows;
	s->have = true;
	s->col = v->sort_col;
	s->reverse = v->reverse;
	s->has_filter = v->has_filter;
	memcpy(s->filter, v->filter_text, sizeof(s->filter));
	s->nvmnames = v->nvmnames;
}

/* rank[row of the last frame]: its place then (RANK_UNMEASURED when it had
 * no figure), NO_RANK when not shown. */
static void ranks(struct xg_stable *s)
{
	xg_grow(&s->rank, &s->rank_cap, s->n ? s->n : 1, sizeof(*s->rank));
	memset(s->rank, 0xff, s->n * sizeof(*s->rank));   /* NO_RANK */
	for (size_t p = 0; p < s->nshown; p++)
		s->rank[s->shown[p]] = (uint32_t)p | (s->shown_has[p] ? 0 : RANK_UNMEASURED);
}

/* The order to start from, from the exact order in v->order, as indexes
 * into it (s->start): the rows shown last time in their places, each new
 * row right after the row it follows in the exact order (those above
 * every known row first). Gathers each row's value (s->val, by exact-order
 * index). Returns false when no row was shown last time (nothing to hold
 * still). */
static bool start_order(struct xg_stable *s, struct xg_view *v, size_t n)
{
	xg_grow(&s->prev, &s->prev_cap, n ? n : 1, sizeof(*s->prev));
	xg_grow(&s->start, &s->start_cap, n ? n : 1, sizeof(*s->start));
	xg_grow(&s->val, &s->val_cap, n ? n : 1, sizeof(*s->val));
	/* slot[p]: 1 + the exact-order index of the row last shown at place p. */
	xg_grow(&s->slot, &s->slot_cap, s->n + 1, sizeof(*s->slot));
	memset(s->slot, 0, (s->n + 1) * sizeof(*s->slot));
	size_t first_known = n;
	for (size_t k = 0; k < n; k++) {
		s->val[k] = s->rval[v->order[k]];
		uint32_t p = last_rank(s, v->order[k]);
		if (p != NO_RANK && p <= s->n) {
			s->slot[p] = (uint32_t)k + 1;
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

/* Row r's key in the exact sort (view_sort_key), from what the row pass
 * gathered. */
static inline uint64_t sort_key(const struct xg_stable *s, size_t r)
{
	return s->cnew[r] & ROW_HAS ? view_order_bits(s->rval[r]) >> 1 : ~0ull;
}

/* Does row a come before row b in the exact order (by sort key, then by
 * table row)? */
static inline bool before(uint64_t ka, size_t a, uint64_t kb, size_t b)
{
	return ka < kb || (ka == kb && a < b);
}

/* How many of the new rows (in exact order) come before row r, key k? */
static size_t fresh_before(const struct xg_stable *s, size_t nfresh, uint64_t k, size_t r)
{
	size_t lo = 0, hi = nfresh;
	if (nfresh <= 8) {
		for (size_t i = 0; i < nfresh; i++)
			lo += before(s->fkey[i], s->fresh[i], k, r);
		return lo;
	}
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (before(s->fkey[mid], s->fresh[mid], k, r))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* icat[j]: this frame's row of the last frame's row j, NO_RANK when gone.
 * Both tables are in strictly increasing (host, id) order: one walk. */
static void match_back(struct xg_stable *s, size_t rows)
{
	xg_grow(&s->icat, &s->icat_cap, s->n ? s->n : 1, sizeof(*s->icat));
	size_t i = 0;
	for (size_t j = 0; j < s->n; j++) {
		uint64_t k = s->key[j];
		while (i < rows && s->ckey[i] < k)
			i++;
		s->icat[j] = i < rows && s->ckey[i] == k ? (uint32_t)i : NO_RANK;
	}
}

/* The same order as start_order builds, as rows (s->start, their values
 * in s->pval), without the exact order: the rows shown last time, each
 * with a figure then and no new baseline now, in their places; the few
 * others (at most FEW_NEW) are new to the order: in exact order among
 * themselves, each goes after the known row nearest above it in the
 * exact order. Returns false when the exact order is needed to build it
 * (more new rows, none known, tables not in (host, id) order). same: the
 * same domains in the same rows as last time. */
static bool start_unsorted(struct xg_stable *s, const struct xg_view *v, size_t n, size_t rows, bool same)
{
	if (!s->sorted || !s->cin_order)
		return false;
	if (!same)
		match_back(s, rows);
	xg_grow(&s->start, &s->start_cap, n ? n : 1, sizeof(*s->start));
	xg_grow(&s->pval, &s->pval_cap, n ? n : 1, sizeof(*s->pval));
	for (size_t k = 0; k < n; k++)
		s->cnew[v->order[k]] |= ROW_SEL;
	size_t o = 0;
	for (size_t p = 0; p < s->nshown; p++) {
		size_t row = same ? s->shown[p] : s->icat[s->shown[p]];
		if (!s->shown_has[p] || row == NO_RANK || (s->cnew[row] & (ROW_SEL | ROW_NEW)) != ROW_SEL)
			continue;
		s->cnew[row] |= ROW_PLACED;
		s->pval[o] = s->rval[row];
		s->start[o++] = row;
	}
	size_t nknown = o, nfresh = 0;
	if (!nknown)
		return false;
	for (size_t k = 0; k < n && nknown < n; k++) {
		size_t row = v->order[k];
		if (s->cnew[row] & ROW_PLACED)
			continue;
		if (nfresh == FEW_NEW)
			return false;
		/* In exact order among themselves (insertion: few). */
		uint64_t key = sort_key(s, row);
		size_t j = nfresh++;
		while (j > 0 && before(key, row, s->fkey[j - 1], s->fresh[j - 1])) {
			s->fresh[j] = s->fresh[j - 1];
			s->fkey[j] = s->fkey[j - 1];
			j--;
		}
		s->fresh[j] = row;
		s->fkey[j] = key;
	}
	if (!nfresh)
		return true;
	/* after[i]: 1 + the index in start of the known row nearest above
	 * fresh[i] in the exact order, 0 for none: per gap between new rows,
	 * the latest known row in it, then the latest of all gaps up to each
	 * new row. */
	memset(s->after, 0, nfresh * sizeof(*s->after));
	uint64_t akey[FEW_NEW];   /* after[i]'s key */
	for (size_t q = 0; q < nknown; q++) {
		size_t row = s->start[q];   /* its value at hand: pval[q] */
		uint64_t key = s->cnew[row] & ROW_HAS ? view_order_bits(s->pval[q]) >> 1 : ~0ull;
		size_t gap = fresh_before(s, nfresh, key, row);
		if (gap < nfresh && (!s->after[gap] || before(akey[gap], s->start[s->after[gap] - 1], key, row))) {
			s->after[gap] = q + 1;
			akey[gap] = key;
		}
	}
	for (size_t i = 1; i < nfresh; i++)
		if (!s->after[i])
			s->after[i] = s->after[i - 1];
	/* The new rows after one known row come together in fresh[]: one
	 * group each, in the order of the known rows' places. */
	size_t ngroup = 0, f = 0;
	for (size_t i = 0; i < nfresh; i++) {
		if (!s->after[i]) {
			f = i + 1;
			continue;
		}
		if (i > f && s->after[i] == s->after[i - 1])
			continue;
		struct group g = { s->after[i] - 1, i };
		size_t j = ngroup++;
		while (j > 0 && s->group[j - 1].at > g.at) {
			s->group[j] = s->group[j - 1];
			j--;
		}
		s->group[j] = g;
	}
	/* Into out and val, then swapped with start and pval. */
	xg_grow(&s->out, &s->out_cap, n ? n : 1, sizeof(*s->out));
	xg_grow(&s->val, &s->val_cap, n ? n : 1, sizeof(*s->val));
	size_t w = 0, gi = 0;
	for (size_t i = 0; i < f; i++) {
		s->val[w] = s->rval[s->fresh[i]];
		s->out[w++] = s->fresh[i];
	}
	for (size_t q = 0; q < nknown; q++) {
		s->val[w] = s->pval[q];
		s->out[w++] = s->start[q];
		for (; gi < ngroup && s->group[gi].at == q; gi++)
			for (size_t i = s->group[gi].first; i < nfresh && s->after[i] == q + 1; i++) {
				s->val[w] = s->rval[s->fresh[i]];
				s->out[w++] = s->fresh[i];
			}
	}
	size_t *ts = s->start, tsc = s->start_cap;
	s->start = s->out, s->start_cap = s->out_cap;
	s->out = ts, s->out_cap = tsc;
	double *tv = s->pval;
	size_t tvc = s->pval_cap;
	s->pval = s->val, s->pval_cap = s->val_cap;
	s->val = tv, s->val_cap = tvc;
	return w == n;
}

/* Lets each entry rise past its upper neighbours while clearly ahead of
 * them (insertion with the margin as the test); val[i] is o[i]'s value
 * and moves with it.
 * Few rows move on a calm refresh, so this is one pass; when more than a
 * budget of moves is needed the exact order is kept instead (the list
 * changed beyond following anyway). Returns false then. */
static bool settle(size_t *o, double *val, size_t n, double floor_)
{
	size_t budget = 8 * n + 1024, moves = 0;
	for (size_t i = 1; i < n; i++) {
		size_t x = o[i], j = i;
		double vx = val[i];
		while (j > 0 && clearly_ahead(vx, val[j - 1], floor_)) {
			o[j] = o[j - 1];
			val[j] = val[j - 1];
			j--;
			if (++moves > budget)
				return false;
		}
		o[j] = x;
		val[j] = vx;
	}
	return true;
}

/* Off only in the unit test that compares the two ways to the order. */
static bool unsorted_way = true;

void view_stable_unsorted(bool on)
{
	unsorted_way = on;
}

/* The general path: the exact sort, then the order to start from built
 * from it, settled. */
static void settle_sorted(struct xg_stable *s, struct xg_view *v, const struct xg_table *t, size_t n,
			  bool exact, bool same, double floor_)
{
	view_sort_rows(v, t, n);
	if (!exact) {
		match_rows(s, t->ndom_rows, same);
		ranks(s);
	}
	bool ok = !exact && start_order(s, v, n);
	if (ok) {
		xg_grow(&s->pval, &s->pval_cap, n ? n : 1, sizeof(*s->pval));
		for (size_t o = 0; o < n; o++)
			s->pval[o] = s->val[s->start[o]];
		ok = settle(s->start, s->pval, n, floor_);
	}
	if (!ok) {
		remember(s, v, t, n, NULL);
		return;
	}
	xg_grow(&s->out, &s->out_cap, n ? n : 1, sizeof(*s->out));
	for (size_t o = 0; o < n; o++)
		s->out[o] = v->order[s->start[o]];
	memcpy(v->order, s->out, n * sizeof(*v->order));
	remember(s, v, t, n, s->pval);
}

void view_stable_sort(struct xg_view *v, const struct xg_table *t, size_t n)
{
	if (!v->stable || !v->stable_live) {
		v->stable_reset = false;
		view_sort_rows(v, t, n);
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
	xg_grow(&s->rval, &s->rval_cap, rows ? rows : 1, sizeof(*s->rval));
	double sign = xg_columns[c].descending ? -1.0 : 1.0;
	if (v->reverse)
		sign = -sign;
	bool exact = v->stable_reset || order_changed(s, v) || xg_columns[c].unit == XG_UNIT_TEXT;
	v->stable_reset = false;
	/* One pass through the rows in table order (one after another, not
	 * scattered as in the sorted order): who each is, whether new, its
	 * value and sort key; whether they are the rows of last time. */
	bool same = s->sorted && rows == s->n, in_order = true;
	/* Compared with last time's identities while they are the same size
	 * (else with this frame's own, a comparison that says nothing). */
	const uint64_t *was = same ? s->key : s->ckey;
	const struct xg_sample *cur = t->cur;
	bool peers = cur && cur->npeer;
	uint64_t last = 0;
	for (size_t i = 0; i < rows; i++) {
		const struct xg_row *r = &t->rows[i];
		uint64_t key = peers ? row_ident(t, r) : r->id;
		bool has = row_has(r, c);
		double x = sign * r->v[c];
		s->ckey[i] = key;
		s->cnew[i] = (r->base_index == XG_NO_BASE ? ROW_NEW : 0) | (has ? ROW_HAS : 0);
		s->rval[i] = has ? x : NAN;
		in_order &= !i || key > last;
		same &= key == was[i];
		last = key;
	}
	s->cin_order = in_order;
	double floor_ = view_stable_floor(xg_columns[c].unit);
	if (exact || !unsorted_way || !start_unsorted(s, v, n, rows, same)) {
		settle_sorted(s, v, t, n, exact, same, floor_);
		return;
	}
	if (!settle(s->start, s->pval, n, floor_)) {
		view_sort_rows(v, t, n);   /* as settle_sorted would find */
		remember(s, v, t, n, NULL);
		return;
	}
	memcpy(v->order, s->start, n * sizeof(*v->order));
	remember(s, v, t, n, s->pval);
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
	free(s->pval);
	free(s->rval);
	free(s->cat);
	free(s->rank);
	free(s->prev);
	free(s->start);
	free(s->slot);
	free(s->shown);
	free(s->shown_has);
	free(s->icat);
	free(s);
	v->stab = NULL;
}
