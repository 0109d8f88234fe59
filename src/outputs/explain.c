// SPDX-License-Identifier: GPL-2.0-or-later
/* --explain and --list-columns: what each column counts, and why figures
 * are `-` (the reasons the `W` report lists too). */
#include "xgtop/outputs/explain.h"
#include "xgtop/compute/waits.h"
#include "xgtop/view/triage.h"

#include <string.h>

void explain_collect(struct xg_reasons *R, const struct xg_table *t, const struct xg_view *v,
		     const bool cols[XG_COL_COUNT], size_t *ndom, size_t *nsock)
{
	size_t nd = 0, ns = 0;
	reasons_init(R, true);
	for (size_t i = 0; i < v->norder; i++) {
		const struct xg_row *r = &t->rows[v->order[i]];
		if (!row_is_dom(r) && !r->sock_row)
			continue;
		nd += row_is_dom(r);
		ns += r->sock_row != 0;
		reasons_add_row(R, t, r, cols);
	}
	reasons_sort(R);
	if (ndom)
		*ndom = nd;
	if (nsock)
		*nsock = ns;
}

void explain_triage(FILE *f, struct xg_table *t, const struct xg_view *v, const struct xg_suspects *s)
{
	static const char *const part[XG_TRI_COUNT] = { "CPU", "memory pressure", "io pressure", "cache" };
	struct xg_triage tr;
	triage_compute(&tr, t, v, s);
	fprintf(f, "\nTriage (the full-screen view's header line): %s\n", tr.line);
	for (int p = 0; p < XG_TRI_COUNT; p++)
		fprintf(f, "  %-16s %s%s\n", part[p], tr.hit[p] ? "[stands out] " : "", tr.why[p]);
	if (t->cur && !strcmp(t->cur->host.source, "prometheus"))
		fprintf(f, "  %-16s here of every domain; the full-screen view asks the server every figure of "
			"the rows on screen (and half a screen either side) only, and of the others the sort "
			"column: there a part judges those rows and says \"on screen\", unless the sort is its "
			"column (WAIT%%, MEM-P%%, IO-P%%); the runnable vCPUs are of every domain, from the "
			"runstate seconds the exporters or the server sum\n", "scope");
}

void explain_columns(FILE *f)
{
	for (int c = 0; c < XG_COL_COUNT; c++) {
		const struct xg_coldef *d = &xg_columns[c];
		fprintf(f, "%s\t%s\t%s\t%s\t%s\n", d->header, d->key, col_unit_name(d->unit),
			col_group_name(d->group), d->help);
	}
}

/* One ranked list: "WAIT 0.020 s: a 40.0 % 0.008 s, ..., other 20.0 % ...". */
static void write_ranked(FILE *f, const struct xg_sample *s, const struct xg_dom *d, bool since_start)
{
	struct xg_wait_rank r[XG_WAIT_RANKS];
	uint64_t whole;
	size_t n = waits_ranked(s, d, since_start, r, &whole);
	fprintf(f, "      %s: ", since_start ? "since the source began" : "in the interval");
	if (!n) {
		fprintf(f, "no wait ended\n");
		return;
	}
	fprintf(f, "WAIT %.6f s:", (double)whole / 1e9);
	for (size_t i = 0; i < n; i++) {
		char buf[32], name[4 * XG_NAME_MAX + 1];
		const char *raw = r[i].other ? "other" : waits_culprit(s, d, r[i].who, buf, sizeof(buf));
		fprintf(f, "%s %s %.1f %% %.6f s", i ? "," : "", xg_escape_name(name, sizeof(name), raw),
			100.0 * r[i].share, (double)r[i].ns / 1e9);
	}
	fputc('\n', f);
}

/* The numbers behind BEHIND: each domain's culprits with their seconds
 * and shares, where the source attributes waits. */
static void write_behind(FILE *f, const struct xg_table *t, const struct xg_view *v)
{
	if (!v->show_waits)
		return;
	fprintf(f, "\nBehind (whom each domain waited behind; other = the rest of the WAIT):\n");
	for (size_t i = 0; i < v->norder; i++) {
		const struct xg_row *r = &t->rows[v->order[i]];
		if (!row_is_dom(r))
			continue;
		const struct xg_dom *d = &t->cur->dom[r->dom_index];
		char name[4 * XG_NAME_MAX + 1], why[1024];
		fprintf(f, "  %u %s\n", (unsigned)d->id, xg_escape_name(name, sizeof(name), d->name));
		const char *no = sample_waits_why(t->cur, d);
		if (no) {
			fprintf(f, "      - %s\n", xg_escape_name(why, sizeof(why), no));
			continue;
		}
		write_ranked(f, t->cur, d, false);
		write_ranked(f, t->cur, d, true);
	}
}

void explain_write(FILE *f, const struct xg_table *t, const struct xg_view *v)
{
	const struct xg_host *h = &t->cur->host;
	/* Host strings and reasons may come from a recording or another
	 * host: escaped like names, so they cannot drive the terminal. */
	char e1[sizeof(h->source) * 4], e2[sizeof(h->hypervisor) * 4], e3[1024];
	fprintf(f, "Source: %s (%s), %zu domains, interval %.3f s\n",
		xg_escape_name(e1, sizeof(e1), h->source), xg_escape_name(e2, sizeof(e2), h->hypervisor),
		t->ndom_rows, t->sum.interval_s);
	/* The events only when something counts them. */
	const char *why = sample_cache_uncounted(t->cur);
	if (why)
		fprintf(f, "Cache columns count nothing: %s\n", xg_escape_name(e3, sizeof(e3), why));
	else if (h->cache_events[0])
		fprintf(f, "Cache columns count: %s\n", xg_escape_name(e3, sizeof(e3), h->cache_events));
	fputc('\n', f);
	fprintf(f, "Columns:\n");
	for (int c = 0; c < XG_COL_COUNT; c++) {
		const struct xg_coldef *d = &xg_columns[c];
		if (!col_has_value((enum xg_col)c))
			continue;   /* the full-screen view's drawing: it counts nothing */
		fprintf(f, "  %-10s %-22s [%s]%s\n      %s\n", d->header, d->key, col_unit_name(d->unit),
			view_col_visible(v, (enum xg_col)c) ? "" : " (hidden)", d->help);
	}
	if (view_socket_rows(v))
		fprintf(f, "\nSocket rows (cache breakdown on): under each domain with Intel CMT/MBM "
			"figures per socket, one row per socket (\"socket N\"): L3-OCC = bytes of L3 "
			"the domain occupies on that socket, MEM-BW = delta(MBM total bytes on that "
			"socket) / delta(t), bytes/s. The domain row shows the sums; other columns do "
			"not apply to a socket row and are blank.\n");
	bool all[XG_COL_COUNT];
	struct xg_reasons R;
	/* Hidden groups are explained too (a toggle shows them), except the
	 * VM columns where the domains are not VMs, and the pressure columns
	 * where the source reads none: nothing can show them. */
	for (int c = 0; c < XG_COL_COUNT; c++)
		all[c] = (xg_columns[c].group != XG_GRP_VM || v->show_vm) &&
			 (xg_columns[c].group != XG_GRP_PSI || v->show_psi) &&
			 (xg_columns[c].group != XG_GRP_CONTENTION || v->contention_live);
	explain_collect(&R, t, v, all, NULL, NULL);
	fprintf(f, "\nWhy '-':\n");
	for (size_t k = 0; k < R.n; k++) {
		const struct xg_reason *p = &R.v[k];
		char why[1024];
		fprintf(f, "  %-10s %u %s%s: %s\n", xg_columns[p->col].header, p->count,
			p->socket ? "socket row" : "domain", p->count == 1 ? "" : "s",
			xg_escape_name(why, sizeof(why), p->why));
	}
	if (R.more)
		fprintf(f, "  (" XG_WHY_MORE ")\n");
	if (!R.n)
		fprintf(f, "  every figure was measured\n");
	write_behind(f, t, v);
}
