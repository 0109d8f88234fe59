// SPDX-License-Identifier: GPL-2.0-or-later
/* Threshold rules: the levels at and around each limit, CPU% judged
 * against the domain's vCPUs, HIT% where low is bad, and the text form the
 * settings file uses (round trip, bad values keep the old rule). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <math.h>
#include <string.h>

#include "xgtop/view/thresholds.h"

static void row_set(struct xg_row *r, enum xg_col c, double v)
{
	r->v[c] = v;
	r->valid |= 1ull << c;
}

static void levels_at_the_limits(void **state)
{
	(void)state;
	struct xg_thresholds t;
	thresholds_defaults(&t);
	assert_int_equal(threshold_level(&t, XG_RULE_WAIT, 9.99), XG_LEVEL_OK);
	assert_int_equal(threshold_level(&t, XG_RULE_WAIT, 10), XG_LEVEL_WARN);
	assert_int_equal(threshold_level(&t, XG_RULE_WAIT, 24.9), XG_LEVEL_WARN);
	assert_int_equal(threshold_level(&t, XG_RULE_WAIT, 25), XG_LEVEL_CRIT);
	/* HIT%: below 50 is worth a look, below 25 bad; 50 itself is fine. */
	assert_int_equal(threshold_level(&t, XG_RULE_HIT, 50), XG_LEVEL_OK);
	assert_int_equal(threshold_level(&t, XG_RULE_HIT, 49.9), XG_LEVEL_WARN);
	assert_int_equal(threshold_level(&t, XG_RULE_HIT, 24.9), XG_LEVEL_CRIT);
	assert_int_equal(threshold_level(&t, XG_RULE_PCPU, 100), XG_LEVEL_CRIT);
	assert_int_equal(threshold_level(&t, XG_RULE_PCPU, NAN), XG_LEVEL_OK);
	t.off[XG_RULE_WAIT] = true;
	assert_int_equal(threshold_level(&t, XG_RULE_WAIT, 99), XG_LEVEL_OK);
}

static void cells(void **state)
{
	(void)state;
	struct xg_thresholds t;
	struct xg_row r;
	thresholds_defaults(&t);
	memset(&r, 0, sizeof(r));
	r.vcpu = -1;
	/* 380 % on 4 vCPUs is 95 % of what it can use; on 8 it is 47.5 %. */
	row_set(&r, XG_COL_CPU_PCT, 380);
	assert_int_equal(threshold_cell(&t, &r, XG_COL_CPU_PCT), XG_LEVEL_OK);   /* VCPU unknown */
	row_set(&r, XG_COL_VCPU, 4);
	assert_int_equal(threshold_cell(&t, &r, XG_COL_CPU_PCT), XG_LEVEL_CRIT);
	row_set(&r, XG_COL_VCPU, 8);
	assert_int_equal(threshold_cell(&t, &r, XG_COL_CPU_PCT), XG_LEVEL_OK);
	row_set(&r, XG_COL_CPU_PCT, 700);
	assert_int_equal(threshold_cell(&t, &r, XG_COL_CPU_PCT), XG_LEVEL_WARN);
	/* A vCPU row: one vCPU, 100 %. */
	r.vcpu = 0;
	row_set(&r, XG_COL_CPU_PCT, 96);
	assert_int_equal(threshold_cell(&t, &r, XG_COL_CPU_PCT), XG_LEVEL_CRIT);
	r.vcpu = -1;
	row_set(&r, XG_COL_HIT_GK, 20);
	assert_int_equal(threshold_cell(&t, &r, XG_COL_HIT_GK), XG_LEVEL_CRIT);
	row_set(&r, XG_COL_WAIT, 60);
	assert_int_equal(threshold_cell(&t, &r, XG_COL_WAIT), XG_LEVEL_CRIT);
	r.valid &= ~(1ull << XG_COL_WAIT);   /* `-`: never coloured */
	assert_int_equal(threshold_cell(&t, &r, XG_COL_WAIT), XG_LEVEL_OK);
	row_set(&r, XG_COL_MEM, 1e12);       /* no rule */
	assert_int_equal(threshold_cell(&t, &r, XG_COL_MEM), XG_LEVEL_OK);
	row_set(&r, XG_COL_HIT_H, 20);        /* the HIT% rule, as HIT-GK% */
	assert_int_equal(threshold_cell(&t, &r, XG_COL_HIT_H), XG_LEVEL_CRIT);
}

static void assert_same_rules(const struct xg_thresholds *a, const struct xg_thresholds *b)
{
	for (int r = 0; r < XG_RULE_COUNT; r++) {
		assert_int_equal(a->off[r], b->off[r]);
		assert_true(a->warn[r] == b->warn[r] && a->crit[r] == b->crit[r]);
	}
}

static void text_form(void **state)
{
	(void)state;
	struct xg_thresholds t;
	struct xg_err err = { 0 };
	char buf[64];
	thresholds_defaults(&t);
	assert_int_equal(threshold_lookup("wait_pct"), XG_RULE_WAIT);
	assert_int_equal(threshold_lookup("WAIT"), -1);
	for (int r = 0; r < XG_RULE_COUNT; r++) {
		struct xg_thresholds u;
		thresholds_defaults(&u);
		threshold_format(&t, (enum xg_rule)r, buf, sizeof(buf));
		assert_int_equal(threshold_parse(&u, (enum xg_rule)r, buf, &err), 0);
		assert_same_rules(&u, &t);
	}
	assert_int_equal(threshold_parse(&t, XG_RULE_WAIT, " 5\t12.5 ", &err), 0);
	assert_true(t.warn[XG_RULE_WAIT] == 5 && t.crit[XG_RULE_WAIT] == 12.5);
	threshold_format(&t, XG_RULE_WAIT, buf, sizeof(buf));
	assert_string_equal(buf, "5 12.5");
	assert_int_equal(threshold_parse(&t, XG_RULE_WAIT, "off", &err), 0);
	threshold_format(&t, XG_RULE_WAIT, buf, sizeof(buf));
	assert_string_equal(buf, "off");
	static const char *const bad[] = { "", "5", "5 x", "5 6 7", "-1 5", "nan 5", "inf 9", "12 5", "offf", "1e9 2e9" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct xg_thresholds before = t;
		assert_int_equal(threshold_parse(&t, XG_RULE_WAIT, bad[i], &err), -1);
		assert_same_rules(&before, &t);
	}
	/* Low is bad for HIT%: warn at or above crit. */
	assert_int_equal(threshold_parse(&t, XG_RULE_HIT, "20 50", &err), -1);
	assert_non_null(strstr(err.msg, "at or above"));
	assert_int_equal(threshold_parse(&t, XG_RULE_HIT, "60 30", &err), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(levels_at_the_limits),
		cmocka_unit_test(cells),
		cmocka_unit_test(text_form),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
