/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Private to core/view*.c: rows that hold still (view_stable.c). */
#ifndef XGTOP_VIEW_STABLE_H
#define XGTOP_VIEW_STABLE_H

#include "xgtop/view/view.h"

/* Sorts the n domain rows in v->order (in table order on entry): the
 * exact sort (view_sort_rows), or, when the view holds rows still
 * (v->stable and v->stable_live), the order from the last one shown in
 * which a row passes its neighbour only when the two differ by more than
 * the margin (10 % of the larger, at least view_stable_floor of the sort
 * column's unit). The exact order comes on a new sort column, direction
 * or filter, after v->stable_reset, and for text columns. */
void view_stable_sort(struct xg_view *v, const struct xg_table *t, size_t n);
void view_stable_free(struct xg_view *v);
/* For the unit test that compares both ways to the order: off, every
 * refresh builds the order to start from out of the exact sort, never
 * without it. The orders must be the same. */
void view_stable_unsorted(bool on);

#endif
