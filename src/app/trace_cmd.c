// SPDX-License-Identifier: GPL-2.0-or-later
/* `xgtop trace FILE`: per-domain and per-vCPU scheduler summary of an
 * xentrace capture, as text, CSV or JSON. */
#include "xgtop/app/trace_cmd.h"
#include "trace_args.h"
#include "trace_waits.h"
#include "xgtop/core/format.h"
#include "xgtop/outputs/json.h"
#include "xgtop/trace/xentrace_account.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct trace_run {
	struct xt_file fe;
	struct xt_acct acct;
	double hz;
	char hz_source[160];
	uint64_t span;      /* cycles */
	uint32_t npcpu;
};

static void print_s(FILE *f, uint64_t ns)
{
	fprintf(f, "%" PRIu64 ".%09" PRIu64, ns / 1000000000u, ns % 1000000000u);
}

static double pct(uint64_t cyc, uint64_t total)
{
	return total ? 100.0 * (double)cyc / (double)total : 0.0;
}

static const char *const state_key[XT_NSTATES] = { "running", "runnable", "blocked", "offline", "lost" };

/* Sum of a domain's vCPUs [i, j). */
static void dom_sum(const struct xt_acct *a, size_t i, size_t j, uint64_t cyc[XT_NSTATES],
                    uint64_t n[XT_NSTATES])
{
	memset(cyc, 0, sizeof(uint64_t) * XT_NSTATES);
	memset(n, 0, sizeof(uint64_t) * XT_NSTATES);
	for (size_t k = i; k < j; k++)
		for (int s = 0; s < XT_NSTATES; s++) {
			cyc[s] += a->v[k].cyc[s];
			n[s] += a->v[k].n[s];
		}
}

static size_t dom_end(const struct xt_acct *a, size_t i)
{
	size_t j = i;
	while (j < a->nv && a->v[j].dom == a->v[i].dom)
		j++;
	return j;
}

/* The next domain from vCPU *i on, the idle domain skipped: its vCPUs are
 * [*i, *j), cyc and n their sums. False when there is none. */
static bool next_dom(const struct xt_acct *a, size_t *i, size_t *j, uint64_t cyc[XT_NSTATES],
                     uint64_t n[XT_NSTATES])
{
	while (*i < a->nv && a->v[*i].dom == XT_DEFAULT_DOMID)
		*i = dom_end(a, *i);
	if (*i >= a->nv)
		return false;
	*j = dom_end(a, *i);
	dom_sum(a, *i, *j, cyc, n);
	return true;
}

static void text_row(const struct trace_run *r, const char *dom, const char *vcpu,
                     const uint64_t cyc[XT_NSTATES], const uint64_t n[XT_NSTATES], uint64_t total)
{
	printf("%-7s %-5s", dom, vcpu);
	for (int s = 0; s < XT_NSTATES; s++) {
		uint64_t ns = xt_cyc_to_ns(cyc[s], r->hz);
		printf(" %9.6f %6.2f", (double)ns / 1e9, pct(cyc[s], total));
		if (s != XT_LOST)
			printf(" %6" PRIu64, n[s]);
	}
	printf("\n");
}

static struct waits_dom wdom(const struct trace_run *r, size_t i, size_t j)
{
	return (struct waits_dom){ .a = &r->acct, .i = i, .j = j, .hz = r->hz };
}

/* The latency section (native accounting keeps the histograms). */
static void text_latency(const struct trace_run *r, const struct trace_opts *o)
{
	const struct xt_acct *a = &r->acct;
	uint64_t cyc[XT_NSTATES], n[XT_NSTATES];
	if (o->compat)
		return;
	printf("\n");
	waits_latency_text_header(stdout);
	for (size_t i = 0, j; next_dom(a, &i, &j, cyc, n); i = j) {
		struct waits_dom d = wdom(r, i, j);
		if (a->v[i].dom != XT_IDLE_DOMID)
			waits_latency_text(stdout, &d);
	}
}

static void text_behind(const struct trace_run *r)
{
	const struct xt_acct *a = &r->acct;
	uint64_t cyc[XT_NSTATES], n[XT_NSTATES];
	printf("wait attribution: each WAIT split among what ran on the pCPU the vCPU ran on next\n");
	printf("%-7s %-5s %12s  %-6s %12s %7s\n", "DOMAIN", "VCPU", "WAIT(s)", "BEHIND", "WAIT(s)", "SHARE%");
	for (size_t i = 0, j; next_dom(a, &i, &j, cyc, n); i = j) {
		struct waits_dom d = wdom(r, i, j);
		if (a->v[i].dom != XT_IDLE_DOMID)
			waits_behind_text(stdout, &d);
	}
}

static void out_text(const struct trace_run *r, const struct trace_opts *o)
{
	const struct xt_acct *a = &r->acct;
	printf("trace: %s (%" PRIu64 " bytes, %" PRIu64 " records, %u pCPUs)\n", o->file, r->fe.size,
	       r->fe.dec.records, r->npcpu);
	printf("span: ");
	print_s(stdout, xt_cyc_to_ns(r->span, r->hz));
	printf(" s at %.6f GHz (%s); accounting: %s\n", r->hz / 1e9, r->hz_source,
	       o->compat ? "xenalyze-compatible" : "native");
	printf("lost records: %" PRIu64 " in %" PRIu64 " TRC_LOST_RECORDS\n", r->fe.ev.lost_records,
	       r->fe.ev.lost_events);
	if (o->behind) {
		text_behind(r);
		text_latency(r, o);
		return;
	}
	printf("%-7s %-5s %9s %6s %6s %9s %6s %6s %9s %6s %6s %9s %6s %6s %9s %6s\n", "DOMAIN", "VCPU",
	       "RUN(s)", "RUN%", "N", "WAIT(s)", "WAIT%", "N", "BLK(s)", "BLK%", "N", "OFF(s)", "OFF%", "N",
	       "LOST(s)", "LOST%");
	uint64_t cyc[XT_NSTATES], n[XT_NSTATES];
	for (size_t i = 0, j; next_dom(a, &i, &j, cyc, n); i = j) {
		char dom[16], vc[16];
		snprintf(dom, sizeof(dom), "d%u", a->v[i].dom);
		snprintf(vc, sizeof(vc), "all%zu", j - i);
		text_row(r, dom, vc, cyc, n, r->span * (j - i));
		for (size_t k = i; k < j; k++) {
			snprintf(vc, sizeof(vc), "v%u", a->v[k].vcpu);
			text_row(r, "", vc, a->v[k].cyc, a->v[k].n, r->span);
		}
	}
	text_latency(r, o);
}

static void out_csv(const struct trace_run *r, const struct trace_opts *o)
{
	const struct xt_acct *a = &r->acct;
	if (o->behind) {
		uint64_t cyc[XT_NSTATES], n[XT_NSTATES];
		waits_behind_csv_header(stdout);
		for (size_t i = 0, j; next_dom(a, &i, &j, cyc, n); i = j) {
			struct waits_dom d = wdom(r, i, j);
			if (a->v[i].dom != XT_IDLE_DOMID)
				waits_behind_csv(stdout, &d);
		}
		return;
	}
	printf("domid,vcpu,running_s,runnable_s,blocked_s,offline_s,lost_s,running_n,runnable_n,blocked_n,offline_n\n");
	for (size_t k = 0; k < a->nv; k++) {
		const struct xt_vcpu_acct *v = &a->v[k];
		if (v->dom == XT_DEFAULT_DOMID)
			continue;
		printf("%u,%u", v->dom, v->vcpu);
		for (int s = 0; s < XT_NSTATES; s++) {
			putchar(',');
			print_s(stdout, xt_cyc_to_ns(v->cyc[s], r->hz));
		}
		for (int s = 0; s < XT_LOST; s++)
			printf(",%" PRIu64, v->n[s]);
		putchar('\n');
	}
}

static void json_states(const struct trace_run *r, const uint64_t cyc[XT_NSTATES],
                        const uint64_t n[XT_NSTATES], uint64_t total)
{
	for (int s = 0; s < XT_NSTATES; s++) {
		printf("\"%s_s\":", state_key[s]);
		print_s(stdout, xt_cyc_to_ns(cyc[s], r->hz));
		printf(",\"%s_pct\":%.4f", state_key[s], pct(cyc[s], total));
		if (s != XT_LOST)
			printf(",\"%s_n\":%" PRIu64, state_key[s], n[s]);
		printf(s + 1 < XT_NSTATES ? "," : "");
	}
}

static void out_json(const struct trace_run *r, const struct trace_opts *o)
{
	const struct xt_acct *a = &r->acct;
	printf("{\"file\":");
	json_write_string(stdout, o->file);
	printf(",\"bytes\":%" PRIu64 ",\"records\":%" PRIu64 ",\"pcpus\":%u,\"cpu_hz\":%.0f,\"cpu_hz_source\":",
	       r->fe.size, r->fe.dec.records, r->npcpu, r->hz);
	json_write_string(stdout, r->hz_source);
	printf(",\"mode\":\"%s\",\"span_s\":", o->compat ? "xenalyze-compat" : "native");
	print_s(stdout, xt_cyc_to_ns(r->span, r->hz));
	printf(",\"lost_records\":%" PRIu64 ",\"complete\":%s", r->fe.ev.lost_records,
	       r->fe.partial ? "false" : "true");
	if (r->fe.partial) {
		printf(",\"error\":");
		json_write_string(stdout, r->fe.err.msg);
	}
	printf(",\"domains\":[");
	bool first = true;
	uint64_t cyc[XT_NSTATES], n[XT_NSTATES];
	for (size_t i = 0, j; next_dom(a, &i, &j, cyc, n); i = j) {
		printf("%s\n{\"domid\":%u,\"vcpus\":%zu,", first ? "" : ",", a->v[i].dom, j - i);
		first = false;
		json_states(r, cyc, n, r->span * (j - i));
		struct waits_dom d = wdom(r, i, j);
		/* The idle domain's vCPUs do not wait for a pCPU: no wait sections. */
		bool waits = a->v[i].dom != XT_IDLE_DOMID;
		if (!o->compat && waits)
			waits_latency_json(stdout, &d);
		if (o->behind && waits)
			waits_behind_json(stdout, &d, -1);
		printf(",\"vcpu\":[");
		for (size_t k = i; k < j; k++) {
			printf("%s{\"vcpu\":%u,", k > i ? "," : "", a->v[k].vcpu);
			json_states(r, a->v[k].cyc, a->v[k].n, r->span);
			if (o->behind && waits)
				waits_behind_json(stdout, &d, (long)k);
			printf("}");
		}
		printf("]}");
	}
	printf("]}\n");
}

/* -o FORMAT: the summary's layouts, in enum trace_out's order. */
static void (*const writers[])(const struct trace_run *r, const struct trace_opts *o) = {
	[TRACE_OUT_TEXT] = out_text, [TRACE_OUT_CSV] = out_csv, [TRACE_OUT_JSON] = out_json,
};

static int pick_hz(struct trace_run *r, const struct trace_opts *o)
{
	if (o->hz_given) {
		r->hz = o->hz;
		snprintf(r->hz_source, sizeof(r->hz_source), "--cpu-hz");
		return 0;
	}
	size_t ns = 0;
	double hz = xt_events_estimate_hz(&r->fe.ev, &ns);
	if (hz > 0) {
		r->hz = hz;
		snprintf(r->hz_source, sizeof(r->hz_source),
		         "estimated from %zu context switches; pass --cpu-hz for exact figures", ns);
		return 0;
	}
	fprintf(stderr,
	        "xgtop trace: %s: the trace does not tell its TSC rate (it has %zu usable "
	        "TRC_SCHED_SWITCH_INFPREV records, 16 needed to estimate it); pass --cpu-hz HZ "
	        "(on the traced host: xl info | grep cpu_mhz, times 10^6)\n",
	        o->file, ns);
	return 2;
}

static void warn_notes(const struct trace_run *r, const struct trace_opts *o)
{
	uint64_t back = 0;
	for (size_t p = 0; p < r->fe.dec.npcpu; p++)
		back += r->fe.dec.pcpu[p].tsc_backwards;
	if (back)
		fprintf(stderr, "xgtop trace: note: %" PRIu64 " records have a TSC older than the previous record of their pCPU\n",
		        back);
	if (r->fe.ev.short_records)
		fprintf(stderr, "xgtop trace: note: %" PRIu64 " runstate records were too short to use and were skipped\n",
		        r->fe.ev.short_records);
	if (!o->compat && r->acct.inconsistent)
		fprintf(stderr, "xgtop trace: note: %" PRIu64 " runstate records contradicted the vCPU's known state; the time before each is counted as lost\n",
		        r->acct.inconsistent);
	if (o->compat && r->acct.compat_abort)
		fprintf(stderr, "xgtop trace: note: xenalyze would stop with a fatal error on this trace (%" PRIu64 " times); the compatible figures go on past it\n",
		        r->acct.compat_abort);
	if (o->compat && r->acct.compat_skew)
		fprintf(stderr, "xgtop trace: note: xenalyze would apply a TSC skew correction here (%" PRIu64 " times); its figures will differ\n",
		        r->acct.compat_skew);
}

int trace_main(int argc, char **argv)
{
	struct trace_opts o = { .out = TRACE_OUT_TEXT };
	struct trace_run r;
	struct xg_err err = { 0 };
	int rc = trace_parse_args(argc, argv, &o);
	if (rc >= 0)
		return rc;
	memset(&r, 0, sizeof(r));
	if (xt_file_load(&r.fe, o.file, !o.hz_given, o.threads, &err)) {
		fprintf(stderr, "xgtop trace: %s\n", err.msg);
		xt_file_free(&r.fe);
		return 2;
	}
	if (r.fe.partial && !r.fe.ev.has_tsc) {
		fprintf(stderr, "xgtop trace: %s: %s\n", o.file, r.fe.err.msg);
		xt_file_free(&r.fe);
		return 1;
	}
	if ((rc = pick_hz(&r, &o))) {
		xt_file_free(&r.fe);
		return rc;
	}
	for (size_t p = 0; p < r.fe.dec.npcpu; p++)
		r.npcpu += r.fe.dec.pcpu[p].seen;
	struct xt_merge m;
	xt_acct_init(&r.acct, o.compat ? XT_COMPAT : XT_NATIVE);
	/* The latency section is in the text and JSON layouts only: the CSV
	 * ones (a state table or the --behind parts) do without the
	 * histograms, and without their cost. */
	xt_acct_behind(&r.acct, o.behind, o.out != TRACE_OUT_CSV, r.hz);
	xt_acct_start(&r.acct, r.fe.ev.first_tsc);
	for (size_t p = 0; p < r.fe.ev.nq; p++)
		if (r.fe.ev.q[p].has_first)
			xt_acct_pcpu_first(&r.acct, (uint32_t)p, r.fe.ev.q[p].first_tsc);
	/* No look-ahead needed: native accounting back-dates each vCPU's first
	 * record to the trace start by itself. */
	xt_merge_init(&m, &r.fe.ev);
	xt_acct_merged(&r.acct, &m);
	xt_merge_free(&m);
	xt_acct_finish(&r.acct, r.fe.ev.last_tsc);
	r.span = r.fe.ev.last_tsc - r.fe.ev.first_tsc;
	xt_acct_sort(&r.acct);
	writers[o.out](&r, &o);
	fflush(stdout);
	warn_notes(&r, &o);
	rc = 0;
	if (r.fe.partial) {
		fprintf(stderr, "xgtop trace: %s: %s; the figures cover the data before it\n", o.file,
		        r.fe.err.msg);
		rc = 1;
	}
	xt_acct_free(&r.acct);
	xt_file_free(&r.fe);
	return rc;
}
