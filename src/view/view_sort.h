/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Private to view/view*.c: the sort of view_apply. */
#ifndef XGTOP_VIEW_SORT_H
#define XGTOP_VIEW_SORT_H

#include "xgtop/view/view.h"

/* Sorts the n domain rows in v->order (given in table order) by the sort
 * column: unmeasured values last, ties in table order. */
void view_sort_rows(struct xg_view *v, const struct xg_table *t, size_t n);
void view_sort_free(struct xg_view *v);

#endif
