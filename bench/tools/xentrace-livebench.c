// SPDX-License-Identifier: GPL-2.0-or-later
/* Cost of the live path (decoder in raw mode -> per-pCPU queues -> drain
 * in TSC order -> native accounting) at a given scheduler record rate:
 * simulates SECONDS of 100 ms polls over PCPUS buffers and prints the CPU
 * time per simulated second as a share of one core.
 *   xentrace-livebench [RECORDS_PER_S [PCPUS [SECONDS]]]  (100000 8 10) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xgtop/trace/xentrace_account.h"

static void account(void *ctx, const struct xt_ev *ev)
{
	xt_acct_event(ctx, ev);
}

int main(int argc, char **argv)
{
	long rate = argc > 1 ? atol(argv[1]) : 100000;
	int np = argc > 2 ? atoi(argv[2]) : 8;
	int secs = argc > 3 ? atoi(argv[3]) : 10;
	if (rate < 10 || np < 1 || np > 1024 || secs < 1) {
		fprintf(stderr, "usage: xentrace-livebench [RECORDS_PER_S [PCPUS [SECONDS]]]\n");
		return 2;
	}
	size_t per = (size_t)(rate / 10 / np);   /* records per pCPU per 100 ms poll */
	uint32_t *buf = xg_malloc(per * 16);
	struct xt_events ev;
	struct xt_decoder d;
	struct xt_acct a;
	struct xg_err err;
	xt_events_init(&ev);
	xt_decoder_init(&d, xt_events_add, &ev);
	d.sched_only = true;
	xt_acct_init(&a, XT_NATIVE);
	const uint64_t hz = 2400000000u, poll_cyc = hz / 10;
	uint64_t tsc = 1000000, events = 0, cpu = 0;
	uint8_t *state = xg_calloc((size_t)np * 4, 1);
	for (int poll = 0; poll < secs * 10; poll++) {
		for (int p = 0; p < np; p++) {
			/* Each pCPU switches among 4 vCPUs of its own domain; the
			 * records interleave in time with the other pCPUs'. */
			for (size_t i = 0; i < per; i++) {
				uint32_t v = (uint32_t)(i % 4), dom = (uint32_t)p + 1;
				uint8_t *st = &state[p * 4 + v];
				unsigned old = *st, nw = old == XT_RUNNING ? XT_BLOCKED : old == XT_BLOCKED ? XT_RUNNABLE : XT_RUNNING;
				*st = (uint8_t)nw;
				uint64_t t = tsc + i * (poll_cyc / per) + (uint64_t)p;
				buf[i * 4] = (XT_RUNSTATE_CHANGE | old << 8 | nw << 4) | 1u << 28 | 1u << 31;
				buf[i * 4 + 1] = (uint32_t)t;
				buf[i * 4 + 2] = (uint32_t)(t >> 32);
				buf[i * 4 + 3] = dom << 16 | v;
			}
			uint64_t t0 = xg_self_cpu_ns();
			xt_decode_raw(&d, (uint32_t)p, buf, per * 16, &err);
			cpu += xg_self_cpu_ns() - t0;
		}
		tsc += poll_cyc;
		uint64_t t0 = xg_self_cpu_ns();
		events += xt_events_drain(&ev, tsc, account, &a);
		cpu += xg_self_cpu_ns() - t0;
	}
	printf("%llu scheduler records over %d simulated s on %d pCPUs: %.1f ns each, %.2f %% of one core at %ld records/s\n",
	       (unsigned long long)events, secs, np, (double)cpu / (double)events,
	       100.0 * (double)cpu / 1e9 / secs, rate);
	free(state);
	free(buf);
	xt_acct_free(&a);
	xt_decoder_free(&d);
	xt_events_free(&ev);
	return 0;
}
