// SPDX-License-Identifier: GPL-2.0-or-later
/* The help screen (every key, every column with its formula and unit, and
 * why the values on screen that show `-` could not be measured) and the
 * sort column menu. Both are modal: sampling waits until they close. */
#include "tui_priv.h"
#include "xgtop/core/reasons.h"

#include <curses.h>
#include <stdarg.h>
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
		int len = (int)strlen(p);
		int cut = len;
		if (len > room) {
			cut = room;
			while (cut > 0 && p[cut] != ' ')
				cut--;
			if (cut == 0) {
				/* No blank to break at: cut, but not inside a UTF-8
				 * sequence. */
				cut = room;
				while (cut > 1 && ((unsigned char)p[cut] & 0xc0) == 0x80)
					cut--;
			}
		}
		lines_add(L, "%-*s%.*s", indent, first ? prefix : "", cut, p);
		p += cut;
		while (*p == ' ')
			p++;
		first = false;
	}
}

static const char *const help_keys[][2] = {
	{ "q", "quit (Ctrl-C, SIGTERM and SIGHUP also quit and restore the terminal)" },
	{ "h ?", "this help" },
	{ "< >", "sort by the visible column left / right of the current one" },
	{ "o F6", "choose the sort column from a menu" },
	{ "click", "click a column header to sort by it; click it again to reverse" },
	{ "r", "reverse the sort order" },
	{ "/", "filter domains by name: extended regex, case-insensitive; Enter applies, "
	       "Esc cancels, an empty line clears" },
	{ "d", "show / hide the disk columns" },
	{ "n", "show / hide the network columns" },
	{ "c", "show / hide the cache (PMU) columns" },
	{ "m", "cache counters summed, or broken down into guest user, guest kernel and host; "
	       "broken down, each domain with Intel CMT/MBM figures per socket gets one row per "
	       "socket (\"socket N\": that socket's L3-OCC and MEM-BW; other columns blank)" },
	{ "w", "show / hide the scheduler columns (RUN% WAIT% BLK% OFF%)" },
	{ "v", "show / hide one row per vCPU under each domain" },
	{ "space", "freeze the display (a replay pauses); space again resumes" },
	{ ". Right", "step one sample forward (while frozen, or in a replay)" },
	{ "+ -", "longer / shorter refresh interval (0.1 s .. 300 s)" },
	{ "s", "type the refresh interval in seconds (fractions allowed, at least 0.1)" },
	{ "W", "write the current view to xgtop-report-YYYYmmdd-HHMMSS.txt in the current directory" },
	{ "Up Down", "scroll the domain list by a line; PgUp PgDn by a page; Home End to the ends" },
	{ "Ctrl-L", "redraw the screen" },
};

/* Distinct (column, reason) pairs behind the `-` cells on screen. */
static void add_reasons(struct lines *L, const struct tui *t, int width)
{
	const struct xg_view *v = &t->e->view;
	const struct xg_table *tb = &t->e->table;
	bool cols[XG_COL_COUNT] = { false };
	struct xg_reasons R;

	for (int j = 0; j < t->lay.n; j++)
		cols[t->lay.col[j]] = true;
	reasons_init(&R, false);
	for (int i = 0; i < t->list_h && t->top + (size_t)i < v->norder; i++)
		reasons_add_row(&R, tb, &tb->rows[v->order[t->top + (size_t)i]], cols);
	reasons_sort(&R);
	lines_add(L, "Why values on screen show \"-\"");
	if (!R.n)
		lines_add(L, "  none: every value on screen was measured");
	for (size_t s = 0; s < R.n; s++) {
		const struct xg_reason *p = &R.v[s];
		char name[TUI_CELL_BYTES], prefix[32], text[1024], sub[32];
		/* Reasons may come from a recording: escape them like names. */
		char why[512];
		tui_name_fit(name, sizeof(name), p->example->name, 24);
		tui_name_fit(why, sizeof(why), p->why, 120);
		snprintf(prefix, sizeof(prefix), "  %-10s ", xg_columns[p->col].header);
		if (row_label(p->example, sub, sizeof(sub)))
			snprintf(text, sizeof(text), "%s (%u row%s, e.g. %s %s)", why, p->count,
				 p->count == 1 ? "" : "s", name, sub + 2);
		else
			snprintf(text, sizeof(text), "%s (%u row%s, e.g. %s)", why, p->count,
				 p->count == 1 ? "" : "s", name);
		lines_wrap(L, prefix, text, width);
	}
	if (R.more)
		lines_add(L, "  (" XG_WHY_MORE ")");
}

static void help_build(struct lines *L, const struct tui *t, int width)
{
	const struct xg_view *v = &t->e->view;

	lines_add(L, "xgtop %s help: keys, columns, and why values are missing", XG_VERSION);
	lines_add(L, "%s", "");
	lines_add(L, "Keys");
	for (size_t i = 0; i < XG_ARRAY_LEN(help_keys); i++) {
		char prefix[32];
		snprintf(prefix, sizeof(prefix), "  %-9s ", help_keys[i][0]);
		lines_wrap(L, prefix, help_keys[i][1], width);
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
		if (view_col_visible(v, (enum xg_col)c) || c == XG_COL_NAME) {
			mark = '+';
			for (int j = 0; j < t->lay.n; j++)
				if (t->lay.col[j] == (enum xg_col)c)
					mark = '*';
		}
		snprintf(prefix, sizeof(prefix), "%c %-10s [%s] ", mark, d->header, col_unit_name(d->unit));
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

int tui_help(struct tui *t)
{
	struct lines L = { 0 };
	size_t top = 0;
	int ret = 0;
	bool rebuild = true;

	for (;;) {
		int h = LINES - 1 > 1 ? LINES - 1 : 1;
		if (rebuild) {
			lines_free(&L);
			help_build(&L, t, COLS > 40 ? COLS - 1 : 40);
			rebuild = false;
		}
		size_t maxtop = L.n > (size_t)h ? L.n - (size_t)h : 0;
		if (top > maxtop)
			top = maxtop;
		erase();
		for (int i = 0; i < h && top + (size_t)i < L.n; i++) {
			char c0 = L.v[top + i][0];
			bool title = c0 && c0 != ' ' && c0 != '*' && c0 != '+';
			if (title)
				attron(A_BOLD);
			tui_put(i, 0, L.v[top + i], COLS);
			if (title)
				attroff(A_BOLD);
		}
		t->cols = COLS;
		tui_draw_hints(t, help_hints, XG_ARRAY_LEN(help_hints));
		refresh();

		wint_t ch = 0;
		int rc = tui_key(t, -1, &ch);
		if (rc == TUI_KEY_QUIT) {
			ret = TUI_KEY_QUIT;
			break;
		}
		if (rc == KEY_CODE_YES) {
			size_t page = h > 1 ? (size_t)h - 1 : 1;
			switch (ch) {
			case KEY_UP: top = top ? top - 1 : 0; continue;
			case KEY_DOWN: top++; continue;
			case KEY_PPAGE: top = top > page ? top - page : 0; continue;
			case KEY_NPAGE: top += page; continue;
			case KEY_HOME: top = 0; continue;
			case KEY_END: top = maxtop; continue;
			case KEY_RESIZE: rebuild = true; continue;
			default: break;
			}
		}
		break;
	}
	lines_free(&L);
	return ret;
}

int tui_sort_menu(struct tui *t)
{
	struct xg_view *v = &t->e->view;
	enum xg_col cols[XG_COL_COUNT];
	int n = 0, sel = 0, top = 0, ret = 0;

	for (int c = 0; c < XG_COL_COUNT; c++) {
		if (!view_col_visible(v, (enum xg_col)c) && c != XG_COL_NAME)
			continue;
		if ((enum xg_col)c == v->sort_col)
			sel = n;
		cols[n++] = (enum xg_col)c;
	}
	for (;;) {
		int h = LINES - t->list_y - 3;
		if (h > n)
			h = n;
		if (h < 1)
			h = 1;
		int w = COLS < 34 ? COLS : 34;
		if (sel < top)
			top = sel;
		if (sel >= top + h)
			top = sel - h + 1;
		int y0 = t->list_y < LINES ? t->list_y : 0;
		WINDOW *win = newwin(h + 2, w, y0, 0);
		if (!win)
			return 0;
		box(win, 0, 0);
		mvwaddnstr(win, 0, 2, " Sort by (Enter, Esc) ", w - 4);
		for (int i = 0; i < h && top + i < n; i++) {
			enum xg_col c = cols[top + i];
			char line[64];
			snprintf(line, sizeof(line), " %-11s %-17s", xg_columns[c].header, xg_columns[c].key);
			if (top + i == sel)
				wattron(win, A_REVERSE);
			mvwaddnstr(win, i + 1, 1, line, w - 2);
			if (top + i == sel)
				wattroff(win, A_REVERSE);
		}
		wrefresh(win);
		delwin(win);

		wint_t ch = 0;
		int rc = tui_key(t, -1, &ch);
		if (rc == TUI_KEY_QUIT) {
			ret = TUI_KEY_QUIT;
			break;
		}
		if (rc == KEY_CODE_YES) {
			if (ch == KEY_UP && sel > 0)
				sel--;
			else if (ch == KEY_DOWN && sel + 1 < n)
				sel++;
			else if (ch == KEY_HOME)
				sel = 0;
			else if (ch == KEY_END)
				sel = n - 1;
			else if (ch == KEY_ENTER)
				goto pick;
			else if (ch == KEY_RESIZE)
				tui_draw(t);
			continue;
		}
		if (ch == '\r' || ch == '\n')
			goto pick;
		if (ch == 27 || ch == 'q')
			break;
		continue;
pick:
		if (cols[sel] != v->sort_col) {
			v->sort_col = cols[sel];
			v->reverse = false;
		}
		engine_reapply(t->e);
		break;
	}
	touchwin(stdscr);
	return ret;
}
