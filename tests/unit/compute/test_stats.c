// SPDX-License-Identifier: GPL-2.0-or-later
/* Nearest-rank percentiles: the rank itself, and the top-k heap giving the
 * same value as sorting every value, for counts up to the bound it was
 * sized for, with ties, negatives and values pushed in any order. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>

#include "xgtop/compute/stats.h"

/* The nearest rank, 1-based among n values sorted ascending, as the
 * number of largest values kept for it says it. */
static size_t stats_rank(size_t n, double p)
{
	return n ? n + 1 - stats_keep(n, p) : 0;
}

static void ranks(void **state)
{
	(void)state;
	assert_int_equal(stats_rank(0, 95), 0);
	assert_int_equal(stats_rank(1, 95), 1);
	assert_int_equal(stats_rank(20, 95), 19);     /* exactly 19: not 20 */
	assert_int_equal(stats_rank(21, 95), 20);     /* 19.95 */
	assert_int_equal(stats_rank(100, 95), 95);
	assert_int_equal(stats_rank(101, 95), 96);    /* 95.95 */
	assert_int_equal(stats_rank(10, 50), 5);
	assert_int_equal(stats_rank(10, 100), 10);
	assert_int_equal(stats_rank(3, 1), 1);
	assert_int_equal(stats_rank(1000, 99.9), 999);
	assert_int_equal(stats_keep(20, 95), 2);
	assert_int_equal(stats_keep(100, 95), 6);
	assert_int_equal(stats_keep(0, 95), 0);
}

static int asc(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static void topk_matches_sorting(void **state)
{
	(void)state;
	static double all[3000], sorted[3000];
	srand(12345);
	for (int round = 0; round < 300; round++) {
		size_t bound = 1 + (size_t)(rand() % 3000);
		size_t n = 1 + (size_t)rand() % bound;
		double p = round % 3 ? 95 : round % 2 ? 50 : 99.5;
		struct xg_topk t;
		topk_init(&t, stats_keep(bound, p));
		for (size_t i = 0; i < n; i++) {
			/* few distinct values in some rounds: ties */
			all[i] = round % 4 ? (double)(rand() % 2001 - 1000) / 7.0 : (double)(rand() % 5);
			sorted[i] = all[i];
			topk_push(&t, all[i]);
		}
		qsort(sorted, n, sizeof(*sorted), asc);
		double want = sorted[stats_rank(n, p) - 1];
		assert_true(topk_percentile(&t, n, p) == want);
		assert_true(topk_percentile(&t, n, 100) == sorted[n - 1]);
		topk_free(&t);
	}
}

static void known_values(void **state)
{
	(void)state;
	struct xg_topk t;
	/* 1 .. 20 pushed backwards: p95 is the 19th smallest, 19. */
	topk_init(&t, stats_keep(20, 95));
	for (int i = 20; i >= 1; i--)
		topk_push(&t, i);
	assert_true(topk_percentile(&t, 20, 95) == 19);
	topk_free(&t);
	/* One value: it is every percentile. */
	topk_init(&t, stats_keep(300, 95));
	topk_push(&t, 42.5);
	assert_true(topk_percentile(&t, 1, 95) == 42.5);
	assert_true(isnan(topk_percentile(&t, 0, 95)));
	topk_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(ranks),
		cmocka_unit_test(topk_matches_sorting),
		cmocka_unit_test(known_values),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
