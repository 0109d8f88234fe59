// SPDX-License-Identifier: GPL-2.0-or-later
/* The history ring: values come back oldest first and end at the newest
 * sample, the ring drops the oldest when full, a domain that appears later
 * has NaN before, one that leaves is dropped, a new domain under an old id
 * starts a new series, a step back in sample numbers starts again, the
 * budget shrinks the ring for many domains and the 1,000 x 300 case fits
 * in 32 MB. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "xgtop/compute/history.h"

#define NS 1000000000ull

/* A sample with domains ids[0..n) and their CPU% rows: cpu = id * 10 + k
 * (k the sample number), through the real metrics code. */
struct fx {
	struct xg_sample s[2];
	struct xg_table t;
	int cur;
};

static void fx_init(struct fx *f)
{
	memset(f, 0, sizeof(*f));
	sample_init(&f->s[0]);
	sample_init(&f->s[1]);
}

static void fx_free(struct fx *f)
{
	table_free(&f->t);
	sample_free(&f->s[0]);
	sample_free(&f->s[1]);
}

/* cpu_ns grows by (id * 10 + k) % of a second per second, so the CPU% of
 * sample k (k >= 1) is id * 10 + k. gen lets a test reuse an id. */
static void fx_step(struct fx *f, uint64_t k, const uint32_t *ids, const uint32_t *gens, size_t n)
{
	struct xg_sample *prev = &f->s[f->cur], *s = &f->s[!f->cur];
	sample_clear(s);
	s->host.mono_ns = (k + 1) * NS;
	s->host.real_ns = 1000 * NS + k * NS;
	for (size_t i = 0; i < n; i++) {
		struct xg_dom *d = sample_add_dom(s, ids[i]);
		d->gen = gens ? gens[i] : 0;
		snprintf(d->name, sizeof(d->name), "dom-%u", ids[i]);
		uint64_t ns = 0;
		for (uint64_t j = 1; j <= k; j++)
			ns += (ids[i] * 10 + j) * NS / 100;
		dom_set(d, XG_F_CPU_NS, ns);
	}
	metrics_compute_rows(k ? prev : NULL, s, 0, &f->t);
	f->cur = !f->cur;
}

static const struct xg_row *row_of(const struct fx *f, uint32_t id)
{
	for (size_t i = 0; i < f->t.ndom_rows; i++)
		if (f->t.rows[i].id == id)
			return &f->t.rows[i];
	return NULL;
}

/* Domains ids[0..n) in every one of samples k0 .. k1-1, added as they come. */
static void play(struct xg_history *h, struct fx *f, const uint32_t *ids, size_t n, uint64_t k0,
		 uint64_t k1)
{
	for (uint64_t k = k0; k < k1; k++) {
		fx_step(f, k, ids, NULL, n);
		hist_add(h, k, &f->t);
	}
}

static void values_in_order_and_ring_wraps(void **state)
{
	(void)state;
	struct fx f;
	struct xg_history h;
	const uint32_t ids[] = { 1, 2 };
	int cpu = hist_slot(XG_COL_CPU_PCT);
	float v[8];
	fx_init(&f);
	hist_init(&h, 4);
	play(&h, &f, ids, 2, 0, 6);
	assert_int_equal(h.n, 4);
	assert_int_equal(h.first, 2);
	long d = hist_find(&h, row_of(&f, 2));
	assert_true(d >= 0);
	assert_int_equal(hist_values(&h, d, cpu, v, 8), 4);
	for (int i = 0; i < 4; i++)
		assert_float_equal(v[i], 20 + 2 + i, 1e-4);
	assert_int_equal(hist_values(&h, d, cpu, v, 2), 2);
	assert_float_equal(v[0], 24, 1e-4);
	assert_float_equal(v[1], 25, 1e-4);
	assert_int_equal(hist_time(&h, 0), 1005 * NS);
	assert_int_equal(hist_time(&h, 3), 1002 * NS);
	assert_int_equal(hist_time(&h, 4), 0);
	/* MEM% has MEM's shape; CPU(s) is not kept. */
	assert_int_equal(hist_slot(XG_COL_MEM_PCT), hist_slot(XG_COL_MEM));
	assert_int_equal(hist_slot(XG_COL_CPU_S), -1);
	hist_free(&h);
	fx_free(&f);
}

static void domains_come_go_and_reuse_ids(void **state)
{
	(void)state;
	struct fx f;
	struct xg_history h;
	int cpu = hist_slot(XG_COL_CPU_PCT);
	float v[8];
	fx_init(&f);
	hist_init(&h, 8);
	const uint32_t a[] = { 1, 3 }, b[] = { 1, 2, 3 }, c[] = { 2, 3 }, g0[] = { 0, 0 }, g1[] = { 0, 1 };
	fx_step(&f, 0, a, NULL, 2);
	hist_add(&h, 0, &f.t);
	fx_step(&f, 1, a, NULL, 2);
	hist_add(&h, 1, &f.t);
	fx_step(&f, 2, b, NULL, 3);       /* 2 arrives */
	hist_add(&h, 2, &f.t);
	long d2 = hist_find(&h, row_of(&f, 2));
	assert_int_equal(hist_values(&h, d2, cpu, v, 8), 3);
	assert_true(isnan(v[0]) && isnan(v[1]));
	assert_true(isnan(v[2]));         /* its first sample: a rate needs two */
	long d1 = hist_find(&h, row_of(&f, 1));
	assert_int_equal(hist_values(&h, d1, cpu, v, 8), 3);
	assert_true(isnan(v[0]));
	assert_float_equal(v[1], 11, 1e-4);
	assert_float_equal(v[2], 12, 1e-4);
	fx_step(&f, 3, c, g0, 2);         /* 1 leaves */
	hist_add(&h, 3, &f.t);
	assert_int_equal(h.ndom, 2);
	assert_null(row_of(&f, 1));
	fx_step(&f, 4, c, g1, 2);         /* id 3 reused by a new domain */
	hist_add(&h, 4, &f.t);
	long d3 = hist_find(&h, row_of(&f, 3));
	assert_int_equal(h.ids[row_of(&f, 3)->dom_index].gen, 1);
	assert_int_equal(hist_values(&h, d3, cpu, v, 8), 5);
	for (int i = 0; i < 5; i++)
		assert_true(isnan(v[i]));     /* nothing of the old domain 3 */
	hist_free(&h);
	fx_free(&f);
}

static void step_back_starts_again(void **state)
{
	(void)state;
	struct fx f;
	struct xg_history h;
	const uint32_t ids[] = { 5 };
	fx_init(&f);
	hist_init(&h, 10);
	play(&h, &f, ids, 1, 0, 5);
	assert_int_equal(h.n, 5);
	hist_add(&h, 2, &f.t);
	assert_int_equal(h.n, 1);
	assert_int_equal(h.first, 2);
	hist_add(&h, 3, &f.t);
	assert_int_equal(h.n, 2);
	hist_clear(&h);
	assert_int_equal(h.n, 0);
	assert_int_equal(h.ndom, 0);
	hist_free(&h);
	fx_free(&f);
}

/* n domains (ids 0 .. n-1), every one present in samples k0 .. k1-1. */
static void fill(struct xg_history *h, struct fx *f, uint32_t n, uint64_t k0, uint64_t k1)
{
	static uint32_t ids[20000];
	for (uint32_t i = 0; i < n; i++)
		ids[i] = i;
	play(h, f, ids, n, k0, k1);
}

static void budget_bounds_memory(void **state)
{
	(void)state;
	struct fx f;
	struct xg_history h;
	int cpu = hist_slot(XG_COL_CPU_PCT);
	float v[300];
	fx_init(&f);
	hist_init(&h, XG_HIST_DEFAULT);
	fill(&h, &f, 1000, 0, 5);
	assert_int_equal(h.cap, 300);
	size_t b = hist_bytes(&h);
	printf("history of 1000 domains x 300 samples: %.1f MB\n", (double)b / 1e6);
	assert_true(b < 32000000);
	/* 12,000 domains do not fit 300 samples: the ring shrinks, keeping
	 * the newest samples, and the bytes stay within the budget. */
	fill(&h, &f, 12000, 5, 6);
	assert_true(h.cap < 300 && h.cap >= 6);
	assert_true(hist_bytes(&h) <= XG_HIST_BUDGET + (1u << 20));
	assert_int_equal(hist_values(&h, hist_find(&h, row_of(&f, 7)), cpu, v, 300), 6);
	assert_true(isnan(v[0]));
	for (int i = 1; i < 6; i++)
		assert_float_equal(v[i], 70 + i, 1e-3);
	unsigned small = h.cap;
	/* Back to 1,000: it grows again, keeping what it has. */
	fill(&h, &f, 1000, 6, 8);
	assert_true(h.cap > small);
	assert_int_equal(hist_values(&h, hist_find(&h, row_of(&f, 7)), cpu, v, 300), 8);
	for (int i = 1; i < 8; i++)
		assert_float_equal(v[i], 70 + i, 1e-3);
	hist_free(&h);
	fx_free(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(values_in_order_and_ring_wraps),
		cmocka_unit_test(domains_come_go_and_reuse_ids),
		cmocka_unit_test(step_back_starts_again),
		cmocka_unit_test(budget_bounds_memory),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
