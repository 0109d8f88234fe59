/* SPDX-License-Identifier: GPL-2.0-or-later */
/* --explain: what each column counts and why any figure is `-`. */
#ifndef XGTOP_EXPLAIN_H
#define XGTOP_EXPLAIN_H

#include <stdio.h>
#include "xgtop/view/reasons.h"
#include "xgtop/view/view.h"

/* For every column: header, key, unit and formula; then, for each column
 * showing `-` in some selected row, each distinct reason with the number
 * of domains it applies to. */
void explain_write(FILE *f, const struct xg_table *t, const struct xg_view *v);

/* The triage line (view/triage.h) the full-screen view would show for t,
 * and the numbers behind each of its parts. */
void explain_triage(FILE *f, struct xg_table *t, const struct xg_view *v, const struct xg_suspects *s);

/* --list-columns: one tab-separated line per column: header, key, unit,
 * group, formula. */
void explain_columns(FILE *f);

/* The reasons figures are `-` among the domain and socket rows v selected
 * (vCPU rows are not counted) in the columns marked in cols, socket rows'
 * apart, sorted by column. *ndom and *nsock (when not NULL) are set to the
 * number of domain and socket rows. */
void explain_collect(struct xg_reasons *R, const struct xg_table *t, const struct xg_view *v,
		     const bool cols[XG_COL_COUNT], size_t *ndom, size_t *nsock);

#endif
