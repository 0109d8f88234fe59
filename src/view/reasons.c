// SPDX-License-Identifier: GPL-2.0-or-later
/* The one aggregation of `-` reasons (see reasons.h). */
#include "xgtop/view/reasons.h"

#include <string.h>

void reasons_init(struct xg_reasons *R, bool socket_apart)
{
	R->n = 0;
	R->more = false;
	R->socket_apart = socket_apart;
}

static bool cell_is_dash(const struct xg_row *r, enum xg_col c)
{
	/* BEHIND is the one text column with a '-' of its own */
	if ((xg_columns[c].unit == XG_UNIT_TEXT && c != XG_COL_BEHIND) || c == XG_COL_ID)
		return false;
	return !row_has(r, c) && row_col_applies(r, c);
}

void reasons_add_row(struct xg_reasons *R, const struct xg_table *t, const struct xg_row *r,
		     const bool cols[XG_COL_COUNT])
{
	bool sock = R->socket_apart && r->sock_row;
	for (int i = 0; i < XG_COL_COUNT; i++) {
		enum xg_col c = (enum xg_col)i;
		if (!cols[c] || !cell_is_dash(r, c))
			continue;
		const char *why = row_why(t, r, c);
		if (!why || !*why)
			why = XG_WHY_UNSAID;
		size_t k = 0;
		while (k < R->n && (R->v[k].col != c || R->v[k].socket != sock ||
				    strcmp(R->v[k].why, why)))
			k++;
		if (k < R->n) {
			R->v[k].count++;
		} else if (R->n < XG_REASONS_MAX) {
			R->v[R->n++] = (struct xg_reason){ c, sock, why, 1, r };
		} else {
			R->more = true;
		}
	}
}

static bool goes_before(const struct xg_reason *a, const struct xg_reason *b)
{
	return a->col < b->col || (a->col == b->col && !a->socket && b->socket);
}

void reasons_sort(struct xg_reasons *R)
{
	/* Insertion sort: stable, and the list is short and mostly in order. */
	for (size_t i = 1; i < R->n; i++) {
		struct xg_reason x = R->v[i];
		size_t j = i;
		for (; j > 0 && goes_before(&x, &R->v[j - 1]); j--)
			R->v[j] = R->v[j - 1];
		R->v[j] = x;
	}
}
