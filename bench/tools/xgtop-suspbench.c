// SPDX-License-Identifier: GPL-2.0-or-later
/* xgtop-suspbench: the CPU cost of the cache suspects' step (update, the
 * VICTIM column, and the ranking of the one victim a screen shows) in the
 * states xgtop-tuibench never reaches, since it goes back to its first
 * interval every third refresh: every domain judged (steady, windows 15 to
 * 30), and then every tenth domain a victim while every tenth + 1 floods
 * its socket's cache (windows 34 to 39). Domains with counters on two
 * sockets (--domains N, default 10,000), one window per refresh. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xgtop/compute/suspects.h"

struct totals {
	uint64_t ins, cyc, miss, mbm;
};

/* Refresh k of domain i: CPI 1 (2 for the victims from refresh 32 on), 1 M
 * misses a second (50 M for the antagonists then), a wobble of 0-4 %. */
static void fill(struct xg_sample *s, unsigned k, struct totals *tot, uint32_t n)
{
	sample_clear(s);
	s->host.mono_ns = 1000000000ull * (k + 1);
	for (uint32_t i = 0; i < n; i++) {
		struct xg_dom *x = sample_add_dom(s, i);
		snprintf(x->name, sizeof(x->name), "d%u", i);
		double wob = 1 + 0.01 * (double)((k * 7 + i * 3) % 5);
		bool hot = k >= 32;
		double cpi = i % 10 == 0 && hot ? 2.0 : 1.0;
		double miss = 1e6 * wob * (i % 10 == 1 && hot ? 50 : 1);
		if (k) {
			tot[i].ins += 1000000000ull;
			tot[i].cyc += (uint64_t)(1e9 * cpi * wob);
			tot[i].miss += (uint64_t)miss;
			tot[i].mbm += (uint64_t)(miss * 64);
		}
		dom_set(x, XG_F_INSTR, tot[i].ins);
		dom_set(x, XG_F_CYCLES, tot[i].cyc);
		dom_set(x, XG_F_LLC_MISS, tot[i].miss);
		struct xg_sock *ks = sample_add_socks(s, x, 2);
		for (uint32_t q = 0; q < 2; q++) {
			ks[q].socket = q;
			sock_set(&ks[q], XG_SOCK_MBM_TOTAL, q == (i & 1) ? tot[i].mbm : 0);
		}
	}
}

int main(int argc, char **argv)
{
	uint32_t n = 10000;
	if (argc == 3 && !strcmp(argv[1], "--domains") && atoi(argv[2]) > 10)
		n = (uint32_t)atoi(argv[2]);
	else if (argc != 1) {
		fprintf(stderr, "usage: xgtop-suspbench [--domains N]\n");
		return 2;
	}
	struct xg_sample s[2];
	struct xg_table t = { 0 };
	struct xg_suspects sp;
	struct xg_susp_cfg c;
	struct totals *tot = xg_calloc(n, sizeof(*tot));
	susp_cfg_defaults(&c);
	suspects_init(&sp, &c);
	sample_init(&s[0]);
	sample_init(&s[1]);
	uint64_t steady = 0, hot = 0;
	for (unsigned k = 0; k < 40; k++) {
		fill(&s[k & 1], k, tot, n);
		metrics_compute_rows(k ? &s[(k - 1) & 1] : NULL, &s[k & 1], 0, &t);
		uint64_t a = xg_self_cpu_ns();
		suspects_update(&sp, &t);
		suspects_mark_rows(&sp, &t);
		if (sp.nvictims)   /* the detail pane's or the triage line's one */
			suspects_of(&sp, sp.victims[0]);
		uint64_t b = xg_self_cpu_ns() - a;
		if (k >= 15 && k < 31)
			steady += b;
		if (k >= 34)
			hot += b;
	}
	printf("domains %u  every domain judged %.3f ms per refresh  with %zu victims %.3f ms per refresh\n", n,
	       (double)steady / 16e6, sp.nvictims, (double)hot / 6e6);
	suspects_free(&sp);
	table_free(&t);
	sample_free(&s[0]);
	sample_free(&s[1]);
	free(tot);
	return 0;
}
