// SPDX-License-Identifier: GPL-2.0-or-later
/* Rates between samples: CPU%, sched split, cache ratios, and the baseline
 * rules (new domain, vanished domain, id reuse, rename, counter reset);
 * per-socket CMT/MBM rows and where the view puts them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "xgtop/compute/metrics.h"
#include "xgtop/view/view.h"

#define NS 1000000000ull

static struct xg_dom *dom(struct xg_sample *s, uint32_t id, const char *name, uint64_t cpu_ns)
{
	struct xg_dom *d = sample_add_dom(s, id);
	snprintf(d->name, sizeof(d->name), "%s", name);
	dom_set(d, XG_F_CPU_NS, cpu_ns);
	return d;
}

static void host(struct xg_sample *s, uint64_t t_ns)
{
	s->host.mono_ns = t_ns;
	s->host.mem_total = 1000;
	s->host.valid |= 1u << XG_H_MEM;
}

/* Two samples at t0 and t1 (0: leave the host part empty). */
static void pair_init(struct xg_sample *a, struct xg_sample *b, uint64_t t0, uint64_t t1)
{
	sample_init(a);
	sample_init(b);
	if (t0)
		host(a, t0);
	if (t1)
		host(b, t1);
}

static void pair_free(struct xg_sample *a, struct xg_sample *b, struct xg_table *t)
{
	table_free(t);
	sample_free(a);
	sample_free(b);
}

static bool valid(const struct xg_row *r, enum xg_col c) { return (r->valid >> c) & 1; }

static void cpu_pct_and_first_sample(void **state)
{
	(void)state;
	struct xg_sample a, b;
	struct xg_table t = { 0 };
	pair_init(&a, &b, 10 * NS, 12 * NS);   /* 2 s apart */
	dom(&a, 0, "Domain-0", 5 * NS);
	dom(&b, 0, "Domain-0", 6 * NS);  /* +1 s of CPU: 50 % */
	dom_set(&b.dom[0], XG_F_MEM, 250);

	metrics_compute_rows(NULL, &a, 0, &t);
	assert_false(valid(&t.rows[0], XG_COL_CPU_PCT));
	assert_int_equal(t.rows[0].why[XG_COL_CPU_PCT], XG_WHY_FIRST);
	assert_non_null(row_why(&t, &t.rows[0], XG_COL_CPU_PCT));
	assert_true(valid(&t.rows[0], XG_COL_CPU_S));
	assert_float_equal(t.rows[0].v[XG_COL_CPU_S], 5.0, 1e-9);

	metrics_compute_rows(&a, &b, 0, &t);
	assert_true(valid(&t.rows[0], XG_COL_CPU_PCT));
	assert_float_equal(t.rows[0].v[XG_COL_CPU_PCT], 50.0, 1e-9);
	assert_float_equal(t.rows[0].v[XG_COL_MEM_PCT], 25.0, 1e-9);
	assert_float_equal(t.sum.interval_s, 2.0, 1e-9);
	/* Memory unmeasured in a: still a gauge, no baseline needed. */
	assert_true(valid(&t.rows[0], XG_COL_MEM));
	/* Never measured fields carry no value. */
	assert_false(valid(&t.rows[0], XG_COL_NET_RX));
	pair_free(&a, &b, &t);
}

static void baseline_resets(void **state)
{
	(void)state;
	struct xg_sample a, b;
	struct xg_table t = { 0 };
	pair_init(&a, &b, 1 * NS, 2 * NS);
	dom(&a, 1, "web", 100 * NS);
	dom(&a, 2, "db", 100 * NS);
	dom(&a, 3, "old-name", 100 * NS);
	struct xg_dom *d4 = dom(&a, 4, "mail", 100 * NS);
	d4->handle[0] = 0xaa;
	dom(&a, 9, "vanishes", 1 * NS);

	dom(&b, 1, "web", 99 * NS);           /* counter went backwards */
	dom(&b, 2, "db", 100 * NS + NS / 4);  /* 25 % */
	dom(&b, 3, "new-name", 200 * NS);     /* renamed: new baseline */
	struct xg_dom *e4 = dom(&b, 4, "mail", 1 * NS);
	e4->handle[0] = 0xbb;                 /* id reused by another domain */
	dom(&b, 70000, "new", 3 * NS);        /* appeared; id past any array */

	metrics_compute_rows(&a, &b, 0, &t);
	assert_int_equal(t.n, 5);
	assert_int_equal(t.rows[0].why[XG_COL_CPU_PCT], XG_WHY_RESET);
	assert_float_equal(t.rows[1].v[XG_COL_CPU_PCT], 25.0, 1e-9);
	assert_false(valid(&t.rows[2], XG_COL_CPU_PCT));
	assert_int_equal(t.rows[2].why[XG_COL_CPU_PCT], XG_WHY_RESET);
	assert_false(valid(&t.rows[3], XG_COL_CPU_PCT));
	assert_int_equal(t.rows[3].why[XG_COL_CPU_PCT], XG_WHY_RESET);
	assert_int_equal(t.rows[4].id, 70000);
	assert_int_equal(t.rows[4].why[XG_COL_CPU_PCT], XG_WHY_FIRST);
	for (size_t i = 0; i < t.n; i++)
		if (valid(&t.rows[i], XG_COL_CPU_PCT))
			assert_true(t.rows[i].v[XG_COL_CPU_PCT] >= 0);
	pair_free(&a, &b, &t);
}

static void sched_split_and_cache(void **state)
{
	(void)state;
	struct xg_sample a, b;
	struct xg_table t = { 0 };
	pair_init(&a, &b, 0, NS);
	struct xg_dom *x = dom(&a, 5, "x", 0), *y = dom(&b, 5, "x", NS / 2);
	/* Every state a different share, so two states swapped show. */
	uint64_t s0[4] = { 10, 10, 10, 10 }, s1[4] = { 10 + 600, 10 + 250, 10 + 150, 10 };
	for (int i = 0; i < 4; i++) {
		dom_set(x, XG_F_RUN_NS + i, s0[i]);
		dom_set(y, XG_F_RUN_NS + i, s1[i]);
	}
	dom_set(x, XG_F_LLC_REF, 1000);
	dom_set(x, XG_F_LLC_MISS, 100);
	dom_set(x, XG_F_INSTR, 0);
	dom_set(y, XG_F_LLC_REF, 1000 + 400);
	dom_set(y, XG_F_LLC_MISS, 100 + 100);
	dom_set(y, XG_F_INSTR, 50000);
	x->pmu_valid = y->pmu_valid = (1u << (XG_PMU_HOST * XG_PMU_EVENT_COUNT + XG_PMU_REF)) |
				      (1u << (XG_PMU_HOST * XG_PMU_EVENT_COUNT + XG_PMU_MISS));
	y->pmu[XG_PMU_HOST][XG_PMU_REF] = 10;
	y->pmu[XG_PMU_HOST][XG_PMU_MISS] = 0;

	metrics_compute_rows(&a, &b, 0, &t);
	const struct xg_row *r = &t.rows[0];
	assert_float_equal(r->v[XG_COL_RUN], 60.0, 1e-9);
	assert_float_equal(r->v[XG_COL_WAIT], 25.0, 1e-9);
	assert_float_equal(r->v[XG_COL_BLK], 15.0, 1e-9);
	assert_float_equal(r->v[XG_COL_OFF], 0.0, 1e-9);
	assert_float_equal(r->v[XG_COL_HIT], 75.0, 1e-9);
	assert_float_equal(r->v[XG_COL_LLC_MISS], 100.0, 1e-9);
	assert_float_equal(r->v[XG_COL_MPKI], 2.0, 1e-9);
	assert_float_equal(r->v[XG_COL_HIT_H], 100.0, 1e-9);
	assert_false(valid(r, XG_COL_HIT_GU));
	assert_int_equal(r->why[XG_COL_HIT_GU], XG_WHY_NOBREAKDOWN);

	/* No references in the interval: HIT% is undefined, never 0 or 100. */
	sample_copy(&a, &b);
	b.host.mono_ns += NS;
	metrics_compute_rows(&a, &b, 0, &t);
	assert_false(valid(&t.rows[0], XG_COL_HIT));
	assert_int_equal(t.rows[0].why[XG_COL_HIT], XG_WHY_NOREFS);
	pair_free(&a, &b, &t);
}

/* Each direction of the network and the disk from its own counter: every
 * figure differs, so any two swapped show. */
static void io_directions_apart(void **state)
{
	(void)state;
	struct xg_sample a, b;
	struct xg_table t = { 0 };
	pair_init(&a, &b, 0, 2 * NS);
	struct xg_dom *x = dom(&a, 3, "io", 0), *y = dom(&b, 3, "io", 0);
	static const struct { enum xg_field f; enum xg_col c; uint64_t d; } io[] = {
		{ XG_F_NET_RX_BYTES, XG_COL_NET_RX, 8000 }, { XG_F_NET_TX_BYTES, XG_COL_NET_TX, 2000 },
		{ XG_F_NET_RX_PKTS, XG_COL_NET_RXP, 60 }, { XG_F_NET_TX_PKTS, XG_COL_NET_TXP, 20 },
		{ XG_F_DISK_RD_BYTES, XG_COL_DISK_RDB, 40960 }, { XG_F_DISK_WR_BYTES, XG_COL_DISK_WRB, 16384 },
	};
	for (size_t i = 0; i < sizeof(io) / sizeof(io[0]); i++) {
		dom_set(x, io[i].f, 1000);
		dom_set(y, io[i].f, 1000 + io[i].d);
	}
	metrics_compute_rows(&a, &b, 0, &t);
	for (size_t i = 0; i < sizeof(io) / sizeof(io[0]); i++)
		assert_float_equal(t.rows[0].v[io[i].c], io[i].d / 2.0, 1e-9);
	pair_free(&a, &b, &t);
}

static void sched_without_offline(void **state)
{
	(void)state;
	struct xg_sample a, b;
	struct xg_table t = { 0 };
	pair_init(&a, &b, 0, NS);
	struct xg_dom *x = dom(&a, 1, "p", 0), *y = dom(&b, 1, "p", 0);
	for (int i = 0; i < 3; i++) {
		dom_set(x, XG_F_RUN_NS + i, 0);
		dom_set(y, XG_F_RUN_NS + i, 100);
	}
	dom_invalid(&b, y, XG_F_OFF_NS, "no offline state for Linux tasks");
	metrics_compute_rows(&a, &b, 0, &t);
	double sum = 0;
	for (int c = XG_COL_RUN; c <= XG_COL_BLK; c++)
		sum += t.rows[0].v[c];
	assert_float_equal(sum, 100.0, 1e-9);
	assert_string_equal(row_why(&t, &t.rows[0], XG_COL_OFF), "no offline state for Linux tasks");
	pair_free(&a, &b, &t);
}

/* The host's waiting share: the domains' waiting time over their vCPU
 * time, weighted by time (not an average of percentages); domains without
 * a complete split stay out of it. */
static void host_wait_share(void **state)
{
	(void)state;
	struct xg_sample a, b;
	struct xg_table t = { 0 };
	pair_init(&a, &b, 0, NS);
	/* 1: 4 vCPU-seconds, 1 s waiting; 2: 1 vCPU-second, none waiting. */
	static const uint64_t d1[3] = { 2 * NS, NS, NS }, d2[3] = { NS / 2, 0, NS / 2 };
	struct xg_dom *x1 = dom(&a, 1, "a", 0), *x2 = dom(&a, 2, "b", 0);
	struct xg_dom *y1 = dom(&b, 1, "a", 0), *y2 = dom(&b, 2, "b", 0);
	struct xg_dom *y3 = dom(&b, 3, "new", 0);
	for (int i = 0; i < 3; i++) {
		dom_set(x1, XG_F_RUN_NS + i, 0);
		dom_set(x2, XG_F_RUN_NS + i, 0);
		dom_set(y1, XG_F_RUN_NS + i, d1[i]);
		dom_set(y2, XG_F_RUN_NS + i, d2[i]);
		dom_set(y3, XG_F_RUN_NS + i, 100 * NS);   /* no baseline: left out */
	}
	metrics_compute_rows(&a, &b, 0, &t);
	assert_float_equal(t.rows[0].v[XG_COL_WAIT], 25.0, 1e-9);
	assert_float_equal(t.sum.wait_pct, 20.0, 1e-9);
	/* No domain with a split: unknown, not 0. */
	metrics_compute_rows(NULL, &b, 0, &t);
	assert_true(t.sum.wait_pct < 0);
	pair_free(&a, &b, &t);
}

static struct xg_pcpu *pcpu(struct xg_sample *s, uint32_t id, int busy_ms, int idle_ms)
{
	struct xg_pcpu *p = sample_add_pcpus(s, 1);
	p->id = id;
	if (busy_ms >= 0) {
		p->ns[XG_PC_BUSY] = (uint64_t)busy_ms * 1000000ull;
		p->valid |= 1u << XG_PC_BUSY;
	}
	if (idle_ms >= 0) {
		p->ns[XG_PC_IDLE] = (uint64_t)idle_ms * 1000000ull;
		p->valid |= 1u << XG_PC_IDLE;
	}
	return p;
}

/* Busy share per pCPU: from both times (Linux), from the idle time and the
 * interval (Xen), clamped, with a reason where there is none. */
static void pcpu_busy_share(void **state)
{
	(void)state;
	struct xg_sample a, b;
	struct xg_table t = { 0 };
	pair_init(&a, &b, 10 * NS, 12 * NS);
	pcpu(&a, 0, 1000, 1000);
	pcpu(&b, 0, 1300, 1100);    /* 300 busy of 400 ms counted: 75 % */
	pcpu(&a, 1, -1, 500);
	pcpu(&b, 1, -1, 1000);      /* idle 0.5 s of 2 s: 75 % */
	pcpu(&a, 2, -1, 0);
	pcpu(&b, 2, -1, 3000);      /* idle longer than the interval: 0 %, not negative */
	pcpu(&a, 4, 100, 100);
	pcpu(&b, 4, 50, 200);       /* busy went backwards */
	pcpu(&b, 5, 10, 10);        /* new */
	pcpu(&b, 6, -1, -1);        /* nothing measured */
	b.pcpu_why = sample_reason(&b, "xc_getcpuinfo: Permission denied");
	metrics_compute_rows(&a, &b, 0, &t);
	assert_int_equal(t.npcpu, 6);
	assert_true(t.pcpu[0].valid && t.pcpu[1].valid && t.pcpu[2].valid);
	assert_float_equal(t.pcpu[0].busy_pct, 75.0, 1e-9);
	assert_float_equal(t.pcpu[1].busy_pct, 75.0, 1e-9);
	assert_float_equal(t.pcpu[2].busy_pct, 0.0, 1e-9);
	assert_int_equal(t.pcpu[3].id, 4);
	assert_false(t.pcpu[3].valid);
	assert_int_equal(t.pcpu[3].why, XG_WHY_RESET);
	assert_int_equal(t.pcpu[4].why, XG_WHY_PCPUFIRST);
	assert_string_equal(table_why_text(&t, t.pcpu[5].why), "xc_getcpuinfo: Permission denied");
	/* A sample without pCPU entries says why there are none. */
	metrics_compute_rows(&b, &a, 0, &t);
	sample_clear(&a);
	metrics_compute_rows(&b, &a, 0, &t);
	assert_int_equal(t.npcpu, 0);
	assert_non_null(table_why_text(&t, t.pcpu_why));
	assert_int_equal(t.pcpu_why, XG_WHY_NOPCPU);
	pair_free(&a, &b, &t);
}

static void vcpu_rows(void **state)
{
	(void)state;
	struct xg_sample a, b;
	struct xg_table t = { 0 };
	pair_init(&a, &b, 0, NS);
	for (int k = 0; k < 2; k++) {
		struct xg_sample *s = k ? &b : &a;
		struct xg_dom *d = dom(s, 3, "two", 0);
		struct xg_vcpu *v = sample_add_vcpus(s, d, 2);
		for (int i = 0; i < 2; i++) {
			v[i].id = (uint32_t)i;
			v[i].online = 1;
			v[i].valid = XG_VCPU_CPU_VALID;
			v[i].cpu_ns = k ? (uint64_t)(i + 1) * NS / 4 : 0;
		}
		dom(s, 4, "none", 0);
	}
	metrics_compute_rows(&a, &b, XG_ROWS_VCPUS, &t);
	assert_int_equal(t.ndom_rows, 2);
	assert_int_equal(t.n, 4);
	assert_int_equal(t.rows[0].child_count, 2);
	const struct xg_row *v1 = &t.rows[t.rows[0].child_first + 1];
	assert_int_equal(v1->vcpu, 1);
	assert_float_equal(v1->v[XG_COL_CPU_PCT], 50.0, 1e-9);
	assert_false(valid(v1, XG_COL_MEM));
	pair_free(&a, &b, &t);
}


/* Domain k of a sample for deferred_rows_match: every field of most
 * domains, with k making the values differ and some cases of their own. */
static void varied_dom(struct xg_sample *s, uint32_t k, bool later)
{
	char name[32];
	snprintf(name, sizeof(name), k == 3 && later ? "renamed-%u" : "dom-%u", k);
	struct xg_dom *d = dom(s, k, name, (100 + k) * NS + (later ? (k + 1) * NS / 7 : 0));
	for (int f = 1; f < XG_F_COUNT; f++)
		dom_set(d, (enum xg_field)f, 1000 * (uint64_t)(f + k) + (later ? 37 * (uint64_t)(f * k + 1) : 0));
	dom_set(d, XG_F_MAXMEM, k == 1 ? UINT64_MAX : 1u << 30);
	if (k == 2 && later)
		dom_set(d, XG_F_NET_RX_BYTES, 5);             /* went backwards */
	if (k == 4) {
		dom_invalid(s, d, XG_F_LLC_REF, "no PMU here");
		dom_invalid(s, d, XG_F_VM_EXITS, "not a VM");
	}
	if (k == 5 && later)
		dom_set(d, XG_F_INSTR, 1000 * (uint64_t)(XG_F_INSTR + k));   /* no instructions: MPKI undefined */
	d->pmu_valid = k % 2 ? (1ull << (XG_PMU_WHERE_COUNT * XG_PMU_EVENT_COUNT)) - 1 : 0;
	for (int w = 0; w < XG_PMU_WHERE_COUNT; w++)
		for (int e = 0; e < XG_PMU_EVENT_COUNT; e++)
			d->pmu[w][e] = 100 * (uint64_t)(w + e + 1) + (later ? 10 * (uint64_t)(w + k) : 0);
}

/* A table that defers columns (the full-screen view's) computes the same
 * figures and reasons once its rows are filled as one that does not, and
 * the summary whatever it defers. Domains 0, 1 and 7 are the usual case,
 * which the full table computes in one pass (metrics' fill_usual) and the
 * deferring one column by column: the same figures to the last bit. */
static void deferred_rows_match(void **state)
{
	(void)state;
	struct xg_sample a, b;
	struct xg_table full = { 0 }, lazy = { .defer = ~0ull };
	pair_init(&a, &b, 10 * NS, 13 * NS);
	for (uint32_t k = 0; k < 8; k++) {
		if (k != 6)
			varied_dom(&a, k, false);   /* 6 is new in b */
		varied_dom(&b, k, true);
	}
	metrics_compute_rows(&a, &b, 0, &full);
	metrics_compute_rows(&a, &b, 0, &lazy);
	assert_int_equal(lazy.n, full.n);
	assert_memory_equal(&lazy.sum, &full.sum, sizeof(full.sum));
	const struct xg_row *l0 = &lazy.rows[0];
	assert_true(valid(l0, XG_COL_CPU_PCT) && valid(l0, XG_COL_WAIT));
	assert_false(valid(l0, XG_COL_MEM) || valid(l0, XG_COL_NET_RX));
	assert_true(l0->todo & (1ull << XG_COL_NET_RX));
	/* One column for every row (a new sort column), then whole rows. */
	table_fill_cols(&lazy, 1ull << XG_COL_NET_RX);
	for (size_t i = 0; i < lazy.n; i++)
		assert_int_equal(valid(&lazy.rows[i], XG_COL_NET_RX), valid(&full.rows[i], XG_COL_NET_RX));
	assert_false(valid(l0, XG_COL_MEM));
	for (size_t i = 0; i < lazy.n; i++) {
		table_fill_row(&lazy, i);
		const struct xg_row *l = &lazy.rows[i], *f = &full.rows[i];
		assert_int_equal(l->todo, 0);
		assert_int_equal(l->valid, f->valid);
		for (int c = 0; c < XG_COL_COUNT; c++) {
			if (xg_columns[c].unit == XG_UNIT_TEXT)
				continue;   /* no figure: NAME, STATE, HOST, TREND */
			if (valid(f, c))
				assert_memory_equal(&l->v[c], &f->v[c], sizeof(f->v[c]));
			else
				assert_int_equal(l->why[c], f->why[c]);
		}
	}
	/* The cases above happened: a reset, a new domain, a limit, a reason. */
	assert_int_equal(full.rows[2].why[XG_COL_NET_RX], XG_WHY_RESET);
	assert_int_equal(full.rows[3].why[XG_COL_CPU_PCT], XG_WHY_RESET);
	assert_int_equal(full.rows[6].why[XG_COL_CPU_PCT], XG_WHY_FIRST);
	assert_int_equal(full.rows[1].why[XG_COL_MAXMEM], XG_WHY_NOLIMIT);
	assert_int_equal(full.rows[5].why[XG_COL_MPKI], XG_WHY_NOINSTR);
	assert_string_equal(row_why(&full, &full.rows[4], XG_COL_HIT), "no PMU here");
	assert_true(valid(&full.rows[1], XG_COL_HIT_GU) && !valid(&full.rows[0], XG_COL_HIT_GU));
	table_free(&lazy);
	pair_free(&a, &b, &full);
}

/* Domain 7 of deferred_rows_match's (every field measured, all PMU
 * figures) in two samples, with only the fields of mask. */
static void pair_with(struct xg_sample *a, struct xg_sample *b, uint64_t mask)
{
	pair_init(a, b, 10 * NS, 13 * NS);
	varied_dom(a, 7, false);
	varied_dom(b, 7, true);
	a->dom[0].valid &= mask;
	b->dom[0].valid &= mask;
}

/* col_fields says enough: each column keeps its figure, to the last bit,
 * when the domain has those fields only (what the Prometheus source asks
 * of the rows on screen, and of every domain for the sort). */
static void col_fields_suffice(void **state)
{
	(void)state;
	struct xg_sample a, b;
	struct xg_table all = { 0 };
	pair_with(&a, &b, ~0ull);
	metrics_compute_rows(&a, &b, 0, &all);
	int checked = 0;
	for (int c = 0; c < XG_COL_COUNT; c++) {
		if (!valid(&all.rows[0], c) || xg_columns[c].unit == XG_UNIT_TEXT)
			continue;   /* no figure to keep: NAME, STATE, TREND, VICTIM (judged apart) */
		struct xg_sample x, y;
		struct xg_table t = { 0 };
		pair_with(&x, &y, col_fields((enum xg_col)c));
		metrics_compute_rows(&x, &y, 0, &t);
		if (!valid(&t.rows[0], c) || memcmp(&t.rows[0].v[c], &all.rows[0].v[c], sizeof(double)))
			fail_msg("%s is computed from more fields than col_fields gives", xg_columns[c].header);
		pair_free(&x, &y, &t);
		checked++;
	}
	assert_true(checked >= 40);   /* every figure column of a Xen or Linux domain */
	pair_free(&a, &b, &all);
}

/* Gives d n socket entries: occupancy occ[k], MBM total mbm[k] (both
 * valid), MBM local 80 % of it; the domain's sums as a source sets them. */
static struct xg_sock *socks(struct xg_sample *s, struct xg_dom *d, unsigned n, const uint64_t *occ,
			     const uint64_t *mbm)
{
	struct xg_sock *k = sample_add_socks(s, d, n);
	uint64_t so = 0, sm = 0;
	for (unsigned i = 0; i < n; i++) {
		k[i].socket = i;
		k[i].v[XG_SOCK_L3_OCC] = occ[i];
		k[i].v[XG_SOCK_MBM_TOTAL] = mbm[i];
		k[i].v[XG_SOCK_MBM_LOCAL] = mbm[i] / 10 * 8;
		k[i].valid = 7;
		so += occ[i];
		sm += mbm[i];
	}
	dom_set(d, XG_F_L3_OCC, so);
	dom_set(d, XG_F_MBM_TOTAL, sm);
	dom_set(d, XG_F_MBM_LOCAL, sm / 10 * 8);
	return k;
}

static const struct xg_row *child(const struct xg_table *t, size_t dom_row, uint32_t k)
{
	assert_true(k < t->rows[dom_row].child_count);
	return &t->rows[t->rows[dom_row].child_first + k];
}

static void socket_rows_rates(void **state)
{
	(void)state;
	struct xg_sample a, b;
	struct xg_table t = { 0 };
	pair_init(&a, &b, 10 * NS, 12 * NS);
	struct xg_dom *da = dom(&a, 1, "web", 0), *db = dom(&b, 1, "web", 0);
	socks(&a, da, 2, (uint64_t[]){ 1 << 20, 3 << 20 }, (uint64_t[]){ 5000000, 7000000 });
	socks(&b, db, 2, (uint64_t[]){ 2 << 20, 1 << 20 }, (uint64_t[]){ 7000000, 15000000 });
	dom(&a, 2, "plain", 0);
	dom(&b, 2, "plain", 0);

	/* Without the flag: domain rows only. */
	metrics_compute_rows(&a, &b, 0, &t);
	assert_int_equal(t.n, 2);
	assert_int_equal(t.rows[0].child_count, 0);

	/* First sample: occupancy is a gauge, bandwidth needs a baseline. */
	metrics_compute_rows(NULL, &a, XG_ROWS_SOCKETS, &t);
	assert_int_equal(t.row_kinds, XG_ROWS_SOCKETS);
	assert_int_equal(t.n, 4);
	const struct xg_row *s0 = child(&t, 0, 0);
	assert_true(s0->sock_row);
	assert_int_equal(s0->vcpu, -1);
	assert_false(row_is_dom(s0));
	assert_float_equal(s0->v[XG_COL_L3_OCC], 1048576.0, 0);
	assert_false(valid(s0, XG_COL_MEM_BW));
	assert_int_equal(s0->why[XG_COL_MEM_BW], XG_WHY_FIRST);

	metrics_compute_rows(&a, &b, XG_ROWS_SOCKETS, &t);
	assert_int_equal(t.ndom_rows, 2);
	assert_int_equal(t.n, 4);
	assert_int_equal(t.rows[0].child_count, 2);
	assert_int_equal(t.rows[1].child_count, 0);   /* no socket entries: no rows */
	s0 = child(&t, 0, 0);
	const struct xg_row *s1 = child(&t, 0, 1);
	assert_int_equal(s0->socket, 0);
	assert_int_equal(s1->socket, 1);
	assert_int_equal(s1->id, 1);
	assert_int_equal(s1->dom_index, 0);
	assert_string_equal(s1->name, "web");
	/* bytes/s = delta(MBM total of that socket) / 2 s */
	assert_float_equal(s0->v[XG_COL_MEM_BW], 1000000.0, 1e-9);
	assert_float_equal(s1->v[XG_COL_MEM_BW], 4000000.0, 1e-9);
	assert_float_equal(s0->v[XG_COL_L3_OCC], 2097152.0, 0);
	assert_float_equal(s1->v[XG_COL_L3_OCC], 1048576.0, 0);
	/* the sockets add up to the domain's figures */
	assert_float_equal(s0->v[XG_COL_MEM_BW] + s1->v[XG_COL_MEM_BW], t.rows[0].v[XG_COL_MEM_BW], 1e-6);
	assert_float_equal(s0->v[XG_COL_L3_OCC] + s1->v[XG_COL_L3_OCC], t.rows[0].v[XG_COL_L3_OCC], 0);
	/* everything else does not apply: blank, no value and no reason */
	for (int c = 0; c < XG_COL_COUNT; c++) {
		bool applies = c == XG_COL_ID || c == XG_COL_NAME || c == XG_COL_L3_OCC ||
			       c == XG_COL_MEM_BW;
		assert_int_equal(row_col_applies(s1, (enum xg_col)c), applies);
		assert_true(row_col_applies(&t.rows[0], (enum xg_col)c));
		if (!applies && c != XG_COL_NAME && c != XG_COL_STATE) {
			assert_false(valid(s1, (enum xg_col)c));
			assert_null(row_why(&t, s1, (enum xg_col)c));
		}
	}
	assert_string_equal(s1->state, "");
	char buf[32];
	assert_true(row_label(s1, buf, sizeof(buf)));
	assert_string_equal(buf, "  socket 1");
	assert_false(row_label(&t.rows[0], buf, sizeof(buf)));

	/* Both kinds: sockets first, then vCPUs, all under the domain. */
	sample_add_vcpus(&b, &b.dom[1], 1)->id = 0;
	metrics_compute_rows(&a, &b, XG_ROWS_SOCKETS | XG_ROWS_VCPUS, &t);
	assert_int_equal(t.n, 5);
	assert_true(child(&t, 0, 1)->sock_row);
	assert_int_equal(t.rows[1].child_count, 1);
	assert_int_equal(child(&t, 1, 0)->vcpu, 0);
	assert_false(child(&t, 1, 0)->sock_row);
	pair_free(&a, &b, &t);
}

static void socket_rows_resets(void **state)
{
	(void)state;
	struct xg_sample a, b;
	struct xg_table t = { 0 };
	pair_init(&a, &b, 1 * NS, 2 * NS);
	/* 1: socket 1 went backwards; 2: socket 1 is new; 3: socket 0 was
	 * not valid before; 4: id reused; 5: the source invalidated the
	 * sums (and so every socket) with a reason; 6: one socket invalid,
	 * the sums valid; 7: the entries vanished (no RMID) and came back. */
	for (uint32_t id = 1; id <= 7; id++) {
		struct xg_dom *x = dom(&a, id, "d", 0), *y = dom(&b, id, "d", 0);
		if (id == 4) {
			x->handle[0] = 1;
			y->handle[0] = 2;
		}
		if (id != 7)
			socks(&a, x, id == 2 ? 1 : 2, (uint64_t[]){ 100, 100 }, (uint64_t[]){ 1000, 5000 });
		socks(&b, y, 2, (uint64_t[]){ 200, 300 }, (uint64_t[]){ 3000, id == 1 ? 4000 : 9000 });
	}
	a.sock[a.dom[2].sock_first].valid = 0;      /* domain 3, socket 0, in a */
	struct xg_dom *d5 = &b.dom[4];
	dom_invalid(&b, d5, XG_F_L3_OCC, "CMT: no data for this RMID yet");
	dom_invalid(&b, d5, XG_F_MBM_TOTAL, "MBM: counter went backwards");
	for (uint32_t k = 0; k < 2; k++)
		b.sock[d5->sock_first + k].valid = 0;
	b.sock[b.dom[5].sock_first + 1].valid &= (uint8_t)~(1u << XG_SOCK_MBM_TOTAL | 1u << XG_SOCK_L3_OCC);

	metrics_compute_rows(&a, &b, XG_ROWS_SOCKETS, &t);
	assert_int_equal(t.n, 7 + 7 * 2);
	/* domain 1: socket 0 fine, socket 1 reset, never negative */
	assert_float_equal(child(&t, 0, 0)->v[XG_COL_MEM_BW], 2000.0, 1e-9);
	assert_false(valid(child(&t, 0, 1), XG_COL_MEM_BW));
	assert_int_equal(child(&t, 0, 1)->why[XG_COL_MEM_BW], XG_WHY_RESET);
	assert_true(valid(child(&t, 0, 1), XG_COL_L3_OCC));
	/* domain 2: the new socket starts its baseline */
	assert_float_equal(child(&t, 1, 0)->v[XG_COL_MEM_BW], 2000.0, 1e-9);
	assert_int_equal(child(&t, 1, 1)->why[XG_COL_MEM_BW], XG_WHY_SOCKFIRST);
	assert_non_null(strstr(row_why(&t, child(&t, 1, 1), XG_COL_MEM_BW), "socket"));
	/* domain 3: a baseline that was not valid is none */
	assert_int_equal(child(&t, 2, 0)->why[XG_COL_MEM_BW], XG_WHY_SOCKFIRST);
	assert_float_equal(child(&t, 2, 1)->v[XG_COL_MEM_BW], 4000.0, 1e-9);
	/* domain 4: another domain under the same id: the domain's reason */
	assert_int_equal(child(&t, 3, 0)->why[XG_COL_MEM_BW], XG_WHY_RESET);
	assert_int_equal(t.rows[3].why[XG_COL_MEM_BW], XG_WHY_RESET);
	assert_true(valid(child(&t, 3, 0), XG_COL_L3_OCC));
	/* domain 5: the source's reasons, the same as the domain row's */
	for (uint32_t k = 0; k < 2; k++) {
		const struct xg_row *r = child(&t, 4, k);
		assert_string_equal(row_why(&t, r, XG_COL_L3_OCC), "CMT: no data for this RMID yet");
		assert_string_equal(row_why(&t, r, XG_COL_MEM_BW), "MBM: counter went backwards");
		assert_string_equal(row_why(&t, r, XG_COL_MEM_BW), row_why(&t, &t.rows[4], XG_COL_MEM_BW));
	}
	/* domain 6: the socket alone is missing */
	assert_int_equal(child(&t, 5, 1)->why[XG_COL_L3_OCC], XG_WHY_SOCKNONE);
	assert_int_equal(child(&t, 5, 1)->why[XG_COL_MEM_BW], XG_WHY_SOCKNONE);
	assert_non_null(row_why(&t, child(&t, 5, 1), XG_COL_L3_OCC));
	assert_true(valid(child(&t, 5, 0), XG_COL_MEM_BW));
	/* domain 7: entries back after a sample without: new baselines */
	assert_int_equal(child(&t, 6, 0)->why[XG_COL_MEM_BW], XG_WHY_SOCKFIRST);
	assert_int_equal(child(&t, 6, 1)->why[XG_COL_MEM_BW], XG_WHY_SOCKFIRST);
	for (size_t i = 0; i < t.n; i++)
		if (t.rows[i].sock_row && valid(&t.rows[i], XG_COL_MEM_BW))
			assert_true(t.rows[i].v[XG_COL_MEM_BW] >= 0 && t.rows[i].v[XG_COL_MEM_BW] < 1e4);

	/* A zero-length interval gives no rate. */
	b.host.mono_ns = a.host.mono_ns;
	metrics_compute_rows(&a, &b, XG_ROWS_SOCKETS, &t);
	assert_int_equal(child(&t, 0, 0)->why[XG_COL_MEM_BW], XG_WHY_NOTIME);
	pair_free(&a, &b, &t);
}

/* Where the view puts socket rows: under their domain whatever the sort,
 * before its vCPU rows, and only while the cache breakdown is shown. */
static void socket_rows_in_view(void **state)
{
	(void)state;
	struct xg_sample a;
	struct xg_table t = { 0 };
	struct xg_config cfg;
	struct xg_view v;
	sample_init(&a);
	host(&a, NS);
	for (uint32_t id = 1; id <= 3; id++) {
		struct xg_dom *d = dom(&a, id, id == 1 ? "c" : id == 2 ? "a" : "b", 0);
		if (id != 2)
			socks(&a, d, 2, (uint64_t[]){ 10u * id, 1 }, (uint64_t[]){ 0, 0 });
		if (id == 3)
			sample_add_vcpus(&a, d, 1)->id = 0;
	}
	config_defaults(&cfg);
	cfg.nosumcache = true;
	cfg.vcpus = true;
	view_init(&v, &cfg);
	assert_true(view_socket_rows(&v));
	assert_int_equal(view_row_kinds(&v), XG_ROWS_SOCKETS | XG_ROWS_VCPUS);
	metrics_compute_rows(NULL, &a, view_row_kinds(&v), &t);
	v.sort_col = XG_COL_NAME;
	view_apply(&v, &t);
	/* a; b, its sockets, its vCPU; c, its sockets */
	assert_int_equal(v.norder, 3 + 4 + 1);
	const struct xg_row *o[8];
	for (size_t i = 0; i < v.norder; i++)
		o[i] = &t.rows[v.order[i]];
	assert_string_equal(o[0]->name, "a");
	assert_true(row_is_dom(o[0]));
	assert_true(row_is_dom(o[1]) && o[1]->id == 3);
	assert_true(o[2]->sock_row && o[2]->id == 3 && o[2]->socket == 0);
	assert_true(o[3]->sock_row && o[3]->id == 3 && o[3]->socket == 1);
	assert_true(o[4]->vcpu == 0 && o[4]->id == 3);
	assert_true(row_is_dom(o[5]) && o[5]->id == 1);
	assert_true(o[6]->sock_row && o[7]->sock_row && o[7]->id == 1);
	/* sorted by L3-OCC the other way round: still each under its own */
	v.sort_col = XG_COL_L3_OCC;
	view_apply(&v, &t);
	assert_int_equal(v.norder, 8);
	assert_true(row_is_dom(&t.rows[v.order[0]]) && t.rows[v.order[0]].id == 3);
	assert_true(t.rows[v.order[1]].sock_row && t.rows[v.order[1]].id == 3);
	/* `v` off: the table still holds vCPU rows, the view hides them */
	v.show_vcpus = false;
	view_apply(&v, &t);
	assert_int_equal(v.norder, 3 + 4);
	for (size_t i = 0; i < v.norder; i++)
		assert_true(t.rows[v.order[i]].vcpu < 0);
	/* `m` back to sums (or `c` off): no socket rows */
	v.sumcache = true;
	assert_int_equal(view_row_kinds(&v), 0);
	view_apply(&v, &t);
	assert_int_equal(v.norder, 3);
	v.sumcache = false;
	v.show_cache = false;
	assert_false(view_socket_rows(&v));
	view_apply(&v, &t);
	assert_int_equal(v.norder, 3);
	view_free(&v);
	table_free(&t);
	sample_free(&a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(cpu_pct_and_first_sample),
		cmocka_unit_test(baseline_resets),
		cmocka_unit_test(sched_split_and_cache),
		cmocka_unit_test(io_directions_apart),
		cmocka_unit_test(sched_without_offline),
		cmocka_unit_test(host_wait_share),
		cmocka_unit_test(pcpu_busy_share),
		cmocka_unit_test(vcpu_rows),
		cmocka_unit_test(deferred_rows_match),
		cmocka_unit_test(col_fields_suffice),
		cmocka_unit_test(socket_rows_rates),
		cmocka_unit_test(socket_rows_resets),
		cmocka_unit_test(socket_rows_in_view),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
