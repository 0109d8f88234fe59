// SPDX-License-Identifier: GPL-2.0-or-later
/* The `prometheus` source's sample: the server gives rates, the pipeline
 * wants counters. Each refresh every domain's counter advances by its rate
 * x the interval x PS_SCALE and each host's clock by the interval x
 * PS_SCALE, so compute/metrics divides them back into exactly the
 * server's rate; gauges pass as they are. Stale hosts, absent series and
 * counters that went back keep their reasons. */
#include "promsrc_state.h"
#include "xgtop/model/metric_defs.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static uint64_t to_units(const struct xg_metric *m, double v)
{
	if (isinf(v))
		return UINT64_MAX;
	double x = v * pow(10, m->decimals);
	return x >= 1.8e19 ? UINT64_MAX : (uint64_t)llround(x);
}

static void clock_text(char *buf, size_t n, double t)
{
	time_t tt = (time_t)t;
	struct tm tm;
	strftime(buf, n, "%H:%M:%S", localtime_r(&tt, &tm));
}

static void fill_hosts(struct xg_source *s, struct xg_sample *out)
{
	for (size_t i = 0; i < s->nh; i++) {
		struct ps_host *h = &s->h[i];
		struct xg_peer *p = sample_add_peer(out, h->name);
		snprintf(p->host.source, sizeof(p->host.source), "prometheus");
		snprintf(p->host.hostname, sizeof(p->host.hostname), "%s", h->name);
		p->host.mono_ns = s->clock_ns;
		p->counter_scale = PS_SCALE;
		p->host.real_ns = (uint64_t)(s->eval * 1e9);
		if (h->pcpus) {
			p->host.pcpus = h->pcpus;
			host_mark(&p->host, XG_H_PCPUS);
		}
		if (h->mem) {
			p->host.mem_total = h->mem;
			p->host.mem_free = h->free;
			host_mark(&p->host, XG_H_MEM);
		}
		rm_host_flags(&p->host, h->published);
		if (rm_ps_host_stale(s, h)) {
			char when[32] = "never", text[300];
			if (h->last)
				clock_text(when, sizeof(when), h->last);
			snprintf(text, sizeof(text), "host %s: last scrape %s, stale%s", h->name, when,
				 h->down ? " (the server's scrapes of it fail: up == 0)" : "");
			p->stale = 1;
			p->why = sample_reason(out, text);
		}
	}
}

static int by_key(const void *a, const void *b)
{
	const struct ps_order *x = a, *y = b;
	return (x->key > y->key) - (x->key < y->key);
}

/* The domains in the sample's order, so that sample_sort finds the sample
 * sorted (sorting it moves whole xg_dom records: most of this file's time
 * at 10,000 domains): the last refresh's order, its keys made again (a
 * domid can change), and sorted again only when it no longer holds (a
 * new domain, a new domid). */
static void order_doms(struct xg_source *s)
{
	xg_grow(&s->ord, &s->ord_cap, s->nd, sizeof(*s->ord));
	for (size_t i = s->nord; i < s->nd; i++)
		s->ord[i].i = (uint32_t)i;   /* entries are only ever added */
	s->nord = s->nd;
	bool sorted = true;
	for (size_t k = 0; k < s->nd; k++) {
		const struct ps_dom *d = &s->d[s->ord[k].i];
		s->ord[k].key = (uint64_t)d->host << 32 | (d->has_domid ? d->domid : d->id);
		sorted = sorted && (!k || s->ord[k - 1].key <= s->ord[k].key);
	}
	if (!sorted)
		qsort(s->ord, s->nd, sizeof(*s->ord), by_key);
}

static void fill_doms(struct xg_source *s, struct xg_sample *out, double dt)
{
	uint8_t absent = sample_reason(out, "the server holds no such series for this domain now");
	uint8_t went_back = sample_reason(out, "the counter went back within the rate window (the domain "
					   "or its exporter restarted)");
	uint8_t hidden = sample_reason(out, "not asked for: the row was off screen at the last refresh "
				       "(the server sends the figures of the rows shown only); it comes "
				       "with the next refreshes");
	uint8_t col_hidden = sample_reason(out, "not asked for: no column shown at the last refresh needed "
					   "it (the server sends the rows shown the figures of the columns "
					   "shown, and every figure of the domain in the detail pane); it "
					   "comes with the next refresh");
	order_doms(s);
	for (size_t k = 0; k < s->nd; k++) {
		struct ps_dom *pd = &s->d[s->ord[k].i];
		/* The full-screen view asks the info series as of now: a stale
		 * host's domains stay as they were (batch mode asks an hour's). */
		if (!pd->seen && pd->was_seen && !s->want_all && rm_ps_host_stale(s, &s->h[pd->host]))
			pd->seen = true;
		if (!pd->seen)
			continue;
		const struct ps_host *h = &s->h[pd->host];
		/* Gone from its live host, its series still in the rate window:
		 * its host's own xgtop no longer lists it. */
		if (h->ask_info && !pd->info_now && !s->want_all && !rm_ps_host_stale(s, h))
			continue;
		uint32_t id = pd->has_domid ? pd->domid : pd->id;
		/* CPU(s) starts from the counter as scraped, then advances by
		 * the server's rates like every other counter. */
		if (!pd->started && pd->cpu_total < 0 && !h->ask_total)
			continue;   /* new: in the sample once that counter came (the next refresh asks it) */
		if (!pd->started && !pd->has_domid && !h->ask_info)
			continue;   /* and its info (its domid: the next refresh asks it) */
		if (!pd->started && pd->cpu_total >= 0)
			pd->acc[XG_F_CPU_NS] = (uint64_t)(pd->cpu_total * 1e9 * PS_SCALE);
		pd->started = true;
		struct xg_dom *d = sample_add_dom(out, id);
		d->host = pd->host;
		memcpy(d->name, pd->name, sizeof(d->name));   /* NUL-terminated by rm_ps_dom_of */
		/* Most fields of most domains were not asked (the rows off
		 * screen carry the sort's): their reason at once, then the
		 * fields that were, came or went back one by one. */
		uint8_t stale = pd->host < out->npeer && out->peer[pd->host].stale ? out->peer[pd->host].why : 0;
		memset(d->why, stale ? stale : pd->shown ? col_hidden : hidden, sizeof(d->why));
		uint64_t todo = (pd->asked | pd->got | pd->back) & (~0ull >> (64 - XG_F_COUNT));
		for (; todo; todo &= todo - 1) {
			int f = __builtin_ctzll(todo);
			const struct xg_metric *m = &xg_field_metric[f];
			/* A counter's change over that of its host's clock: a row
			 * on screen's between two scrapes, the others' delta(). */
			double clk = pd->scraped >> f & 1 ? h->span : h->clk;
			if (!(pd->got >> f & 1) || (m->type == XG_MT_COUNTER && !(clk > 0))) {
				/* A stale host's series are gone: its reason, not theirs. */
				d->why[f] = stale ? stale : pd->back >> f & 1 ? went_back : pd->asked >> f & 1 ? absent :
					    pd->shown ? col_hidden : hidden;
				continue;
			}
			if (m->type == XG_MT_COUNTER)
				pd->acc[f] += to_units(m, pd->v[f] / clk * dt * PS_SCALE);
			d->v[f] = m->type == XG_MT_COUNTER ? pd->acc[f] : to_units(m, pd->v[f]);
			d->valid |= 1ull << f;
		}
		d->state = pd->state;
		rm_ps_fill_vcpus(pd, h, out, d, dt);
	}
}

static void pool_line(struct xg_source *s, struct xg_sample *out)
{
	char when[32];
	double t = rm_ps_figures_time(s);
	clock_text(when, sizeof(when), t);
	double behind = (double)xg_now_real_ns() / 1e9 - t;
	char text[160];
	if (s->at > 0) {   /* a past time (--at, Left): the date too, and that it is not live */
		time_t tt = (time_t)s->at;
		struct tm tm;
		strftime(when, sizeof(when), "%m-%d %H:%M:%S", localtime_r(&tt, &tm));
		snprintf(text, sizeof(text), "%zu hosts, NOT LIVE: figures of %s, rate[%us]", s->nh, when,
			 s->window);
	} else {
		snprintf(text, sizeof(text), "%zu hosts, figures of %s (%.0f s ago), rate[%us]", s->nh, when,
			 behind < 0 ? 0 : behind > 1e6 ? 1e6 : behind, s->window);
	}
	rm_pool_line(out, "prometheus", s->hostname, text,
		     "Prometheus source: the exporters publish no per-pCPU times");
	if (s->at > 0)   /* the outputs' time: the one the figures are of */
		out->host.real_ns = (uint64_t)(s->at * 1e9);
}

/* The summary line's totals the server made (the rows do not all carry
 * their fields): each host's sums over the change of its clock, as each
 * row's figure is its own change over that change. */
static void fill_totals(const struct xg_source *s, struct xg_sample *out)
{
	struct xg_totals *t = &out->totals;
	rm_ps_server_totals(s, &t->cpu, &t->wait);
	t->states = s->got_nstate || !s->nd;
	memcpy(t->nstate, s->nstate, sizeof(t->nstate));
	for (size_t i = 0; i < s->nd && !t->rows_partial; i++)
		t->rows_partial = s->d[i].seen && !s->d[i].shown;
	t->rows_fields = s->want_fields;
	double cpu = 0, wait = 0, all = 0, busy = 0;
	size_t nbusy = 0;   /* hosts or domains summed into busy */
	for (size_t i = 0; i < s->nh; i++) {
		const struct ps_host *h = &s->h[i];
		if (!(h->clk > 0) || rm_ps_host_stale(s, h))
			continue;
		if (h->tcpu >= 0)
			cpu += 100 * h->tcpu / h->clk;
		if (h->trs[XG_RS_RUNNABLE] < 0)
			continue;
		wait += h->trs[XG_RS_RUNNABLE] / h->clk;
		busy += (h->trs[XG_RS_RUNNABLE] + fmax(h->trs[XG_RS_RUNNING], 0)) / h->clk;
		nbusy++;
		for (int r = 0; r < XG_RS_COUNT; r++)
			all += h->trs[r] >= 0 ? h->trs[r] / h->clk : 0;
	}
	t->cpu_pct = cpu;
	t->wait_pct = all > 0 ? 100 * wait / all : -1;
	/* The triage's runnable vCPUs: from those sums, or from every
	 * domain's runstates where the sort asks them of all. */
	t->busy = t->wait && nbusy;
	t->busy_vcpus = busy;
	uint64_t run_wait = 1ull << XG_F_RUN_NS | 1ull << XG_F_WAIT_NS;
	if (t->wait || (s->want_fields & run_wait) != run_wait)
		return;
	for (size_t i = 0; i < s->nd; i++) {
		const struct ps_dom *d = &s->d[i];
		const struct ps_host *h = &s->h[d->host];
		if (d->seen && d->started && (d->got & run_wait) == run_wait && h->clk > 0 &&
		    !rm_ps_host_stale(s, h)) {
			busy += (d->v[XG_F_RUN_NS] + d->v[XG_F_WAIT_NS]) / h->clk;
			nbusy++;
		}
	}
	t->busy = nbusy > 0;
	t->busy_vcpus = busy;
}

void rm_ps_fill(struct xg_source *s, struct xg_sample *out)
{
	/* Any interval will do, as long as the counters and the clock
	 * advance by the same one: ours, since VictoriaMetrics rounds its
	 * evaluation time to the second. */
	double now = (double)xg_now_mono_ns() / 1e9;
	double dt = s->prev_t > 0 && now > s->prev_t ? now - s->prev_t : 0;
	s->prev_t = now;
	s->clock_ns += (uint64_t)llround(dt * 1e9 * PS_SCALE);
	fill_hosts(s, out);
	fill_doms(s, out, dt);
	if (!s->want_all)
		fill_totals(s, out);
	sample_sort(out);
	pool_line(s, out);
}
