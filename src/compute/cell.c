// SPDX-License-Identifier: GPL-2.0-or-later
/* A row's cells as text (see cell.h). */
#include "xgtop/compute/cell.h"
#include "xgtop/core/format.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* snprintf(buf, n, "%s", s) without printf: the screen writes a state and
 * a few `-` on every row. */
static void put_text(char *buf, size_t n, const char *s)
{
	if (!n)
		return;
	size_t l = strlen(s);
	if (l >= n)
		l = n - 1;
	memcpy(buf, s, l);
	buf[l] = 0;
}

void col_format(enum xg_col c, const struct xg_row *r, char *buf, size_t n)
{
	if (c == XG_COL_HOST) {
		xg_escape_name(buf, n, r->host ? r->host : "");
		size_t l = strlen(buf);
		if (r->host_stale && l + 1 < n)
			snprintf(buf + l, n - l, "?");
		return;
	}
	if (c == XG_COL_NAME) {
		xg_escape_name(buf, n, r->name ? r->name : "");
		return;
	}
	if (c == XG_COL_STATE) {
		put_text(buf, n, r->state);
		return;
	}
	if (!row_has(r, c)) {
		put_text(buf, n, r->why[c] == XG_WHY_NOLIMIT ? "nolim" : "-");
		return;
	}
	if (c == XG_COL_BEHIND) {   /* "batch7 62%" */
		char id[16], pct[16];
		xg_escape_name(buf, n, row_behind_name(r, id, sizeof(id)));
		snprintf(pct, sizeof(pct), " %.0f%%", r->v[c]);
		size_t l = strlen(buf);
		if (l + strlen(pct) < n)
			memcpy(buf + l, pct, strlen(pct) + 1);
		return;
	}
	if (c == XG_COL_VICTIM) {   /* "yes 3/5" */
		snprintf(buf, n, "%s %.0f/%u", r->victim ? "yes" : "no", r->v[c], (unsigned)r->victim_of);
		return;
	}
	fmt_value(buf, n, xg_columns[c].unit, r->v[c]);
	/* Figures a guest published about itself are its claim: mark them. */
	if (r->guest_reported && (xg_columns[c].group == XG_GRP_CACHE ||
				  xg_columns[c].group == XG_GRP_CACHE_BD)) {
		size_t l = strlen(buf);
		if (l + 1 < n) {
			buf[l] = '*';
			buf[l + 1] = 0;
		}
	}
}

void col_format_raw(enum xg_col c, const struct xg_row *r, char *buf, size_t n)
{
	if (c == XG_COL_BEHIND) {   /* the name alone; behind_pct has the share */
		char id[16];
		if (!row_has(r, c)) {
			if (n)
				buf[0] = 0;
		} else {
			xg_escape_name(buf, n, row_behind_name(r, id, sizeof(id)));
		}
		return;
	}
	if (xg_columns[c].unit == XG_UNIT_TEXT) {
		col_format(c, r, buf, n);
		return;
	}
	if (c == XG_COL_VICTIM && row_has(r, c)) {   /* the flag; victim_windows has the count */
		snprintf(buf, n, "%d", r->victim ? 1 : 0);
		return;
	}
	if (!row_has(r, c) || !isfinite(r->v[c])) {
		if (n)
			buf[0] = 0;
		return;
	}
	switch (xg_columns[c].unit) {
	case XG_UNIT_NONE:
	case XG_UNIT_BYTES:
		snprintf(buf, n, "%.0f", r->v[c]);
		break;
	case XG_UNIT_SEC:
		snprintf(buf, n, "%.9f", r->v[c]);
		break;
	default:
		snprintf(buf, n, "%.3f", r->v[c]);
		break;
	}
}
