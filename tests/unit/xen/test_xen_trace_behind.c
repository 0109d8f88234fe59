// SPDX-License-Identifier: GPL-2.0-or-later
/* Wait attribution and run-queue latency through the live trace consumer
 * (xen_tl_open_mem: in-memory rings laid out as Xen's, records stamped
 * with the real TSC). A small scheduler simulated here, apart from the C
 * accounting, writes two pCPUs' runstate records: vCPUs pinned to a
 * pCPU run in slices, are preempted or block and wake; the idle vCPU runs
 * when none is runnable; Xen itself runs between two vCPUs. The simulator
 * knows who was on each pCPU at every instant and every wait, so it
 * computes on its own what each refresh must publish:
 *  - behind_wait_ns = the WAIT of the interval (the parts add up to it),
 *  - the top culprit (a domain, idle or Xen) and its ns,
 *  - P50 and P99 of the waits' lengths (exact order statistics; xgtop's
 *    histogram may differ by at most its bucket, 1/8 of an octave).
 * Two refreshes: the second publishes only its own interval's waits. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifdef HAVE_XEN
#include <x86intrin.h>

#include "xgtop/xen/xen_trace_live.h"
#include "xgtop/trace/xentrace.h"

#define DS ((1u << 20) - 8u)
struct ring { uint32_t cons, prod; uint8_t data[DS]; };

#define NP 2          /* pCPUs */
#define NV 2          /* guest vCPUs pinned to each */
#define IDLE 32767u
#define XEN 65536u
#define NDOM 3        /* domains 1, 2, 3 */

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

/* ---- the simulated scheduler -------------------------------------------- */

struct rec { uint64_t tsc; uint32_t dom, vcpu; unsigned old, nw; };
struct span { uint64_t t0, t1; uint32_t who; };       /* who ran on the pCPU */
struct wait { uint64_t t0, t1; uint32_t dom; };

struct vc { uint32_t dom, vcpu; bool runnable; uint64_t since, wake; };

struct pcpu {
	struct vc v[NV];
	uint32_t on;            /* who runs now (a domid, IDLE, XEN) */
	uint64_t on_since;
	struct rec *r; size_t nr, cr;
	struct span *s; size_t ns, cs;
	struct wait *w; size_t nw, cw;
};

static uint64_t rnd_state = 88172645463325252ull;
static uint64_t rnd(uint64_t lo, uint64_t hi)
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 7;
	rnd_state ^= rnd_state << 17;
	return lo + rnd_state % (hi - lo);
}

static void *grow(void *p, size_t n, size_t *cap, size_t size)
{
	if (n < *cap)
		return p;
	*cap = *cap ? 2 * *cap : 64;
	p = realloc(p, *cap * size);
	assert_non_null(p);
	return p;
}

static void emit(struct pcpu *p, uint64_t t, uint32_t dom, uint32_t vcpu, unsigned old, unsigned nw)
{
	p->r = grow(p->r, p->nr, &p->cr, sizeof(*p->r));
	p->r[p->nr++] = (struct rec){ t, dom, vcpu, old, nw };
}

/* From t on, who runs on p. */
static void switch_to(struct pcpu *p, uint64_t t, uint32_t who)
{
	if (t > p->on_since) {
		p->s = grow(p->s, p->ns, &p->cs, sizeof(*p->s));
		p->s[p->ns++] = (struct span){ p->on_since, t, p->on };
	}
	p->on = who;
	p->on_since = t;
}

/* Schedules p from t0 until t1, then lets every vCPU run out and block:
 * at the end nobody waits and the idle vCPU runs. us: TSC cycles per us. */
static void simulate(struct pcpu *p, int cpu, uint64_t t0, uint64_t t1, double us)
{
	uint64_t t = t0;
	for (int i = 0; i < NV; i++) {   /* every vCPU blocked: it wakes soon */
		p->v[i].runnable = false;
		p->v[i].wake = t0 + (uint64_t)(rnd(5, 400) * us);
		emit(p, p->v[i].wake, p->v[i].dom, p->v[i].vcpu, XT_BLOCKED, XT_RUNNABLE);
	}
	for (;;) {
		bool ending = t >= t1;
		/* wakes up to now */
		for (int i = 0; i < NV; i++)
			if (!p->v[i].runnable && p->v[i].wake && p->v[i].wake <= t) {
				p->v[i].runnable = true;
				p->v[i].since = p->v[i].wake;
				p->v[i].wake = 0;
			}
		int pick = -1;
		for (int i = 0; i < NV; i++)   /* the longest waiting first */
			if (p->v[i].runnable && (pick < 0 || p->v[i].since < p->v[pick].since))
				pick = i;
		if (pick < 0) {
			uint64_t next = 0;
			for (int i = 0; i < NV; i++)
				if (p->v[i].wake && (!next || p->v[i].wake < next))
					next = p->v[i].wake;
			if (p->on != IDLE) {
				emit(p, t, IDLE, (uint32_t)cpu, XT_RUNNABLE, XT_RUNNING);
				switch_to(p, t, IDLE);
			}
			if (!next)
				return;   /* all blocked for good: idle runs on */
			/* a wakeup: idle leaves a little after it */
			t = next + (uint64_t)(rnd(1, 30) * us);
			emit(p, t, IDLE, (uint32_t)cpu, XT_RUNNING, XT_RUNNABLE);
			switch_to(p, t, XEN);
			t += (uint64_t)(rnd(1, 8) * us);
			continue;
		}
		struct vc *v = &p->v[pick];
		if (p->on != XEN) {   /* a context switch: Xen between the two */
			if (p->on == IDLE) {
				emit(p, t, IDLE, (uint32_t)cpu, XT_RUNNING, XT_RUNNABLE);
				switch_to(p, t, XEN);
			}
			t += (uint64_t)(rnd(1, 8) * us);
		}
		emit(p, t, v->dom, v->vcpu, XT_RUNNABLE, XT_RUNNING);
		p->w = grow(p->w, p->nw, &p->cw, sizeof(*p->w));
		p->w[p->nw++] = (struct wait){ v->since, t, v->dom };
		switch_to(p, t, v->dom);
		v->runnable = false;
		t += (uint64_t)(rnd(20, 900) * us);
		if (!ending && rnd(0, 2)) {   /* preempted */
			emit(p, t, v->dom, v->vcpu, XT_RUNNING, XT_RUNNABLE);
			v->runnable = true;
			v->since = t;
		} else {
			emit(p, t, v->dom, v->vcpu, XT_RUNNING, XT_BLOCKED);
			if (!ending) {
				v->wake = t + (uint64_t)(rnd(5, 1500) * us);
				emit(p, v->wake, v->dom, v->vcpu, XT_BLOCKED, XT_RUNNABLE);
			}
		}
		switch_to(p, t, XEN);
		t += (uint64_t)(rnd(1, 8) * us);   /* Xen's switch to the next */
	}
}

static int by_tsc(const void *x, const void *y)
{
	const struct rec *a = x, *b = y;
	return (a->tsc > b->tsc) - (a->tsc < b->tsc);
}

/* Writes p's records from rec index from on, in TSC order, into ring r. */
static void write_ring(struct ring *r, struct pcpu *p, size_t from)
{
	/* stable: two records at one TSC keep their order */
	for (size_t i = from + 1; i < p->nr; i++)
		for (size_t j = i; j > from && by_tsc(&p->r[j - 1], &p->r[j]) > 0; j--) {
			struct rec x = p->r[j];
			p->r[j] = p->r[j - 1];
			p->r[j - 1] = x;
		}
	for (size_t i = from; i < p->nr; i++) {
		const struct rec *e = &p->r[i];
		uint32_t w[4] = { (XT_RUNSTATE_CHANGE | e->old << 8 | e->nw << 4) | 1u << 28 | 1u << 31,
				  (uint32_t)e->tsc, (uint32_t)(e->tsc >> 32), e->dom << 16 | e->vcpu };
		uint32_t off = r->prod % DS;
		assert_true(off + sizeof(w) <= DS);
		memcpy(r->data + off, w, sizeof(w));
		__atomic_store_n(&r->prod, (r->prod + (uint32_t)sizeof(w)) % (2 * DS), __ATOMIC_RELEASE);
	}
}

/* What the simulator says one refresh must publish for domain dom, from
 * the waits [w0, nw) of every pCPU (spans: all of them). */
struct want { double wait_ns, top_ns, p50, p99; uint32_t top; size_t n; };

static int cmp_d(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;
	return (a > b) - (a < b);
}

static struct want expect(struct pcpu *p, const size_t *w0, uint32_t dom, double hz)
{
	struct want r = { 0 };
	uint32_t who[8];
	uint64_t cyc[8];
	size_t nwho = 0;
	double *len = NULL;
	size_t n = 0;
	for (int c = 0; c < NP; c++)
		for (size_t k = w0[c]; k < p[c].nw; k++) {
			const struct wait *w = &p[c].w[k];
			if (w->dom != dom)
				continue;
			len = realloc(len, (n + 1) * sizeof(*len));
			len[n++] = (double)(w->t1 - w->t0) * 1e9 / hz;
			r.wait_ns += (double)(w->t1 - w->t0) * 1e9 / hz;
			for (size_t s = 0; s < p[c].ns; s++) {
				const struct span *sp = &p[c].s[s];
				uint64_t a = sp->t0 > w->t0 ? sp->t0 : w->t0, b = sp->t1 < w->t1 ? sp->t1 : w->t1;
				if (b <= a)
					continue;
				size_t i = 0;
				while (i < nwho && who[i] != sp->who)
					i++;
				if (i == nwho) {
					assert_true(nwho < 8);
					who[nwho] = sp->who;
					cyc[nwho++] = 0;
				}
				cyc[i] += b - a;
			}
		}
	uint64_t top = 0, sum = 0;
	for (size_t i = 0; i < nwho; i++) {
		sum += cyc[i];
		if (cyc[i] > top || (cyc[i] == top && who[i] < r.top)) {
			top = cyc[i];
			r.top = who[i];
		}
	}
	/* the simulator's spans cover every wait: its parts add up to it */
	assert_true(fabs((double)sum * 1e9 / hz - r.wait_ns) < 1);
	r.top_ns = (double)top * 1e9 / hz;
	r.n = n;
	if (n) {
		qsort(len, n, sizeof(*len), cmp_d);
		r.p50 = len[(size_t)ceil(0.50 * (double)n) - 1];
		r.p99 = len[(size_t)ceil(0.99 * (double)n) - 1];
	}
	free(len);
	return r;
}

/* ---- the test ------------------------------------------------------------ */

static const struct xg_dom *find(const struct xg_sample *s, uint32_t id)
{
	for (size_t i = 0; i < s->ndom; i++)
		if (s->dom[i].id == id)
			return &s->dom[i];
	fail_msg("domain %u not in the sample", id);
	return NULL;
}

static void refresh(struct xtl *t, struct xg_sample *s)
{
	sample_clear(s);
	for (uint32_t d = 1; d <= NDOM; d++) {
		struct xg_dom *x = sample_add_dom(s, d);
		uint32_t nv = d == 1 ? 2 : 1;
		dom_set(x, XG_F_VCPUS_MAX, nv);
		struct xg_vcpu *v = sample_add_vcpus(s, x, nv);
		for (uint32_t k = 0; k < nv; k++)
			v[k].id = k;
	}
	xen_tl_fill(t, s);
}

/* Checks dom's published figures against the simulator's. */
static void check(const struct xg_sample *s, uint32_t dom, const struct want *w, double wait_delta)
{
	const struct xg_dom *d = find(s, dom);
	assert_true(dom_has(d, XG_F_BEHIND_WAIT_NS));
	double got = (double)d->v[XG_F_BEHIND_WAIT_NS];
	/* the parts add up to the WAIT of the interval: the simulator's, and
	 * the runstate counter's (nobody waits at the refresh) */
	assert_true(fabs(got - w->wait_ns) <= 2);
	assert_true(fabs(got - wait_delta) <= 2 * NV);
	assert_true(w->n > 0);
	assert_true(dom_has(d, XG_F_BEHIND_ID) && dom_has(d, XG_F_BEHIND_NS));
	assert_int_equal(d->v[XG_F_BEHIND_ID], w->top);
	assert_true(fabs((double)d->v[XG_F_BEHIND_NS] - w->top_ns) <= 2);
	assert_true(dom_has(d, XG_F_WAIT_P50_NS) && dom_has(d, XG_F_WAIT_P99_NS));
	double p50 = (double)d->v[XG_F_WAIT_P50_NS], p99 = (double)d->v[XG_F_WAIT_P99_NS];
	/* within the histogram's bucket of the exact order statistic */
	if (fabs(p50 - w->p50) > w->p50 / 8 + 2 || fabs(p99 - w->p99) > w->p99 / 8 + 2)
		fail_msg("dom %u: P50 %.0f P99 %.0f ns, exact %.0f %.0f (%zu waits)", dom, p50, p99, w->p50,
			 w->p99, w->n);
	printf("dom %u: %zu waits, WAIT %.3f ms, behind %u %.1f %%, P50 %.1f us (exact %.1f), "
	       "P99 %.1f us (exact %.1f)\n", dom, w->n, got / 1e6, w->top, 100.0 * w->top_ns / w->wait_ns,
	       p50 / 1e3, w->p50 / 1e3, p99 / 1e3, w->p99 / 1e3);
}

/* The sample's running totals: they grow by the interval's attributed
 * WAIT to the ns, the interval's top part is BEHIND's, the top culprits'
 * totals fit in the whole, the length buckets hold every wait counted. */
static void check_totals(const struct xg_sample *s, const struct xg_dom *x, uint64_t *tot0, size_t nwaits)
{
	const struct xg_waits *ws = sample_waits(s, x);
	assert_non_null(ws);
	assert_null(sample_waits_why(s, x));
	assert_int_equal(ws->total_ns - *tot0, x->v[XG_F_BEHIND_WAIT_NS]);
	*tot0 = ws->total_ns;
	assert_true(ws->nlast >= 1 && ws->ntop >= 1);
	assert_int_equal(ws->last[0].who, x->v[XG_F_BEHIND_ID]);
	assert_int_equal(ws->last[0].ns, x->v[XG_F_BEHIND_NS]);
	uint64_t top = 0, nb = 0;
	for (uint32_t i = 0; i < ws->ntop; i++) {
		top += ws->top[i].ns;
		assert_true(i == 0 || ws->top[i].ns <= ws->top[i - 1].ns);
	}
	assert_true(top <= ws->total_ns);
	for (int b = 0; b <= XG_WAIT_LE_N; b++)
		nb += ws->bucket[b];
	assert_int_equal(nb, ws->count);
	assert_true(ws->count >= nwaits && ws->sum_ns > 0);
}

static void behind_live(void **state)
{
	(void)state;
	struct ring *r[NP];
	void *bufs[NP];
	for (int c = 0; c < NP; c++) {
		r[c] = calloc(1, sizeof(*r[c]));
		assert_non_null(r[c]);
		bufs[c] = r[c];
	}
	double hz = tsc_hz(), us = hz / 1e6;
	struct xtl *t = xen_tl_open_mem(bufs, NP, DS, hz);
	/* pCPU 0: domain 1 vCPU 0 and domain 2; pCPU 1: domain 1 vCPU 1 and
	 * domain 3 (two pinned pairs, as the Xen lab's spinners). */
	struct pcpu p[NP];
	memset(p, 0, sizeof(p));
	p[0].v[0] = (struct vc){ .dom = 1, .vcpu = 0 };
	p[0].v[1] = (struct vc){ .dom = 2, .vcpu = 0 };
	p[1].v[0] = (struct vc){ .dom = 1, .vcpu = 1 };
	p[1].v[1] = (struct vc){ .dom = 3, .vcpu = 0 };
	uint64_t start = __rdtsc();
	for (int c = 0; c < NP; c++) {
		p[c].on = XEN;   /* nothing known before a pCPU's first record */
		p[c].on_since = start;
	}
	struct xg_sample s;
	sample_init(&s);
	uint64_t wait0[NDOM + 1] = { 0 }, tot0[NDOM + 1] = { 0 };

	for (int round = 0; round < 2; round++) {
		size_t r0[NP], w0[NP];
		uint64_t t0 = __rdtsc() + (uint64_t)(1000 * us), t1 = t0 + (uint64_t)(30000 * us);
		for (int c = 0; c < NP; c++) {
			r0[c] = p[c].nr;
			w0[c] = p[c].nw;
			simulate(&p[c], c, t0, t1, us);
			write_ring(r[c], &p[c], r0[c]);
		}
		uint64_t last = 0;
		for (int c = 0; c < NP; c++)
			if (p[c].nr && p[c].r[p[c].nr - 1].tsc > last)
				last = p[c].r[p[c].nr - 1].tsc;
		while (__rdtsc() < last + (uint64_t)(2000 * us))   /* every record in the past */
			sleep_ms(5);
		refresh(t, &s);
		for (uint32_t d = 1; d <= NDOM; d++) {
			struct want w = expect(p, w0, d, hz);
			const struct xg_dom *x = find(&s, d);
			assert_true(dom_has(x, XG_F_WAIT_NS));
			check(&s, d, &w, (double)(x->v[XG_F_WAIT_NS] - wait0[d]));
			wait0[d] = x->v[XG_F_WAIT_NS];
			check_totals(&s, x, &tot0[d], w.n);
		}
		assert_true((s.host.valid >> XG_H_WAITS) & 1);
	}
	/* A refresh with no wait since the last: the figures say why. */
	refresh(t, &s);
	const struct xg_dom *d = find(&s, 2);
	assert_true(dom_has(d, XG_F_BEHIND_WAIT_NS));
	assert_int_equal(d->v[XG_F_BEHIND_WAIT_NS], 0);
	assert_false(dom_has(d, XG_F_BEHIND_ID));
	assert_string_equal(dom_why(&s, d, XG_F_BEHIND_ID), "no wait ended in the interval");
	assert_string_equal(dom_why(&s, d, XG_F_WAIT_P99_NS), "no wait ended in the interval");
	/* ... and the totals stay as they were, with no part this time */
	const struct xg_waits *ws = sample_waits(&s, d);
	assert_non_null(ws);
	assert_int_equal(ws->total_ns, tot0[2]);
	assert_int_equal(ws->nlast, 0);

	xen_tl_close(t);
	sample_free(&s);
	for (int c = 0; c < NP; c++) {
		free(p[c].r);
		free(p[c].s);
		free(p[c].w);
		free(r[c]);
	}
}

/* Without a trace session the wait fields carry its reason, never 0. */
static void reasons(void **state)
{
	(void)state;
	struct xg_config cfg;
	config_defaults(&cfg);
	cfg.notrace = true;
	struct xtl *t = xen_tl_open(NULL, &cfg);
	struct xg_sample s;
	sample_init(&s);
	sample_add_dom(&s, 3);
	xen_tl_fill(t, &s);
	for (int f = XG_F_BEHIND_WAIT_NS; f <= XG_F_WAIT_P99_NS; f++) {
		assert_false(dom_has(&s.dom[0], (enum xg_field)f));
		assert_string_equal(dom_why(&s, &s.dom[0], (enum xg_field)f), "not collected (--notrace)");
	}
	assert_null(sample_waits(&s, &s.dom[0]));
	assert_string_equal(sample_waits_why(&s, &s.dom[0]), "not collected (--notrace)");
	assert_false((s.host.valid >> XG_H_WAITS) & 1);
	xen_tl_close(t);
	sample_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(behind_live),
		cmocka_unit_test(reasons),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
#else
int main(void)
{
	printf("test_xen_trace_behind: built without Xen, nothing to test\n");
	return 0;
}
#endif
