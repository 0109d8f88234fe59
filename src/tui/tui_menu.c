// SPDX-License-Identifier: GPL-2.0-or-later
/* The sort column menu (`o`, F6): a box over the domain list with the
 * visible columns and their keys. A mode of the main loop: the list behind
 * it keeps refreshing. */
#include "tui_state.h"

#include <curses.h>
#include <stdio.h>

void tui_menu_open(struct tui *t)
{
	const struct xg_view *v = &t->e->view;
	struct tui_menu *m = &t->menu;

	m->n = m->sel = m->top = 0;
	for (int k = 0; k < XG_COL_COUNT; k++) {
		enum xg_col c = v->col_order[k];   /* as on screen */
		if ((!view_col_visible(v, c) && c != XG_COL_NAME) || !view_sortable(c))
			continue;
		if (c == v->sort_col)
			m->sel = m->n;
		m->cols[m->n++] = c;
	}
	t->mode = TUI_MODE_MENU;
}

void tui_menu_draw(struct tui *t)
{
	struct tui_menu *m = &t->menu;
	int h, w;
	WINDOW *win = tui_overlay(t, m->n, 34, m->sel, &m->top, &h, &w, " Sort by (Enter, Esc) ");
	if (!win)
		return;
	for (int i = 0; i < h && m->top + i < m->n; i++) {
		enum xg_col c = m->cols[m->top + i];
		char line[64];
		snprintf(line, sizeof(line), " %-11s %-17s", xg_columns[c].header, xg_columns[c].key);
		if (m->top + i == m->sel)
			wattron(win, t->el[TUI_EL_SELECT]);
		mvwaddnstr(win, i + 1, 1, line, w - 2);
		if (m->top + i == m->sel)
			wattroff(win, t->el[TUI_EL_SELECT]);
	}
	wnoutrefresh(win);
	delwin(win);
}

static unsigned act_move(struct tui *t, const struct tui_binding *b, int key)
{
	(void)b;
	struct tui_menu *m = &t->menu;
	switch (tui_key_alias(key)) {
	case KEY_UP: m->sel -= m->sel > 0; break;
	case KEY_DOWN: m->sel += m->sel + 1 < m->n; break;
	case KEY_HOME: m->sel = 0; break;
	case KEY_END: m->sel = m->n - 1; break;
	default: break;
	}
	return TUI_DONE;
}

static unsigned act_pick(struct tui *t, const struct tui_binding *b, int key)
{
	(void)b, (void)key;
	view_sort_by(&t->e->view, t->menu.cols[t->menu.sel]);
	return TUI_REFILTER | TUI_BACK;
}

/* Other keys do nothing: the menu stays until picked or cancelled. */
static const struct tui_binding menu_bindings[] = {
	{ { KEY_UP, KEY_DOWN, 'k', 'j' }, NULL, NULL, "move the selection", act_move, 0 },
	{ { KEY_HOME, KEY_END, TUI_KEY_TWICE('g'), 'G' }, NULL, NULL, "the first / last column", act_move, 0 },
	{ { '\r', '\n', KEY_ENTER }, NULL, NULL, "sort by the selected column", act_pick, 0 },
	{ { TUI_KEY_ESC, 'q' }, NULL, NULL, "leave the sort as it was", tui_act_back, 0 },
};

const struct tui_keymap tui_menu_keys = {
	.title = "Keys in the sort menu",
	.b = menu_bindings,
	.n = XG_ARRAY_LEN(menu_bindings),
};
