// SPDX-License-Identifier: GPL-2.0-or-later
/* Wait attribution and the wait-length histogram, through the accounting
 * API: buckets and quantiles, and parts that add up to WAIT when pCPU
 * logs have been trimmed many times over (a long trace). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <string.h>

#include "xgtop/trace/xentrace_account.h"

static void buckets(void **state)
{
	(void)state;
	uint64_t lo, hi;
	/* Every length falls in the bucket whose bounds hold it. */
	for (uint64_t ns = 0; ns < 5000000; ns = ns * 3 / 2 + 1) {
		unsigned b = xt_wh_bucket(ns);
		assert_true(b < XT_WH_N);
		xt_wh_bounds(b, &lo, &hi);
		assert_true(lo <= ns && ns < hi);
	}
	/* Buckets are 1/8 of an octave: 1000 ns lies in [960, 1024). */
	xt_wh_bounds(xt_wh_bucket(1000), &lo, &hi);
	assert_int_equal(lo, 960);
	assert_int_equal(hi, 1024);
	uint64_t h[XT_WH_N];
	memset(h, 0, sizeof(h));
	assert_true(xt_wh_quantile(h, 0.5) == 0);
	h[xt_wh_bucket(1000)] = 99;
	h[xt_wh_bucket(1000000)] = 1;
	double p50 = xt_wh_quantile(h, 0.5), p99 = xt_wh_quantile(h, 0.99), p100 = xt_wh_quantile(h, 1);
	assert_true(p50 >= 960 && p50 < 1024);
	assert_true(p99 >= 960 && p99 <= 1024);
	assert_true(p100 >= 983040 && p100 <= 1048576);
	/* 32.32 fixed point: 2.4 GHz, 2.4e9 cycles = 1 s to a part in 1e9. */
	uint64_t mult = (uint64_t)(1e9 / 2.4e9 * 4294967296.0 + 0.5);
	uint64_t ns = xt_wh_ns(2400000000u, mult);
	assert_true(ns > 999999990u && ns < 1000000010u);
}

static struct xt_ev change(uint64_t tsc, uint16_t pcpu, uint16_t dom, unsigned old, unsigned nw)
{
	struct xt_ev e = { .tsc = tsc, .dom = dom, .vcpu = 0, .pcpu = pcpu, .kind = XT_EV_CHANGE };
	e.old_new = xt_old_new(old, nw);
	return e;
}

/* Two vCPUs take turns on pCPU 0, 100,000 times: each wait is 1000
 * cycles behind the other vCPU and 2 x 10 behind Xen (the switch gaps
 * around it): the log fills and is trimmed again and again. */
static void long_alternation(void **state)
{
	(void)state;
	struct xt_acct a;
	xt_acct_init(&a, XT_NATIVE);
	xt_acct_behind(&a, true, true, 1e9);
	xt_acct_start(&a, 0);
	uint64_t t = 0;
	struct xt_ev e = change(0, 0, 1, XT_RUNNABLE, XT_RUNNING);
	xt_acct_event(&a, &e);
	e = change(0, 0, 2, XT_BLOCKED, XT_RUNNABLE);
	xt_acct_event(&a, &e);
	unsigned run = 1;
	for (int i = 0; i < 100000; i++) {
		t += 1000;
		e = change(t, 0, (uint16_t)run, XT_RUNNING, XT_RUNNABLE);
		xt_acct_event(&a, &e);
		t += 10;
		run = 3 - run;
		e = change(t, 0, (uint16_t)run, XT_RUNNABLE, XT_RUNNING);
		xt_acct_event(&a, &e);
	}
	xt_acct_finish(&a, t);
	assert_true(a.nplog >= 1 && a.plog[0].cap < 65536);   /* trimmed, not grown */
	for (size_t i = 0; i < a.nv; i++) {
		const struct xt_vcpu_acct *v = &a.v[i];
		uint64_t sum = 0, other = 0, xen = 0;
		for (uint32_t k = 0; k < v->nby; k++) {
			sum += v->by[k].cyc;
			if (v->by[k].who == XT_BEHIND_XEN)
				xen += v->by[k].cyc;
			else if (v->by[k].who == 3u - v->dom)
				other += v->by[k].cyc;
		}
		assert_int_equal(sum, v->cyc[XT_RUNNABLE]);
		assert_true(xen >= 49999 * 20 && xen <= 50000 * 20);
		assert_true(other >= 49999 * 1000 && other <= 50000 * 1000);
		uint64_t waits = 0;
		for (unsigned b = 0; b < XT_WH_N; b++)
			waits += v->whist ? v->whist[b] : 0;
		assert_true(waits >= 49999 && waits <= 50000);
	}
	xt_acct_free(&a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(buckets),
		cmocka_unit_test(long_alternation),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
