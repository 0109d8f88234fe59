// SPDX-License-Identifier: GPL-2.0-or-later
/* Sorting, filtering, column visibility and formatting. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "xgtop/view/view.h"
#include "xgtop/compute/cell.h"

static struct xg_row rows[6];
static struct xg_table table;
static struct xg_config cfg;

static int setup(void **state)
{
	(void)state;
	static const char *names[] = { "alpha", "Beta", "gamma", "delta", "web-01", "web-02" };
	/* CPU% chosen so that integer truncation (xentop's bug) or string
	 * comparison would give another order: 9.9 < 10.2 < 10.7 < 100. */
	static const double cpu[] = { 10.7, 9.9, 100.0, -1, 10.2, 0.5 };
	memset(rows, 0, sizeof(rows));
	for (int i = 0; i < 6; i++) {
		rows[i].id = (uint32_t)i + 1;
		rows[i].vcpu = -1;
		rows[i].name = names[i];
		snprintf(rows[i].state, sizeof(rows[i].state), "-----r");
		if (cpu[i] >= 0) {
			rows[i].v[XG_COL_CPU_PCT] = cpu[i];
			rows[i].valid |= 1ull << XG_COL_CPU_PCT;
		}
		rows[i].v[XG_COL_ID] = rows[i].id;
		rows[i].valid |= 1ull << XG_COL_ID;
	}
	table.rows = rows;
	table.n = table.ndom_rows = 6;
	config_defaults(&cfg);
	return 0;
}

static void order_names(struct xg_view *v, char *out, size_t n)
{
	out[0] = 0;
	for (size_t i = 0; i < v->norder; i++) {
		strncat(out, table.rows[v->order[i]].name, n - strlen(out) - 2);
		strcat(out, " ");
	}
}

/* Applies the view to the table; its rows must come out in the order want
 * (names, each followed by a space). */
static void expect_order(struct xg_view *v, const char *want)
{
	char buf[256];
	view_apply(v, &table);
	order_names(v, buf, sizeof(buf));
	assert_string_equal(buf, want);
}

static void sort_numeric_unmeasured_last(void **state)
{
	(void)state;
	struct xg_view v;
	view_init(&v, &cfg);
	assert_int_equal(v.sort_col, XG_COL_CPU_PCT);
	expect_order(&v, "gamma alpha web-01 Beta web-02 delta ");
	v.reverse = true;
	expect_order(&v, "web-02 Beta web-01 alpha gamma delta ");
	v.reverse = false;
	v.sort_col = XG_COL_NAME;
	expect_order(&v, "alpha Beta delta gamma web-01 web-02 ");
	view_free(&v);
	cfg.output = XG_OUT_XENTOP;
	view_init(&v, &cfg);
	assert_int_equal(v.sort_col, XG_COL_NAME);
	view_free(&v);
	cfg.sort = "cpu";
	view_init(&v, &cfg);
	assert_int_equal(v.sort_col, XG_COL_CPU_PCT);
	view_free(&v);
	cfg.output = XG_OUT_TEXT;
	cfg.sort = NULL;
}

static void ties_keep_id_order(void **state)
{
	(void)state;
	struct xg_view v;
	rows[0].v[XG_COL_CPU_PCT] = rows[4].v[XG_COL_CPU_PCT] = 10.2;   /* alpha ties web-01 */
	rows[5].v[XG_COL_CPU_PCT] = -0.0;
	rows[1].v[XG_COL_CPU_PCT] = 0.0;                                 /* Beta ties web-02 */
	view_init(&v, &cfg);
	expect_order(&v, "gamma alpha web-01 Beta web-02 delta ");
	v.reverse = true;
	expect_order(&v, "Beta web-02 alpha web-01 gamma delta ");
	view_free(&v);
}

/* Text columns sort with a comparator: ties still go in table (id) order,
 * in both directions (--sort state lists every running domain by id). */
static void text_ties_keep_id_order(void **state)
{
	(void)state;
	struct xg_view v;
	snprintf(rows[2].state, sizeof(rows[2].state), "--b---");
	snprintf(rows[3].state, sizeof(rows[3].state), "--b---");
	view_init(&v, &cfg);
	view_sort_by(&v, XG_COL_STATE);
	expect_order(&v, "alpha Beta web-01 web-02 gamma delta ");
	v.reverse = !v.reverse;
	expect_order(&v, "gamma delta alpha Beta web-01 web-02 ");
	view_free(&v);
}

/* Values the sort's first pass cannot tell apart (the same top 32 bits of
 * their keys) still come out in order, ties in table order. */
static void close_values_in_order(void **state)
{
	(void)state;
	struct xg_view v;
	rows[0].v[XG_COL_CPU_PCT] = 1 - ldexp(1, -40);    /* alpha */
	rows[1].v[XG_COL_CPU_PCT] = 1 + ldexp(1, -38);    /* Beta */
	rows[2].v[XG_COL_CPU_PCT] = 1;                    /* gamma */
	rows[4].v[XG_COL_CPU_PCT] = 1 + ldexp(1, -40);    /* web-01 */
	rows[5].v[XG_COL_CPU_PCT] = 1;                    /* web-02 ties gamma */
	view_init(&v, &cfg);
	expect_order(&v, "Beta web-01 gamma web-02 alpha delta ");
	v.reverse = true;
	expect_order(&v, "alpha gamma web-02 web-01 Beta delta ");
	view_free(&v);
}

/* The same rows still in order keep their order without a sort; any
 * change of a value, of the rows or of the sort is seen. */
static void order_kept_while_sorted(void **state)
{
	(void)state;
	struct xg_view v;
	view_init(&v, &cfg);
	expect_order(&v, "gamma alpha web-01 Beta web-02 delta ");
	expect_order(&v, "gamma alpha web-01 Beta web-02 delta ");
	rows[5].v[XG_COL_CPU_PCT] = 10.5;   /* web-02 moves up past web-01 */
	expect_order(&v, "gamma alpha web-02 web-01 Beta delta ");
	rows[1].valid &= ~(1ull << XG_COL_CPU_PCT);   /* Beta no longer measured */
	expect_order(&v, "gamma alpha web-02 web-01 Beta delta ");
	rows[3].v[XG_COL_CPU_PCT] = 50;     /* delta measured now: before alpha */
	rows[3].valid |= 1ull << XG_COL_CPU_PCT;
	expect_order(&v, "gamma delta alpha web-02 web-01 Beta ");
	v.sort_col = XG_COL_NAME;
	expect_order(&v, "alpha Beta delta gamma web-01 web-02 ");
	expect_order(&v, "alpha Beta delta gamma web-01 web-02 ");
	table.ndom_rows = table.n = 5;      /* web-02 gone */
	expect_order(&v, "alpha Beta delta gamma web-01 ");
	table.ndom_rows = table.n = 6;
	view_free(&v);
}

static void filter_and_vmfile(void **state)
{
	(void)state;
	struct xg_view v;
	struct xg_err err;
	view_init(&v, &cfg);
	assert_int_equal(view_set_filter(&v, "^WEB-", &err), 0);
	expect_order(&v, "web-01 web-02 ");
	assert_int_equal(view_set_filter(&v, "web-(", &err), -1);
	assert_non_null(strstr(err.msg, "web-("));
	view_apply(&v, &table);   /* the old filter stays */
	assert_int_equal(v.norder, 2);
	assert_int_equal(view_set_filter(&v, "", &err), 0);

	char path[] = "/tmp/xgtop-vmfile-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	const char text[] = "# mine\n  gamma \n\nBeta\n";
	assert_int_equal(write(fd, text, sizeof(text) - 1), (ssize_t)sizeof(text) - 1);
	close(fd);
	assert_int_equal(view_load_vmfile(&v, path, &err), 0);
	expect_order(&v, "gamma Beta ");
	unlink(path);
	assert_int_equal(view_load_vmfile(&v, path, &err), -1);
	assert_non_null(strstr(err.msg, path));
	view_free(&v);
}

static void toggles_and_sort_step(void **state)
{
	(void)state;
	struct xg_view v;
	cfg.nonet = true;
	cfg.nosumcache = true;
	view_init(&v, &cfg);
	cfg.nonet = cfg.nosumcache = false;
	assert_false(view_col_visible(&v, XG_COL_NET_RX));
	assert_true(view_col_visible(&v, XG_COL_DISK_WRB));
	assert_false(view_col_visible(&v, XG_COL_HIT));
	assert_true(view_col_visible(&v, XG_COL_HIT_GU));
	assert_true(view_col_visible(&v, XG_COL_L3_OCC));
	v.sort_col = XG_COL_MAXMEM;
	view_sort_step(&v, 1);   /* skips the hidden network columns */
	assert_int_equal(v.sort_col, XG_COL_DISK_RD);
	view_sort_step(&v, -1);
	assert_int_equal(v.sort_col, XG_COL_MAXMEM);
	v.sort_col = XG_COL_ID;
	view_sort_step(&v, -1);   /* wraps */
	assert_int_equal(v.sort_col, XG_COL_HIT_H);
	view_free(&v);
}

static void delay_bounds_and_steps(void **state)
{
	(void)state;
	char text[64];
	/* The message text says what the numbers say. */
	snprintf(text, sizeof(text), "%g to %g", XG_DELAY_MIN_S, XG_DELAY_MAX_S);
	assert_string_equal(text, XG_DELAY_RANGE);
	assert_true(view_delay_valid(XG_DELAY_MIN_S));
	assert_true(view_delay_valid(0.05));
	assert_false(view_delay_valid(0.0499));
	assert_true(view_delay_valid(86400));
	assert_false(view_delay_valid(86400.5));
	assert_false(view_delay_valid(0));
	assert_false(view_delay_valid(-1));
	assert_false(view_delay_valid(0.0 / 0.0));
	assert_true(view_delay_valid(1));

	static const double ladder[] = { 0.1, 0.2, 0.5, 1, 1.5, 2, 3, 5, 10, 15, 30, 60, 120, 300 };
	double d = 0.05;
	for (size_t i = 0; i < sizeof(ladder) / sizeof(ladder[0]); i++) {
		d = view_delay_step(d, 1);
		assert_true(d == ladder[i]);
		assert_true(view_delay_valid(d));
	}
	assert_true(view_delay_step(300, 1) == 300);      /* the top stays */
	assert_true(view_delay_step(1000, 1) == 1000);    /* above the ladder: no step up */
	assert_true(view_delay_step(1000, -1) == 300);
	assert_true(view_delay_step(0.1, -1) == 0.1);     /* the bottom stays */
	assert_true(view_delay_step(0.05, -1) == 0.05);   /* below it too (-d 0.05) */
	assert_true(view_delay_step(2.25, 1) == 3);       /* off the ladder: the next rung */
	assert_true(view_delay_step(2.25, -1) == 2);
	assert_true(view_delay_step(1.5, -1) == 1);
}

static void toggles_keep_a_visible_sort(void **state)
{
	(void)state;
	struct xg_view v;
	view_init(&v, &cfg);

	/* Hiding the sort column: CPU% in its natural order. */
	view_sort_by(&v, XG_COL_NET_RX);
	v.reverse = true;
	assert_false(view_toggle(&v, XG_TOGGLE_NET));
	assert_false(v.show_net);
	assert_int_equal(v.sort_col, XG_COL_CPU_PCT);
	assert_false(v.reverse);
	assert_true(view_toggle(&v, XG_TOGGLE_NET));
	assert_int_equal(v.sort_col, XG_COL_CPU_PCT);

	/* m hides the summed cache columns and shows the breakdown. */
	view_sort_by(&v, XG_COL_HIT);
	assert_false(view_toggle(&v, XG_TOGGLE_SUMCACHE));
	assert_int_equal(v.sort_col, XG_COL_CPU_PCT);
	assert_true(view_col_visible(&v, XG_COL_HIT_GU));
	view_sort_by(&v, XG_COL_HIT_GU);
	assert_false(view_toggle(&v, XG_TOGGLE_CACHE));   /* c hides the breakdown too */
	assert_int_equal(v.sort_col, XG_COL_CPU_PCT);
	assert_true(view_toggle(&v, XG_TOGGLE_CACHE));
	assert_true(view_toggle(&v, XG_TOGGLE_SUMCACHE));

	/* A toggle that leaves the sort column visible keeps the sort. */
	view_sort_by(&v, XG_COL_MEM);
	v.reverse = true;
	assert_false(view_toggle(&v, XG_TOGGLE_DISK));
	assert_false(view_toggle(&v, XG_TOGGLE_SCHED));
	assert_true(view_toggle(&v, XG_TOGGLE_VCPUS));
	assert_true(v.show_vcpus);
	assert_int_equal(v.sort_col, XG_COL_MEM);
	assert_true(v.reverse);
	/* Each toggle flips its own flag and no other. */
	assert_false(v.show_disk);
	assert_false(v.show_sched);
	assert_true(v.show_net && v.show_cache && v.sumcache);

	/* NAME is never hidden. */
	view_sort_by(&v, XG_COL_NAME);
	for (int g = 0; g < XG_TOGGLE_COUNT; g++)
		view_toggle(&v, (enum xg_toggle)g);
	assert_int_equal(v.sort_col, XG_COL_NAME);
	view_free(&v);
}

/* The column chooser: an explicit order and hidden columns on top of the
 * group toggles; NAME never goes; hiding the sort column falls back as a
 * toggle does; < and > walk the display order. */
static void column_chooser(void **state)
{
	(void)state;
	struct xg_view v;
	view_init(&v, &cfg);
	assert_true(v.show_meters);
	assert_false(view_toggle(&v, XG_TOGGLE_METERS));
	for (int i = 0; i < XG_COL_COUNT; i++)
		assert_int_equal(v.col_order[i], i);
	assert_false(view_col_set_hidden(&v, XG_COL_NAME, true));
	assert_true(view_col_visible(&v, XG_COL_NAME));
	assert_true(view_col_set_hidden(&v, XG_COL_MEM, true));
	assert_false(view_col_visible(&v, XG_COL_MEM));
	assert_true(view_group_visible(&v, XG_COL_MEM));
	/* Hiding the sort column: CPU%; with CPU% hidden too: NAME. */
	view_sort_by(&v, XG_COL_WAIT);
	v.reverse = true;
	view_col_set_hidden(&v, XG_COL_WAIT, true);
	assert_int_equal(v.sort_col, XG_COL_CPU_PCT);
	assert_false(v.reverse);
	view_col_set_hidden(&v, XG_COL_CPU_PCT, true);
	assert_int_equal(v.sort_col, XG_COL_NAME);
	view_col_set_hidden(&v, XG_COL_CPU_PCT, false);
	view_col_set_hidden(&v, XG_COL_WAIT, false);
	/* Moving: WAIT% two places left lands before BLK%'s left neighbour. */
	view_col_move(&v, XG_COL_WAIT, -1);
	view_col_move(&v, XG_COL_WAIT, -1);
	assert_int_equal(v.col_order[XG_COL_RUN - 1], XG_COL_WAIT);
	assert_int_equal(v.col_order[XG_COL_RUN], XG_COL_DISK_WRB);
	assert_int_equal(v.col_order[XG_COL_RUN + 1], XG_COL_RUN);
	view_col_move(&v, XG_COL_ID, -1);              /* already first */
	assert_int_equal(v.col_order[0], XG_COL_ID);
	/* > from DISK-WR/s goes to RUN% (WAIT% sits before it now), skipping
	 * nothing; < from RUN% comes back. */
	view_sort_by(&v, XG_COL_DISK_WRB);
	view_sort_step(&v, 1);
	assert_int_equal(v.sort_col, XG_COL_RUN);
	view_sort_step(&v, -1);
	assert_int_equal(v.sort_col, XG_COL_DISK_WRB);
	view_sort_step(&v, -1);
	assert_int_equal(v.sort_col, XG_COL_WAIT);
	/* Skips what the chooser hides (MEM), in display order. */
	view_sort_by(&v, XG_COL_VCPU);
	view_sort_step(&v, 1);
	assert_int_equal(v.sort_col, XG_COL_MEM_PCT);
	/* An explicit order: listed first (repeats and bad entries ignored),
	 * the rest in table order; the hidden set stays. HOST, not listed,
	 * stays in front. */
	enum xg_col list[] = { XG_COL_HIT, XG_COL_NAME, XG_COL_HIT, (enum xg_col)XG_COL_COUNT };
	view_cols_order(&v, list, 4);
	assert_int_equal(v.col_order[0], XG_COL_HOST);
	assert_int_equal(v.col_order[1], XG_COL_HIT);
	assert_int_equal(v.col_order[2], XG_COL_NAME);
	assert_int_equal(v.col_order[3], XG_COL_ID);
	assert_int_equal(v.col_order[4], XG_COL_STATE);
	uint64_t seen = 0;
	for (int i = 0; i < XG_COL_COUNT; i++)
		seen |= 1ull << v.col_order[i];
	assert_true(seen == (1ull << XG_COL_COUNT) - 1);
	assert_true(view_col_hidden(&v, XG_COL_MEM));
	/* A list that places HOST keeps it there. */
	enum xg_col host_second[] = { XG_COL_NAME, XG_COL_HOST };
	view_cols_order(&v, host_second, 2);
	assert_int_equal(v.col_order[0], XG_COL_NAME);
	assert_int_equal(v.col_order[1], XG_COL_HOST);
	assert_int_equal(v.col_order[2], XG_COL_ID);
	view_cols_reset(&v);
	assert_false(view_col_hidden(&v, XG_COL_MEM));
	assert_int_equal(v.col_order[0], XG_COL_HOST);
	assert_int_equal(v.col_order[1], XG_COL_ID);
	view_free(&v);
}

static void sort_by_and_toggle(void **state)
{
	(void)state;
	struct xg_view v;
	view_init(&v, &cfg);
	v.reverse = true;
	view_sort_by(&v, XG_COL_CPU_PCT);   /* already: keeps its direction */
	assert_true(v.reverse);
	view_sort_by(&v, XG_COL_MEM);       /* another: natural order */
	assert_int_equal(v.sort_col, XG_COL_MEM);
	assert_false(v.reverse);
	view_sort_toggle(&v, XG_COL_MEM);   /* the same again: reversed */
	assert_true(v.reverse);
	view_sort_toggle(&v, XG_COL_MEM);
	assert_false(v.reverse);
	v.reverse = true;
	view_sort_toggle(&v, XG_COL_NAME);
	assert_int_equal(v.sort_col, XG_COL_NAME);
	assert_false(v.reverse);
	view_free(&v);
}

static void lookup_and_format(void **state)
{
	(void)state;
	char b[32];
	struct xg_row r = { 0 };
	assert_int_equal(col_lookup("cpu"), XG_COL_CPU_PCT);
	assert_int_equal(col_lookup("CPU%"), XG_COL_CPU_PCT);
	assert_int_equal(col_lookup("llc_miss_ps"), XG_COL_LLC_MISS);
	assert_int_equal(col_lookup("nope"), -1);
	col_format(XG_COL_MEM, &r, b, sizeof(b));
	assert_string_equal(b, "-");
	col_format_raw(XG_COL_MEM, &r, b, sizeof(b));
	assert_string_equal(b, "");
	r.valid = 1ull << XG_COL_MEM | 1ull << XG_COL_LLC_MISS | 1ull << XG_COL_CPU_PCT;
	r.v[XG_COL_MEM] = 1536.0 * 1024 * 1024;
	r.v[XG_COL_LLC_MISS] = 1234567;
	r.v[XG_COL_CPU_PCT] = 0.0;   /* a measured zero is a zero */
	col_format(XG_COL_MEM, &r, b, sizeof(b));
	assert_string_equal(b, "1.5G");
	col_format_raw(XG_COL_MEM, &r, b, sizeof(b));
	assert_string_equal(b, "1610612736");
	col_format(XG_COL_LLC_MISS, &r, b, sizeof(b));
	assert_string_equal(b, "1.2M");
	col_format(XG_COL_CPU_PCT, &r, b, sizeof(b));
	assert_string_equal(b, "0.0");
	r.guest_reported = 1;
	col_format(XG_COL_LLC_MISS, &r, b, sizeof(b));
	assert_string_equal(b, "1.2M*");
	col_format(XG_COL_MEM, &r, b, sizeof(b));
	assert_string_equal(b, "1.5G");
	col_format_raw(XG_COL_LLC_MISS, &r, b, sizeof(b));
	assert_string_equal(b, "1234567.000");
	r.guest_reported = 0;
	r.why[XG_COL_MAXMEM] = XG_WHY_NOLIMIT;
	col_format(XG_COL_MAXMEM, &r, b, sizeof(b));
	assert_string_equal(b, "nolim");
	for (int c = 0; c < XG_COL_COUNT; c++) {
		assert_int_equal(xg_columns[c].id, c);
		assert_non_null(xg_columns[c].help);
		assert_int_equal(col_lookup(xg_columns[c].key), c);
	}
}

static void vcpu_rows_follow_domain(void **state)
{
	(void)state;
	struct xg_row r[5];
	struct xg_table t = { .rows = r, .n = 5, .ndom_rows = 2 };
	memset(r, 0, sizeof(r));
	r[0] = (struct xg_row){ .id = 1, .vcpu = -1, .name = "a", .child_first = 2, .child_count = 1 };
	r[1] = (struct xg_row){ .id = 2, .vcpu = -1, .name = "b", .child_first = 3, .child_count = 2 };
	r[2] = (struct xg_row){ .id = 1, .vcpu = 0, .name = "a" };
	r[3] = (struct xg_row){ .id = 2, .vcpu = 0, .name = "b" };
	r[4] = (struct xg_row){ .id = 2, .vcpu = 1, .name = "b" };
	struct xg_view v;
	cfg.vcpus = true;
	view_init(&v, &cfg);
	cfg.vcpus = false;
	v.sort_col = XG_COL_NAME;
	v.reverse = true;
	view_apply(&v, &t);
	assert_int_equal(v.norder, 5);
	size_t want[] = { 1, 3, 4, 0, 2 };
	for (int i = 0; i < 5; i++)
		assert_int_equal(v.order[i], want[i]);
	view_free(&v);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(sort_numeric_unmeasured_last, setup),
		cmocka_unit_test_setup(ties_keep_id_order, setup),
		cmocka_unit_test_setup(text_ties_keep_id_order, setup),
		cmocka_unit_test_setup(close_values_in_order, setup),
		cmocka_unit_test_setup(order_kept_while_sorted, setup),
		cmocka_unit_test_setup(filter_and_vmfile, setup),
		cmocka_unit_test_setup(toggles_and_sort_step, setup),
		cmocka_unit_test_setup(delay_bounds_and_steps, setup),
		cmocka_unit_test_setup(toggles_keep_a_visible_sort, setup),
		cmocka_unit_test_setup(column_chooser, setup),
		cmocka_unit_test_setup(sort_by_and_toggle, setup),
		cmocka_unit_test_setup(lookup_and_format, setup),
		cmocka_unit_test_setup(vcpu_rows_follow_domain, setup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
