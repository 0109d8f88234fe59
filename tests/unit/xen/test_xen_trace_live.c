// SPDX-License-Identifier: GPL-2.0-or-later
/* The live trace consumer over in-memory rings laid out as Xen's: records
 * written with the real TSC reach the sample; a vCPU with no record in an
 * interval is accounted 100 % in its state for it; lost records are
 * counted; the consumer index is advanced. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifdef HAVE_XEN
#include <x86intrin.h>

#include "xgtop/xen/xen_trace_live.h"
#include "xgtop/trace/xentrace.h"

#define DS (4096u - 8u)
struct ring { uint32_t cons, prod; uint8_t data[DS]; };

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000 };
	nanosleep(&ts, NULL);
}

static double tsc_hz(void)
{
	struct timespec a, b;
	clock_gettime(CLOCK_MONOTONIC, &a);
	uint64_t c0 = __rdtsc();
	sleep_ms(100);
	clock_gettime(CLOCK_MONOTONIC, &b);
	double s = (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9;
	return (double)(__rdtsc() - c0) / s;
}

static void put(struct ring *r, const uint32_t *w, size_t n)
{
	uint32_t off = r->prod % DS;
	memcpy(r->data + off, w, 4 * n);
	__atomic_store_n(&r->prod, (r->prod + 4 * (uint32_t)n) % (2 * DS), __ATOMIC_RELEASE);
}

static void runstate(struct ring *r, uint32_t dom, uint32_t vcpu, unsigned old, unsigned nw)
{
	uint64_t tsc = __rdtsc();
	uint32_t w[4] = { (XT_RUNSTATE_CHANGE | old << 8 | nw << 4) | 1u << 28 | 1u << 31,
			  (uint32_t)tsc, (uint32_t)(tsc >> 32), dom << 16 | vcpu };
	put(r, w, 4);
}

static void fill(struct xtl *t, struct xg_sample *s, uint64_t ns[4])
{
	sample_clear(s);
	struct xg_dom *d = sample_add_dom(s, 7);
	dom_set(d, XG_F_VCPUS_MAX, 1);
	struct xg_vcpu *v = sample_add_vcpus(s, d, 1);
	v->id = 0;
	xen_tl_fill(t, s);
	d = &s->dom[0];
	for (int i = 0; i < 4; i++) {
		assert_true(dom_has(d, XG_F_RUN_NS + i));
		ns[i] = d->v[XG_F_RUN_NS + i];
		assert_int_equal(s->vcpu[0].sched_ns[i], ns[i]);
	}
	assert_int_equal(s->vcpu[0].valid & 0x0f, 0x0f);
}

static void live_ring(void **state)
{
	(void)state;
	struct ring *r = calloc(1, sizeof(*r));
	void *bufs[1] = { r };
	double hz = tsc_hz();
	/* Stale records before the session are discarded. */
	runstate(r, 7, 0, XT_RUNNING, XT_OFFLINE);
	struct xtl *t = xen_tl_open_mem(bufs, 1, DS, hz);
	assert_int_equal(r->cons, r->prod);
	struct xg_sample s;
	sample_init(&s);
	uint64_t a[4], b[4], c[4];

	sleep_ms(50);
	runstate(r, 7, 0, XT_RUNNABLE, XT_RUNNING);   /* waited 50 ms since the start */
	sleep_ms(100);
	fill(t, &s, a);
	assert_int_equal(r->cons, r->prod);           /* consumed and handed back */
	assert_true(a[1] >= 40 * 1000000ull && a[1] <= 120 * 1000000ull);
	assert_true(a[0] >= 80 * 1000000ull);
	assert_int_equal(a[2], 0);

	/* No record for 300 ms: all of it running. */
	sleep_ms(300);
	fill(t, &s, b);
	double drun = (double)(b[0] - a[0]) / 1e6;
	assert_true(drun >= 250 && drun <= 600);
	assert_int_equal(b[1], a[1]);
	assert_int_equal(b[2], a[2]);
	assert_int_equal(b[3], a[3]);

	/* Blocks, then records are lost on the pCPU and the count shows. */
	runstate(r, 7, 0, XT_RUNNING, XT_BLOCKED);
	sleep_ms(200);
	uint64_t tsc = __rdtsc();
	uint32_t lost[7] = { XT_LOST_RECORDS | 4u << 28 | 1u << 31, (uint32_t)tsc, (uint32_t)(tsc >> 32),
			     5, 0, (uint32_t)tsc, (uint32_t)(tsc >> 32) };
	put(r, lost, 7);
	sleep_ms(5);   /* past the 100 us margin for records still being written */
	fill(t, &s, c);
	assert_true(c[2] - b[2] >= 150 * 1000000ull);
	assert_true((s.host.valid >> XG_H_LOST) & 1);
	assert_int_equal(s.host.lost_records, 5);

	struct xen_tl_stats st;
	xen_tl_stats(t, &st);
	assert_true(st.active);
	assert_int_equal(st.lost_records, 5);
	/* two runstate records and the lost-records record after the start */
	assert_int_equal(st.records, 3);
	assert_int_equal(st.bytes, 16 + 16 + 28);
	xen_tl_close(t);
	sample_free(&s);
	free(r);
}

/* Without an open session the columns carry the reason. */
static void reasons(void **state)
{
	(void)state;
	struct xg_config cfg;
	config_defaults(&cfg);
	cfg.notrace = true;
	struct xtl *t = xen_tl_open(NULL, &cfg);
	struct xg_sample s;
	sample_init(&s);
	struct xg_dom *d = sample_add_dom(&s, 3);
	xen_tl_fill(t, &s);
	d = &s.dom[0];
	assert_false(dom_has(d, XG_F_RUN_NS));
	assert_string_equal(dom_why(&s, d, XG_F_WAIT_NS), "not collected (--notrace)");
	xen_tl_set_on(t, true);   /* --notrace wins over the w key */
	sample_clear(&s);
	d = sample_add_dom(&s, 3);
	xen_tl_fill(t, &s);
	assert_string_equal(dom_why(&s, &s.dom[0], XG_F_BLK_NS), "not collected (--notrace)");
	xen_tl_close(t);
	sample_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(live_ring),
		cmocka_unit_test(reasons),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
#else
int main(void)
{
	printf("test_xen_trace_live: built without Xen, nothing to test\n");
	return 0;
}
#endif
