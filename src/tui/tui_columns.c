// SPDX-License-Identifier: GPL-2.0-or-later
/* The column chooser (`C`, F2): every column in display order, shown or
 * hidden, moved left and right; beside the sort menu, a box over the
 * domain list, which keeps refreshing and follows each change at once.
 * The order and the hidden set are the view's (view.c); the toggles
 * d n c m w still hide whole groups on top. */
#include "tui_state.h"

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
	case XG_GRP_WAITS: return v->show_waits ? 'w' : 0;
	case XG_GRP_CMT: return 'c';
	case XG_GRP_CACHE:
	case XG_GRP_CACHE_BD: return v->show_cache ? 'm' : 'c';
	case XG_GRP_CONTENTION: return 'c';
	case XG_GRP_TREND: return 'T';
	default: return 0;
	}
}

static void item(WINDOW *win, int y, int w, const struct xg_view *v, enum xg_col c, chtype sel)
{
	char line[96], note[40] = "";
	char k = group_key(xg_columns[c].group, v);
	if (c == XG_COL_NAME)
		snprintf(note, sizeof(note), "always shown");
	else if (!k && !view_group_visible(v, c))   /* no key shows them: HOST, VM */
		snprintf(note, sizeof(note), "%s",
			 xg_columns[c].group == XG_GRP_VM ? "KVM VMs only" :
			 xg_columns[c].group == XG_GRP_WAITS ? "Xen trace, Linux BPF" :
			 "pool view only");
	else if (!view_group_visible(v, c))
		snprintf(note, sizeof(note), "its group is off (%c)", k);
	snprintf(line, sizeof(line), " [%c] %-11s %-21s %s", view_col_hidden(v, c) ? ' ' : 'x',
		 xg_columns[c].header, xg_columns[c].key, note);
	if (sel)
		wattron(win, sel);
	mvwaddnstr(win, y, 1, line, w - 2);
	if (sel)
		wattroff(win, sel);
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
		item(win, i + 1, w, v, v->col_order[cs->top + i], cs->top + i == cs->sel ? t->el[TUI_EL_SELECT] : 0);
	wnoutrefresh(win);
	delwin(win);
}

/* The page PgUp and PgDn move by: the rows of the box. */
static int page_rows(const struct tui *t)
{
	return LINES - t->list_y - 4 > 1 ? LINES - t->list_y - 4 : 1;
}

static unsigned act_move(struct tui *t, const struct tui_binding *b, int key)
{
	(void)b;
	struct tui_colsel *cs = &t->colsel;
	int page = page_rows(t);
	switch (tui_key_alias(key)) {
	case KEY_UP: cs->sel -= cs->sel > 0; break;
	case KEY_DOWN: cs->sel += cs->sel + 1 < XG_COL_COUNT; break;
	case KEY_PPAGE: cs->sel = cs->sel > page ? cs->sel - page : 0; break;
	case KEY_NPAGE: cs->sel = cs->sel + page < XG_COL_COUNT ? cs->sel + page : XG_COL_COUNT - 1; break;
	case KEY_HOME: cs->sel = 0; break;
	case KEY_END: cs->sel = XG_COL_COUNT - 1; break;
	default: break;
	}
	return TUI_DONE;
}

/* Each change applies at once: the rows again, and NAME's width afresh. */
#define CHANGED (TUI_REFILTER | TUI_RELAYOUT)

static unsigned act_show_hide(struct tui *t, const struct tui_binding *b, int key)
{
	(void)b, (void)key;
	struct xg_view *v = &t->e->view;
	enum xg_col c = v->col_order[t->colsel.sel];
	if (!view_col_set_hidden(v, c, !view_col_hidden(v, c)))
		tui_set_msg(t, false, "NAME is always shown");
	return CHANGED;
}

/* Moves the selected column one place (b->arg: -1 left, 1 right), the
 * selection with it. */
static unsigned act_shift(struct tui *t, const struct tui_binding *b, int key)
{
	(void)key;
	struct xg_view *v = &t->e->view;
	struct tui_colsel *cs = &t->colsel;
	int to = cs->sel + b->arg;
	if (to >= 0 && to < XG_COL_COUNT) {
		view_col_move(v, v->col_order[cs->sel], b->arg);
		cs->sel = to;
	}
	return CHANGED;
}

static unsigned act_reset(struct tui *t, const struct tui_binding *b, int key)
{
	(void)b, (void)key;
	view_cols_reset(&t->e->view);
	return CHANGED;
}

/* Other keys do nothing. */
static const struct tui_binding columns_bindings[] = {
	{ { KEY_UP, KEY_DOWN, 'k', 'j' }, NULL, NULL, "select the column above / below", act_move, 0 },
	{ { KEY_PPAGE, KEY_NPAGE }, NULL, NULL, "select a page up / down", act_move, 0 },
	{ { KEY_HOME, KEY_END, TUI_KEY_TWICE('g'), 'G' }, NULL, NULL, "select the first / last column",
	  act_move, 0 },
	{ { ' ', '\r', '\n', KEY_ENTER }, NULL, NULL, "show or hide the selected column (NAME is always "
	  "shown)", act_show_hide, 0 },
	{ { '[', KEY_F(7) }, NULL, NULL, "move the selected column left", act_shift, -1 },
	{ { ']', KEY_F(8) }, NULL, NULL, "move the selected column right", act_shift, 1 },
	{ { 'r' }, NULL, NULL, "the table's order with nothing hidden", act_reset, 0 },
	{ { TUI_KEY_ESC, 'q', 'C', KEY_F(2) }, NULL, NULL, "close the chooser", tui_act_back, 0 },
};

const struct tui_keymap tui_columns_keys = {
	.title = "Keys in the column chooser",
	.b = columns_bindings,
	.n = XG_ARRAY_LEN(columns_bindings),
};
