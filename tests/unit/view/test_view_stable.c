// SPDX-License-Identifier: GPL-2.0-or-later
/* Rows that hold still (core/view_stable.c): the margin, the floors, the
 * exact order on a reset, a new sort, reverse or filter, new and
 * unmeasured rows, and nothing of it outside a live view. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "xgtop/view/view.h"

#define N 5
static struct xg_row rows[N];
static struct xg_table table;
static struct xg_config cfg;
static struct xg_view view;

static void set_cpu(const double *cpu)
{
	for (int i = 0; i < N; i++) {
		rows[i].v[XG_COL_CPU_PCT] = cpu[i];
		if (cpu[i] >= 0)
			rows[i].valid |= 1ull << XG_COL_CPU_PCT;
		else
			rows[i].valid &= ~(1ull << XG_COL_CPU_PCT);
	}
}

static int setup(void **state)
{
	(void)state;
	static const char *names[N] = { "a", "b", "c", "d", "e" };
	memset(rows, 0, sizeof(rows));
	for (int i = 0; i < N; i++) {
		rows[i].id = (uint32_t)i + 1;
		rows[i].vcpu = -1;
		rows[i].name = names[i];
		rows[i].base_index = (uint32_t)i;   /* each has a baseline */
		rows[i].v[XG_COL_ID] = rows[i].id;
		rows[i].valid = 1ull << XG_COL_ID;
	}
	table.rows = rows;
	table.n = table.ndom_rows = N;
	config_defaults(&cfg);
	view_init(&view, &cfg);
	view.stable_live = true;
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	view_free(&view);
	return 0;
}

/* Applies the view with these CPU% (-1: not measured); the names in order. */
static const char *order(const double *cpu)
{
	static char buf[64];
	set_cpu(cpu);
	view_apply(&view, &table);
	buf[0] = 0;
	for (size_t i = 0; i < view.norder; i++)
		strcat(buf, table.rows[view.order[i]].name);
	return buf;
}

static void close_rows_hold_clear_ones_move(void **state)
{
	(void)state;
	assert_true(view.stable);   /* on by default */
	assert_string_equal(order((double[]){ 50, 49, 30, 10, 1 }), "abcde");
	/* b 4 % ahead of a: no swap; e 0.8 points ahead of... nobody. */
	assert_string_equal(order((double[]){ 49, 51, 30, 10, 1 }), "abcde");
	assert_string_equal(order((double[]){ 51, 49, 30, 10, 1 }), "abcde");
	/* Exactly 10 % is not more than 10 %: still held. */
	assert_string_equal(order((double[]){ 50, 55, 30, 10, 1 }), "abcde");
	/* c 30 % ahead of both: passes them in one refresh. */
	assert_string_equal(order((double[]){ 50, 49, 65, 10, 1 }), "cabde");
	/* a falls far behind: the rows clearly ahead pass it. */
	assert_string_equal(order((double[]){ 5, 49, 65, 10, 1 }), "cbdae");
}

static void floor_for_small_values(void **state)
{
	(void)state;
	assert_string_equal(order((double[]){ 3, 2.5, 2, 1.5, 1 }), "abcde");
	/* e at 1.9 is 90 % ahead of d, but less than the 1-point floor. */
	assert_string_equal(order((double[]){ 3, 2.5, 2, 1.5, 2.4 }), "abcde");
	/* 2.6 is 1.1 points past d's 1.5: e passes d, not c (0.6 points). */
	assert_string_equal(order((double[]){ 3, 2.5, 2, 1.5, 2.6 }), "abced");
	assert_true(view_stable_floor(XG_UNIT_PCT) == 1.0);
	assert_true(view_stable_floor(XG_UNIT_BPS) == 1024.0);
	assert_true(view_stable_floor(XG_UNIT_PER_S) == 2.0);
	assert_true(view_stable_floor(XG_UNIT_BYTES) == 1024.0 * 1024.0);
}

static void exact_on_reset_sort_reverse_filter(void **state)
{
	(void)state;
	struct xg_err err = { 0 };
	assert_string_equal(order((double[]){ 50, 49, 30, 10, 1 }), "abcde");
	assert_string_equal(order((double[]){ 49, 51, 30, 10, 1 }), "abcde");
	view.stable_reset = true;   /* Ctrl-L, a freeze */
	assert_string_equal(order((double[]){ 49, 51, 30, 10, 1 }), "bacde");
	assert_string_equal(order((double[]){ 51, 49, 30, 10, 1 }), "bacde");
	view.reverse = true;
	assert_string_equal(order((double[]){ 51, 49, 30, 10, 1 }), "edcba");
	view.reverse = false;
	assert_string_equal(order((double[]){ 51, 49, 30, 10, 1 }), "abcde");
	assert_string_equal(order((double[]){ 49, 51, 30, 10, 1 }), "abcde");
	assert_int_equal(view_set_filter(&view, "[abc]", &err), 0);
	assert_string_equal(order((double[]){ 49, 51, 30, 10, 1 }), "bac");
	view_sort_by(&view, XG_COL_ID);
	assert_string_equal(order((double[]){ 49, 51, 30, 10, 1 }), "abc");
}

static void new_and_unmeasured_rows_go_to_their_exact_place(void **state)
{
	(void)state;
	/* The first refresh has no rates: every row unmeasured, table order. */
	assert_string_equal(order((double[]){ -1, -1, -1, -1, -1 }), "abcde");
	/* The next one sorts exactly, though c and d are close. */
	assert_string_equal(order((double[]){ 1, 2, 30, 31, 50 }), "edcba");
	assert_string_equal(order((double[]){ 1, 2, 31, 30, 50 }), "edcba");
	/* b goes (filtered by --vmfile would do the same): the others hold. */
	table.ndom_rows = table.n = 4;
	assert_string_equal(order((double[]){ 1, 2, 31, 30, -1 }), "dcba");
	table.ndom_rows = table.n = N;
	/* e comes back, new (no baseline yet, as metrics says): placed where
	 * the exact order puts it, first. */
	rows[4].base_index = XG_NO_BASE;
	assert_string_equal(order((double[]){ 1, 2, 31, 30, 50 }), "edcba");
	rows[4].base_index = 4;
	/* A reused id (a new incarnation: no baseline) goes to its exact place
	 * although it was known: c restarts. */
	assert_string_equal(order((double[]){ 1, 2, 29, 31, 50 }), "edcba");
	rows[2].base_index = XG_NO_BASE;
	assert_string_equal(order((double[]){ 1, 2, 29, 31, 50 }), "edcba");
	rows[2].base_index = 2;
	assert_string_equal(order((double[]){ 1, 2, 31, 29, 50 }), "edcba");
	/* An unmeasured row stays last. */
	assert_string_equal(order((double[]){ 1, -1, 31, 29, 50 }), "edcab");
}

static void not_outside_a_live_view(void **state)
{
	(void)state;
	view.stable_live = false;   /* batch output, -o formats */
	assert_string_equal(order((double[]){ 50, 49, 30, 10, 1 }), "abcde");
	assert_string_equal(order((double[]){ 49, 51, 30, 10, 1 }), "bacde");
	view.stable_live = true;
	view.stable = false;        /* --stable-order off */
	assert_string_equal(order((double[]){ 51, 49, 30, 10, 1 }), "abcde");
	assert_string_equal(order((double[]){ 49, 51, 30, 10, 1 }), "bacde");
	cfg.stable_order = 0;
	struct xg_view off;
	view_init(&off, &cfg);
	assert_false(off.stable);
	view_free(&off);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(close_rows_hold_clear_ones_move, setup, teardown),
		cmocka_unit_test_setup_teardown(floor_for_small_values, setup, teardown),
		cmocka_unit_test_setup_teardown(exact_on_reset_sort_reverse_filter, setup, teardown),
		cmocka_unit_test_setup_teardown(new_and_unmeasured_rows_go_to_their_exact_place, setup, teardown),
		cmocka_unit_test_setup_teardown(not_outside_a_live_view, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
