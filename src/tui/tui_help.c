// SPDX-License-Identifier: GPL-2.0-or-later
/* The help screen: every key (from the key table), every column with its
 * formula and unit, and why the values on screen that show `-` could not be
 * measured. A mode of the main loop: sampling goes on while it is open and
 * each refresh rebuilds it, so the reasons follow the rows on screen. */
#include "tui_priv.h"

#include <curses.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct lines {
	char **v;
	size_t n, cap;
};

static void lines_add(struct lines *L, const char *fmt, ...) XG_PRINTF(2, 3);
static void lines_add(struct lines *L, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	xg_grow(&L->v, &L->cap, L->n + 1, sizeof(*L->v));
	L->v[L->n++] = xg_strdup(buf);
}

static void lines_free(struct lines *L)
{
	for (size_t i = 0; i < L->n; i++)
		free(L->v[i]);
	free(L->v);
	memset(L, 0, sizeof(*L));
}

/* Adds text after a prefix, wrapped at width with following lines indented
 * by the prefix's width. The text is ASCII (column help, reasons). */
static void lines_wrap(struct lines *L, const char *prefix, const char *text, int width)
{
	int indent = (int)strlen(prefix), room = width - indent;
	const char *p = text;
	bool first = true;

	if (room < 20)
		room = 20;
	while (*p || first) {
		int cut = tui_wrap_cut(p, room);
		lines_add(L, "%-*s%.*s", indent, first ? prefix : "", cut, p);
		p += cut;
		while (*p == ' ')
			p++;
		first = false;
	}
}

struct why_seen {
	enum xg_col c;
	const char *text;
	const char *example;   /* a name on screen with this `-` */
	const struct xg_row *row;  /* its row (a sub-row names its vCPU / socket) */
	unsigned count;
};

/* Distinct (column, reason) pairs behind the `-` cells on screen. */
static void add_reasons(struct lines *L, const struct tui *t, int width)
{
	const struct xg_view *v = &t->e->view;
	const struct xg_table *tb = &t->e->table;
	struct why_seen seen[64];
	size_t nseen = 0;
	bool more = false;

	for (int i = 0; i < t->list_h; i++) {
		size_t k = t->top + (size_t)i;
		if (k >= v->norder)
			break;
		const struct xg_row *r = &tb->rows[v->order[k]];
		for (int j = 0; j < t->lay.n; j++) {
			enum xg_col c = t->lay.col[j];
			if (c == XG_COL_NAME || c == XG_COL_STATE || row_has(r, c) ||
			    !row_col_applies(r, c))
				continue;
			const char *why = row_why(tb, r, c);
			if (!why)
				why = "no reason was given by the source";
			size_t s;
			for (s = 0; s < nseen; s++)
				if (seen[s].c == c && !strcmp(seen[s].text, why))
					break;
			if (s < nseen) {
				seen[s].count++;
			} else if (nseen < XG_ARRAY_LEN(seen)) {
				seen[nseen++] = (struct why_seen){ c, why, r->name, r, 1 };
			} else {
				more = true;
			}
		}
	}
	/* By column, in table order; reasons of one column in the order met. */
	for (size_t i = 1; i < nseen; i++) {
		struct why_seen x = seen[i];
		size_t j = i;
		for (; j > 0 && seen[j - 1].c > x.c; j--)
			seen[j] = seen[j - 1];
		seen[j] = x;
	}
	lines_add(L, "Why values on screen show \"-\"");
	if (!nseen)
		lines_add(L, "  none: every value on screen was measured");
	for (size_t s = 0; s < nseen; s++) {
		char name[TUI_CELL_BYTES], prefix[32], text[1024], sub[32];
		/* Reasons may come from a recording: escape them like names. */
		char why[512];
		tui_name_fit(name, sizeof(name), seen[s].example, 24);
		tui_name_fit(why, sizeof(why), seen[s].text, 120);
		snprintf(prefix, sizeof(prefix), "  %-10s ", xg_columns[seen[s].c].header);
		if (row_label(seen[s].row, sub, sizeof(sub)))
			snprintf(text, sizeof(text), "%s (%u row%s, e.g. %s %s)", why, seen[s].count,
				 seen[s].count == 1 ? "" : "s", name, sub + 2);
		else
			snprintf(text, sizeof(text), "%s (%u row%s, e.g. %s)", why, seen[s].count,
				 seen[s].count == 1 ? "" : "s", name);
		lines_wrap(L, prefix, text, width);
	}
	if (more)
		lines_add(L, "  (more reasons than fit this list)");
}

static void help_build(struct lines *L, const struct tui *t, int width)
{
	const struct xg_view *v = &t->e->view;

	lines_add(L, "xgtop %s help: keys, columns, and why values are missing", XG_VERSION);
	lines_wrap(L, "  ", "Sampling goes on while this screen, the sort menu or a prompt is open; "
		   "only space (freeze) stops it.", width);
	lines_add(L, "%s", "");
	lines_add(L, "Keys");
	for (size_t i = 0; i < tui_nbindings; i++) {
		char keys[64], prefix[80];
		tui_binding_keys(&tui_bindings[i], keys, sizeof(keys));
		snprintf(prefix, sizeof(prefix), "  %-9s ", keys);
		lines_wrap(L, prefix, tui_bindings[i].help, width);
	}
	lines_add(L, "%s", "");
	lines_add(L, "Summary lines");
	lines_wrap(L, "  ", "Line 1: hypervisor (source) and host name, physical CPUs, memory used/total, "
		   "clock; for a replay, \"replay\" and the time the sample was recorded.", width);
	lines_wrap(L, "  ", "Line 2: domains by state, and the sum of their CPU%.", width);
	lines_wrap(L, "  ", "Line 3: the measured interval between the two samples shown, the delay asked "
		   "for, xgtop's own CPU time per refresh in ms, trace records lost (when a trace is "
		   "read), the sort column and direction, the filter and the rows it selects.", width);
	lines_add(L, "%s", "");
	lines_add(L, "Columns (* = on screen, + = on but no room at this width; unit in brackets; "
		  "delta() = change over the interval)");
	for (int c = 0; c < XG_COL_COUNT; c++) {
		const struct xg_coldef *d = &xg_columns[c];
		char prefix[64], mark = ' ';
		if (view_col_on_screen(v, (enum xg_col)c)) {
			mark = '+';
			for (int j = 0; j < t->lay.n; j++)
				if (t->lay.col[j] == (enum xg_col)c)
					mark = '*';
		}
		snprintf(prefix, sizeof(prefix), "%c %-10s [%s] ", mark, d->header, tui_unit_name(d->unit));
		/* Pad to a common indent so the formulas line up. */
		char pad[64];
		snprintf(pad, sizeof(pad), "%-24s", prefix);
		lines_wrap(L, pad, d->help ? d->help : "", width);
	}
	lines_add(L, "%s", "");
	add_reasons(L, t, width);
}

static const char *const help_hints[] = {
	"Up Down PgUp PgDn Home End", "scroll", "q", "back", "any other key", "back",
};

/* Lines of help on screen: all but the hint line. */
static size_t help_height(void)
{
	return LINES - 1 > 1 ? (size_t)LINES - 1 : 1;
}

void tui_help_draw(struct tui *t)
{
	struct lines L = { 0 };
	size_t h = help_height();

	help_build(&L, t, COLS > 40 ? COLS - 1 : 40);
	size_t maxtop = L.n > h ? L.n - h : 0;
	if (t->help_top > maxtop)
		t->help_top = maxtop;
	erase();
	for (size_t i = 0; i < h && t->help_top + i < L.n; i++) {
		const char *line = L.v[t->help_top + i];
		bool title = line[0] && line[0] != ' ' && line[0] != '*' && line[0] != '+';
		if (title)
			attron(A_BOLD);
		tui_put((int)i, 0, line, COLS);
		if (title)
			attroff(A_BOLD);
	}
	t->cols = COLS;
	tui_draw_hints(t, help_hints, XG_ARRAY_LEN(help_hints));
	wnoutrefresh(stdscr);
	lines_free(&L);
}

void tui_help_key(struct tui *t, int rc, wint_t ch)
{
	size_t h = help_height(), page = h > 1 ? h - 1 : 1;

	if (rc == KEY_CODE_YES) {
		/* Past the end is clamped when drawn. */
		switch (ch) {
		case KEY_UP: t->help_top = t->help_top ? t->help_top - 1 : 0; return;
		case KEY_DOWN: t->help_top++; return;
		case KEY_PPAGE: t->help_top = t->help_top > page ? t->help_top - page : 0; return;
		case KEY_NPAGE: t->help_top += page; return;
		case KEY_HOME: t->help_top = 0; return;
		case KEY_END: t->help_top = SIZE_MAX; return;
		default: break;
		}
	}
	t->mode = TUI_MODE_TABLE;
}
