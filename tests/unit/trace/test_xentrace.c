// SPDX-License-Identifier: GPL-2.0-or-later
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "xgtop/trace/xentrace_account.h"
#include "xt_tbuf.h"

/* ---- building traces in memory ---- */
static void rec(struct tbuf *b, uint32_t ev, int tsc_on, uint64_t tsc, unsigned n, const uint32_t *w)
{
	recw(b, ev, tsc_on, tsc, n, 0, w);
}
static void rs(struct tbuf *b, uint64_t tsc, uint32_t dom, uint32_t vcpu, unsigned old, unsigned nw)
{
	uint32_t w = dom << 16 | vcpu;
	rec(b, XT_RUNSTATE_CHANGE | old << 8 | nw << 4, 1, tsc, 1, &w);
}

/* ---- collecting decoded records ---- */
struct seen { struct xt_rec r[256]; size_t n; };
static int collect(void *ctx, const struct xt_rec *r)
{
	struct seen *s = ctx;
	assert_true(s->n < 256);
	s->r[s->n++] = *r;
	return 0;
}

static void sample_trace(struct tbuf *b)
{
	static const uint32_t junk[7] = { 1, 2, 3, 4, 5, 6, 7 };
	memset(b, 0, sizeof(*b));
	chunk(b, 3);
	rs(b, 100, 40000 & 0x7fff, 2, 1, 0);
	rec(b, 0x00082001, 0, 0, 3, junk);          /* no TSC: inherits 100 */
	rec(b, XT_WRAP_BUFFER, 0, 0, 7, junk);      /* padding */
	rec(b, 0x0ffff123, 1, 150, 7, junk);        /* unknown event */
	chunk_end(b);
	chunk(b, 0);
	rs(b, 120, 32767, 0, 0, 1);
	chunk_end(b);
	chunk(b, 3);
	rs(b, 200, 40000 & 0x7fff, 2, 0, 2);
	chunk_end(b);
}

static void split_feeds_decode_the_same(void **state)
{
	(void)state;
	struct tbuf b;
	sample_trace(&b);
	struct seen whole = { .n = 0 }, bytes = { .n = 0 };
	struct xt_decoder d;
	struct xg_err err;
	xt_decoder_init(&d, collect, &whole);
	assert_int_equal(xt_decode_feed(&d, b.b, b.n, &err), 0);
	assert_int_equal(xt_decode_finish(&d, &err), 0);
	assert_int_equal(whole.n, 6);
	assert_int_equal(d.chunks, 3);
	assert_int_equal(d.npcpu, 4);
	assert_true(whole.r[1].tsc == 100 && !whole.r[1].has_tsc && whole.r[1].nwords == 3);
	assert_int_equal(whole.r[3].event, 0x0ffff123);
	assert_int_equal(whole.r[5].pcpu, 3);
	assert_int_equal(whole.r[5].offset, b.n - 16);
	xt_decoder_free(&d);
	/* One byte at a time: records split anywhere still come out whole. */
	xt_decoder_init(&d, collect, &bytes);
	for (size_t i = 0; i < b.n; i++)
		assert_int_equal(xt_decode_feed(&d, b.b + i, 1, &err), 0);
	assert_int_equal(xt_decode_finish(&d, &err), 0);
	assert_int_equal(bytes.n, whole.n);
	for (size_t i = 0; i < whole.n; i++) {
		assert_int_equal(bytes.r[i].event, whole.r[i].event);
		assert_int_equal(bytes.r[i].tsc, whole.r[i].tsc);
		assert_int_equal(bytes.r[i].offset, whole.r[i].offset);
		assert_memory_equal(bytes.r[i].d, whole.r[i].d, 4 * whole.r[i].nwords);
	}
	xt_decoder_free(&d);
	free(b.b);
}

static void truncation_reports_offset(void **state)
{
	(void)state;
	struct tbuf b;
	sample_trace(&b);
	struct seen s = { .n = 0 };
	struct xt_decoder d;
	struct xg_err err;
	xt_decoder_init(&d, collect, &s);
	assert_int_equal(xt_decode_feed(&d, b.b, b.n - 5, &err), 0);
	assert_int_equal(xt_decode_finish(&d, &err), -1);
	assert_non_null(strstr(err.msg, "truncated trace at byte"));
	assert_int_equal(s.n, 5);   /* everything before the cut */
	xt_decoder_free(&d);
	free(b.b);
}

/* The TSCs of the events a drain passes, in its order. */
struct tscs {
	uint64_t tsc[8];
	size_t n;
};

static void note_tsc(void *ctx, const struct xt_ev *e)
{
	struct tscs *t = ctx;
	if (t->n < 8)
		t->tsc[t->n++] = e->tsc;
}

static void raw_buffers_and_merge(void **state)
{
	(void)state;
	/* Live style: two pCPUs' buffers, fed separately, merged by TSC. */
	struct tbuf p0 = { .n = 0 }, p1 = { .n = 0 };
	static const uint32_t pad[2] = { 0, 0 };
	rs(&p0, 10, 1, 0, 1, 0);
	rs(&p0, 40, 1, 0, 0, 2);
	rec(&p0, XT_WRAP_BUFFER, 0, 0, 2, pad);
	rs(&p1, 30, 1, 0, 2, 1);   /* woken on the other pCPU, earlier */
	rs(&p1, 50, 1, 0, 1, 0);
	struct xt_events ev;
	struct xt_decoder d;
	struct xg_err err;
	xt_events_init(&ev);
	xt_decoder_init(&d, xt_events_add, &ev);
	assert_int_equal(xt_decode_raw(&d, 0, p0.b, p0.n, &err), 0);
	assert_int_equal(xt_decode_raw(&d, 1, p1.b, p1.n, &err), 0);
	struct tscs got = { .n = 0 };
	assert_int_equal(xt_events_drain(&ev, 45, note_tsc, &got), 3);
	assert_true(got.tsc[0] == 10 && got.tsc[1] == 30 && got.tsc[2] == 40);
	assert_int_equal(xt_events_drain(&ev, UINT64_MAX, note_tsc, &got), 1);
	assert_true(got.tsc[3] == 50);
	/* A partial record at the end of a live buffer is refused. */
	assert_int_equal(xt_decode_raw(&d, 1, p1.b, 6, &err), -1);
	assert_non_null(strstr(err.msg, "ends inside a record"));
	xt_decoder_free(&d);
	free(p0.b);
	free(p1.b);
	xt_events_free(&ev);
}

static void silent_vcpu_counts_whole_windows(void **state)
{
	(void)state;
	/* d33v0 starts running at 1000 and has no record until 10000; d33v1
	 * blocks at 1500 and stays blocked. Windows of 1000 cycles. */
	struct xt_acct a;
	struct xt_ev evs[] = {
		{ .tsc = 1000, .dom = 33, .vcpu = 0, .kind = XT_EV_CHANGE, .old_new = xt_old_new(XT_RUNNABLE, XT_RUNNING) },
		{ .tsc = 1500, .dom = 33, .vcpu = 1, .kind = XT_EV_CHANGE, .old_new = xt_old_new(XT_RUNNING, XT_BLOCKED), .pcpu = 1 },
		{ .tsc = 10000, .dom = 33, .vcpu = 0, .kind = XT_EV_CHANGE, .old_new = xt_old_new(XT_RUNNING, XT_RUNNABLE) },
	};
	xt_acct_init(&a, XT_NATIVE);
	xt_acct_start(&a, 0);
	xt_acct_seed_from(&a, evs, 3, 0);
	size_t next = 0;
	uint64_t prev0[XT_NSTATES] = { 0 }, prev1[XT_NSTATES] = { 0 };
	for (uint64_t end = 1000; end <= 10000; end += 1000) {
		while (next < 3 && evs[next].tsc <= end)
			xt_acct_event(&a, &evs[next++]);
		uint64_t c0[XT_NSTATES], c1[XT_NSTATES];
		xt_acct_at(&a, &a.v[xt_acct_vcpu(&a, 33, 0)], end, c0);
		xt_acct_at(&a, &a.v[xt_acct_vcpu(&a, 33, 1)], end, c1);
		if (end == 2000) {
			assert_int_equal(c1[XT_RUNNING], 1500);
			assert_int_equal(c1[XT_BLOCKED], 500);
		}
		if (end >= 2000) {
			assert_int_equal(c0[XT_RUNNING] - prev0[XT_RUNNING], 1000);
		}
		if (end >= 3000) {
			/* 100 % running / blocked in every window without a record */
			assert_int_equal(c0[XT_RUNNING] - prev0[XT_RUNNING], 1000);
			assert_int_equal(c1[XT_BLOCKED] - prev1[XT_BLOCKED], 1000);
		} else if (end == 1000) {
			assert_int_equal(c0[XT_RUNNABLE], 1000);   /* seeded from t=0 */
			assert_int_equal(c1[XT_RUNNING], 1000);
		}
		memcpy(prev0, c0, sizeof(c0));
		memcpy(prev1, c1, sizeof(c1));
	}
	xt_acct_free(&a);
}

static void any_domid_works(void **state)
{
	(void)state;
	struct xt_acct a;
	xt_acct_init(&a, XT_NATIVE);
	/* 3 vCPUs of each of 2731 domains up to the idle domain, seeded by a
	 * first record each: blocked since d, and one running since 5. */
	struct xt_ev e = { .kind = XT_EV_CHANGE, .old_new = xt_old_new(XT_BLOCKED, XT_RUNNING) };
	for (uint32_t d = 0; d <= 32767; d += 12)
		for (uint32_t v = 0; v < 3; v++) {
			e.dom = (uint16_t)d;
			e.vcpu = (uint16_t)v;
			xt_acct_seed_from(&a, &e, 1, d);
		}
	e = (struct xt_ev){ .kind = XT_EV_CONTINUE, .dom = 32767, .vcpu = 511 };
	xt_acct_seed_from(&a, &e, 1, 5);
	size_t n = a.nv;
	for (uint32_t d = 0; d <= 32767; d += 12)
		for (uint32_t v = 0; v < 3; v++) {
			struct xt_vcpu_acct *x = &a.v[xt_acct_vcpu(&a, d, v)];
			assert_int_equal(x->dom, d);
			assert_int_equal(x->vcpu, v);
			assert_int_equal(x->since, d);
		}
	assert_int_equal(a.nv, n);   /* lookups found, did not add */
	xt_acct_sort(&a);
	assert_int_equal(a.v[a.nv - 1].dom, 32767);
	assert_int_equal(a.v[a.nv - 1].vcpu, 511);
	assert_int_equal(a.v[xt_acct_vcpu(&a, 32767, 511)].state, XT_RUNNING);
	xt_acct_free(&a);
}

static void hz_parsing_and_conversion(void **state)
{
	(void)state;
	double hz;
	assert_true(xt_parse_hz("2.4G", &hz) && hz == 2.4e9);
	assert_true(xt_parse_hz("2400M", &hz) && hz == 2.4e9);
	assert_true(xt_parse_hz("2400000000", &hz) && hz == 2.4e9);
	assert_false(xt_parse_hz("2.4X", &hz));
	assert_false(xt_parse_hz("2.4", &hz));    /* 2.4 Hz: a unit mistake */
	assert_false(xt_parse_hz("", &hz));
	assert_int_equal(xt_cyc_to_ns(2400000000u, 2.4e9), 1000000000u);
	assert_int_equal(xt_cyc_to_ns(3, 2.4e9), 1);    /* 1.25 ns rounds to 1 */
	assert_int_equal(xt_cyc_to_ns(UINT64_MAX / 2, 1e9), UINT64_MAX / 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(split_feeds_decode_the_same),
		cmocka_unit_test(truncation_reports_offset),
		cmocka_unit_test(raw_buffers_and_merge),
		cmocka_unit_test(silent_vcpu_counts_whole_windows),
		cmocka_unit_test(any_domid_works),
		cmocka_unit_test(hz_parsing_and_conversion),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
