// SPDX-License-Identifier: GPL-2.0-or-later
/* Scaling, CPU lists and failure wording of the PMU module, on recorded
 * counter values. (HIT% and MPKI are compute/metrics.c's: test_metrics.) */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <errno.h>
#include <limits.h>
#include <string.h>

#include "xgtop/pmu/pmu.h"

static struct xg_pmu_raw raw(uint64_t ref, uint64_t miss, uint64_t en, uint64_t run)
{
	struct xg_pmu_raw r = { .v = { ref, miss, 0, 0 }, .enabled = en, .running = run };
	return r;
}

/* HIT% as compute/metrics.c computes it from two deltas. */
static double hit_pct(double refs, double misses)
{
	return 100.0 * (1.0 - misses / refs);
}

static void exact_when_never_multiplexed(void **state)
{
	(void)state;
	struct xg_pmu_raw a = raw(1000, 100, 5000, 5000), b = raw(3000, 400, 9000, 9000);
	double d[2];
	assert_int_equal(pmu_scale_delta(&a, &b, 2, d), XG_PMU_EXACT);
	assert_true(d[0] == 2000 && d[1] == 300);
}

static void scaled_by_interval_not_cumulative(void **state)
{
	(void)state;
	/* First interval ran all the time, the second a quarter of it: the
	 * second delta is scaled by 4, the first is not rescaled. */
	struct xg_pmu_raw a = raw(1000, 100, 1000, 1000), b = raw(1500, 150, 3000, 1500);
	double d[2];
	assert_int_equal(pmu_scale_delta(&a, &b, 2, d), XG_PMU_SCALED);
	assert_float_equal(d[0], 500.0 * 2000 / 500, 1e-9);
	assert_float_equal(d[1], 50.0 * 4, 1e-9);
	/* A cumulative estimate (1500 x 3000/1500 = 3000) would say 3000 since
	 * the start; interval scaling gives 1000 + 2000 = 3000 too here, but
	 * stays monotonic when the ratio improves later: */
	struct xg_pmu_raw c = raw(1600, 160, 4000, 2500);
	assert_int_equal(pmu_scale_delta(&b, &c, 2, d), XG_PMU_EXACT);
	assert_float_equal(d[0], 100, 1e-9);
	/* while the cumulative estimate would go from 3000 to 1600x4000/2500 = 2560. */
	assert_true(1600.0 * 4000 / 2500 < 1500.0 * 3000 / 1500);
}

static void ratio_exact_under_multiplexing(void **state)
{
	(void)state;
	/* Group members share enabled/running, so the hit ratio of scaled
	 * deltas equals that of the raw deltas. */
	struct xg_pmu_raw a = raw(0, 0, 0, 0), b = raw(8000, 2000, 10000000, 3000000);
	double d[2];
	assert_int_equal(pmu_scale_delta(&a, &b, 2, d), XG_PMU_SCALED);
	assert_float_equal(hit_pct(d[0], d[1]), 75.0, 1e-9);
	assert_float_equal(hit_pct(8000, 2000), 75.0, 1e-9);
}

static void never_running_is_unknown(void **state)
{
	(void)state;
	struct xg_pmu_raw a = raw(10, 1, 100, 100), b = raw(10, 1, 900, 100);
	double d[2];
	assert_int_equal(pmu_scale_delta(&a, &b, 2, d), XG_PMU_UNKNOWN);
	assert_string_equal(pmu_interval_why(XG_PMU_UNKNOWN),
			    "counter never scheduled (PMU busy: another tool holds the counters?)");
	assert_null(pmu_interval_why(XG_PMU_EXACT));
	assert_null(pmu_interval_why(XG_PMU_SCALED));
}

static void idle_domain_is_exact_zero(void **state)
{
	(void)state;
	/* A cgroup that did not run on a CPU accrues no enabled time. */
	struct xg_pmu_raw a = raw(10, 1, 100, 100), b = a;
	double d[2] = { -1, -1 };
	assert_int_equal(pmu_scale_delta(&a, &b, 2, d), XG_PMU_EXACT);
	assert_true(d[0] == 0 && d[1] == 0);
}

static void backwards_is_refused(void **state)
{
	(void)state;
	struct xg_pmu_raw a = raw(10, 1, 100, 100), b = raw(9, 1, 200, 200);
	double d[2];
	assert_int_equal(pmu_scale_delta(&a, &b, 2, d), XG_PMU_BACKWARDS);
	b = raw(20, 2, 50, 50);
	assert_int_equal(pmu_scale_delta(&a, &b, 2, d), XG_PMU_BACKWARDS);
	assert_non_null(pmu_interval_why(XG_PMU_BACKWARDS));
}

static void breakdown_sums(void **state)
{
	(void)state;
	/* Three disjoint groups (guest user, guest kernel, host) scaled
	 * separately; the sum is the sum of the scaled parts. */
	struct xg_pmu_raw z = raw(0, 0, 0, 0);
	struct xg_pmu_raw gu = raw(6000, 600, 1000, 500), gk = raw(3000, 900, 1000, 1000),
			  h = raw(1000, 500, 1000, 250);
	double a[2], b[2], c[2];
	pmu_scale_delta(&z, &gu, 2, a);
	pmu_scale_delta(&z, &gk, 2, b);
	pmu_scale_delta(&z, &h, 2, c);
	assert_float_equal(a[0] + b[0] + c[0], 12000 + 3000 + 4000, 1e-9);
	assert_float_equal(hit_pct(a[0], a[1]), 90.0, 1e-9);
	assert_float_equal(hit_pct(b[0], b[1]), 70.0, 1e-9);
	assert_float_equal(hit_pct(c[0], c[1]), 50.0, 1e-9);
	/* The summed ratio weighs each part by its references. */
	assert_float_equal(hit_pct(a[0] + b[0] + c[0], a[1] + b[1] + c[1]),
			   100.0 * (1 - (1200.0 + 900 + 2000) / 19000), 1e-9);
}

static void cpulists(void **state)
{
	(void)state;
	int c[16];
	assert_int_equal(pmu_parse_cpulist("0-3,8,10-11\n", c, 16), 7);
	assert_int_equal(c[0], 0);
	assert_int_equal(c[3], 3);
	assert_int_equal(c[4], 8);
	assert_int_equal(c[6], 11);
	assert_int_equal(pmu_parse_cpulist("0\n", c, 16), 1);
	assert_int_equal(pmu_parse_cpulist("0-1", c, 16), 2);
	assert_int_equal(pmu_parse_cpulist("3-1", c, 16), -1);
	assert_int_equal(pmu_parse_cpulist("a", c, 16), -1);
	assert_int_equal(pmu_parse_cpulist("0-40", c, 16), -1);
	assert_int_equal(pmu_parse_cpulist("1,,2", c, 16), -1);
}

static void reasons(void **state)
{
	(void)state;
	char b[256];
	pmu_errno_why(b, sizeof(b), EMFILE, "x", true, true, 2, 1024);
	assert_string_equal(b, "out of file descriptors (EMFILE, limit 1024): raise it with ulimit -n");
	pmu_errno_why(b, sizeof(b), EACCES, "x", true, true, 2, 0);
	assert_non_null(strstr(b, "EACCES"));
	assert_non_null(strstr(b, "kernel.perf_event_paranoid=2"));
	assert_non_null(strstr(b, "set kernel.perf_event_paranoid=0"));
	pmu_errno_why(b, sizeof(b), EPERM, "x", true, false, 3, 0);
	assert_non_null(strstr(b, "EPERM"));
	assert_non_null(strstr(b, "paranoid=3"));
	assert_non_null(strstr(b, "set kernel.perf_event_paranoid=1"));
	pmu_errno_why(b, sizeof(b), EACCES, "x", true, false, INT_MIN, 0);
	assert_non_null(strstr(b, "unreadable"));
	pmu_errno_why(b, sizeof(b), ENOENT, "cycles", true, false, 2, 0);
	assert_string_equal(b, "no hardware PMU (virtual machine without vPMU?) (ENOENT)");
	pmu_errno_why(b, sizeof(b), EOPNOTSUPP, "cycles", true, false, 2, 0);
	assert_string_equal(b, "no hardware PMU (virtual machine without vPMU?) (EOPNOTSUPP)");
	pmu_errno_why(b, sizeof(b), ENOENT, "page-faults", false, false, 2, 0);
	assert_non_null(strstr(b, "page-faults not supported"));
	pmu_errno_why(b, sizeof(b), EBUSY, "x", true, false, 2, 0);
	assert_non_null(strstr(b, "EBUSY"));
	pmu_errno_why(b, sizeof(b), E2BIG, "x", true, false, 2, 0);
	assert_non_null(strstr(b, "errno"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(exact_when_never_multiplexed),
		cmocka_unit_test(scaled_by_interval_not_cumulative),
		cmocka_unit_test(ratio_exact_under_multiplexing),
		cmocka_unit_test(never_running_is_unknown),
		cmocka_unit_test(idle_domain_is_exact_zero),
		cmocka_unit_test(backwards_is_refused),
		cmocka_unit_test(breakdown_sums),
		cmocka_unit_test(cpulists),
		cmocka_unit_test(reasons),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
