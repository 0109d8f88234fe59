// SPDX-License-Identifier: GPL-2.0-or-later
/* Rates between samples: CPU%, sched split, cache ratios, and the baseline
 * rules (new domain, vanished domain, id reuse, rename, counter reset). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "xgtop/metrics.h"

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

static bool valid(const struct xg_row *r, enum xg_col c) { return (r->valid >> c) & 1; }

static void cpu_pct_and_first_sample(void **state)
{
	(void)state;
	struct xg_sample a, b;
	struct xg_table t = { 0 };
	sample_init(&a);
	sample_init(&b);
	host(&a, 10 * NS);
	dom(&a, 0, "Domain-0", 5 * NS);
	host(&b, 12 * NS);               /* 2 s later */
	dom(&b, 0, "Domain-0", 6 * NS);  /* +1 s of CPU: 50 % */
	dom_set(&b.dom[0], XG_F_MEM, 250);

	metrics_compute(NULL, &a, false, &t);
	assert_false(valid(&t.rows[0], XG_COL_CPU_PCT));
	assert_int_equal(t.rows[0].why[XG_COL_CPU_PCT], XG_WHY_FIRST);
	assert_non_null(row_why(&t, &t.rows[0], XG_COL_CPU_PCT));
	assert_true(valid(&t.rows[0], XG_COL_CPU_S));
	assert_float_equal(t.rows[0].v[XG_COL_CPU_S], 5.0, 1e-9);

	metrics_compute(&a, &b, false, &t);
	assert_true(valid(&t.rows[0], XG_COL_CPU_PCT));
	assert_float_equal(t.rows[0].v[XG_COL_CPU_PCT], 50.0, 1e-9);
	assert_float_equal(t.rows[0].v[XG_COL_MEM_PCT], 25.0, 1e-9);
	assert_float_equal(t.sum.interval_s, 2.0, 1e-9);
	/* Memory unmeasured in a: still a gauge, no baseline needed. */
	assert_true(valid(&t.rows[0], XG_COL_MEM));
	/* Never measured fields carry no value. */
	assert_false(valid(&t.rows[0], XG_COL_NET_RX));
	table_free(&t);
	sample_free(&a);
	sample_free(&b);
}

static void baseline_resets(void **state)
{
	(void)state;
	struct xg_sample a, b;
	struct xg_table t = { 0 };
	sample_init(&a);
	sample_init(&b);
	host(&a, 1 * NS);
	host(&b, 2 * NS);
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

	metrics_compute(&a, &b, false, &t);
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
	table_free(&t);
	sample_free(&a);
	sample_free(&b);
}

static void sched_split_and_cache(void **state)
{
	(void)state;
	struct xg_sample a, b;
	struct xg_table t = { 0 };
	sample_init(&a);
	sample_init(&b);
	host(&a, 0);
	host(&b, NS);
	struct xg_dom *x = dom(&a, 5, "x", 0), *y = dom(&b, 5, "x", NS / 2);
	uint64_t s0[4] = { 10, 10, 10, 10 }, s1[4] = { 10 + 600, 10 + 200, 10 + 200, 10 };
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

	metrics_compute(&a, &b, false, &t);
	const struct xg_row *r = &t.rows[0];
	assert_float_equal(r->v[XG_COL_RUN], 60.0, 1e-9);
	assert_float_equal(r->v[XG_COL_WAIT], 20.0, 1e-9);
	assert_float_equal(r->v[XG_COL_BLK], 20.0, 1e-9);
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
	metrics_compute(&a, &b, false, &t);
	assert_false(valid(&t.rows[0], XG_COL_HIT));
	assert_int_equal(t.rows[0].why[XG_COL_HIT], XG_WHY_NOREFS);
	table_free(&t);
	sample_free(&a);
	sample_free(&b);
}

static void sched_without_offline(void **state)
{
	(void)state;
	struct xg_sample a, b;
	struct xg_table t = { 0 };
	sample_init(&a);
	sample_init(&b);
	host(&a, 0);
	host(&b, NS);
	struct xg_dom *x = dom(&a, 1, "p", 0), *y = dom(&b, 1, "p", 0);
	for (int i = 0; i < 3; i++) {
		dom_set(x, XG_F_RUN_NS + i, 0);
		dom_set(y, XG_F_RUN_NS + i, 100);
	}
	dom_invalid(&b, y, XG_F_OFF_NS, "no offline state for Linux tasks");
	metrics_compute(&a, &b, false, &t);
	double sum = 0;
	for (int c = XG_COL_RUN; c <= XG_COL_BLK; c++)
		sum += t.rows[0].v[c];
	assert_float_equal(sum, 100.0, 1e-9);
	assert_string_equal(row_why(&t, &t.rows[0], XG_COL_OFF), "no offline state for Linux tasks");
	table_free(&t);
	sample_free(&a);
	sample_free(&b);
}

static void vcpu_rows(void **state)
{
	(void)state;
	struct xg_sample a, b;
	struct xg_table t = { 0 };
	sample_init(&a);
	sample_init(&b);
	host(&a, 0);
	host(&b, NS);
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
	metrics_compute(&a, &b, true, &t);
	assert_int_equal(t.ndom_rows, 2);
	assert_int_equal(t.n, 4);
	assert_int_equal(t.rows[0].child_count, 2);
	const struct xg_row *v1 = &t.rows[t.rows[0].child_first + 1];
	assert_int_equal(v1->vcpu, 1);
	assert_float_equal(v1->v[XG_COL_CPU_PCT], 50.0, 1e-9);
	assert_false(valid(v1, XG_COL_MEM));
	table_free(&t);
	sample_free(&a);
	sample_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(cpu_pct_and_first_sample),
		cmocka_unit_test(baseline_resets),
		cmocka_unit_test(sched_split_and_cache),
		cmocka_unit_test(sched_without_offline),
		cmocka_unit_test(vcpu_rows),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
