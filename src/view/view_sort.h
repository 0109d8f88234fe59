/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Private to view/view*.c: the sort of view_apply. */
#ifndef XGTOP_VIEW_SORT_H
#define XGTOP_VIEW_SORT_H

#include "xgtop/view/view.h"

#include <string.h>

/* Sorts the n domain rows in v->order (given in table order) by the sort
 * column: unmeasured values last, ties in table order. */
void view_sort_rows(struct xg_view *v, const struct xg_table *t, size_t n);
void view_sort_free(struct xg_view *v);

/* A double as an unsigned integer with the same order. */
static inline uint64_t view_order_bits(double v)
{
	uint64_t b;
	if (v == 0)
		v = 0;   /* -0.0 and 0.0 are equal: give them one key */
	memcpy(&b, &v, sizeof(b));
	return b >> 63 ? ~b : b | 1ull << 63;
}

/* Row r's key in a numeric sort by column c (sign: -1 for a descending
 * order, else 1): its value in the sort's order as an integer, unmeasured
 * values after every measured one in both directions. The exact order of
 * view_sort_rows is by this key, then by table row. */
static inline uint64_t view_sort_key(const struct xg_row *r, enum xg_col c, double sign)
{
	return row_has(r, c) ? view_order_bits(sign * r->v[c]) >> 1 : ~0ull;
}

#endif
