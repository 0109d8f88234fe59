// SPDX-License-Identifier: GPL-2.0-or-later
/* One sample as a Prometheus text 0.0.4 or OpenMetrics 1.0.0 exposition.
 * The two formats differ only in the family headers (and OpenMetrics' final
 * "# EOF"); the sample lines are the same, so that Prometheus stores the same
 * series whichever it negotiated. Families are written whole, one after the
 * other, as both formats require; a family with no measured figure is left
 * out entirely (absent, never 0). */
#include "xgtop/exporter/render.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The label value for text v: as the screen shows it (control bytes and
 * invalid UTF-8 as \xNN, a backslash doubled), then escaped for the
 * exposition formats (backslash, double quote, newline). */
static void put_label_value(struct xg_strbuf *b, const char *v)
{
	/* The longest text a sample holds is a name: 4 bytes out per byte in. */
	char shown[XG_NAME_MAX * 4 + 1];
	xg_escape_name(shown, sizeof(shown), v);
	const char *from = shown;
	for (const char *p = shown; *p; p++) {
		const char *esc = *p == '\\' ? "\\\\" : *p == '"' ? "\\\"" : *p == '\n' ? "\\n" : NULL;
		if (!esc)
			continue;
		strbuf_put(b, from, (size_t)(p - from));
		strbuf_puts(b, esc);
		from = p + 1;
	}
	strbuf_puts(b, from);
}

struct rctx {
	struct xg_strbuf *b;
	enum xg_expo_fmt fmt;
	const char *open;           /* the family whose header was written last */
	const struct xg_sample *s;
	struct xg_strbuf labels;    /* per domain: domain="..",uuid=".." then NUL */
	size_t *dlab;               /* offset of each domain's labels in labels.p */
};

/* The HELP of m's family: shared families carry it on their first member. */
static const char *family_help(const struct xg_metric *m)
{
	if (m->help)
		return m->help;
	for (size_t f = 0; f < XG_F_COUNT; f++)
		if (xg_field_metric[f].help && !strcmp(xg_field_metric[f].name, m->name))
			return xg_field_metric[f].help;
	for (size_t e = 0; e < XG_PMU_EVENT_COUNT; e++)
		if (xg_pmu_metric[0][e].help && !strcmp(xg_pmu_metric[0][e].name, m->name))
			return xg_pmu_metric[0][e].help;
	return "";
}

static const char *sample_suffix(enum xg_mtype t)
{
	return t == XG_MT_COUNTER ? "_total" : t == XG_MT_INFO ? "_info" : "";
}

/* OpenMetrics' UNIT: the base unit the family name ends with, if any. */
static const char *unit_of(const char *name)
{
	static const char *const units[] = { "seconds", "bytes", "hertz" };
	size_t n = strlen(name);
	for (size_t i = 0; i < XG_ARRAY_LEN(units); i++) {
		size_t u = strlen(units[i]);
		if (n > u + 1 && name[n - u - 1] == '_' && !strcmp(name + n - u, units[i]))
			return units[i];
	}
	return NULL;
}

/* Writes the family header before its first sample line. */
static void family_open(struct rctx *c, const struct xg_metric *m)
{
	if (c->open && !strcmp(c->open, m->name))
		return;
	c->open = m->name;
	static const char *const types[] = { "counter", "gauge", "info", "histogram" };
	const char *help = family_help(m);
	if (c->fmt == XG_EXPO_TEXT) {
		/* 0.0.4 names a family by its samples and knows no info type. */
		const char *sfx = sample_suffix(m->type);
		strbuf_printf(c->b, "# HELP %s%s %s\n# TYPE %s%s %s\n", m->name, sfx, help, m->name, sfx,
			      m->type == XG_MT_COUNTER ? "counter" : m->type == XG_MT_HISTOGRAM ? "histogram" : "gauge");
		return;
	}
	strbuf_printf(c->b, "# TYPE %s %s\n", m->name, types[m->type]);
	const char *unit = unit_of(m->name);
	if (unit)
		strbuf_printf(c->b, "# UNIT %s %s\n", m->name, unit);
	strbuf_printf(c->b, "# HELP %s %s\n", m->name, help);
}

static void put_value(struct xg_strbuf *b, const struct xg_metric *m, uint64_t v)
{
	if (m->inf_at_max && v == UINT64_MAX) {
		strbuf_puts(b, "+Inf");
		return;
	}
	uint64_t div = 1;
	for (unsigned i = 0; i < m->decimals; i++)
		div *= 10;
	if (div == 1)
		strbuf_printf(b, "%" PRIu64, v);
	else
		strbuf_printf(b, "%" PRIu64 ".%0*" PRIu64, v / div, (int)m->decimals, v % div);
}

/* One sample line: NAME{frag,frag,...} VALUE. NULL fragments are skipped. */
static void series(struct rctx *c, const struct xg_metric *m, uint64_t v, size_t nfrag, ...)
{
	family_open(c, m);
	strbuf_puts(c->b, m->name);
	strbuf_puts(c->b, sample_suffix(m->type));
	va_list ap;
	va_start(ap, nfrag);
	bool any = false;
	for (size_t i = 0; i < nfrag; i++) {
		const char *frag = va_arg(ap, const char *);
		if (!frag || !*frag)
			continue;
		strbuf_puts(c->b, any ? "," : "{");
		strbuf_puts(c->b, frag);
		any = true;
	}
	va_end(ap);
	strbuf_puts(c->b, any ? "} " : " ");
	put_value(c->b, m, v);
	strbuf_puts(c->b, "\n");
}

static int cmp_identity(const void *a, const void *b, void *ctx)
{
	const struct xg_sample *s = ctx;
	const struct xg_dom *x = &s->dom[*(const size_t *)a], *y = &s->dom[*(const size_t *)b];
	int r = strcmp(x->name, y->name);
	return r ? r : memcmp(x->handle, y->handle, sizeof(x->handle));
}

/* Domains that share name and uuid with another one of the sample (process
 * groups of one command): they get an id label too, so no series repeats. */
static bool *find_twins(const struct xg_sample *s)
{
	bool *twin = xg_calloc(s->ndom + 1, sizeof(*twin));
	size_t *ix = xg_malloc((s->ndom + 1) * sizeof(*ix));
	for (size_t i = 0; i < s->ndom; i++)
		ix[i] = i;
	qsort_r(ix, s->ndom, sizeof(*ix), cmp_identity, (void *)s);
	for (size_t i = 1; i < s->ndom; i++)
		if (!cmp_identity(&ix[i - 1], &ix[i], (void *)s))
			twin[ix[i - 1]] = twin[ix[i]] = true;
	free(ix);
	return twin;
}

static bool handle_known(const uint8_t h[16])
{
	for (int i = 0; i < 16; i++)
		if (h[i])
			return true;
	return false;
}

static void put_uuid(struct xg_strbuf *b, const uint8_t h[16])
{
	for (int i = 0; i < 16; i++)
		strbuf_printf(b, "%s%02x", i == 4 || i == 6 || i == 8 || i == 10 ? "-" : "", h[i]);
}

/* Appends [,]key="value" to b, nothing when value is empty. */
static void add_label(struct xg_strbuf *b, const char *key, const char *value)
{
	if (!*value)
		return;
	strbuf_printf(b, "%s%s=\"", b->len ? "," : "", key);
	put_label_value(b, value);
	strbuf_puts(b, "\"");
}

/* Every domain's identity labels, escaped once per rendering. */
static void domain_labels(struct rctx *c)
{
	const struct xg_sample *s = c->s;
	bool *twin = find_twins(s);
	c->dlab = xg_malloc((s->ndom + 1) * sizeof(*c->dlab));
	struct xg_strbuf one = { 0 };
	for (size_t i = 0; i < s->ndom; i++) {
		const struct xg_dom *d = &s->dom[i];
		one.len = 0;
		add_label(&one, "domain", d->name);
		if (handle_known(d->handle)) {
			strbuf_puts(&one, ",uuid=\"");
			put_uuid(&one, d->handle);
			strbuf_puts(&one, "\"");
		}
		if (twin[i] || !one.len)
			strbuf_printf(&one, "%sid=\"%" PRIu32 "\"", one.len ? "," : "", d->id);
		c->dlab[i] = c->labels.len;
		strbuf_put(&c->labels, one.p, one.len + 1);
	}
	strbuf_free(&one);
	free(twin);
}

static const char *lab(const struct rctx *c, size_t i)
{
	return c->labels.p + c->dlab[i];
}

static void render_host_info(struct rctx *c)
{
	const struct xg_host *h = &c->s->host;
	char hyp[sizeof(h->hypervisor)];
	snprintf(hyp, sizeof(hyp), "%s", h->hypervisor);
	char *sp = strchr(hyp, ' ');
	const char *version = "";
	if (sp) {
		*sp = 0;
		version = sp + 1;
	}
	struct xg_strbuf l = { 0 };
	add_label(&l, "source", h->source);
	add_label(&l, "hypervisor", hyp);
	add_label(&l, "version", version);
	add_label(&l, "hostname", h->hostname);
	add_label(&l, "scheduler", h->sched);
	add_label(&l, "cache_events", h->cache_events);
	series(c, &xg_fixed_metric[XG_MF_HOST], 1, 1, l.p);
	strbuf_free(&l);
}

static void render_collector(struct rctx *c, const struct xg_expo_stats *st)
{
	const struct xg_metric *fx = xg_fixed_metric;
	char frag[XG_CL_COUNT][40];
	for (int k = 0; k < XG_CL_COUNT; k++)
		snprintf(frag[k], sizeof(frag[k]), "collector=\"%s\"", xg_collector_label[k]);
	series(c, &fx[XG_MF_SELF_CPU], st->self_cpu_ns, 0);
	series(c, &fx[XG_MF_REFRESHES], st->refreshes, 0);
	for (int k = 0; k < XG_CL_COUNT; k++)
		series(c, &fx[XG_MF_ERRORS], st->errors[k], 1, frag[k]);
	for (int k = 0; k < XG_CL_COUNT; k++)
		series(c, &fx[XG_MF_UP], st->up[k], 1, frag[k]);
}

/* Every state's count, 0 included (so that a reader tells this exporter
 * from one that does not publish the family): each domain once, under its
 * first flag in xentop's priority; a domain with no flag is in none. */
static void render_host_domains(struct rctx *c)
{
	const struct xg_sample *s = c->s;
	unsigned n[XG_STATE_FLAGS] = { 0 };
	for (size_t i = 0; i < s->ndom; i++)
		for (int k = 0; k < XG_STATE_FLAGS; k++)
			if (s->dom[i].state & xg_state_priority[k]) {
				n[k]++;
				break;
			}
	char frag[32];
	for (int k = 0; k < XG_STATE_FLAGS; k++) {
		snprintf(frag, sizeof(frag), "state=\"%s\"", xg_state_priority_label(k));
		series(c, &xg_fixed_metric[XG_MF_HOST_DOMAINS], n[k], 1, frag);
	}
}

/* The domains' totals the exporter keeps (expo_totals.c): a figure no
 * domain of the sample measures has no series. */
static void render_host_totals(struct rctx *c, const struct xg_expo_totals *t)
{
	if (t->measured & 1)
		series(c, &xg_fixed_metric[XG_MF_HOST_DOMAINS_CPU], t->ns[0], 0);
	char frag[32];
	for (int r = 0; r < XG_RS_COUNT; r++)
		if (t->measured >> (1 + r) & 1) {
			snprintf(frag, sizeof(frag), "state=\"%s\"", xg_runstate_label[r]);
			series(c, &xg_fixed_metric[XG_MF_HOST_DOMAINS_RS], t->ns[1 + r], 1, frag);
		}
}

static void render_host(struct rctx *c, const struct xg_expo_stats *st)
{
	const struct xg_host *h = &c->s->host;
	const struct xg_metric *fx = xg_fixed_metric;
	series(c, &fx[XG_MF_BUILD], 1, 1, "version=\"" XG_VERSION "\"");
	render_host_info(c);
	if (host_has(h, XG_H_PCPUS))
		series(c, &fx[XG_MF_HOST_PCPUS], h->pcpus, 0);
	if (host_has(h, XG_H_CPU_KHZ))
		series(c, &fx[XG_MF_HOST_CPU_HZ], h->cpu_khz * 1000, 0);
	if (host_has(h, XG_H_MEM)) {
		series(c, &fx[XG_MF_HOST_MEM], h->mem_total, 0);
		series(c, &fx[XG_MF_HOST_MEM_FREE], h->mem_free, 0);
	}
	render_host_domains(c);
	render_host_totals(c, &st->totals);
	series(c, &fx[XG_MF_SAMPLE_TIME], h->real_ns, 0);
	series(c, &fx[XG_MF_SAMPLE_MONO], h->mono_ns, 0);
	if (host_has(h, XG_H_LOST))
		series(c, &fx[XG_MF_LOST], h->lost_records, 0);
	render_collector(c, st);
}

static void render_identity(struct rctx *c)
{
	const struct xg_sample *s = c->s;
	const struct xg_metric *fx = xg_fixed_metric;
	struct xg_strbuf src = { 0 };
	add_label(&src, "source", s->host.source);
	char frag[XG_STATE_FLAGS][32], domid[32];
	for (int k = 0; k < XG_STATE_FLAGS; k++)
		snprintf(frag[k], sizeof(frag[k]), "state=\"%s\"", xg_state_label[k]);
	for (size_t i = 0; i < s->ndom; i++) {
		snprintf(domid, sizeof(domid), "domid=\"%" PRIu32 "\"", s->dom[i].id);
		series(c, &fx[XG_MF_DOMAIN], 1, 3, lab(c, i), domid, src.p);
	}
	for (size_t i = 0; i < s->ndom; i++)
		for (int k = 0; k < XG_STATE_FLAGS; k++)
			series(c, &fx[XG_MF_DOMAIN_STATE], (s->dom[i].state >> k) & 1, 2, lab(c, i), frag[k]);
	/* Says where cache figures came from: only where there are some. */
	for (size_t i = 0; i < s->ndom; i++) {
		const struct xg_dom *d = &s->dom[i];
		if (dom_has(d, XG_F_LLC_REF) || dom_has(d, XG_F_LLC_MISS))
			series(c, &fx[XG_MF_GUEST_REPORTED], d->guest_reported, 1, lab(c, i));
	}
	strbuf_free(&src);
}

static void render_fields(struct rctx *c)
{
	const struct xg_sample *s = c->s;
	for (int f = 0; f < XG_F_COUNT; f++) {
		const struct xg_metric *m = &xg_field_metric[f];
		for (size_t i = 0; i < s->ndom; i++)
			if (dom_has(&s->dom[i], (enum xg_field)f))
				series(c, m, s->dom[i].v[f], 2, lab(c, i), m->label);
	}
	/* Event first, so that each by_mode family's lines stay together. */
	for (int ev = 0; ev < XG_PMU_EVENT_COUNT; ev++)
		for (int w = 0; w < XG_PMU_WHERE_COUNT; w++) {
			const struct xg_metric *m = &xg_pmu_metric[w][ev];
			for (size_t i = 0; i < s->ndom; i++) {
				const struct xg_dom *d = &s->dom[i];
				if ((d->pmu_valid >> (w * XG_PMU_EVENT_COUNT + ev)) & 1)
					series(c, m, d->pmu[w][ev], 2, lab(c, i), m->label);
			}
		}
}

static void render_sockets(struct rctx *c)
{
	static const enum xg_mfam fam[XG_SOCK_EVENT_COUNT] = {
		XG_MF_SOCK_L3_OCC, XG_MF_SOCK_MBM_TOTAL, XG_MF_SOCK_MBM_LOCAL,
	};
	const struct xg_sample *s = c->s;
	char frag[32];
	for (int e = 0; e < XG_SOCK_EVENT_COUNT; e++)
		for (size_t i = 0; i < s->ndom; i++) {
			const struct xg_sock *k = sample_socks(s, &s->dom[i]);
			for (uint32_t j = 0; j < s->dom[i].sock_count; j++) {
				if (!((k[j].valid >> e) & 1))
					continue;
				snprintf(frag, sizeof(frag), "socket=\"%" PRIu32 "\"", k[j].socket);
				series(c, &xg_fixed_metric[fam[e]], k[j].v[e], 2, lab(c, i), frag);
			}
		}
}

static void vcpu_series(struct rctx *c, enum xg_mfam fam, const char *dlab, const struct xg_vcpu *v)
{
	const struct xg_metric *m = &xg_fixed_metric[fam];
	char vf[32], rf[48];
	snprintf(vf, sizeof(vf), "vcpu=\"%" PRIu32 "\"", v->id);
	if (fam == XG_MF_VCPU_ONLINE) {
		series(c, m, v->online, 2, dlab, vf);
	} else if (fam == XG_MF_VCPU_CPU) {
		if (vcpu_has_cpu(v))
			series(c, m, v->cpu_ns, 2, dlab, vf);
	} else {
		for (int r = 0; r < XG_RS_COUNT; r++) {
			if (!vcpu_has_sched(v, (enum xg_runstate)r))
				continue;
			snprintf(rf, sizeof(rf), "state=\"%s\"", xg_runstate_label[r]);
			series(c, m, v->sched_ns[r], 3, dlab, vf, rf);
		}
	}
}

/* The vCPU families, each whole: online, CPU seconds, runstate seconds. */
static void render_vcpus(struct rctx *c)
{
	const struct xg_sample *s = c->s;
	for (int fam = XG_MF_VCPU_ONLINE; fam <= XG_MF_VCPU_RUNSTATE; fam++)
		for (size_t i = 0; i < s->ndom; i++) {
			const struct xg_vcpu *v = sample_vcpus(s, &s->dom[i]);
			for (uint32_t j = 0; j < s->dom[i].vcpu_count; j++)
				vcpu_series(c, (enum xg_mfam)fam, lab(c, i), &v[j]);
		}
}

/* A culprit's label value: its domid (a Linux group's id), idle, or xen
 * (as xgtop trace --behind names them; host on a Linux host, where no
 * hypervisor runs), so a series keeps its name when the culprit is
 * renamed or gone. */
static void behind_label(char *buf, size_t n, uint32_t who, bool on_linux)
{
	if (who == XG_BEHIND_IDLE)
		snprintf(buf, n, "behind=\"idle\"");
	else if (who == XG_BEHIND_XEN)
		snprintf(buf, n, on_linux ? "behind=\"host\"" : "behind=\"xen\"");
	else
		snprintf(buf, n, "behind=\"%" PRIu32 "\"", who);
}

/* Per domain, the top culprits' running totals and 'other', the rest: the
 * source keeps every culprit's total, so a culprit that leaves the top
 * takes its total into 'other' (which never decreases) and its own series
 * ends; one that comes back resumes from its total. */
static void render_wait_behind(struct rctx *c)
{
	const struct xg_sample *s = c->s;
	const struct xg_metric *m = &xg_fixed_metric[XG_MF_WAIT_BEHIND];
	char frag[40];
	for (size_t i = 0; i < s->ndom; i++) {
		const struct xg_waits *w = sample_waits(s, &s->dom[i]);
		if (!w)
			continue;
		uint64_t top = 0;
		for (uint32_t k = 0; k < w->ntop && k < XG_BEHIND_TOP; k++) {
			behind_label(frag, sizeof(frag), w->top[k].who,
				     !strcmp(sample_dom_host(s, &s->dom[i])->source, "linux"));
			series(c, m, w->top[k].ns, 2, lab(c, i), frag);
			top += w->top[k].ns;
		}
		series(c, m, top <= w->total_ns ? w->total_ns - top : 0, 2, lab(c, i), "behind=\"other\"");
	}
}

static void put_le(struct xg_strbuf *b, uint64_t ns)
{
	strbuf_printf(b, "%" PRIu64 ".%09" PRIu64, ns / 1000000000u, ns % 1000000000u);
	/* trailing zeros off, one digit after the point kept */
	while (b->len > 2 && b->p[b->len - 1] == '0' && b->p[b->len - 2] != '.')
		b->len--;
	b->p[b->len] = 0;
}

/* The waits' lengths as a histogram: cumulative buckets by le (seconds),
 * +Inf equal to _count (both the buckets' total), _sum in seconds. */
static void render_wait_latency(struct rctx *c)
{
	const struct xg_sample *s = c->s;
	const struct xg_metric *m = &xg_fixed_metric[XG_MF_WAIT_LATENCY];
	for (size_t i = 0; i < s->ndom; i++) {
		const struct xg_waits *w = sample_waits(s, &s->dom[i]);
		if (!w)
			continue;
		family_open(c, m);
		const char *l = lab(c, i);
		uint64_t cum = 0;
		for (int k = 0; k <= XG_WAIT_LE_N; k++) {
			cum += w->bucket[k];
			strbuf_printf(c->b, "%s_bucket{%s%sle=\"", m->name, l, *l ? "," : "");
			if (k < XG_WAIT_LE_N)
				put_le(c->b, xg_wait_le_ns[k]);
			else
				strbuf_puts(c->b, "+Inf");
			strbuf_printf(c->b, "\"} %" PRIu64 "\n", cum);
		}
		strbuf_printf(c->b, "%s_sum%s%s%s ", m->name, *l ? "{" : "", l, *l ? "}" : "");
		put_value(c->b, m, w->sum_ns);
		strbuf_printf(c->b, "\n%s_count%s%s%s %" PRIu64 "\n", m->name, *l ? "{" : "", l, *l ? "}" : "",
			      cum);
	}
}

/* The CPI2 verdicts: only where a domain was judged (absent, not 0, where
 * no counters measure it or its baseline is still learned). */
static void render_victims(struct rctx *c, const int8_t *victim)
{
	for (size_t i = 0; victim && i < c->s->ndom; i++)
		if (victim[i] >= 0)
			series(c, &xg_fixed_metric[XG_MF_CACHE_VICTIM], (uint64_t)victim[i], 1, lab(c, i));
}

void expo_render(struct xg_strbuf *b, enum xg_expo_fmt fmt, const struct xg_sample *s, const int8_t *victim,
		 const struct xg_expo_stats *st)
{
	struct rctx c = { .b = b, .fmt = fmt, .s = s };
	domain_labels(&c);
	render_host(&c, st);
	render_identity(&c);
	render_fields(&c);
	render_sockets(&c);
	render_wait_behind(&c);
	render_wait_latency(&c);
	render_victims(&c, victim);
	render_vcpus(&c);
	if (fmt == XG_EXPO_OPENMETRICS)
		strbuf_puts(b, "# EOF\n");
	strbuf_free(&c.labels);
	free(c.dlab);
}
