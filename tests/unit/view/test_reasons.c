// SPDX-License-Identifier: GPL-2.0-or-later
/* The one "why is this figure -" aggregation: which cells count, distinct
 * (column, reason) pairs with counts and the first row, socket rows apart
 * when asked, table order, the fallback text and the cap. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "xgtop/view/reasons.h"

static char r_noperf[] = "no perf_event access";
static char r_nocmt[] = "CMT not supported";
static char r_other[] = "another reason";

struct fx {
	struct xg_sample s;
	struct xg_table t;
	struct xg_row rows[4];
	bool cols[XG_COL_COUNT];
};

static void set_all(struct xg_row *r)
{
	r->valid = (1ull << XG_COL_COUNT) - 1;
	memset(r->why, 0, sizeof(r->why));
}

static void unset(struct xg_row *r, enum xg_col c, uint8_t why)
{
	r->valid &= ~(1ull << c);
	r->why[c] = why;
}

/* Two domains, a vCPU row of the first and a socket row of the second. */
static void fx_init(struct fx *x)
{
	memset(x, 0, sizeof(*x));
	x->s.reason[1] = r_noperf;
	x->s.reason[2] = r_nocmt;
	x->s.reason[3] = r_other;
	x->s.nreason = 4;
	static const char *const names[] = { "web", "db", "web", "db" };
	for (int i = 0; i < 4; i++) {
		x->rows[i].vcpu = -1;
		x->rows[i].name = names[i];
		set_all(&x->rows[i]);
	}
	x->rows[2].vcpu = 0;
	x->rows[3].sock_row = 1;
	x->t.rows = x->rows;
	x->t.n = 4;
	x->t.cur = &x->s;
	for (int c = 0; c < XG_COL_COUNT; c++)
		x->cols[c] = true;
}

static void add_all(struct xg_reasons *R, struct fx *x)
{
	for (size_t i = 0; i < x->t.n; i++)
		reasons_add_row(R, &x->t, &x->rows[i], x->cols);
	reasons_sort(R);
}

static void pairs_counts_examples(void **state)
{
	(void)state;
	struct fx x;
	struct xg_reasons R;
	fx_init(&x);
	unset(&x.rows[1], XG_COL_MPKI, 1);
	unset(&x.rows[0], XG_COL_MPKI, 1);
	unset(&x.rows[2], XG_COL_MPKI, 3);
	unset(&x.rows[0], XG_COL_LLC_MISS, 1);
	unset(&x.rows[1], XG_COL_MEM, 0);          /* no reason given */
	unset(&x.rows[3], XG_COL_MEM_BW, 2);
	unset(&x.rows[3], XG_COL_CPU_PCT, 1);      /* does not apply to a socket row */
	unset(&x.rows[0], XG_COL_ID, 1);           /* ID, NAME, STATE: always shown */
	unset(&x.rows[0], XG_COL_NAME, 1);
	reasons_init(&R, false);
	add_all(&R, &x);
	assert_false(R.more);
	assert_int_equal(R.n, 5);
	/* table order: MEM, LLC-MISS, MPKI (twice), MEM-BW */
	assert_int_equal(R.v[0].col, XG_COL_MEM);
	assert_string_equal(R.v[0].why, XG_WHY_UNSAID);
	assert_ptr_equal(R.v[0].example, &x.rows[1]);
	assert_int_equal(R.v[1].col, XG_COL_LLC_MISS);
	assert_int_equal(R.v[2].col, XG_COL_MPKI);
	assert_string_equal(R.v[2].why, r_noperf);
	assert_int_equal(R.v[2].count, 2);
	assert_ptr_equal(R.v[2].example, &x.rows[0]);   /* the first met */
	assert_int_equal(R.v[3].col, XG_COL_MPKI);
	assert_string_equal(R.v[3].why, r_other);
	assert_ptr_equal(R.v[3].example, &x.rows[2]);
	assert_int_equal(R.v[4].col, XG_COL_MEM_BW);
	assert_false(R.v[4].socket);
}

static void only_marked_columns(void **state)
{
	(void)state;
	struct fx x;
	struct xg_reasons R;
	fx_init(&x);
	unset(&x.rows[0], XG_COL_MPKI, 1);
	unset(&x.rows[0], XG_COL_HIT, 1);
	x.cols[XG_COL_MPKI] = false;
	reasons_init(&R, false);
	add_all(&R, &x);
	assert_int_equal(R.n, 1);
	assert_int_equal(R.v[0].col, XG_COL_HIT);
}

static void sockets_apart(void **state)
{
	(void)state;
	struct fx x;
	struct xg_reasons R;
	fx_init(&x);
	unset(&x.rows[3], XG_COL_MEM_BW, 2);
	unset(&x.rows[1], XG_COL_MEM_BW, 2);
	unset(&x.rows[0], XG_COL_MEM_BW, 2);
	reasons_init(&R, true);
	add_all(&R, &x);
	assert_int_equal(R.n, 2);
	assert_false(R.v[0].socket);        /* the domains' pair first */
	assert_int_equal(R.v[0].count, 2);
	assert_true(R.v[1].socket);
	assert_int_equal(R.v[1].count, 1);
	assert_ptr_equal(R.v[1].example, &x.rows[3]);
	/* together, one pair of three rows */
	reasons_init(&R, false);
	add_all(&R, &x);
	assert_int_equal(R.n, 1);
	assert_int_equal(R.v[0].count, 3);
}

static void capped(void **state)
{
	(void)state;
	static struct xg_row rows[XG_REASONS_MAX + 1];
	static char text[XG_REASONS_MAX + 1][16];
	struct fx x;
	struct xg_reasons R;
	fx_init(&x);
	/* row_why of the metrics layer gives each row its own reason here */
	reasons_init(&R, false);
	for (size_t i = 0; i <= XG_REASONS_MAX; i++) {
		snprintf(text[i], sizeof(text[i]), "reason %zu", i);
		x.s.reason[1] = text[i];
		rows[i] = x.rows[0];
		unset(&rows[i], XG_COL_HIT, 1);
		reasons_add_row(&R, &x.t, &rows[i], x.cols);
	}
	assert_int_equal(R.n, XG_REASONS_MAX);
	assert_true(R.more);
	assert_string_equal(R.v[XG_REASONS_MAX - 1].why, text[XG_REASONS_MAX - 1]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(pairs_counts_examples),
		cmocka_unit_test(only_marked_columns),
		cmocka_unit_test(sockets_apart),
		cmocka_unit_test(capped),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
