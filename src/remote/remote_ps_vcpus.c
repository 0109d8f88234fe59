// SPDX-License-Identifier: GPL-2.0-or-later
/* The `prometheus` source's vCPU rows: the exporter publishes each vCPU's
 * online flag, CPU seconds and runstate seconds (xgtop_vcpu_*, label
 * vcpu); the domain query asks for them, and for the CPU seconds as
 * scraped (CPU(s)), with the same delta() (divided by the change of the
 * host's sample clock) as the domains' counters in batch mode; in the
 * full-screen view those of the rows on screen come with theirs
 * (remote_ps_doms.c); each vCPU's counters advance by those rates like its
 * domain's (remote_ps_fill.c). */
#include "promsrc_state.h"
#include "xgtop/model/metric_defs.h"

#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

static void rate_term(const struct xg_source *s, struct xg_strbuf *b, const char *lead, enum xg_mfam fam,
		      const char *tag)
{
	strbuf_printf(b, "%slabel_replace(delta(", lead);
	rm_ps_sel(s, b, xg_fixed_metric[fam].name, true, NULL);
	strbuf_printf(b, "[%us]),\"xgtop_f\",\"%s\",\"\",\"\")", s->window, tag);
}

void rm_ps_vcpu_terms(const struct xg_source *s, struct xg_strbuf *b, const char *lead)
{
	strbuf_printf(b, "%slabel_replace(", lead);
	rm_ps_sel(s, b, xg_fixed_metric[XG_MF_VCPU_ONLINE].name, false, NULL);
	strbuf_printf(b, ",\"xgtop_f\",\"vonline\",\"\",\"\")");
	strbuf_printf(b, " or label_replace(");
	rm_ps_sel(s, b, xg_fixed_metric[XG_MF_VCPU_CPU].name, true, NULL);
	strbuf_printf(b, ",\"xgtop_f\",\"vcput\",\"\",\"\")");
	rate_term(s, b, " or ", XG_MF_VCPU_CPU, "vcpu");
	rate_term(s, b, " or ", XG_MF_VCPU_RUNSTATE, "vrs");
}

/* vCPU id's entry of d, kept in id order; NULL past XG_PS_VCPUS_MAX. */
static struct ps_vcpu *vcpu_of(struct ps_dom *d, uint32_t id)
{
	uint32_t lo = 0, hi = d->nvc;
	while (lo < hi) {
		uint32_t mid = (lo + hi) / 2;
		if (d->vc[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < d->nvc && d->vc[lo].id == id)
		return &d->vc[lo];
	if (d->nvc >= XG_PS_VCPUS_MAX)
		return NULL;
	if (d->nvc == d->vccap) {
		d->vccap = d->vccap ? d->vccap * 2 : 4;
		d->vc = xg_realloc(d->vc, d->vccap * sizeof(*d->vc));
	}
	memmove(&d->vc[lo + 1], &d->vc[lo], (d->nvc - lo) * sizeof(*d->vc));
	d->nvc++;
	memset(&d->vc[lo], 0, sizeof(d->vc[lo]));
	d->vc[lo].id = id;
	d->vc[lo].total = -1;
	return &d->vc[lo];
}

bool rm_ps_on_vcpu(struct ps_dom *d, const char *f, const struct rm_qpoint *p)
{
	/* vonline, vcput, vcpu, vrs: the terms asked of every domain (delta()
	 * for the rates); vcpu_* and d_vcpu_*: a row on screen's series as
	 * scraped, and its counters' changes between two scrapes. */
	bool change = !strncmp(f, "d_vcpu_", 7);
	bool online = !strcmp(f, "vonline") || !strcmp(f, "vcpu_online");
	bool cpu = !strcmp(f, "vcpu") || !strcmp(f, "d_vcpu_cpu_seconds_total");
	bool rs = !strcmp(f, "vrs") || !strcmp(f, "d_vcpu_runstate_seconds_total");
	bool total = !strcmp(f, "vcput") || !strcmp(f, "vcpu_cpu_seconds_total");
	if (!online && !cpu && !rs && !total)
		return !strncmp(f, "vcpu_", 5) || change;
	const char *id = rm_qlabel(p, "vcpu");
	char *end;
	unsigned long v = id ? strtoul(id, &end, 10) : 0;
	if (!id || *end || end == id || v >= (1ul << 20) || !isfinite(p->v))
		return true;
	struct ps_vcpu *c = vcpu_of(d, (uint32_t)v);
	if (!c)
		return true;
	c->seen = true;
	if (change)
		c->scraped = true;
	if (online) {
		c->online = p->v > 0;
	} else if (total) {
		if (p->v >= 0 && p->v < 1.8e10)
			c->total = p->v;
	} else if (cpu && p->v >= 0) {
		c->cpu = p->v;
		c->got |= PS_VCPU_CPU;
	} else if (rs && p->v >= 0) {
		const char *st = rm_qlabel(p, "state");
		for (int r = 0; st && r < XG_RS_COUNT; r++)
			if (!strcmp(st, xg_runstate_label[r])) {
				c->rs[r] = p->v;
				c->got |= 1u << r;
			}
	}
	return true;
}

void rm_ps_vcpus_reset(struct xg_source *s)
{
	for (size_t i = 0; i < s->nd; i++)
		for (uint32_t k = 0; k < s->d[i].nvc; k++) {
			s->d[i].vc[k].seen = false;
			s->d[i].vc[k].got = 0;
			s->d[i].vc[k].scraped = false;
			s->d[i].vc[k].total = -1;
		}
}

/* ns x PS_SCALE for a rate of r seconds per second over dt. */
static uint64_t advance(double r, double dt)
{
	double x = r * dt * 1e9 * PS_SCALE;
	return x >= 1.8e19 ? 0 : (uint64_t)llround(x);
}

/* c's rate from change, a counter's change over the window (delta()) or
 * between two scrapes (c->scraped): over that of h's clock. */
static bool vc_rate(const struct ps_vcpu *c, const struct ps_host *h, double change, double *rate)
{
	double span = c->scraped ? h->span : h->clk;
	if (!(span > 0) || change < 0)
		return false;
	*rate = change / span;
	return true;
}

void rm_ps_fill_vcpus(struct ps_dom *pd, const struct ps_host *h, struct xg_sample *out, struct xg_dom *d,
		      double dt)
{
	size_t n = 0;
	for (uint32_t k = 0; k < pd->nvc; k++)
		n += pd->vc[k].seen;
	struct xg_vcpu *v = n ? sample_add_vcpus(out, d, n) : NULL;
	for (uint32_t k = 0, j = 0; v && k < pd->nvc; k++) {
		struct ps_vcpu *c = &pd->vc[k];
		if (!c->seen)
			continue;
		struct xg_vcpu *o = &v[j++];
		memset(o, 0, sizeof(*o));
		o->id = c->id;
		o->online = c->online;
		/* CPU(s) starts from the counter as scraped, as the domain's. */
		if (!c->started && c->total >= 0)
			c->acc_cpu = (uint64_t)llround(c->total * 1e9 * PS_SCALE);
		c->started = c->started || c->total >= 0;
		double rate;
		if (c->got & PS_VCPU_CPU && vc_rate(c, h, c->cpu, &rate)) {
			c->acc_cpu += advance(rate, dt);
			o->cpu_ns = c->acc_cpu;
			o->valid |= XG_VCPU_CPU_VALID;
		}
		for (int r = 0; r < XG_RS_COUNT; r++)
			if (c->got >> r & 1 && vc_rate(c, h, c->rs[r], &rate)) {
				c->acc_rs[r] += advance(rate, dt);
				o->sched_ns[r] = c->acc_rs[r];
				o->valid |= (uint8_t)(1u << r);
			}
	}
}
