/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Private to core/view*.c: rows that hold still (view_stable.c). */
#ifndef XGTOP_VIEW_STABLE_H
#define XGTOP_VIEW_STABLE_H

#include "xgtop/view/view.h"

/* After the exact sort of the n domain rows in v->order: when the view
 * holds rows still (v->stable and v->stable_live), reorders them from the
 * last order shown so that a row passes its neighbour only when the two
 * differ by more than the margin (10 % of the larger, at least
 * view_stable_floor of the sort column's unit). The exact order stays on
 * a new sort column, direction or filter, after v->stable_reset, and for
 * text columns. */
void view_stable_apply(struct xg_view *v, const struct xg_table *t, size_t n);
void view_stable_free(struct xg_view *v);

#endif
