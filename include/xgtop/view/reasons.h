/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Why figures show `-`: the distinct (column, reason) pairs behind the `-`
 * cells of a set of rows, each with how many rows it covers and the first
 * row met. --explain, the `W` report and the help screen all list these,
 * so they agree on which cells count and on what to say when a source gave
 * no reason. */
#ifndef XGTOP_REASONS_H
#define XGTOP_REASONS_H

#include "xgtop/compute/metrics.h"

/* Said for a `-` whose source gave no reason. */
#define XG_WHY_UNSAID "not measured; the source gave no reason"

/* Distinct pairs kept; a longer list says so (more), in these words. */
#define XG_REASONS_MAX 128
#define XG_WHY_MORE "more reasons than fit this list"

struct xg_reason {
	enum xg_col col;
	bool socket;                    /* counted over socket rows (socket_apart) */
	const char *why;
	unsigned count;                 /* rows with this `-` */
	const struct xg_row *example;   /* the first of them */
};

struct xg_reasons {
	struct xg_reason v[XG_REASONS_MAX];
	size_t n;
	bool more;                      /* some pair did not fit */
	bool socket_apart;              /* socket rows' pairs are kept apart */
};

/* socket_apart: pairs met in socket rows are counted apart from those of
 * domain and vCPU rows (a count then reads "N socket rows"). */
void reasons_init(struct xg_reasons *R, bool socket_apart);
/* Adds the `-` cells of r among the columns marked in cols: a numeric
 * column that applies to r and was not measured (NAME, STATE and ID are
 * always shown). */
void reasons_add_row(struct xg_reasons *R, const struct xg_table *t, const struct xg_row *r,
		     const bool cols[XG_COL_COUNT]);
/* Orders the pairs by column (table order), a column's domain pairs
 * before its socket pairs, keeping the order they were met in. */
void reasons_sort(struct xg_reasons *R);

#endif
