// SPDX-License-Identifier: GPL-2.0-or-later
/* The user-space half of Linux wait attribution: the histogram's buckets
 * (the same function the BPF program uses) and their percentiles, and
 * the sharing out of (thread, culprit) entries as the BPF program leaves
 * them to the domains of a refresh: a VM's vCPU threads only, idle, a
 * process gone before the scan, a thread the scan never saw; and the
 * running totals per culprit and per length bucket that the fill keeps
 * in the sample's wait pool (as Xen's sources do). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "../../../src/linux/linux_waits.h"

static unsigned msb(uint64_t v)
{
	return v ? 63u - (unsigned)__builtin_clzll(v) : 0;
}

/* One wait of length ns alone in a histogram: its quantiles are the top
 * of its bucket, which holds ns and is at most 1/8 of ns wide. */
static void buckets(void **state)
{
	(void)state;
	uint64_t h[LW_BUCKETS];
	uint64_t ns[] = { 0, 1, 7, 8, 9, 15, 16, 1000, 1023, 1024, 4000000, 9999999, 1ull << 35,
			  (1ull << 36) - 1 };
	for (size_t i = 0; i < sizeof(ns) / sizeof(ns[0]); i++) {
		unsigned b = lw_bucket_of(ns[i], msb(ns[i]));
		assert_true(b < LW_BUCKETS);
		memset(h, 0, sizeof(h));
		h[b] = 1;
		double hi = lx_waits_quantile(h, 0.5);
		assert_true((double)ns[i] < hi);
		assert_true(hi - (double)ns[i] <= (ns[i] < 8 ? 1.0 : (double)ns[i] / 8));
		if (i)   /* buckets grow with the length */
			assert_true(lw_bucket_of(ns[i - 1], msb(ns[i - 1])) <= b);
	}
	/* longer than 2^36 ns: the last bucket */
	assert_int_equal(lw_bucket_of(1ull << 40, 40), LW_BUCKETS - 1);
	/* 99 waits of 1 ms and one of 100 ms */
	memset(h, 0, sizeof(h));
	h[lw_bucket_of(1000000, msb(1000000))] = 99;
	h[lw_bucket_of(100000000, msb(100000000))] = 1;
	double p50 = lx_waits_quantile(h, 0.5), p99 = lx_waits_quantile(h, 0.99);
	double p995 = lx_waits_quantile(h, 0.995);
	assert_true(p50 >= 1e6 * 0.98 && p50 <= 1e6 * 1.13);
	assert_true(p99 >= p50 && p99 <= 1e6 * 1.13);
	assert_true(p995 >= 1e8 * 0.875 && p995 <= 1e8 * 1.13);   /* within its bucket */
	memset(h, 0, sizeof(h));
	assert_true(lx_waits_quantile(h, 0.5) == 0);
}

struct world {
	struct lx_proc proc[3];
	struct lx_thr thr[5];
	struct lx_dom dom[3];
	struct lx_scan sc;
	struct lx_doms ds;
	struct xg_sample out;
	struct lx_waits w;
};

static void add_pair(struct lx_waits *w, uint32_t tid, uint32_t tgid, uint64_t ns, uint64_t len,
		     unsigned nlen)
{
	size_t i = w->npair++;
	w->pair = realloc(w->pair, w->npair * sizeof(*w->pair));
	w->pair[i] = (struct lx_wpair){ .tid = tid, .tgid = tgid, .cgid = tgid ? 77 : 0, .ns = ns };
	if (nlen) {
		i = w->nlen++;
		w->len = realloc(w->len, w->nlen * sizeof(*w->len));
		w->len[i] = (struct lx_wlen){ .tid = tid, .bucket = lw_bucket_of(len, msb(len)), .count = nlen,
					      .len_ns = len * nlen };
	}
}

/* Empties the drain (the next refresh's is added with add_pair). */
static void drained(struct lx_waits *w)
{
	free(w->pair);
	free(w->len);
	w->pair = NULL;
	w->len = NULL;
	w->npair = w->nlen = 0;
}

/* VM mode: the host (id 0, pid 50), vm1 (id 100: QEMU pid 1000, its
 * emulator thread 1000 and vCPU thread 1001) and vm2 (id 200: 2000, 2001). */
static void vm_world(struct world *x)
{
	memset(x, 0, sizeof(*x));
	uint32_t pids[3] = { 50, 1000, 2000 }, ids[3] = { 0, 100, 200 };
	uint32_t tids[5] = { 50, 1000, 1001, 2000, 2001 };
	int32_t vcpu[5] = { LX_NO_VCPU, LX_NO_VCPU, 0, LX_NO_VCPU, 0 };
	for (int i = 0; i < 5; i++) {
		x->thr[i].tid = tids[i];
		x->thr[i].vcpu_no = vcpu[i];
	}
	for (int i = 0; i < 3; i++) {
		x->proc[i].pid = pids[i];
		x->proc[i].dom = i;
		x->proc[i].nthr = i ? 2 : 1;
		x->proc[i].thr_first = i ? 2 * (uint32_t)i - 1 : 0;
		x->dom[i].id = ids[i];
		x->dom[i].vm = i - 1;
		x->dom[i].cg = -1;
	}
	x->sc.proc = x->proc;
	x->sc.nproc = 3;
	x->sc.tnow = x->thr;
	x->sc.ntnow = 5;
	x->ds.dom = x->dom;
	x->ds.ndom = 3;
	sample_init(&x->out);
	for (int i = 0; i < 3; i++)
		sample_add_dom(&x->out, ids[i]);
}

static void shared_out(void **state)
{
	(void)state;
	struct world *x = calloc(1, sizeof(*x));
	vm_world(x);
	struct lx_waits *w = &x->w;
	add_pair(w, 1001, 2000, 8000000, 4000000, 2);   /* vm1's vCPU behind vm2 */
	add_pair(w, 1001, 0, 1000000, 0, 0);            /* ... and the idle CPU */
	add_pair(w, 1000, 2000, 5000000, 1000, 9);      /* vm1's emulator: not vm1's WAIT */
	add_pair(w, 2001, 1000, 6000000, 3000000, 1);   /* vm2's vCPU behind vm1 */
	add_pair(w, 2001, 9999, 7000000, 0, 0);         /* ... and a process gone: the host */
	add_pair(w, 50, LW_TGID_UNKNOWN, 3000000, 2000000, 1);  /* the host, before the log */
	add_pair(w, 7777, 2000, 5000000, 1000, 3);      /* a thread the scan never saw */
	lx_waits_fill(w, &x->sc, &x->ds, NULL, true, &x->out, 0);
	assert_true(host_has(&x->out.host, XG_H_WAITS));
	const struct xg_dom *h = &x->out.dom[0], *v1 = &x->out.dom[1], *v2 = &x->out.dom[2];
	assert_true(dom_has(v1, XG_F_BEHIND_WAIT_NS) && v1->v[XG_F_BEHIND_WAIT_NS] == 9000000);
	assert_true(v1->v[XG_F_BEHIND_ID] == 200 && v1->v[XG_F_BEHIND_NS] == 8000000);
	/* two waits of 4 ms (the emulator's 1 us waits do not count) */
	assert_true(dom_has(v1, XG_F_WAIT_P50_NS));
	assert_true(v1->v[XG_F_WAIT_P50_NS] >= 4000000 && v1->v[XG_F_WAIT_P50_NS] <= 4500000);
	assert_true(v2->v[XG_F_BEHIND_WAIT_NS] == 13000000);
	assert_true(v2->v[XG_F_BEHIND_ID] == LX_HOST_ID && v2->v[XG_F_BEHIND_NS] == 7000000);
	assert_true(h->v[XG_F_BEHIND_WAIT_NS] == 3000000);
	assert_true(h->v[XG_F_BEHIND_ID] == XG_BEHIND_XEN);
	sample_free(&x->out);
	free(w->pair);
	free(w->len);
	w->pair = NULL;
	w->len = NULL;
	lx_waits_close(w);
	free(x);
}

/* A refresh in which no wait ended: 0 attributed, and no culprit or
 * latency (a reason instead of a 0 that would read as "no wait"). */
static void nothing_ended(void **state)
{
	(void)state;
	struct world *x = calloc(1, sizeof(*x));
	vm_world(x);
	lx_waits_fill(&x->w, &x->sc, &x->ds, NULL, true, &x->out, 0);
	for (int i = 0; i < 3; i++) {
		const struct xg_dom *d = &x->out.dom[i];
		assert_true(dom_has(d, XG_F_BEHIND_WAIT_NS) && d->v[XG_F_BEHIND_WAIT_NS] == 0);
		assert_false(dom_has(d, XG_F_BEHIND_ID));
		assert_false(dom_has(d, XG_F_WAIT_P50_NS));
		assert_false(dom_has(d, XG_F_WAIT_P99_NS));
	}
	sample_free(&x->out);
	lx_waits_close(&x->w);
	free(x);
}

/* The sample's wait pool across refreshes: per-culprit running totals
 * that add up to the WAITs, the top culprits of all time and of the
 * interval, 'other' that never decreases, the length buckets, count and
 * sum; a domain that restarts under its id starts again. */
static uint64_t other_ns(const struct xg_waits *o)
{
	uint64_t top = 0;
	for (uint32_t i = 0; i < o->ntop; i++)
		top += o->top[i].ns;
	assert_true(top <= o->total_ns);
	return o->total_ns - top;
}

static void refresh(struct world *x)
{
	sample_free(&x->out);
	sample_init(&x->out);
	for (int i = 0; i < 3; i++) {
		struct xg_dom *d = sample_add_dom(&x->out, x->dom[i].id);
		d->gen = x->dom[i].gen;
	}
	lx_waits_fill(&x->w, &x->sc, &x->ds, NULL, true, &x->out, 0);
}

static void running_totals(void **state)
{
	(void)state;
	struct world *x = calloc(1, sizeof(*x));
	vm_world(x);
	struct lx_waits *w = &x->w;
	/* 1: vm1 behind vm2 8 ms, idle 1 ms, the host 5 ms, a gone process
	 * (the host too) 2 ms: 4 culprits */
	add_pair(w, 1001, 2000, 8000000, 4000000, 2);
	add_pair(w, 1001, 0, 1000000, 1000, 1);
	add_pair(w, 1001, 50, 5000000, 0, 0);
	add_pair(w, 1001, LW_TGID_UNKNOWN, 2000000, 2000000000ull, 1);
	refresh(x);
	const struct xg_dom *v1 = &x->out.dom[1];
	const struct xg_waits *o = sample_waits(&x->out, v1);
	assert_non_null(o);
	assert_int_equal(o->total_ns, v1->v[XG_F_BEHIND_WAIT_NS]);
	assert_int_equal(o->total_ns, 16000000);
	assert_int_equal(o->ntop, 3);
	assert_int_equal(o->top[0].who, 200);
	assert_int_equal(o->top[0].ns, 8000000);
	assert_int_equal(o->top[1].who, LX_HOST_ID);
	assert_int_equal(o->top[2].who, XG_BEHIND_XEN);
	assert_int_equal(other_ns(o), 1000000);    /* idle */
	assert_int_equal(o->nlast, 3);
	assert_int_equal(o->last[0].who, 200);
	/* 2 waits of 4 ms (< 2^22 ns: bucket 7), 1 us (< 2^13: 0), 2 s (the last) */
	assert_int_equal(o->count, 4);
	assert_int_equal(o->sum_ns, 2 * 4000000 + 1000 + 2000000000ull);
	assert_int_equal(o->bucket[7], 2);
	assert_int_equal(o->bucket[0], 1);
	assert_int_equal(o->bucket[XG_WAIT_LE_N], 1);
	/* the other domains never waited: no entry, and why */
	const struct xg_waits *o2 = sample_waits(&x->out, &x->out.dom[2]);
	assert_null(o2);
	assert_string_equal(sample_waits_why(&x->out, &x->out.dom[2]), "no wait has ended since the source began");

	/* 2: vm1 behind idle 9 ms: idle (10) takes the top, the gone
	 * process's 2 ms go to 'other', which grows */
	drained(w);
	add_pair(w, 1001, 0, 9000000, 8000, 3);
	refresh(x);
	v1 = &x->out.dom[1];
	o = sample_waits(&x->out, v1);
	assert_int_equal(v1->v[XG_F_BEHIND_WAIT_NS], 9000000);
	assert_int_equal(o->total_ns, 25000000);
	assert_int_equal(o->top[0].who, XG_BEHIND_IDLE);
	assert_int_equal(o->top[0].ns, 10000000);
	assert_int_equal(o->top[1].who, 200);
	assert_int_equal(o->top[2].who, LX_HOST_ID);
	assert_int_equal(other_ns(o), 2000000);
	assert_int_equal(o->nlast, 1);
	assert_int_equal(o->last[0].ns, 9000000);
	assert_int_equal(o->count, 7);
	assert_int_equal(o->bucket[0], 4);

	/* 3: nothing ended; vm1 restarted under its id: its totals start
	 * again, vm2's stay */
	drained(w);
	add_pair(w, 2001, 1000, 3000000, 3000000, 1);
	x->dom[1].gen = 7;
	refresh(x);
	assert_null(sample_waits(&x->out, &x->out.dom[1]));
	drained(w);
	refresh(x);
	o2 = sample_waits(&x->out, &x->out.dom[2]);
	assert_int_equal(o2->total_ns, 3000000);
	assert_int_equal(o2->top[0].who, 100);
	assert_int_equal(o2->nlast, 0);
	assert_int_equal(o2->count, 1);
	sample_free(&x->out);
	lx_waits_close(w);
	free(x);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(buckets),
		cmocka_unit_test(shared_out),
		cmocka_unit_test(nothing_ended),
		cmocka_unit_test(running_totals),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
