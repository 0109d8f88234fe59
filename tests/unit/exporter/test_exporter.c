// SPDX-License-Identifier: GPL-2.0-or-later
/* The exporter's pure parts: the metric table and the column table agree
 * (each column points at the field it is computed from), the rendering of
 * both formats (absent never 0, exact values, escaping, unique series), the
 * Accept negotiation and the --export address. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xgtop/compute/metrics.h"
#include "xgtop/exporter/exporter.h"
#include "xgtop/exporter/render.h"

#define NS 1000000000ull

static bool name_ok(const char *n)
{
	if (strncmp(n, "xgtop_", 6))
		return false;
	for (const char *p = n; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_'))
			return false;
	size_t l = strlen(n);
	return l < 6 || strcmp(n + l - 6, "_total");
}

/* The order the renderer walks the per-domain entries in. */
static const struct xg_metric *walk(size_t k)
{
	if (k < XG_F_COUNT)
		return &xg_field_metric[k];
	k -= XG_F_COUNT;
	if (k >= XG_PMU_WHERE_COUNT * XG_PMU_EVENT_COUNT)
		return NULL;
	return &xg_pmu_metric[k % XG_PMU_WHERE_COUNT][k / XG_PMU_WHERE_COUNT];
}

/* The gauges among the sample's fields (G in sample.h's enum xg_field);
 * every other field is a cumulative counter. */
/* The field a per-domain metric entry stands for: the entry's place in
 * xg_field_metric, or in xg_pmu_metric with *where and *ev. */
static bool metric_is_field(const struct xg_metric *m, enum xg_field *f)
{
	for (int k = 0; k < XG_F_COUNT; k++)
		if (m == &xg_field_metric[k]) {
			*f = (enum xg_field)k;
			return true;
		}
	return false;
}

static bool metric_is_pmu(const struct xg_metric *m, enum xg_pmu_where *where, enum xg_pmu_event *ev)
{
	for (int w = 0; w < XG_PMU_WHERE_COUNT; w++)
		for (int e = 0; e < XG_PMU_EVENT_COUNT; e++)
			if (m == &xg_pmu_metric[w][e]) {
				*where = (enum xg_pmu_where)w;
				*ev = (enum xg_pmu_event)e;
				return true;
			}
	return false;
}

static bool is_gauge(enum xg_field f)
{
	static const enum xg_field gauges[] = {
		XG_F_VCPUS, XG_F_VCPUS_MAX, XG_F_MEM, XG_F_MAXMEM, XG_F_NETS, XG_F_VBDS,
		XG_F_L3_OCC, XG_F_SSID, XG_F_SWAP, XG_F_BEHIND_WAIT_NS, XG_F_BEHIND_NS, XG_F_BEHIND_ID,
		XG_F_WAIT_P50_NS, XG_F_WAIT_P99_NS,
	};
	for (size_t i = 0; i < XG_ARRAY_LEN(gauges); i++)
		if (gauges[i] == f)
			return true;
	return false;
}

static void table_is_consistent(void **state)
{
	(void)state;
	const struct xg_metric *m, *prev = NULL;
	for (size_t k = 0; (m = walk(k)); k++, prev = m) {
		assert_non_null(m->name);
		assert_true(name_ok(m->name));
		bool same = prev && !strcmp(prev->name, m->name);
		/* A family's first member carries the HELP, the others none, and
		 * a shared family's members are told apart by a label. */
		assert_true(same ? !m->help && m->label && prev->label && m->type == prev->type : m->help != NULL);
		/* A family comes back only right after itself. */
		for (size_t j = 0; !same && j < k; j++)
			assert_string_not_equal(walk(j)->name, m->name);
		for (int f = 0; f < XG_MF_COUNT; f++)
			assert_string_not_equal(xg_fixed_metric[f].name, m->name);
		enum xg_field fld;
		if (metric_is_field(m, &fld))
			assert_int_equal(m->type == XG_MT_COUNTER, !is_gauge(fld));
	}
	for (int f = 0; f < XG_MF_COUNT; f++) {
		assert_true(name_ok(xg_fixed_metric[f].name));
		assert_non_null(xg_fixed_metric[f].help);
		for (int g = 0; g < f; g++)
			assert_string_not_equal(xg_fixed_metric[g].name, xg_fixed_metric[f].name);
	}
}

/* Every domain field valid, with values that make every column computable. */
static void full_dom(struct xg_sample *s, uint64_t k)
{
	s->host.mono_ns = (10 + k) * NS;
	s->host.mem_total = 64ull << 30;
	host_mark(&s->host, XG_H_MEM);
	struct xg_dom *d = sample_add_dom(s, 7);
	snprintf(d->name, sizeof(d->name), "vm");
	for (int f = 0; f < XG_F_COUNT; f++)
		dom_set(d, (enum xg_field)f, (f + 1) * 1000000 * (is_gauge((enum xg_field)f) ? 1 : k + 1));
	dom_set(d, XG_F_CPU_NS, (k + 1) * NS / 2);
	dom_set(d, XG_F_LLC_REF, (k + 1) * 100000000);
	dom_set(d, XG_F_LLC_MISS, (k + 1) * 10000000);
	for (int r = 0; r < XG_RS_COUNT; r++)
		dom_set(d, sched_field((enum xg_runstate)r), (k + 1) * NS / (r + 2));
	for (int w = 0; w < XG_PMU_WHERE_COUNT; w++)
		for (int e = 0; e < XG_PMU_EVENT_COUNT; e++)
			/* Events and hit ratios that differ per where. */
			d->pmu[w][e] = (k + 1) * (uint64_t)(e == XG_PMU_REF ? 10000 * (w + 1) :
							    e == XG_PMU_MISS ? 100 * (w + 1) * (w + 1) : 1000 * (e + w));
	d->pmu_valid = (1ull << (XG_PMU_WHERE_COUNT * XG_PMU_EVENT_COUNT)) - 1;
}

/* The value of metric m in domain 0 of s, in the metric's base unit. */
static double mval(const struct xg_sample *s, const struct xg_metric *m)
{
	enum xg_field f;
	enum xg_pmu_where w;
	enum xg_pmu_event e;
	double v = metric_is_field(m, &f) ? (double)s->dom[0].v[f] : 0;
	if (metric_is_pmu(m, &w, &e))
		v = (double)s->dom[0].pmu[w][e];
	for (unsigned i = 0; i < m->decimals; i++)
		v /= 10;
	return v;
}

/* A column's figure as doc/exporter.md's PromQL gets it from the metric the
 * column names (xg_coldef.metric): rate() is the difference over the time
 * between the samples. */
static double promql(int c, const struct xg_sample *a, const struct xg_sample *b)
{
	const struct xg_metric *m = xg_columns[c].metric;
	double dt = (double)(b->host.mono_ns - a->host.mono_ns) / NS, rate = (mval(b, m) - mval(a, m)) / dt;
#define RATE(f) ((mval(b, f) - mval(a, f)) / dt)
	switch (c) {
	case XG_COL_CPU_PCT: case XG_COL_EMU: case XG_COL_POLL:
	case XG_COL_CPU_PSI: case XG_COL_MEM_PSI: case XG_COL_IO_PSI:
	case XG_COL_CPU_PSI_FULL: case XG_COL_MEM_PSI_FULL: case XG_COL_IO_PSI_FULL:
		return 100 * rate;
	case XG_COL_MEM_PCT:
		return 100 * mval(b, m) / (double)b->host.mem_total;
	case XG_COL_RUN: case XG_COL_WAIT: case XG_COL_BLK: case XG_COL_OFF: {
		double all = 0;
		for (int r = 0; r < XG_RS_COUNT; r++)
			all += RATE(&xg_field_metric[sched_field((enum xg_runstate)r)]);
		return 100 * rate / all;
	}
	case XG_COL_BEHIND: case XG_COL_BEHIND_PCT:   /* the top culprit's share of the waits */
		return 100 * mval(b, m) / mval(b, &xg_field_metric[XG_F_BEHIND_WAIT_NS]);
	case XG_COL_WAIT_P50: case XG_COL_WAIT_P99:   /* seconds, shown in ms */
		return 1000 * mval(b, m);
	case XG_COL_HIT:
		return 100 * (1 - RATE(&xg_field_metric[XG_F_LLC_MISS]) / rate);
	case XG_COL_MPKI:
		return 1000 * RATE(&xg_field_metric[XG_F_LLC_MISS]) / rate;
	case XG_COL_HIT_GU: case XG_COL_HIT_GK: case XG_COL_HIT_H:
		return 100 * (1 - RATE(m + (XG_PMU_MISS - XG_PMU_REF)) / rate);
	}
#undef RATE
	switch (xg_columns[c].unit) {
	case XG_UNIT_BPS: case XG_UNIT_PER_S:
		return rate;
	default:
		return mval(b, m);
	}
}

/* Every column is what PromQL gets from the metric it names: the exporter
 * publishes what the screen computes from, and a column pointing at the
 * wrong field (WAIT% at blocked_ns) fails here. */
static void columns_point_at_their_field(void **state)
{
	(void)state;
	struct xg_sample a, b;
	struct xg_table t = { 0 };
	sample_init(&a);
	sample_init(&b);
	full_dom(&a, 0);
	full_dom(&b, 1);
	b.host.mono_ns += NS / 4;
	for (int r = 0; r < XG_RS_COUNT; r++)   /* shares that differ per state */
		b.dom[0].v[sched_field((enum xg_runstate)r)] += (uint64_t)r * NS / 10;
	metrics_compute_rows(&a, &b, 0, &t);
	for (int c = 0; c < XG_COL_COUNT; c++) {
		const struct xg_metric *m = xg_columns[c].metric;
		enum xg_field f;
		enum xg_pmu_where w;
		enum xg_pmu_event e;
		if (!col_has_value((enum xg_col)c)) {   /* TREND: a drawing, nothing to export */
			assert_null(m);
			continue;
		}
		if (xg_columns[c].group == XG_GRP_CONTENTION) {
			/* VICTIM: the monitor's verdict over windows, its own gauge
			 * (tests/exporter/test_victim.sh scrapes it) */
			assert_ptr_equal(m, &xg_fixed_metric[XG_MF_CACHE_VICTIM]);
			continue;
		}
		assert_non_null(m);
		if (c == XG_COL_HOST) {   /* the pool view's host: a scrape target */
			assert_ptr_equal(m, &xg_fixed_metric[XG_MF_HOST]);
			continue;
		}
		if (c == XG_COL_ID || c == XG_COL_NAME || c == XG_COL_STATE) {
			assert_ptr_equal(m, &xg_fixed_metric[c == XG_COL_STATE ? XG_MF_DOMAIN_STATE : XG_MF_DOMAIN]);
			continue;
		}
		assert_true(metric_is_field(m, &f) || metric_is_pmu(m, &w, &e));
		assert_true(row_has(&t.rows[0], (enum xg_col)c));
		double want = promql(c, &a, &b), got = t.rows[0].v[c];
		if (fabs(want - got) > 1e-9 * fabs(want))
			fail_msg("column %s: %.12g, but %s gives %.12g", xg_columns[c].header, got, m->name, want);
	}
	table_free(&t);
	sample_free(&a);
	sample_free(&b);
}

static char *render(const struct xg_sample *s, enum xg_expo_fmt fmt)
{
	struct xg_strbuf b = { 0 };
	struct xg_expo_stats st = { .refreshes = 3, .self_cpu_ns = 1500000000 };
	st.up[XG_CL_SOURCE] = true;
	expo_render(&b, fmt, s, NULL, &st);
	return b.p;
}

static size_t count(const char *hay, const char *needle)
{
	size_t n = 0;
	for (const char *p = hay; (p = strstr(p, needle)); p++)
		n++;
	return n;
}

/* Each text of has[] occurs in t and none of lacks[] does (NULL-terminated). */
static void check_text(const char *t, const char *const *has, const char *const *lacks)
{
	for (; has && *has; has++)
		if (!strstr(t, *has))
			fail_msg("missing: %s", *has);
	for (; lacks && *lacks; lacks++)
		if (strstr(t, *lacks))
			fail_msg("there but should not be: %s", *lacks);
}

static void absent_never_zero(void **state)
{
	(void)state;
	struct xg_sample s;
	sample_init(&s);
	struct xg_dom *d = sample_add_dom(&s, 1);
	snprintf(d->name, sizeof(d->name), "only-cpu");
	dom_set(d, XG_F_CPU_NS, 1234567890123ull);
	dom_set(d, XG_F_MAXMEM, UINT64_MAX);
	d->state = XG_ST_BLOCKED;
	char *t = render(&s, XG_EXPO_TEXT);
	static const char *const has[] = {
		"\nxgtop_domain_cpu_seconds_total{domain=\"only-cpu\"} 1234.567890123\n",
		"\nxgtop_domain_memory_max_bytes{domain=\"only-cpu\"} +Inf\n",
		"\nxgtop_domain_state{domain=\"only-cpu\",state=\"blocked\"} 1\n",
		"\nxgtop_domain_state{domain=\"only-cpu\",state=\"running\"} 0\n",
		NULL,
	};
	/* Unmeasured: no series and no family header either. */
	static const char *const lacks[] = {
		"network", "runstate", "llc", "guest_reported", "xgtop_host_pcpus", "lost_records", "uuid=", NULL,
	};
	check_text(t, has, lacks);
	free(t);
	sample_free(&s);
}

/* xgtop_host_domains: each domain once, under its first flag in xentop's
 * priority (running, blocked, paused, shutdown, crashed, dying), every
 * state's line even at 0, a domain with no flag in none. */
static void host_domains_by_first_flag(void **state)
{
	(void)state;
	static const uint32_t st[] = {
		XG_ST_RUNNING | XG_ST_PAUSED, XG_ST_BLOCKED | XG_ST_SHUTDOWN, XG_ST_BLOCKED,
		XG_ST_PAUSED | XG_ST_DYING, XG_ST_SHUTDOWN | XG_ST_CRASHED | XG_ST_DYING, XG_ST_DYING, 0,
	};
	struct xg_sample s;
	sample_init(&s);
	for (size_t i = 0; i < XG_ARRAY_LEN(st); i++) {
		struct xg_dom *d = sample_add_dom(&s, (uint32_t)i + 1);
		snprintf(d->name, sizeof(d->name), "d%zu", i);
		d->state = st[i];
	}
	char *t = render(&s, XG_EXPO_TEXT);
	static const char *const has[] = {
		"\nxgtop_host_domains{state=\"running\"} 1\n", "\nxgtop_host_domains{state=\"blocked\"} 2\n",
		"\nxgtop_host_domains{state=\"paused\"} 1\n", "\nxgtop_host_domains{state=\"shutdown\"} 1\n",
		"\nxgtop_host_domains{state=\"crashed\"} 0\n", "\nxgtop_host_domains{state=\"dying\"} 1\n",
		NULL,
	};
	check_text(t, has, NULL);
	free(t);
	sample_free(&s);
}

/* One step of host_totals_accumulate: domains { id, gen, CPU ms, the four
 * runstates' ms (-1: not measured) }, CPU -1: not measured either. */
struct tot_dom {
	uint32_t id, gen;
	int64_t cpu_ms, rs_ms[XG_RS_COUNT];
};

static char *step_and_render(struct xg_expo_stats *st, const struct tot_dom *doms, size_t n)
{
	struct xg_sample s;
	sample_init(&s);
	for (size_t i = 0; i < n; i++) {
		struct xg_dom *d = sample_add_dom(&s, doms[i].id);
		snprintf(d->name, sizeof(d->name), "d%u", (unsigned)doms[i].id);
		d->gen = doms[i].gen;
		if (doms[i].cpu_ms >= 0)
			dom_set(d, XG_F_CPU_NS, (uint64_t)doms[i].cpu_ms * 1000000);
		for (int r = 0; r < XG_RS_COUNT; r++)
			if (doms[i].rs_ms[r] >= 0)
				dom_set(d, sched_field((enum xg_runstate)r), (uint64_t)doms[i].rs_ms[r] * 1000000);
	}
	expo_totals_step(&st->totals, &s);
	struct xg_strbuf b = { 0 };
	expo_render(&b, XG_EXPO_TEXT, &s, NULL, st);
	sample_free(&s);
	return b.p;
}

/* xgtop_host_domains_cpu_seconds_total and _runstate_seconds_total: each
 * domain's growth between consecutive samples, summed; nothing for the
 * step a domain is new, restarted (gen) or its counter went back in; a
 * gone domain stops adding; no family where no domain measures it. */
static void host_totals_accumulate(void **state)
{
	(void)state;
	struct xg_expo_stats st = { 0 };
	static const struct tot_dom s1[] = {
		{ 1, 0, 10000, { 5000, 1000, 4000, 0 } }, { 2, 0, 3000, { 3000, -1, -1, -1 } },
		{ 4, 0, 5000, { -1, -1, -1, -1 } },
	};
	char *t = step_and_render(&st, s1, XG_ARRAY_LEN(s1));
	static const char *const has1[] = {
		"\nxgtop_host_domains_cpu_seconds_total 0.000000000\n",
		"\nxgtop_host_domains_runstate_seconds_total{state=\"running\"} 0.000000000\n",
		"\nxgtop_host_domains_runstate_seconds_total{state=\"offline\"} 0.000000000\n",
		"# TYPE xgtop_host_domains_cpu_seconds_total counter\n", NULL,
	};
	check_text(t, has1, NULL);
	free(t);
	/* 1 grows; 2 went back; 3 is new; 4 grows by 2 s. */
	static const struct tot_dom s2[] = {
		{ 1, 0, 12000, { 6000, 1500, 4500, 0 } }, { 2, 0, 1000, { 4000, -1, -1, -1 } },
		{ 3, 0, 100000, { 100000, 100000, 100000, 100000 } }, { 4, 0, 7000, { -1, -1, -1, -1 } },
	};
	t = step_and_render(&st, s2, XG_ARRAY_LEN(s2));
	static const char *const has2[] = {
		"\nxgtop_host_domains_cpu_seconds_total 4.000000000\n",
		"\nxgtop_host_domains_runstate_seconds_total{state=\"running\"} 2.000000000\n",
		"\nxgtop_host_domains_runstate_seconds_total{state=\"runnable\"} 0.500000000\n",
		"\nxgtop_host_domains_runstate_seconds_total{state=\"blocked\"} 0.500000000\n",
		"\nxgtop_host_domains_runstate_seconds_total{state=\"offline\"} 0.000000000\n", NULL,
	};
	check_text(t, has2, NULL);
	free(t);
	/* 1 grows by 1 s; 2 grows from where it went back to; 3 is gone;
	 * 4 restarted under its id (gen 1), from higher: nothing. */
	static const struct tot_dom s3[] = {
		{ 1, 0, 13000, { 6250, 1750, 5000, 0 } }, { 2, 0, 1500, { 4500, -1, -1, -1 } },
		{ 4, 1, 9000, { -1, -1, -1, -1 } },
	};
	t = step_and_render(&st, s3, XG_ARRAY_LEN(s3));
	static const char *const has3[] = {
		"\nxgtop_host_domains_cpu_seconds_total 5.500000000\n",
		"\nxgtop_host_domains_runstate_seconds_total{state=\"running\"} 2.750000000\n",
		"\nxgtop_host_domains_runstate_seconds_total{state=\"runnable\"} 0.750000000\n",
		"\nxgtop_host_domains_runstate_seconds_total{state=\"blocked\"} 1.000000000\n", NULL,
	};
	check_text(t, has3, NULL);
	free(t);
	/* No runstate measured, no offline: those families' lines go. */
	static const struct tot_dom s4[] = { { 1, 0, 14000, { -1, -1, -1, -1 } } };
	t = step_and_render(&st, s4, XG_ARRAY_LEN(s4));
	static const char *const has4[] = { "\nxgtop_host_domains_cpu_seconds_total 6.500000000\n", NULL };
	static const char *const lacks4[] = { "host_domains_runstate", NULL };
	check_text(t, has4, lacks4);
	free(t);
	/* Nothing measured: no family at all, not 0. */
	static const struct tot_dom s5[] = { { 1, 0, -1, { -1, -1, -1, -1 } } };
	t = step_and_render(&st, s5, XG_ARRAY_LEN(s5));
	static const char *const lacks5[] = { "host_domains_cpu", "host_domains_runstate", NULL };
	check_text(t, NULL, lacks5);
	free(t);
	/* Measured again: the sum kept, the domain's gap not counted. */
	static const struct tot_dom s6[] = { { 1, 0, 20000, { -1, -1, 7000, -1 } } };
	t = step_and_render(&st, s6, XG_ARRAY_LEN(s6));
	static const char *const has6[] = {
		"\nxgtop_host_domains_cpu_seconds_total 6.500000000\n",
		"\nxgtop_host_domains_runstate_seconds_total{state=\"blocked\"} 1.000000000\n", NULL,
	};
	static const char *const lacks6[] = { "runstate_seconds_total{state=\"running\"}",
					      "runstate_seconds_total{state=\"offline\"}", NULL };
	check_text(t, has6, lacks6);
	free(t);
	expo_totals_free(&st.totals);
}

static void formats_differ_in_headers_only(void **state)
{
	(void)state;
	struct xg_sample s;
	sample_init(&s);
	full_dom(&s, 0);
	memset(s.dom[0].handle, 0xab, 16);
	char *t = render(&s, XG_EXPO_TEXT), *o = render(&s, XG_EXPO_OPENMETRICS);
	assert_int_equal(count(t, "# TYPE xgtop_domain_cpu_seconds_total counter\n"), 1);
	assert_int_equal(count(o, "# TYPE xgtop_domain_cpu_seconds counter\n"), 1);
	assert_int_equal(count(o, "# UNIT xgtop_domain_cpu_seconds seconds\n"), 1);
	assert_int_equal(count(t, "# TYPE xgtop_domain_info gauge\n"), 1);
	assert_int_equal(count(o, "# TYPE xgtop_domain info\n"), 1);
	assert_int_equal(count(t, "# TYPE xgtop_domain_runstate_seconds_total counter\n"), 1);
	assert_int_equal(count(t, "xgtop_domain_runstate_seconds_total{"), XG_RS_COUNT);
	assert_int_equal(count(t, "xgtop_domain_llc_misses_by_mode_total{"), XG_PMU_WHERE_COUNT);
	assert_null(strstr(t, "# EOF"));
	assert_int_equal(strcmp(o + strlen(o) - 6, "# EOF\n"), 0);
	assert_non_null(strstr(t, "uuid=\"abababab-abab-abab-abab-abababababab\""));
	/* The sample lines are the same in both. */
	char *lt = t, *lo = o;
	for (;;) {
		while (*lt == '#')
			lt = strchr(lt, '\n') + 1;
		while (*lo == '#' && strncmp(lo, "# EOF", 5))
			lo = strchr(lo, '\n') + 1;
		if (!*lt || !strncmp(lo, "# EOF", 5))
			break;
		size_t n = (size_t)(strchr(lt, '\n') - lt) + 1;
		assert_memory_equal(lt, lo, n);
		lt += n;
		lo += n;
	}
	assert_int_equal(*lt, 0);
	assert_int_equal(strncmp(lo, "# EOF", 5), 0);
	free(t);
	free(o);
	sample_free(&s);
}

static void hostile_names_are_escaped(void **state)
{
	(void)state;
	static const struct { const char *raw, *label; } cases[] = {
		{ "a\"b", "a\\\"b" },
		{ "back\\slash", "back\\\\\\\\slash" },           /* shown \\, then escaped */
		{ "new\nline", "new\\\\x0aline" },                 /* shown \x0a */
		{ "utf8-\xc3(-01", "utf8-\\\\xc3(-01" },
		{ "ctl\x1b[2J\x07", "ctl\\\\x1b[2J\\\\x07" },
		{ "caf\xc3\xa9", "caf\xc3\xa9" },                  /* valid UTF-8 stays */
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct xg_sample s;
		sample_init(&s);
		struct xg_dom *d = sample_add_dom(&s, 1);
		snprintf(d->name, sizeof(d->name), "%s", cases[i].raw);
		dom_set(d, XG_F_CPU_NS, 1);
		char *t = render(&s, XG_EXPO_TEXT), want[64];
		snprintf(want, sizeof(want), "{domain=\"%s\"}", cases[i].label);
		if (!strstr(t, want))
			fail_msg("no %s in:\n%s", want, t);
		free(t);
		sample_free(&s);
	}
}

static void twins_get_an_id(void **state)
{
	(void)state;
	struct xg_sample s;
	sample_init(&s);
	for (uint32_t id = 1; id <= 3; id++) {
		struct xg_dom *d = sample_add_dom(&s, id);
		snprintf(d->name, sizeof(d->name), id < 3 ? "bash" : "sshd");
		dom_set(d, XG_F_CPU_NS, id);
	}
	char *t = render(&s, XG_EXPO_TEXT);
	static const char *const has[] = {
		"\nxgtop_domain_cpu_seconds_total{domain=\"bash\",id=\"1\"} ",
		"\nxgtop_domain_cpu_seconds_total{domain=\"bash\",id=\"2\"} ",
		"\nxgtop_domain_cpu_seconds_total{domain=\"sshd\"} ",
		NULL,
	};
	check_text(t, has, NULL);
	free(t);
	sample_free(&s);
}

static void vcpus_and_host(void **state)
{
	(void)state;
	struct xg_sample s;
	sample_init(&s);
	struct xg_dom *d = sample_add_dom(&s, 2);
	snprintf(d->name, sizeof(d->name), "v");
	struct xg_vcpu *v = sample_add_vcpus(&s, d, 2);
	v[1].id = 1;
	v[1].online = 1;
	v[1].valid = XG_VCPU_CPU_VALID | (1u << XG_RS_RUNNABLE);
	v[1].cpu_ns = 5;
	v[1].sched_ns[XG_RS_RUNNABLE] = 2500000000ull;
	snprintf(s.host.hypervisor, sizeof(s.host.hypervisor), "Xen 4.17.7");
	snprintf(s.host.source, sizeof(s.host.source), "xen");
	s.host.pcpus = 8;
	host_mark(&s.host, XG_H_PCPUS);
	char *t = render(&s, XG_EXPO_TEXT);
	static const char *const has[] = {
		"\nxgtop_vcpu_online{domain=\"v\",vcpu=\"0\"} 0\n",
		"\nxgtop_vcpu_cpu_seconds_total{domain=\"v\",vcpu=\"1\"} 0.000000005\n",
		"\nxgtop_vcpu_runstate_seconds_total{domain=\"v\",vcpu=\"1\",state=\"runnable\"} 2.500000000\n",
		"\nxgtop_host_info{source=\"xen\",hypervisor=\"Xen\",version=\"4.17.7\"} 1\n",
		"\nxgtop_host_pcpus 8\n",
		"\nxgtop_collector_refreshes_total 3\n",
		"\nxgtop_collector_cpu_seconds_total 1.500000000\n",
		"\nxgtop_collector_up{collector=\"source\"} 1\n",
		"\nxgtop_collector_up{collector=\"pmu\"} 0\n",
		NULL,
	};
	static const char *const lacks[] = { "xgtop_vcpu_cpu_seconds_total{domain=\"v\",vcpu=\"0\"}", NULL };
	check_text(t, has, lacks);
	assert_int_equal(count(t, "xgtop_vcpu_runstate_seconds_total{"), 1);
	free(t);
	sample_free(&s);
}

static void negotiation(void **state)
{
	(void)state;
	static const struct { const char *accept; enum xg_expo_fmt want; } cases[] = {
		/* What Prometheus 2.42 sends. */
		{ "application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;q=0.75,"
		  "text/plain;version=0.0.4;q=0.5,*/*;q=0.1", XG_EXPO_OPENMETRICS },
		{ NULL, XG_EXPO_TEXT },
		{ "", XG_EXPO_TEXT },
		{ "*/*", XG_EXPO_TEXT },
		{ "text/plain", XG_EXPO_TEXT },
		{ "application/openmetrics-text", XG_EXPO_OPENMETRICS },
		{ "application/openmetrics-text; q=0.2, text/plain; q=0.9", XG_EXPO_TEXT },
		{ "text/plain;q=0.5 , Application/OpenMetrics-Text ;q=0.6", XG_EXPO_OPENMETRICS },
		{ "application/openmetrics-text;q=0", XG_EXPO_TEXT },
		{ "image/png, application/json", XG_EXPO_TEXT },
		{ ";;;,,,q=1;", XG_EXPO_TEXT },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		if (expo_negotiate(cases[i].accept) != cases[i].want)
			fail_msg("Accept: %s", cases[i].accept ? cases[i].accept : "(none)");
}

static void listen_address(void **state)
{
	(void)state;
	struct xg_listen at;
	struct xg_err err;
	assert_int_equal(exporter_parse_listen("9717", &at, &err), 0);
	assert_string_equal(at.host, "127.0.0.1");
	assert_int_equal(at.port, 9717);
	assert_int_equal(exporter_parse_listen("0.0.0.0:0", &at, &err), 0);
	assert_string_equal(at.host, "0.0.0.0");
	assert_int_equal(at.port, 0);
	assert_int_equal(exporter_parse_listen("[::1]:9717", &at, &err), 0);
	assert_string_equal(at.host, "::1");
	assert_int_equal(exporter_parse_listen("localhost:80", &at, &err), 0);
	assert_string_equal(at.host, "localhost");
	static const char *const bad[] = { "::1:9717", "65536", "x:", ":9717", "[::1:9717", "-1", "", "[]:1" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (exporter_parse_listen(bad[i], &at, &err) == 0)
			fail_msg("'%s' accepted", bad[i]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(table_is_consistent),
		cmocka_unit_test(columns_point_at_their_field),
		cmocka_unit_test(absent_never_zero),
		cmocka_unit_test(host_domains_by_first_flag),
		cmocka_unit_test(host_totals_accumulate),
		cmocka_unit_test(formats_differ_in_headers_only),
		cmocka_unit_test(hostile_names_are_escaped),
		cmocka_unit_test(twins_get_an_id),
		cmocka_unit_test(vcpus_and_host),
		cmocka_unit_test(negotiation),
		cmocka_unit_test(listen_address),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
