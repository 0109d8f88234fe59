// SPDX-License-Identifier: GPL-2.0-or-later
/* Which columns of the domain list fit the terminal's width, where each
 * starts and how wide it is. A function of the view, the width and the
 * widest name only (no terminal, no engine), so that what drops on a narrow
 * terminal is unit-tested (tests/unit/tui/test_tui_layout.c), as nvtop tests
 * its layout. */
#include "tui_state.h"

void tui_layout(const struct xg_view *v, int cols, int name_pref, struct tui_layout *L)
{
	/* NAME shrinks to its table width (or the widest name, if narrower)
	 * before any column drops, and takes room left over up to name_pref. */
	int pref = name_pref;
	int namemin = xg_columns[XG_COL_NAME].width;
	if (namemin > pref)
		namemin = pref;

	bool keep[XG_COL_COUNT];
	int total = 0;
	for (int c = 0; c < XG_COL_COUNT; c++) {
		keep[c] = c == XG_COL_NAME || view_col_visible(v, (enum xg_col)c);
		if (keep[c])
			total += 1 + (c == XG_COL_NAME ? namemin : xg_columns[c].width);
	}
	L->dropped = 0;
	while (total > cols) {
		int worst = -1;
		for (int c = 0; c < XG_COL_COUNT; c++) {
			if (!keep[c] || c == XG_COL_NAME)
				continue;
			/* Highest priority number goes first; among equals the one
			 * further right in the table, so the left part of the row
			 * stays put. */
			if (worst < 0 || xg_columns[c].priority >= xg_columns[worst].priority)
				worst = c;
		}
		if (worst < 0)
			break;
		keep[worst] = false;
		total -= 1 + xg_columns[worst].width;
		L->dropped++;
	}
	int namew = namemin;
	if (total < cols) {
		int extra = cols - total;
		namew += extra < pref - namemin ? extra : pref - namemin;
	}
	L->n = 0;
	int x = 0;
	for (int k = 0; k < XG_COL_COUNT; k++) {
		enum xg_col c = v->col_order[k];   /* the column chooser's order */
		if (!keep[c])
			continue;
		int w = c == XG_COL_NAME ? namew : xg_columns[c].width;
		L->col[L->n] = c;
		L->x[L->n] = x;
		L->w[L->n] = w;
		L->n++;
		x += 1 + w;
	}
	L->width = x;
}
