// SPDX-License-Identifier: GPL-2.0-or-later
#include "xgtop/explain.h"

#include <string.h>

static const char *const unit_names[] = {
	[XG_UNIT_NONE] = "count", [XG_UNIT_TEXT] = "text", [XG_UNIT_PCT] = "%",
	[XG_UNIT_SEC] = "s", [XG_UNIT_BYTES] = "bytes", [XG_UNIT_BPS] = "bytes/s",
	[XG_UNIT_PER_S] = "1/s", [XG_UNIT_RATIO] = "ratio",
};

size_t explain_reasons(const struct xg_table *t, const struct xg_view *v, enum xg_col c,
		       struct xg_reason_count *out, size_t max)
{
	size_t n = 0;
	if (xg_columns[c].unit == XG_UNIT_TEXT)
		return 0;   /* NAME and STATE are always shown */
	for (size_t i = 0; i < v->norder; i++) {
		const struct xg_row *r = &t->rows[v->order[i]];
		if (r->vcpu >= 0 || ((r->valid >> c) & 1))
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
	return n;
}

static const char *const group_names[] = {
	[XG_GRP_BASE] = "base", [XG_GRP_NET] = "net", [XG_GRP_DISK] = "disk",
	[XG_GRP_SCHED] = "sched", [XG_GRP_CACHE] = "cache", [XG_GRP_CACHE_BD] = "cache-breakdown",
	[XG_GRP_CMT] = "cmt",
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
		fprintf(f, "  %-10s %-22s [%s]%s\n      %s\n", d->header, d->key, unit_names[d->unit],
			view_col_visible(v, (enum xg_col)c) ? "" : " (hidden)", d->help);
	}
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
	}
	if (!any)
		fprintf(f, "  every figure was measured\n");
}
