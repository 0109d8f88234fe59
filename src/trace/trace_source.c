// SPDX-License-Identifier: GPL-2.0-or-later
/* `--source trace FILE --window S`: steps through an xentrace capture one
 * window per sample, so the normal metrics layer shows RUN%/WAIT%/BLK%/OFF%
 * per domain for each window (time travel through a capture). Samples hold
 * cumulative scheduler ns up to the window's end; a vCPU that did not
 * change state during a window is counted in its state for all of it. */
#include "xgtop/trace/trace_source.h"
#include "xgtop/trace/xentrace_account.h"
#include "xgtop/trace/xentrace_waitsum.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct xg_source {
	struct xt_file fe;
	struct xt_ev *ev;
	size_t nev, next;
	struct xt_acct acct;
	double hz;
	uint64_t start, end, window_cyc, window_ns;
	uint64_t step;
	bool done;
	size_t *order;            /* vCPU indices sorted by (dom, vcpu) */
	size_t norder;
	char name[64];
	uint32_t npcpu;
	struct xt_dom_waits waits;  /* one domain's window, reused */
	struct xg_waitsum *wsum;    /* each domain's running wait totals, by domid */
	size_t nwsum, cwsum;
};

static const char *const why_trace = "not in a trace file";

static bool trace_probe(void)
{
	return false;   /* only on request: --source trace FILE */
}

static void trace_close(struct xg_source *s)
{
	if (!s)
		return;
	xt_file_free(&s->fe);
	xt_acct_free(&s->acct);
	xt_dom_waits_free(&s->waits);
	for (size_t i = 0; i < s->nwsum; i++)
		waitsum_free(&s->wsum[i]);
	free(s->wsum);
	free(s->ev);
	free(s->order);
	free(s);
}

static int trace_open(struct xg_source **out, const struct xg_config *cfg, struct xg_err *err)
{
	if (!cfg->trace_file || !*cfg->trace_file)
		return xg_fail(err, "--source trace needs a trace file: --source trace FILE");
	double window = cfg->window_s > 0 ? cfg->window_s : 1.0;
	struct xg_source *s = xg_calloc(1, sizeof(*s));
	if (xt_file_load(&s->fe, cfg->trace_file, !(cfg->trace_cpu_hz > 0), 0, err)) {
		trace_close(s);
		return -1;
	}
	if (!s->fe.ev.has_tsc) {
		xg_fail(err, "%s: %s", cfg->trace_file,
		        s->fe.partial ? s->fe.err.msg : "no timestamped record in the trace");
		trace_close(s);
		return -1;
	}
	size_t nhz = 0;
	s->hz = cfg->trace_cpu_hz > 0 ? cfg->trace_cpu_hz : xt_events_estimate_hz(&s->fe.ev, &nhz);
	if (s->hz <= 0) {
		xg_fail(err, "%s: the trace does not tell its TSC rate; pass --cpu-hz HZ", cfg->trace_file);
		trace_close(s);
		return -1;
	}
	s->ev = xt_events_merge_all(&s->fe.ev, &s->nev);
	s->start = s->fe.ev.first_tsc;
	s->end = s->fe.ev.last_tsc;
	xt_acct_init(&s->acct, XT_NATIVE);
	/* who each wait was behind and how long, as the live source does */
	xt_acct_behind(&s->acct, true, true, s->hz);
	xt_acct_start(&s->acct, s->start);
	xt_acct_seed_from(&s->acct, s->ev, s->nev, s->start);
	s->window_cyc = (uint64_t)(window * s->hz + 0.5);
	if (!s->window_cyc)
		s->window_cyc = 1;
	s->window_ns = (uint64_t)(window * 1e9 + 0.5);
	for (size_t p = 0; p < s->fe.dec.npcpu; p++)
		s->npcpu += s->fe.dec.pcpu[p].seen;
	const char *base = strrchr(cfg->trace_file, '/');
	snprintf(s->name, sizeof(s->name), "%s", base ? base + 1 : cfg->trace_file);
	*out = s;
	return 0;
}

static int cmp_u64(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
	return (a > b) - (a < b);
}

/* Orders vCPUs by (dom, vcpu): sorts (dom << 16 | vcpu) << 32 | index. */
static void sort_vcpus(struct xg_source *s)
{
	if (s->norder == s->acct.nv)
		return;
	uint64_t *keys = xg_malloc((s->acct.nv ? s->acct.nv : 1) * sizeof(*keys));
	for (size_t i = 0; i < s->acct.nv; i++)
		keys[i] = (uint64_t)(s->acct.v[i].dom << 16 | s->acct.v[i].vcpu) << 32 | i;
	qsort(keys, s->acct.nv, sizeof(*keys), cmp_u64);
	s->order = xg_realloc(s->order, (s->acct.nv ? s->acct.nv : 1) * sizeof(*s->order));
	for (size_t i = 0; i < s->acct.nv; i++)
		s->order[i] = (size_t)(uint32_t)keys[i];
	s->norder = s->acct.nv;
	free(keys);
}

/* Per-pCPU times from the idle vCPUs (domain 32767; idle vCPU n runs on
 * pCPU n only): pCPU n is idle while its idle vCPU runs, busy while the
 * idle vCPU waits for something else to finish; lost time is neither. */
static void fill_pcpus(struct xg_source *s, struct xg_sample *out, uint64_t t)
{
	const struct xt_acct *a = &s->acct;
	const struct xt_dom_ix *ix = XT_IDLE_DOMID < a->ndix ? &a->dix[XT_IDLE_DOMID] : NULL;
	for (size_t p = 0; p < s->fe.dec.npcpu; p++) {
		if (!s->fe.dec.pcpu[p].seen)
			continue;
		struct xg_pcpu *o = sample_add_pcpus(out, 1);
		uint32_t k = ix && p < ix->cap ? ix->ix[p] : 0;
		o->id = (uint32_t)p;
		if (!k) {
			out->pcpu_why = sample_reason(out, "no scheduling of this pCPU's idle vCPU in the trace");
			continue;
		}
		uint64_t cyc[XT_NSTATES];
		xt_acct_at(a, &a->v[k - 1], t, cyc);
		o->ns[XG_PC_IDLE] = xt_cyc_to_ns(cyc[XT_RUNNING], s->hz);
		o->ns[XG_PC_BUSY] = xt_cyc_to_ns(cyc[XT_RUNNABLE] + cyc[XT_BLOCKED] + cyc[XT_OFFLINE], s->hz);
		o->valid = 1u << XG_PC_BUSY | 1u << XG_PC_IDLE;
	}
}

static void fill(struct xg_source *s, struct xg_sample *out, uint64_t t)
{
	struct xg_host *h = &out->host;
	snprintf(h->source, sizeof(h->source), "trace");
	snprintf(h->hypervisor, sizeof(h->hypervisor), "Xen (xentrace file)");
	snprintf(h->hostname, sizeof(h->hostname), "%s", s->name);
	/* Trace time: the TSC as ns (since the traced host's TSC started),
	 * never 0, so the engine keeps it instead of reading its own clock. */
	h->mono_ns = xt_cyc_to_ns(t, s->hz);
	if (!h->mono_ns)
		h->mono_ns = 1;
	h->pcpus = s->npcpu;
	h->cpu_khz = (uint64_t)(s->hz / 1000 + 0.5);
	h->lost_records = s->acct.lost_records;
	h->valid = 0;
	host_mark(h, XG_H_PCPUS);
	host_mark(h, XG_H_CPU_KHZ);
	host_mark(h, XG_H_LOST);
	for (int f = 0; f < XG_F_COUNT; f++)
		if (f != XG_F_CPU_NS && f != XG_F_RUN_NS && f != XG_F_WAIT_NS && f != XG_F_BLK_NS &&
		    f != XG_F_OFF_NS && (f < XG_F_BEHIND_WAIT_NS || f > XG_F_WAIT_P99_NS))
			sample_invalid_all(out, (enum xg_field)f, why_trace);
	host_mark(h, XG_H_WAITS);
	fill_pcpus(s, out, t);
	sort_vcpus(s);
	for (size_t i = 0; i < s->norder;) {
		const struct xt_vcpu_acct *v = &s->acct.v[s->order[i]];
		uint32_t dom = v->dom;
		size_t j = i;
		while (j < s->norder && s->acct.v[s->order[j]].dom == dom)
			j++;
		if (dom >= XT_IDLE_DOMID) {    /* idle time is not a domain's */
			i = j;
			continue;
		}
		struct xg_dom *d = sample_add_dom(out, dom);
		if (dom == 0)
			snprintf(d->name, sizeof(d->name), "Domain-0");
		else
			snprintf(d->name, sizeof(d->name), "d%u", dom);
		struct xg_vcpu *xv = sample_add_vcpus(out, d, j - i);
		uint64_t sum[XG_RS_COUNT] = { 0 };
		bool running = false, all_blocked = true;
		for (size_t k = i; k < j; k++) {
			const struct xt_vcpu_acct *a = &s->acct.v[s->order[k]];
			uint64_t cyc[XT_NSTATES];
			xt_acct_at(&s->acct, a, t, cyc);
			struct xg_vcpu *o = &xv[k - i];
			o->id = a->vcpu;
			o->online = a->state != XT_OFFLINE;
			for (int st = 0; st < XG_RS_COUNT; st++) {
				o->sched_ns[st] = xt_cyc_to_ns(cyc[st], s->hz);
				sum[st] += o->sched_ns[st];
			}
			o->cpu_ns = o->sched_ns[XG_RS_RUNNING];
			o->valid = XG_VCPU_SCHED_ALL | XG_VCPU_CPU_VALID;
			running |= a->state == XT_RUNNING;
			all_blocked &= a->state == XT_BLOCKED;
		}
		d->state = running ? XG_ST_RUNNING : all_blocked ? XG_ST_BLOCKED : 0;
		dom_set(d, XG_F_CPU_NS, sum[XG_RS_RUNNING]);
		for (int st = 0; st < XG_RS_COUNT; st++)
			dom_set(d, sched_field(st), sum[st]);
		if (dom >= s->nwsum) {
			xg_grow(&s->wsum, &s->cwsum, (size_t)dom + 1, sizeof(*s->wsum));
			memset(s->wsum + s->nwsum, 0, ((size_t)dom + 1 - s->nwsum) * sizeof(*s->wsum));
			s->nwsum = (size_t)dom + 1;
		}
		xt_waits_fill(&s->acct, &s->wsum[dom], &s->waits, s->hz, out, d);
		i = j;
	}
}

static int trace_collect(struct xg_source *s, struct xg_sample *out, struct xg_err *err)
{
	(void)err;
	if (s->done)
		return XG_COLLECT_EOF;
	/* The first sample is the start of the trace: the baseline. */
	uint64_t t = s->start + s->step * s->window_cyc;
	if (t >= s->end || t < s->start) {
		t = s->end;
		s->done = true;
	}
	while (s->next < s->nev && s->ev[s->next].tsc <= t)
		xt_acct_event(&s->acct, &s->ev[s->next++]);
	fill(s, out, t);
	s->step++;
	return XG_COLLECT_OK;
}

static uint64_t trace_next_gap_ns(struct xg_source *s)
{
	return s->window_ns;
}

static bool trace_at_end(struct xg_source *s)
{
	return s->done;
}

const struct xg_source_ops source_trace_ops = {
	.name = "trace",
	.probe = trace_probe,
	.open = trace_open,
	.collect = trace_collect,
	.next_gap_ns = trace_next_gap_ns,
	.at_end = trace_at_end,
	.close = trace_close,
};
