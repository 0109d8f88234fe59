// SPDX-License-Identifier: GPL-2.0-or-later
/* End-to-end cost of the live trace consumer (xen_trace_live.c: poll
 * thread, ring reads, decoder, merge, accounting, one fill per second)
 * against rings laid out as Xen's, written by a producer thread at a given
 * scheduler record rate with the real TSC.
 *   xtl-livebench [RECORDS_PER_S [PCPUS [SECONDS]]]   (100000 8 10)
 * Prints the consumer's CPU time as a share of one core, measured two
 * ways: the module's own count, and the process's CPU minus the
 * producer's. */
#ifdef HAVE_XEN
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <x86intrin.h>

#include "xgtop/xen/xen_trace_live.h"
#include "xgtop/trace/xentrace.h"

#define PAGES 32
struct ring { uint32_t cons, prod; uint8_t data[]; };

struct prod_ctx {
	struct ring **r;
	int np;
	uint32_t ds;
	long rate;
	double secs;
	uint64_t written, lost, cpu_ns;
};

static uint64_t mono_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static uint64_t thread_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Appends one 16-byte runstate record to ring r as Xen does (wrap padding
 * when it would not fit before the end); false when the ring is full. */
static bool put(struct ring *r, uint32_t ds, uint32_t w[4])
{
	uint32_t cons = __atomic_load_n(&r->cons, __ATOMIC_ACQUIRE), prod = r->prod;
	uint32_t used = prod >= cons ? prod - cons : prod + 2 * ds - cons;
	uint32_t off = prod % ds, left = ds - off;
	uint32_t need = left < 16 ? left + 16 : 16;
	if (used + need > ds)
		return false;
	if (left < 16) {
		/* padding: header only, extra words to fill (left is 4..12) */
		uint32_t hdr = XT_WRAP_BUFFER | ((left - 4) / 4) << 28;
		memcpy(r->data + off, &hdr, 4);
		prod = (prod + left) % (2 * ds);
		off = 0;
	}
	memcpy(r->data + off, w, 16);
	__atomic_store_n(&r->prod, (prod + 16) % (2 * ds), __ATOMIC_RELEASE);
	return true;
}

static void *producer(void *arg)
{
	struct prod_ctx *c = arg;
	uint8_t st[1024][4] = { { 0 } };
	uint64_t t0 = mono_ns(), step = 1000000;   /* write in 1 ms batches */
	uint64_t per_ms_x1000 = (uint64_t)c->rate;  /* records per s = per ms * 1000 */
	uint64_t due = 0, done = 0;
	for (uint64_t now = t0; now - t0 < (uint64_t)(c->secs * 1e9); now = mono_ns()) {
		due = (now - t0) * per_ms_x1000 / 1000000000u;
		for (; done < due; done++) {
			int p = (int)(done % (uint64_t)c->np);
			uint32_t v = (uint32_t)(done / (uint64_t)c->np % 4), dom = (uint32_t)p + 1;
			uint8_t *s = &st[p][v];
			unsigned old = *s, nw = old == XT_RUNNING ? XT_BLOCKED : old == XT_BLOCKED ? XT_RUNNABLE : XT_RUNNING;
			uint64_t tsc = __rdtsc();
			uint32_t w[4] = { (XT_RUNSTATE_CHANGE | old << 8 | nw << 4) | 1u << 28 | 1u << 31,
					  (uint32_t)tsc, (uint32_t)(tsc >> 32), dom << 16 | v };
			if (put(c->r[p], c->ds, w)) {
				*s = (uint8_t)nw;
				c->written++;
			} else {
				c->lost++;
			}
		}
		struct timespec ts = { 0, (long)step };
		nanosleep(&ts, NULL);
	}
	c->cpu_ns = thread_ns();
	return NULL;
}

int main(int argc, char **argv)
{
	long rate = argc > 1 ? atol(argv[1]) : 100000;
	int np = argc > 2 ? atoi(argv[2]) : 8;
	double secs = argc > 3 ? atof(argv[3]) : 10;
	if (rate < 10 || np < 1 || np > 1024 || secs < 1) {
		fprintf(stderr, "usage: xtl-livebench [RECORDS_PER_S [PCPUS [SECONDS]]]\n");
		return 2;
	}
	/* The TSC rate, as Xen's cpu_khz would give it. */
	uint64_t m0 = mono_ns(), c0 = __rdtsc();
	struct timespec ts = { 0, 200000000 };
	nanosleep(&ts, NULL);
	double hz = (double)(__rdtsc() - c0) / ((double)(mono_ns() - m0) / 1e9);

	uint32_t ds = PAGES * 4096 - 8;
	struct ring **r = xg_calloc((size_t)np, sizeof(*r));
	for (int i = 0; i < np; i++)
		r[i] = xg_calloc(1, PAGES * 4096);
	struct xtl *t = xen_tl_open_mem((void *const *)r, (size_t)np, ds, hz);

	struct prod_ctx pc = { .r = r, .np = np, .ds = ds, .rate = rate, .secs = secs };
	uint64_t proc0 = xg_self_cpu_ns();
	pthread_t th;
	pthread_create(&th, NULL, producer, &pc);
	struct xg_sample s;
	sample_init(&s);
	double run_share = 0;
	for (int k = 0; k < (int)secs; k++) {
		ts.tv_sec = 1;
		ts.tv_nsec = 0;
		nanosleep(&ts, NULL);
		sample_clear(&s);
		for (int p = 0; p < np; p++) {
			struct xg_dom *d = sample_add_dom(&s, (uint32_t)p + 1);
			dom_set(d, XG_F_VCPUS_MAX, 4);
		}
		xen_tl_fill(t, &s);
		uint64_t tot = 0;
		for (int f = XG_F_RUN_NS; f <= XG_F_OFF_NS; f++)
			tot += s.dom[0].v[f];
		run_share = tot ? 100.0 * (double)s.dom[0].v[XG_F_RUN_NS] / (double)tot : 0;
	}
	pthread_join(th, NULL);
	struct xen_tl_stats st;
	xen_tl_stats(t, &st);
	uint64_t proc = xg_self_cpu_ns() - proc0;
	double wall = (double)st.wall_ns / 1e9;
	double own = 100.0 * (double)st.cpu_ns / 1e9 / wall;
	double diff = 100.0 * (double)(proc > pc.cpu_ns ? proc - pc.cpu_ns : 0) / 1e9 / wall;
	printf("live consumer, %d pCPU rings of %d pages, %.0f records/s written (%llu lost): "
	       "%.3f %% of one core (own count), %.3f %% (process minus producer), %.0f ns/record; "
	       "%llu records consumed in %llu polls; domain 1 RUN%% %.1f\n",
	       np, PAGES, (double)pc.written / secs, (unsigned long long)pc.lost, own, diff,
	       st.records ? (double)st.cpu_ns / (double)st.records : 0,
	       (unsigned long long)st.records, (unsigned long long)st.polls, run_share);
	xen_tl_close(t);
	sample_free(&s);
	for (int i = 0; i < np; i++)
		free(r[i]);
	free(r);
	return 0;
}
#else
#include <stdio.h>
int main(void)
{
	puts("xtl-livebench: built without Xen (the live consumer is Xen-only)");
	return 77;
}
#endif
