// SPDX-License-Identifier: GPL-2.0-or-later
/* Which columns of the domain list fit a terminal width (tui_layout): NAME
 * always, the others in the view's order while they fit, the highest
 * priority number dropped first and, among equals, the one further right
 * in the column table; NAME widens into room left over, up to the widest
 * name. Expectations are worked out from the column table, so they hold
 * when a column's width or priority changes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <string.h>

#include "../../../src/tui/tui_state.h"

static struct xg_config cfg;
static struct xg_view view;

static int setup(void **state)
{
	(void)state;
	config_defaults(&cfg);
	view_init(&view, &cfg);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	view_free(&view);
	return 0;
}

static bool wanted(enum xg_col c)
{
	return c == XG_COL_NAME || view_col_visible(&view, c);
}

/* The line width of every wanted column, NAME at name_w. */
static int full_width(int name_w)
{
	int total = 0;
	for (int c = 0; c < XG_COL_COUNT; c++)
		if (wanted((enum xg_col)c))
			total += 1 + (c == XG_COL_NAME ? name_w : xg_columns[c].width);
	return total;
}

static int position(const struct tui_layout *L, enum xg_col c)
{
	for (int i = 0; i < L->n; i++)
		if (L->col[i] == c)
			return i;
	return -1;
}

/* What holds for every layout: columns in the view's order, each starting
 * one separator after the one before, the width their sum, NAME there. */
static void check_shape(const struct tui_layout *L)
{
	int x = 0, k = 0;
	for (int i = 0; i < L->n; i++) {
		while (k < XG_COL_COUNT && view.col_order[k] != L->col[i])
			k++;
		assert_true(k < XG_COL_COUNT);   /* in the view's order */
		assert_true(wanted(L->col[i]));
		assert_int_equal(L->x[i], x);
		if (L->col[i] != XG_COL_NAME)
			assert_int_equal(L->w[i], xg_columns[L->col[i]].width);
		x += 1 + L->w[i];
	}
	assert_int_equal(L->width, x);
	assert_true(position(L, XG_COL_NAME) >= 0);
}

static int count_wanted(void)
{
	int n = 0;
	for (int c = 0; c < XG_COL_COUNT; c++)
		n += wanted((enum xg_col)c);
	return n;
}

static void test_wide_keeps_all(void **state)
{
	(void)state;
	struct tui_layout L;
	tui_layout(&view, 2000, 30, &L);
	check_shape(&L);
	assert_int_equal(L.n, count_wanted());
	assert_int_equal(L.dropped, 0);
	/* All the room NAME wants, no more. */
	assert_int_equal(L.w[position(&L, XG_COL_NAME)], 30);
	assert_int_equal(L.width, full_width(30));
}

/* Narrower than the table's NAME width when no name is that long. */
static void test_short_names(void **state)
{
	(void)state;
	struct tui_layout L;
	int pref = 4;   /* "NAME" */
	assert_true(pref < xg_columns[XG_COL_NAME].width);
	tui_layout(&view, 2000, pref, &L);
	assert_int_equal(L.w[position(&L, XG_COL_NAME)], pref);
	tui_layout(&view, full_width(pref), pref, &L);
	assert_int_equal(L.dropped, 0);
	assert_int_equal(L.width, full_width(pref));
}

/* NAME gives up room down to its table width before any column drops,
 * and takes what is left over, up to the widest name. */
static void test_name_shrinks_first(void **state)
{
	(void)state;
	struct tui_layout L;
	int namemin = xg_columns[XG_COL_NAME].width, pref = namemin + 20;
	int exact = full_width(namemin);
	tui_layout(&view, exact, pref, &L);
	check_shape(&L);
	assert_int_equal(L.dropped, 0);
	assert_int_equal(L.w[position(&L, XG_COL_NAME)], namemin);
	tui_layout(&view, exact + 7, pref, &L);
	assert_int_equal(L.dropped, 0);
	assert_int_equal(L.w[position(&L, XG_COL_NAME)], namemin + 7);
	assert_int_equal(L.width, exact + 7);
}

/* The column that goes first: the highest priority number, among equals
 * the last in the table. */
static enum xg_col first_to_drop(void)
{
	int worst = -1;
	for (int c = 0; c < XG_COL_COUNT; c++)
		if (c != XG_COL_NAME && wanted((enum xg_col)c) &&
		    (worst < 0 || xg_columns[c].priority >= xg_columns[worst].priority))
			worst = c;
	return (enum xg_col)worst;
}

static void test_one_column_short(void **state)
{
	(void)state;
	struct tui_layout L;
	int namemin = xg_columns[XG_COL_NAME].width;
	enum xg_col gone = first_to_drop();
	tui_layout(&view, full_width(namemin) - 1, 40, &L);
	check_shape(&L);
	assert_int_equal(L.dropped, 1);
	assert_int_equal(L.n, count_wanted() - 1);
	assert_int_equal(position(&L, gone), -1);
	/* What the dropped column freed goes to NAME, as far as it fits. */
	assert_true(L.width <= full_width(namemin) - 1);
	assert_true(L.w[position(&L, XG_COL_NAME)] > namemin);
}

/* At every width: what is kept fits (while anything but NAME is), and
 * every dropped column comes before every kept one in the drop order. */
static void test_every_width(void **state)
{
	(void)state;
	struct tui_layout L;
	for (int cols = 0; cols <= full_width(40) + 2; cols++) {
		tui_layout(&view, cols, 40, &L);
		check_shape(&L);
		assert_int_equal(L.n + L.dropped, count_wanted());
		if (L.n > 1)
			assert_true(L.width <= cols);
		for (int c = 0; c < XG_COL_COUNT; c++) {
			if (c == XG_COL_NAME || !wanted((enum xg_col)c) || position(&L, (enum xg_col)c) >= 0)
				continue;
			for (int i = 0; i < L.n; i++) {
				enum xg_col k = L.col[i];
				if (k == XG_COL_NAME)
					continue;
				int pd = xg_columns[c].priority, pk = xg_columns[k].priority;
				assert_true(pd > pk || (pd == pk && c > (int)k));
			}
		}
	}
}

/* Too narrow for anything but NAME at its smallest: NAME alone. */
static void test_tiny(void **state)
{
	(void)state;
	struct tui_layout L;
	int namemin = xg_columns[XG_COL_NAME].width;
	tui_layout(&view, 3, 40, &L);
	assert_int_equal(L.n, 1);
	assert_int_equal(L.col[0], XG_COL_NAME);
	assert_int_equal(L.w[0], namemin);
	assert_int_equal(L.dropped, count_wanted() - 1);
}

/* The column chooser's order and hidden columns, and the group toggles. */
static void test_view_order_and_hiding(void **state)
{
	(void)state;
	struct tui_layout L;
	view_col_move(&view, XG_COL_NAME, 1);   /* NAME after STATE */
	tui_layout(&view, 2000, 20, &L);
	check_shape(&L);
	assert_int_equal(position(&L, XG_COL_NAME), position(&L, XG_COL_STATE) + 1);

	assert_true(view_col_set_hidden(&view, XG_COL_MAXMEM, true));
	tui_layout(&view, 2000, 20, &L);
	assert_int_equal(position(&L, XG_COL_MAXMEM), -1);
	assert_int_equal(L.dropped, 0);   /* hidden is not dropped */

	bool disk_on = view_toggle_get(&view, XG_TOGGLE_DISK);
	view_toggle_set(&view, XG_TOGGLE_DISK, !disk_on);
	tui_layout(&view, 2000, 20, &L);
	check_shape(&L);
	assert_true((position(&L, XG_COL_DISK_RD) >= 0) == !disk_on);
	view_cols_reset(&view);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_wide_keeps_all, setup, teardown),
		cmocka_unit_test_setup_teardown(test_short_names, setup, teardown),
		cmocka_unit_test_setup_teardown(test_name_shrinks_first, setup, teardown),
		cmocka_unit_test_setup_teardown(test_one_column_short, setup, teardown),
		cmocka_unit_test_setup_teardown(test_every_width, setup, teardown),
		cmocka_unit_test_setup_teardown(test_tiny, setup, teardown),
		cmocka_unit_test_setup_teardown(test_view_order_and_hiding, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
