// SPDX-License-Identifier: GPL-2.0-or-later
/* The column chooser (`C`, F2): every column in display order, shown or
 * hidden, moved left and right; beside the sort menu, a box over the
 * domain list, which keeps refreshing and follows each change at once.
 * The order and the hidden set are the view's (view.c); the toggles
 * d n c m w still hide whole groups on top. */
#include "tui_priv.h"

#include <curses.h>
#include <stdio.h>

#define BOX_W 58

void tui_columns_open(struct tui *t)
{
	t->colsel.sel = 0;
	t->colsel.top = 0;
	t->mode = TUI_MODE_COLUMNS;
}

/* The key of the toggle that hides c's group, or 0. */
static char group_key(enum xg_colgroup g, const struct xg_view *v)
{
	switch (g) {
	case XG_GRP_NET: return 'n';
	case XG_GRP_DISK: return 'd';
	case XG_GRP_SCHED: return 'w';
	case XG_GRP_CMT: return 'c';
	case XG_GRP_CACHE:
	case XG_GRP_CACHE_BD: return v->show_cache ? 'm' : 'c';
	case XG_GRP_TREND: return 'g';
	default: return 0;
	}
}

static void item(WINDOW *win, int y, int w, const struct xg_view *v, enum xg_col c, bool sel)
{
	char line[96], note[40] = "";
	char k = group_key(xg_columns[c].group, v);
	if (c == XG_COL_NAME)
		snprintf(note, sizeof(note), "always shown");
	else if (!k && !view_group_visible(v, c))   /* no key shows them: HOST, VM */
		snprintf(note, sizeof(note), "%s",
			 xg_columns[c].group == XG_GRP_VM ? "KVM VMs only" : "pool view only");
	else if (!view_group_visible(v, c))
		snprintf(note, sizeof(note), "its group is off (%c)", k);
	snprintf(line, sizeof(line), " [%c] %-11s %-21s %s", view_col_hidden(v, c) ? ' ' : 'x',
		 xg_columns[c].header, xg_columns[c].key, note);
	if (sel)
		wattron(win, A_REVERSE);
	mvwaddnstr(win, y, 1, line, w - 2);
	if (sel)
		wattroff(win, A_REVERSE);
}

void tui_columns_draw(struct tui *t)
{
	const struct xg_view *v = &t->e->view;
	struct tui_colsel *cs = &t->colsel;
	int h, w;
	WINDOW *win = tui_overlay(t, XG_COL_COUNT, BOX_W, cs->sel, &cs->top, &h, &w,
				  " Columns: space show/hide, [ ] move, r reset, Esc ");
	if (!win)
		return;
	for (int i = 0; i < h && cs->top + i < XG_COL_COUNT; i++)
		item(win, i + 1, w, v, v->col_order[cs->top + i], cs->top + i == cs->sel);
	wnoutrefresh(win);
	delwin(win);
}

/* Selection moves; true when the key was one. */
static bool move_key(struct tui_colsel *cs, wint_t ch, int page)
{
	switch (ch) {
	case KEY_UP: cs->sel -= cs->sel > 0; return true;
	case KEY_DOWN: cs->sel += cs->sel + 1 < XG_COL_COUNT; return true;
	case KEY_PPAGE: cs->sel = cs->sel > page ? cs->sel - page : 0; return true;
	case KEY_NPAGE: cs->sel = cs->sel + page < XG_COL_COUNT ? cs->sel + page : XG_COL_COUNT - 1; return true;
	case KEY_HOME: cs->sel = 0; return true;
	case KEY_END: cs->sel = XG_COL_COUNT - 1; return true;
	default: return false;
	}
}

/* Moves the selected column one place, the selection with it. */
static void shift(struct tui *t, int dir)
{
	struct xg_view *v = &t->e->view;
	struct tui_colsel *cs = &t->colsel;
	int to = cs->sel + dir;
	if (to < 0 || to >= XG_COL_COUNT)
		return;
	view_col_move(v, v->col_order[cs->sel], dir);
	cs->sel = to;
}

void tui_columns_key(struct tui *t, int rc, wint_t ch)
{
	struct xg_view *v = &t->e->view;
	struct tui_colsel *cs = &t->colsel;
	enum xg_col c = v->col_order[cs->sel];
	int page = LINES - t->list_y - 4 > 1 ? LINES - t->list_y - 4 : 1;

	if (rc == KEY_CODE_YES && move_key(cs, ch, page))
		return;
	if (rc == KEY_CODE_YES && (ch == KEY_F(7) || ch == KEY_F(8)))
		shift(t, ch == KEY_F(7) ? -1 : 1);
	else if (rc == KEY_CODE_YES && ch == KEY_ENTER)
		ch = ' ';
	else if (rc == KEY_CODE_YES && ch == KEY_F(2))
		ch = 27;
	else if (rc == KEY_CODE_YES)
		return;
	if (ch == 27 || ch == 'q' || ch == 'C') {   /* Esc */
		t->mode = TUI_MODE_TABLE;
		return;
	}
	if (ch == ' ' || ch == '\r' || ch == '\n') {
		if (!view_col_set_hidden(v, c, !view_col_hidden(v, c)))
			tui_set_msg(t, false, "NAME is always shown");
	} else if (ch == '[' || ch == ']') {
		shift(t, ch == '[' ? -1 : 1);
	} else if (ch == 'r') {
		view_cols_reset(v);
	}
	t->name_sticky = 0;
	engine_reapply(t->e);
}
