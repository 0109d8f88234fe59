// SPDX-License-Identifier: GPL-2.0-or-later
/* Text output, laid out like `top -b`: a summary block, then the visible
 * columns of the selected rows, every column as wide as its widest cell so
 * the output stays aligned whatever the names and values. */
#include "xgtop/core/format.h"
#include "xgtop/compute/cell.h"
#include "xgtop/outputs/explain.h"
#include "output_util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Big enough for a fully escaped XG_NAME_MAX name (4 bytes per byte). */
#define CELL_MAX (4 * XG_NAME_MAX + 64)

/* What the cell shows: col_format's text (names escaped there), with vCPU
 * and socket rows indented under their domain as on screen. */
static void cell_text(const struct xg_row *r, enum xg_col c, char *buf, size_t n)
{
	if (c == XG_COL_NAME && row_label(r, buf, n))
		return;
	if ((!row_is_dom(r) && (c == XG_COL_ID || c == XG_COL_HOST)) || !row_col_applies(r, c)) {
		snprintf(buf, n, "%s", "");     /* the domain row above carries the id;
		                                   socket rows have no CPU, disk ... */
		return;
	}
	if (xg_columns[c].unit != XG_UNIT_TEXT && row_has(r, c) && !isfinite(r->v[c])) {
		snprintf(buf, n, "-");          /* a broken figure is not a figure */
		return;
	}
	col_format(c, r, buf, n);
}

/* Terminal columns taken by s, counting each UTF-8 character as one. */
static size_t text_width(const char *s)
{
	size_t w = 0;
	for (; *s; s++)
		if (((unsigned char)*s & 0xc0) != 0x80)
			w++;
	return w;
}

static void put_spaces(FILE *f, size_t n)
{
	static const char sp[] = "                                ";
	while (n) {
		size_t k = n < sizeof(sp) - 1 ? n : sizeof(sp) - 1;
		fwrite(sp, 1, k, f);
		n -= k;
	}
}

static void put_padded(FILE *f, const char *s, size_t width, bool left, bool last)
{
	size_t w = text_width(s);
	size_t pad = w < width ? width - w : 0;
	if (!left)
		put_spaces(f, pad);
	fputs(s, f);
	if (left && !last)
		put_spaces(f, pad);
}

static void write_summary(FILE *f, const struct xg_table *t)
{
	const struct xg_summary *s = &t->sum;
	const struct xg_host *h = t->cur ? &t->cur->host : NULL;
	char when[40] = "-", a[32], b[32];

	if (h) {
		output_time_iso(when, sizeof(when), h->real_ns);
		when[10] = ' ';            /* "2026-11-30 02:36:58", to the second */
		when[19] = 0;
	}
	fprintf(f, "xgtop - %s UTC", when);
	if (h) {
		char esc[CELL_MAX];
		fprintf(f, " - source %s", h->source[0] ? h->source : "-");
		if (h->hypervisor[0])
			fprintf(f, ", %s", xg_escape_name(esc, sizeof(esc), h->hypervisor));
		if (h->sched[0])
			fprintf(f, ", scheduler %s", xg_escape_name(esc, sizeof(esc), h->sched));
		if (h->hostname[0])
			fprintf(f, ", host %s", xg_escape_name(esc, sizeof(esc), h->hostname));
	}
	fputc('\n', f);

	fprintf(f, "Domains: %u total, %u running, %u blocked, %u paused, %u crashed, %u dying, "
		"%u shutdown\n", s->ndom, s->nrunning, s->nblocked, s->npaused, s->ncrashed,
		s->ndying, s->nshutdown);

	fputs("pCPUs: ", f);
	if (h && host_has(h, XG_H_PCPUS))
		fprintf(f, "%u", h->pcpus);
	else
		fputc('-', f);
	if (h && host_has(h, XG_H_CPU_KHZ) && h->cpu_khz)
		fprintf(f, " @ %llu MHz", (unsigned long long)(h->cpu_khz / 1000));
	if (s->interval_s > 0)
		fprintf(f, ", domains %.1f%%", s->cpu_pct_total);
	if (h && host_has(h, XG_H_MEM)) {
		fmt_size(a, sizeof(a), (double)h->mem_total);
		fmt_size(b, sizeof(b), (double)h->mem_free);
		fprintf(f, "   Mem: %s total, %s free\n", a, b);
	} else {
		fputs("   Mem: -\n", f);
	}

	if (s->interval_s > 0)
		fprintf(f, "Interval: %.2f s", s->interval_s);
	else
		fputs("Interval: -", f);
	if (s->self_cpu_ms >= 0)
		fprintf(f, ", xgtop used %.1f ms CPU per refresh", s->self_cpu_ms);
	else
		fputs(", xgtop CPU per refresh: -", f);
	if (h && host_has(h, XG_H_LOST))
		fprintf(f, ", trace records lost: %llu", (unsigned long long)h->lost_records);
	fputc('\n', f);
	fputc('\n', f);
}

static const struct xg_row *order_row(const struct xg_table *t, const struct xg_view *v, size_t i)
{
	return &t->rows[v->order[i]];
}

/* The cells are formatted once into one buffer: the widths need them all
 * before the first line can be written. */
static void write_table(FILE *f, const struct xg_table *t, const struct xg_view *v)
{
	enum xg_col cols[XG_COL_COUNT];
	size_t width[XG_COL_COUNT], ncol = 0;
	char buf[CELL_MAX], *text = NULL;
	size_t *off = NULL, len = 0, cap = 0;

	for (int k = 0; k < XG_COL_COUNT; k++) {
		enum xg_col c = v->col_order[k];   /* the column chooser's order */
		if (!view_col_visible(v, c) || !col_has_value(c))
			continue;
		size_t w = text_width(xg_columns[c].header);
		if (xg_columns[c].width > 0 && (size_t)xg_columns[c].width > w)
			w = (size_t)xg_columns[c].width;
		width[ncol] = w;
		cols[ncol++] = c;
	}
	if (v->norder)
		off = xg_malloc(v->norder * ncol * sizeof(*off));
	for (size_t i = 0; i < v->norder; i++)
		for (size_t k = 0; k < ncol; k++) {
			cell_text(order_row(t, v, i), cols[k], buf, sizeof(buf));
			size_t n = strlen(buf) + 1, w = text_width(buf);
			if (w > width[k])
				width[k] = w;
			xg_grow(&text, &cap, len + n, 1);
			memcpy(text + len, buf, n);
			off[i * ncol + k] = len;
			len += n;
		}

	for (size_t k = 0; k < ncol; k++) {
		if (k)
			fputc(' ', f);
		put_padded(f, xg_columns[cols[k]].header, width[k],
			   xg_columns[cols[k]].unit == XG_UNIT_TEXT, k + 1 == ncol);
	}
	fputc('\n', f);
	for (size_t i = 0; i < v->norder; i++) {
		for (size_t k = 0; k < ncol; k++) {
			if (k)
				fputc(' ', f);
			put_padded(f, text + off[i * ncol + k], width[k],
				   xg_columns[cols[k]].unit == XG_UNIT_TEXT, k + 1 == ncol);
		}
		fputc('\n', f);
	}
	free(off);
	free(text);
}

static int text_write(struct output *o, const struct xg_table *t, const struct xg_view *v,
		      struct xg_err *err)
{
	if (o->iter)
		fputc('\n', o->f);
	write_summary(o->f, t);
	write_table(o->f, t, v);
	return output_flush(o->f, err);
}

const struct output_format output_text_format = { XG_OUT_TEXT, "text", text_write };

/* For each visible column that shows `-` in some domain row, the distinct
 * reasons (the same list --explain gives) and how many domains each covers. */
static void write_why(FILE *f, const struct xg_table *t, const struct xg_view *v)
{
	char buf[CELL_MAX];
	bool cols[XG_COL_COUNT];
	struct xg_reasons R;
	size_t ndom, nsock;

	for (int c = 0; c < XG_COL_COUNT; c++)
		cols[c] = view_col_visible(v, (enum xg_col)c);
	explain_collect(&R, t, v, cols, &ndom, &nsock);
	fputs("\nWhy '-':\n", f);
	for (size_t k = 0; k < R.n; k++) {
		const struct xg_reason *p = &R.v[k];
		fprintf(f, "  %s (%s): %s [%u of %zu %s]\n", xg_columns[p->col].header,
			xg_columns[p->col].key, xg_escape_name(buf, sizeof(buf), p->why), p->count,
			p->socket ? nsock : ndom, p->socket ? "socket rows" : "domains");
	}
	if (R.more)
		fputs("  (" XG_WHY_MORE ")\n", f);
	if (!R.n)
		fputs("  every figure shown was measured\n", f);
}

int output_write_report(FILE *f, const struct xg_table *t, const struct xg_view *v)
{
	write_summary(f, t);
	write_table(f, t, v);
	write_why(f, t, v);
	return fflush(f) != 0 || ferror(f) ? -1 : 0;
}
