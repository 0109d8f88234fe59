// SPDX-License-Identifier: GPL-2.0-or-later
/* The wait sections of `xgtop trace`: WAIT attributed to the domains in
 * the way (--behind) and each domain's run-queue latency (the length of
 * each wait, runnable -> running). The accounting that fills them is
 * src/trace/xentrace_behind.c. */
#include "trace_waits.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* One culprit's cycles, and its ns once converted so that the parts add
 * up to the total exactly. */
struct part {
	uint32_t who;
	uint64_t cyc, ns;
};

static int cmp_part(const void *x, const void *y)
{
	const struct part *a = x, *b = y;
	if (a->cyc != b->cyc)
		return a->cyc > b->cyc ? -1 : 1;
	return (a->who > b->who) - (a->who < b->who);
}

static void add_part(struct part **p, size_t *n, size_t *cap, uint32_t who, uint64_t cyc)
{
	for (size_t i = 0; i < *n; i++)
		if ((*p)[i].who == who) {
			(*p)[i].cyc += cyc;
			return;
		}
	xg_grow(p, cap, *n + 1, sizeof(**p));
	(*p)[*n].who = who;
	(*p)[*n].cyc = cyc;
	(*n)++;
}

/* The parts of vCPU k's WAIT (k < 0: the domain's), ranked, with ns that
 * add up to the WAIT's ns: each part's ns is the difference of the
 * running sums converted. Caller frees. */
static struct part *parts(const struct waits_dom *d, long k, size_t *n, uint64_t *total_cyc)
{
	struct part *p = NULL;
	size_t cap = 0;
	*n = 0;
	*total_cyc = 0;
	size_t from = k < 0 ? d->i : (size_t)k, to = k < 0 ? d->j : (size_t)k + 1;
	for (size_t v = from; v < to; v++) {
		const struct xt_vcpu_acct *va = &d->a->v[v];
		*total_cyc += va->cyc[XT_RUNNABLE];
		for (uint32_t b = 0; b < va->nby; b++)
			add_part(&p, n, &cap, va->by[b].who, va->by[b].cyc);
	}
	if (*n > 1)
		qsort(p, *n, sizeof(*p), cmp_part);
	uint64_t cum = 0, cum_ns = 0;
	for (size_t i = 0; i < *n; i++) {
		cum += p[i].cyc;
		uint64_t ns = xt_cyc_to_ns(cum, d->hz);
		p[i].ns = ns - cum_ns;
		cum_ns = ns;
	}
	return p;
}

/* A culprit as the CSV and JSON name it: a domid, idle or xen. */
static const char *who_name(uint32_t who, char *buf, size_t len)
{
	if (who == XT_BEHIND_XEN)
		return "xen";
	if (who == XT_IDLE_DOMID)
		return "idle";
	snprintf(buf, len, "%u", who);
	return buf;
}

static void print_s(FILE *f, uint64_t ns)
{
	fprintf(f, "%" PRIu64 ".%09" PRIu64, ns / 1000000000u, ns % 1000000000u);
}

static double share(uint64_t part_cyc, uint64_t total_cyc)
{
	return total_cyc ? 100.0 * (double)part_cyc / (double)total_cyc : 0.0;
}

static void text_rows(FILE *f, const struct waits_dom *d, long k, const char *dom, const char *vcpu)
{
	size_t n;
	uint64_t total;
	struct part *p = parts(d, k, &n, &total);
	char name[16], num[16];
	fprintf(f, "%-7s %-5s %12.6f", dom, vcpu, (double)xt_cyc_to_ns(total, d->hz) / 1e9);
	if (!n)
		fprintf(f, "  -\n");
	for (size_t i = 0; i < n; i++) {
		if (p[i].who == XT_BEHIND_XEN || p[i].who == XT_IDLE_DOMID)
			snprintf(name, sizeof(name), "%s", who_name(p[i].who, num, sizeof(num)));
		else
			snprintf(name, sizeof(name), "d%u", p[i].who);
		if (i)
			fprintf(f, "%-7s %-5s %12s", "", "", "");
		fprintf(f, "  %-6s %12.6f %7.2f\n", name, (double)p[i].ns / 1e9, share(p[i].cyc, total));
	}
	free(p);
}

void waits_behind_text(FILE *f, const struct waits_dom *d)
{
	char dom[16], vc[16];
	snprintf(dom, sizeof(dom), "d%u", d->a->v[d->i].dom);
	text_rows(f, d, -1, dom, "all");
	for (size_t k = d->i; k < d->j; k++) {
		snprintf(vc, sizeof(vc), "v%u", d->a->v[k].vcpu);
		text_rows(f, d, (long)k, "", vc);
	}
}

void waits_behind_csv_header(FILE *f)
{
	fprintf(f, "domid,vcpu,behind,wait_s,share_pct\n");
}

static void csv_rows(FILE *f, const struct waits_dom *d, long k)
{
	size_t n;
	uint64_t total;
	struct part *p = parts(d, k, &n, &total);
	char num[16];
	for (size_t i = 0; i < n; i++) {
		fprintf(f, "%u,", d->a->v[d->i].dom);
		if (k < 0)
			fprintf(f, "all,");
		else
			fprintf(f, "%u,", d->a->v[k].vcpu);
		fprintf(f, "%s,", who_name(p[i].who, num, sizeof(num)));
		print_s(f, p[i].ns);
		fprintf(f, ",%.4f\n", share(p[i].cyc, total));
	}
	free(p);
}

void waits_behind_csv(FILE *f, const struct waits_dom *d)
{
	csv_rows(f, d, -1);
	for (size_t k = d->i; k < d->j; k++)
		csv_rows(f, d, (long)k);
}

void waits_behind_json(FILE *f, const struct waits_dom *d, long k)
{
	size_t n;
	uint64_t total;
	struct part *p = parts(d, k, &n, &total);
	char num[16];
	fprintf(f, ",\"behind\":[");
	for (size_t i = 0; i < n; i++) {
		fprintf(f, "%s{\"behind\":\"%s\",\"wait_s\":", i ? "," : "", who_name(p[i].who, num, sizeof(num)));
		print_s(f, p[i].ns);
		fprintf(f, ",\"share_pct\":%.4f}", share(p[i].cyc, total));
	}
	fprintf(f, "]");
	free(p);
}

/* The domain's wait-length histogram (XT_WH_N buckets); false if no
 * vCPU of it has one (no complete wait, or latency not kept). */
static bool dom_hist(const struct waits_dom *d, uint64_t *h, uint64_t *n)
{
	bool any = false;
	memset(h, 0, XT_WH_N * sizeof(*h));
	*n = 0;
	for (size_t k = d->i; k < d->j; k++) {
		const uint32_t *w = d->a->v[k].whist;
		if (!w)
			continue;
		any = true;
		for (unsigned b = 0; b < XT_WH_N; b++) {
			h[b] += w[b];
			*n += w[b];
		}
	}
	return any;
}

/* Counts per log2 octave of ns: oct[k] = waits of [2^k, 2^(k+1)) ns
 * (oct[0] also holds 0 ns). */
static void octaves(const uint64_t *h, uint64_t oct[64])
{
	memset(oct, 0, 64 * sizeof(*oct));
	for (unsigned b = 0; b < XT_WH_N; b++) {
		if (!h[b])
			continue;
		uint64_t lo, hi;
		xt_wh_bounds(b, &lo, &hi);
		oct[lo ? 63 - __builtin_clzll(lo) : 0] += h[b];
	}
}

void waits_latency_text_header(FILE *f)
{
	fprintf(f, "run-queue latency (each wait runnable -> running); histogram: k:count, waits of [2^k, 2^(k+1)) ns\n");
	fprintf(f, "%-7s %8s %10s %10s  %s\n", "DOMAIN", "WAITS", "P50(ms)", "P99(ms)", "HISTOGRAM");
}

void waits_latency_text(FILE *f, const struct waits_dom *d)
{
	uint64_t h[XT_WH_N], oct[64], n;
	char dom[16];
	snprintf(dom, sizeof(dom), "d%u", d->a->v[d->i].dom);
	if (!dom_hist(d, h, &n) || !n) {
		fprintf(f, "%-7s %8d %10s %10s  (no complete wait)\n", dom, 0, "-", "-");
		return;
	}
	fprintf(f, "%-7s %8" PRIu64 " %10.4f %10.4f ", dom, n, xt_wh_quantile(h, 0.5) / 1e6,
	        xt_wh_quantile(h, 0.99) / 1e6);
	octaves(h, oct);
	for (int k = 0; k < 64; k++)
		if (oct[k])
			fprintf(f, " %d:%" PRIu64, k, oct[k]);
	fprintf(f, "\n");
}

void waits_latency_json(FILE *f, const struct waits_dom *d)
{
	uint64_t h[XT_WH_N], oct[64], n;
	if (!dom_hist(d, h, &n) || !n) {
		fprintf(f, ",\"wait_latency\":{\"waits\":0,\"p50_ms\":null,\"p99_ms\":null,\"log2_ns_hist\":[]}");
		return;
	}
	fprintf(f, ",\"wait_latency\":{\"waits\":%" PRIu64 ",\"p50_ms\":%.6f,\"p99_ms\":%.6f,\"log2_ns_hist\":[",
	        n, xt_wh_quantile(h, 0.5) / 1e6, xt_wh_quantile(h, 0.99) / 1e6);
	octaves(h, oct);
	bool first = true;
	for (int k = 0; k < 64; k++)
		if (oct[k]) {
			fprintf(f, "%s{\"k\":%d,\"from_ns\":%" PRIu64 ",\"n\":%" PRIu64 "}", first ? "" : ",", k,
			        k ? (uint64_t)1 << k : 0, oct[k]);
			first = false;
		}
	fprintf(f, "]}");
}
