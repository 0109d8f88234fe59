// SPDX-License-Identifier: GPL-2.0-or-later
/* Running wait totals (xentrace_waitsum.c): the parts add up to the total
 * to the ns, the top culprits are the largest since the start, 'other'
 * (total minus them) never decreases when a culprit leaves the top, and
 * the length buckets take the finer histogram's buckets whole. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <string.h>

#include "xgtop/trace/xentrace_waitsum.h"
#include "xgtop/trace/xentrace.h"

#define HZ 2.4e9

/* One interval: parts (who, cycles), biggest first as xt_behind_take
 * gives them, and lengths in ns. */
static void interval(struct xt_dom_waits *w, const uint32_t *who, const uint64_t *cyc, size_t n,
                     const uint64_t *len, size_t nl)
{
	memset(w->hist, 0, sizeof(w->hist));
	w->nby = 0;
	w->total_cyc = 0;
	for (size_t i = 0; i < n; i++) {
		xg_grow(&w->by, &w->cby, w->nby + 1, sizeof(*w->by));
		w->by[w->nby++] = (struct xt_wait_by){ who[i], cyc[i] };
		w->total_cyc += cyc[i];
	}
	w->nwaits = nl;
	w->sum_ns = 0;
	for (size_t i = 0; i < nl; i++) {
		w->hist[xt_wh_bucket(len[i])]++;
		w->sum_ns += len[i];
	}
}

static uint64_t other(const struct xg_waits *o)
{
	uint64_t top = 0;
	for (uint32_t i = 0; i < o->ntop; i++)
		top += o->top[i].ns;
	assert_true(top <= o->total_ns);
	return o->total_ns - top;
}

static void top_change(void **state)
{
	(void)state;
	struct xg_waitsum s = { 0 };
	struct xt_dom_waits w = { 0 };
	struct xg_waits o;
	/* 1: A 40, B 30, C 20, D 10 (ms at HZ) */
	uint32_t who1[] = { 1, 2, 3, 4 };
	uint64_t c1[] = { 96000000, 72000000, 48000000, 24000000 };
	uint64_t len[] = { 1000, 500000, 4000000, 4194304, 2000000000ull };
	interval(&w, who1, c1, 4, len, 5);
	xt_waitsum_take(&s, &w, HZ, &o);
	assert_int_equal(o.total_ns, xt_cyc_to_ns(w.total_cyc, HZ));
	assert_int_equal(o.ntop, 3);
	assert_int_equal(o.top[0].who, 1);
	assert_int_equal(o.top[2].who, 3);
	assert_int_equal(o.nlast, 3);
	assert_int_equal(o.last[1].who, 2);
	uint64_t other1 = other(&o);
	assert_int_equal(other1, 10000000);
	/* buckets: 1 us < 2^13; 0.5 ms < 2^19 (index 4); 4 ms < 2^22
	 * (index 7); 2^22 exactly is not shorter than 2^22 (index 8); 2 s
	 * in the last */
	assert_int_equal(o.bucket[0], 1);
	assert_int_equal(o.bucket[4], 1);
	assert_int_equal(o.bucket[7], 1);
	assert_int_equal(o.bucket[8], 1);
	assert_int_equal(o.bucket[XG_WAIT_LE_N], 1);
	assert_int_equal(o.count, 5);
	assert_int_equal(o.sum_ns, 1000 + 500000 + 4000000 + 4194304 + 2000000000ull);
	/* 2: D 25 ms: D (35) passes C (20), C leaves the top */
	uint32_t who2[] = { 4 };
	uint64_t c2[] = { 60000000 };
	interval(&w, who2, c2, 1, NULL, 0);
	uint64_t before = o.total_ns;
	xt_waitsum_take(&s, &w, HZ, &o);
	assert_int_equal(o.total_ns, before + 25000000);
	assert_int_equal(o.top[1].who, 4);   /* A 40, D 35, B 30 */
	assert_int_equal(o.top[1].ns, 35000000);
	uint64_t other2 = other(&o);
	assert_true(other2 >= other1);
	assert_int_equal(other2, 20000000);   /* C's total went to 'other' */
	assert_int_equal(o.nlast, 1);
	assert_int_equal(o.count, 5);
	/* 3: a thousand small odd parts: they still add up to the total */
	for (int k = 0; k < 1000; k++) {
		uint32_t who[] = { 100 + k % 7, XG_BEHIND_IDLE, XT_BEHIND_XEN };
		uint64_t c[] = { 3331 + k, 1777, 13 };
		interval(&w, who, c, 3, NULL, 0);
		before = o.total_ns;
		uint64_t was_other = other(&o);
		xt_waitsum_take(&s, &w, HZ, &o);
		assert_int_equal(o.total_ns - before, xt_cyc_to_ns(w.total_cyc, HZ));
		assert_true(other(&o) >= was_other);
	}
	uint64_t parts = 0;
	for (size_t i = 0; i < s.nby; i++)
		parts += s.by[i].ns;
	assert_int_equal(parts, o.total_ns);
	waitsum_free(&s);
	xt_dom_waits_free(&w);
}

/* Every fine bucket falls wholly inside one coarse bucket. */
static void bucket_edges(void **state)
{
	(void)state;
	for (unsigned b = 0; b + 1 < XT_WH_N; b++) {
		uint64_t lo, hi;
		xt_wh_bounds(b, &lo, &hi);
		unsigned i = xt_waitsum_bucket(b);
		if (i < XG_WAIT_LE_N)
			assert_true(hi <= xg_wait_le_ns[i]);
		if (i > 0)
			assert_true(lo >= xg_wait_le_ns[i - 1]);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(top_change),
		cmocka_unit_test(bucket_edges),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
