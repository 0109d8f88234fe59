/* SPDX-License-Identifier: GPL-2.0-or-later */
/* --explain: what each column counts and why any figure is `-`. */
#ifndef XGTOP_EXPLAIN_H
#define XGTOP_EXPLAIN_H

#include <stdio.h>
#include "xgtop/core/view.h"

/* For every column: header, key, unit and formula; then, for each column
 * showing `-` in some selected row, each distinct reason with the number
 * of domains it applies to. */
void explain_write(FILE *f, const struct xg_table *t, const struct xg_view *v);

/* --list-columns: one tab-separated line per column: header, key, unit,
 * group, formula. */
void explain_columns(FILE *f);

/* Collects the distinct reasons column c is `-` among the domain rows v
 * selected. Fills up to max (reason, count) pairs; returns how many. */
struct xg_reason_count { const char *why; unsigned count; };
size_t explain_reasons(const struct xg_table *t, const struct xg_view *v, enum xg_col c,
		       struct xg_reason_count *out, size_t max);
/* The same among the socket rows v selects (--nosumcache): only L3-OCC and
 * MEM-BW have any. *nrows (when not NULL) is set to the number of them. */
size_t explain_socket_reasons(const struct xg_table *t, const struct xg_view *v, enum xg_col c,
			      struct xg_reason_count *out, size_t max, size_t *nrows);

#endif
