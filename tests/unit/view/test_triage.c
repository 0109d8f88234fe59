// SPDX-License-Identifier: GPL-2.0-or-later
/* The triage line from hand-made samples: a domain waiting past wait_pct's
 * warn level and the runnable vCPUs; memory pressure past pressure_pct's;
 * the same figures under raised rules: "nothing stands out"; the cache
 * part without a judge says so in its numbers and stays out of the line.
 * Where the source sent some rows the sort's fields only, a part whose
 * column those lack says "on screen", and the runnable vCPUs are the
 * source's sum over every domain. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xgtop/view/triage.h"

#define NS 1000000000ull

/* Two domains of 2 vCPUs over one second: "web1" runs 50 % and waits 35 %
 * of its vCPU time, "db" runs 10 %; db's memory stalls 40 % of the
 * interval. 4 pCPUs. */
static void fill(struct xg_sample *s, unsigned k)
{
	sample_clear(s);
	s->host.mono_ns = (k + 1) * NS;
	s->host.pcpus = 4;
	host_mark(&s->host, XG_H_PCPUS);
	host_mark(&s->host, XG_H_PSI);
	static const char *const names[] = { "web1", "db" };
	static const double run[] = { 0.5, 0.1 }, wait[] = { 0.35, 0.0 }, mem[] = { 0.0, 0.4 };
	for (uint32_t i = 0; i < 2; i++) {
		struct xg_dom *d = sample_add_dom(s, i + 1);
		snprintf(d->name, sizeof(d->name), "%s", names[i]);
		uint64_t vt = 2 * k * NS;   /* vCPU-time so far */
		uint64_t r = (uint64_t)(run[i] * (double)vt), w = (uint64_t)(wait[i] * (double)vt);
		dom_set(d, XG_F_VCPUS, 2);
		dom_set(d, XG_F_CPU_NS, r);
		dom_set(d, XG_F_RUN_NS, r);
		dom_set(d, XG_F_WAIT_NS, w);
		dom_set(d, XG_F_BLK_NS, vt - r - w);
		dom_set(d, XG_F_OFF_NS, 0);
		for (int p = 0; p < XG_PSI_RES_COUNT; p++)
			for (int q = 0; q < XG_PSI_KIND_COUNT; q++)
				dom_set(d, psi_field((enum xg_psi_res)p, (enum xg_psi_kind)q),
					p == XG_PSI_MEM ? (uint64_t)(mem[i] * (double)(k * NS)) : 0);
	}
}

/* Each test's samples (the two above), table, view (pressure shown)
 * and line. */
struct fx {
	struct xg_sample s[2];
	struct xg_table t;
	struct xg_view v;
	struct xg_triage tr;
};

static int start(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));
	struct xg_config cfg;
	config_defaults(&cfg);
	view_init(&f->v, &cfg);
	f->v.show_psi = true;
	sample_init(&f->s[0]);
	sample_init(&f->s[1]);
	fill(&f->s[0], 1);
	fill(&f->s[1], 2);
	*state = f;
	return 0;
}

static int finish(void **state)
{
	struct fx *f = *state;
	table_free(&f->t);
	view_free(&f->v);
	sample_free(&f->s[0]);
	sample_free(&f->s[1]);
	free(f);
	return 0;
}

/* wait_pct's warn above web1's 35 %, pressure_pct off. */
static void raise_rules(struct xg_view *v)
{
	struct xg_err err = { 0 };
	assert_int_equal(threshold_parse(&v->thr, XG_RULE_WAIT, "36 50", &err), 0);
	assert_int_equal(threshold_parse(&v->thr, XG_RULE_PSI, "off", &err), 0);
}

static void line(void **state)
{
	struct fx *f = *state;
	metrics_compute_rows(&f->s[0], &f->s[1], 0, &f->t);
	triage_compute(&f->tr, &f->t, &f->v, NULL);
	/* (50 + 35) / 100 x 2 + (10 + 0) / 100 x 2 = 1.9 vCPUs */
	assert_string_equal(f->tr.line, "CPU: 1.9 runnable vCPUs on 4 pCPUs; web1 waits 35 %; memory pressure: db 40 %");
	assert_true(f->tr.hit[XG_TRI_CPU] && f->tr.hit[XG_TRI_MEM]);
	assert_false(f->tr.hit[XG_TRI_IO] || f->tr.hit[XG_TRI_CACHE]);
	assert_non_null(strstr(f->tr.why[XG_TRI_CPU], "WAIT% 35.0 (rule wait_pct: warn 10)"));
	assert_non_null(strstr(f->tr.why[XG_TRI_IO], "IO-P%: web1, 0.0 %"));
	assert_non_null(strstr(f->tr.why[XG_TRI_CACHE], "not judged here"));
	/* Raised rules: the same figures stand out no more. */
	raise_rules(&f->v);
	triage_compute(&f->tr, &f->t, &f->v, NULL);
	assert_string_equal(f->tr.line, "nothing stands out");
	assert_non_null(strstr(f->tr.why[XG_TRI_MEM], "db, 40.0 % (rule pressure_pct: off)"));
	/* Without pressure figures the parts say why. */
	f->v.show_psi = false;
	triage_compute(&f->tr, &f->t, &f->v, NULL);
	assert_non_null(strstr(f->tr.why[XG_TRI_MEM], "reads no pressure"));
}

static void partial_rows(void **state)
{
	struct fx *f = *state;
	/* Sorted by WAIT%: every domain carries the four runstates, not the
	 * pressure nor VCPU; the source summed 2.5 running and runnable
	 * vCPUs over every domain (more than these rows'). */
	struct xg_totals *x = &f->s[1].totals;
	x->rows_partial = true;
	x->rows_fields = col_fields(XG_COL_WAIT);
	x->busy = true;
	x->busy_vcpus = 2.5;
	metrics_compute_rows(&f->s[0], &f->s[1], 0, &f->t);
	triage_compute(&f->tr, &f->t, &f->v, NULL);
	assert_string_equal(f->tr.line, "CPU: 2.5 runnable vCPUs on 4 pCPUs; web1 waits 35 %; memory pressure on screen: db 40 %");
	assert_non_null(strstr(f->tr.why[XG_TRI_CPU], "summed by the source = 2.5"));
	assert_null(strstr(f->tr.why[XG_TRI_CPU], "on screen"));
	assert_non_null(strstr(f->tr.why[XG_TRI_MEM], "MEM-P% of the rows on screen"));
	/* Sorted by another column: the CPU part is of the rows on screen. */
	x->rows_fields = col_fields(XG_COL_MEM);
	metrics_compute_rows(&f->s[0], &f->s[1], 0, &f->t);
	triage_compute(&f->tr, &f->t, &f->v, NULL);
	assert_string_equal(f->tr.text[XG_TRI_CPU], "CPU on screen: 2.5 runnable vCPUs on 4 pCPUs; web1 waits 35 %");
	/* Nothing past the rules: said "on screen" while a part is. */
	raise_rules(&f->v);
	triage_compute(&f->tr, &f->t, &f->v, NULL);
	assert_string_equal(f->tr.line, "nothing stands out on screen");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(line, start, finish),
		cmocka_unit_test_setup_teardown(partial_rows, start, finish),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
