// SPDX-License-Identifier: GPL-2.0-or-later
#include "xgtop/outputs/explain.h"

#include <string.h>

static const char *const unit_names[] = {
	[XG_UNIT_NONE] = "count", [XG_UNIT_TEXT] = "text", [XG_UNIT_PCT] = "%",
	[XG_UNIT_SEC] = "s", [XG_UNIT_BYTES] = "bytes", [XG_UNIT_BPS] = "bytes/s",
	[XG_UNIT_PER_S] = "1/s", [XG_UNIT_RATIO] = "ratio",
};

/* Distinct reasons column c is `-` in the selected domain rows, or in the
 * selected socket rows (sockets); *nrows counts the rows of that kind. */
static size_t reasons(const struct xg_table *t, const struct xg_view *v, enum xg_col c, bool sockets,
		      struct xg_reason_count *out, size_t max, size_t *nrows)
{
	size_t n = 0, rows = 0;
	for (size_t i = 0; i < v->norder; i++) {
		const struct xg_row *r = &t->rows[v->order[i]];
		if (sockets ? !r->sock_row : !row_is_dom(r))
			continue;
		rows++;
		if (xg_columns[c].unit == XG_UNIT_TEXT || c == XG_COL_ID)
			continue;   /* always shown (a socket row's id is its domain's) */
		if (row_has(r, c) || !row_col_applies(r, c))
			continue;
		const char *why = row_why(t, r, c);
		if (!why)
			why = "not measured by this source";
		size_t k = 0;
		while (k < n && strcmp(out[k].why, why))
			k++;
		if (k == n) {
			if (n == max)
				continue;
			out[n].why = why;
			out[n++].count = 0;
		}
		out[k].count++;
	}
	if (nrows)
		*nrows = rows;
	return n;
}

size_t explain_reasons(const struct xg_table *t, const struct xg_view *v, enum xg_col c,
		       struct xg_reason_count *out, size_t max)
{
	if (xg_columns[c].unit == XG_UNIT_TEXT)
		return 0;   /* NAME and STATE are always shown */
	return reasons(t, v, c, false, out, max, NULL);
}

size_t explain_socket_reasons(const struct xg_table *t, const struct xg_view *v, enum xg_col c,
			      struct xg_reason_count *out, size_t max, size_t *nrows)
{
	return reasons(t, v, c, true, out, max, nrows);
}

static const char *const group_names[] = {
	[XG_GRP_BASE] = "base", [XG_GRP_NET] = "net", [XG_GRP_DISK] = "disk",
	[XG_GRP_SCHED] = "sched", [XG_GRP_CACHE] = "cache", [XG_GRP_CACHE_BD] = "cache-breakdown",
	[XG_GRP_CMT] = "cmt", [XG_GRP_TREND] = "trend",
};

void explain_columns(FILE *f)
{
	for (int c = 0; c < XG_COL_COUNT; c++) {
		const struct xg_coldef *d = &xg_columns[c];
		fprintf(f, "%s\t%s\t%s\t%s\t%s\n", d->header, d->key, unit_names[d->unit],
			group_names[d->group], d->help);
	}
}

void explain_write(FILE *f, const struct xg_table *t, const struct xg_view *v)
{
	const struct xg_host *h = &t->cur->host;
	fprintf(f, "Source: %s (%s), %zu domains, interval %.3f s\n", h->source, h->hypervisor,
		t->ndom_rows, t->sum.interval_s);
	if (h->cache_events[0])
		fprintf(f, "Cache columns count: %s\n", h->cache_events);
	fputc('\n', f);
	fprintf(f, "Columns:\n");
	for (int c = 0; c < XG_COL_COUNT; c++) {
		const struct xg_coldef *d = &xg_columns[c];
		if (d->group == XG_GRP_TREND)
			continue;   /* the full-screen view's drawing: it counts nothing */
		fprintf(f, "  %-10s %-22s [%s]%s\n      %s\n", d->header, d->key, unit_names[d->unit],
			view_col_visible(v, (enum xg_col)c) ? "" : " (hidden)", d->help);
	}
	if (view_socket_rows(v))
		fprintf(f, "\nSocket rows (cache breakdown on): under each domain with Intel CMT/MBM "
			"figures per socket, one row per socket (\"socket N\"): L3-OCC = bytes of L3 "
			"the domain occupies on that socket, MEM-BW = delta(MBM total bytes on that "
			"socket) / delta(t), bytes/s. The domain row shows the sums; other columns do "
			"not apply to a socket row and are blank.\n");
	fprintf(f, "\nWhy '-':\n");
	bool any = false;
	for (int c = 0; c < XG_COL_COUNT; c++) {
		struct xg_reason_count rc[16];
		size_t n = explain_reasons(t, v, (enum xg_col)c, rc, XG_ARRAY_LEN(rc));
		for (size_t k = 0; k < n; k++) {
			fprintf(f, "  %-10s %u domain%s: %s\n", xg_columns[c].header, rc[k].count,
				rc[k].count == 1 ? "" : "s", rc[k].why);
			any = true;
		}
		n = explain_socket_reasons(t, v, (enum xg_col)c, rc, XG_ARRAY_LEN(rc), NULL);
		for (size_t k = 0; k < n; k++) {
			fprintf(f, "  %-10s %u socket row%s: %s\n", xg_columns[c].header, rc[k].count,
				rc[k].count == 1 ? "" : "s", rc[k].why);
			any = true;
		}
	}
	if (!any)
		fprintf(f, "  every figure was measured\n");
}
