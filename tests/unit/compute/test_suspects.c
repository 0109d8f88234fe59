// SPDX-License-Identifier: GPL-2.0-or-later
/* Cache suspects: Pearson's r against values worked by hand, the CPI2 rule
 * (3 of the last 5 windows above mean + 2 sigma of the baseline), the
 * settings text, and a whole update over hand-made samples: the victim,
 * its suspect, a decoy that rises with it in two windows only, and a
 * neighbour on the other socket. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "xgtop/compute/suspects.h"

static void pearson(void **state)
{
	(void)state;
	float x[] = { 1, 2, 3, 4, 5 }, y[] = { 2, 4, 6, 8, 10 }, z[] = { 5, 4, 3, 2, 1 };
	assert_float_equal(susp_pearson(x, y, 5), 1.0, 1e-9);
	assert_float_equal(susp_pearson(x, z, 5), -1.0, 1e-9);
	/* by hand: x = 1 2 3 4, y = 1 3 2 4: sxy = 4, sxx = syy = 5: r = 0.8 */
	float a[] = { 1, 2, 3, 4 }, b[] = { 1, 3, 2, 4 };
	assert_float_equal(susp_pearson(a, b, 4), 0.8, 1e-6);
	/* NaN points are left out, pairwise */
	float an[] = { 1, NAN, 2, 3, 4 }, bn[] = { 1, 100, 3, 2, 4 };
	assert_float_equal(susp_pearson(an, bn, 5), 0.8, 1e-6);
	/* constant series, or fewer than 3 points: no correlation */
	float k[] = { 7, 7, 7, 7, 7 };
	assert_true(isnan(susp_pearson(x, k, 5)));
	assert_true(isnan(susp_pearson(x, y, 2)));
	/* two coinciding spikes out of four among 25 points: 42 / sqrt(46 * 84) */
	float v[25] = { 0 }, d[25] = { 0 };
	v[20] = v[21] = v[23] = v[24] = 1;
	d[21] = d[24] = 1;
	assert_float_equal(susp_pearson(d, v, 25), 42 / sqrt(46.0 * 84.0), 1e-6);
}

static void mean_sd(void **state)
{
	(void)state;
	float x[] = { 2, 4, 4, 4, 5, 5, 7, 9, NAN };
	double m, s;
	assert_int_equal(susp_mean_sd(x, 9, &m, &s), 8);
	assert_float_equal(m, 5, 1e-12);
	assert_float_equal(s, 2, 1e-12);
}

/* 20 baseline windows at 1.0 +- 0.05 (sd 0.05), then the last five. */
static size_t windows(float *w, const float last[5])
{
	for (int i = 0; i < 20; i++)
		w[i] = i & 1 ? 1.05f : 0.95f;
	memcpy(w + 20, last, 5 * sizeof(*w));
	return 25;
}

static void cpi2_rule(void **state)
{
	(void)state;
	struct xg_susp_cfg c;
	susp_cfg_defaults(&c);
	float w[25];
	double m, s;
	unsigned mask;
	/* threshold: max(1 + 2 * 0.05, 1 * 1.1) = 1.1 */
	size_t n = windows(w, (float[]){ 1.2f, 1.0f, 1.3f, 1.0f, 1.15f });
	assert_int_equal(susp_outliers(&c, w, n, &m, &s, &mask), 3);
	assert_int_equal(mask, 0x15);
	assert_float_equal(m, 1.0, 1e-6);
	assert_float_equal(s, 0.05, 1e-6);
	assert_float_equal(susp_threshold(&c, m, s), 1.1, 1e-6);
	/* two of five: not a victim's count */
	n = windows(w, (float[]){ 1.2f, 1.0f, 1.0f, 1.0f, 1.15f });
	assert_int_equal(susp_outliers(&c, w, n, &m, &s, &mask), 2);
	/* just at the threshold is not above it: 0.75 / 1.25, sd 0.25, 1.5 */
	for (int i = 0; i < 20; i++)
		w[i] = i & 1 ? 1.25f : 0.75f;
	float at[] = { 1.5f, 1.5f, 1.5f, 1.0f, 1.0f };
	memcpy(w + 20, at, sizeof(at));
	assert_int_equal(susp_outliers(&c, w, n, &m, &s, &mask), 0);
	w[21] = 1.5001f;
	assert_int_equal(susp_outliers(&c, w, n, &m, &s, &mask), 1);
	/* a noisier baseline raises the bar: sd 0.2 -> threshold 1.4 */
	for (int i = 0; i < 20; i++)
		w[i] = i & 1 ? 1.2f : 0.8f;
	float under[] = { 1.35f, 1.35f, 1.35f, 1.0f, 1.0f };
	memcpy(w + 20, under, sizeof(under));
	assert_int_equal(susp_outliers(&c, w, n, &m, &s, &mask), 0);
	/* sigma 1 lowers it again: 1.2 */
	c.sigma = 1;
	float hi[] = { 1.3f, 1.3f, 1.3f, 1.0f, 1.0f };
	memcpy(w + 20, hi, sizeof(hi));
	assert_int_equal(susp_outliers(&c, w, n, &m, &s, &mask), 3);
	/* too few measured baseline windows: learning */
	susp_cfg_defaults(&c);
	for (int i = 0; i < 20; i++)
		w[i] = i < 16 ? NAN : 1.0f;
	assert_int_equal(susp_outliers(&c, w, n, &m, &s, &mask), -1);
	w[15] = 1.0f;
	assert_int_equal(susp_outliers(&c, w, n, &m, &s, &mask), 3);
	assert_int_equal(susp_outliers(&c, w, 9, &m, &s, &mask), -1);
}

static void cfg_text(void **state)
{
	(void)state;
	struct xg_susp_cfg c;
	struct xg_err err = { 0 };
	char buf[160];
	susp_cfg_defaults(&c);
	susp_cfg_format(&c, buf, sizeof(buf));
	assert_string_equal(buf, "window=1 sigma=2 hits=3/5 baseline=20 min_rise=10 min_r=0.5");
	assert_int_equal(susp_cfg_parse(&c, "hits=4/6  sigma=3 window=2", &err), 0);
	assert_int_equal(c.hits, 4);
	assert_int_equal(c.recent, 6);
	assert_int_equal(c.window, 2);
	assert_float_equal(c.sigma, 3, 0);
	/* bad values change nothing */
	assert_int_equal(susp_cfg_parse(&c, "hits=6/4", &err), -1);
	assert_int_equal(susp_cfg_parse(&c, "baseline=70", &err), -1);
	assert_int_equal(susp_cfg_parse(&c, "window=0", &err), -1);
	assert_int_equal(susp_cfg_parse(&c, "colour=red", &err), -1);
	assert_int_equal(susp_cfg_parse(&c, "sigma", &err), -1);
	assert_int_equal(susp_cfg_parse(&c, "min_r=2", &err), -1);
	assert_int_equal(c.hits, 4);
	assert_int_equal(c.baseline, 20);
}

/* Domains: 1 victim, 2 antagonist, 3 decoy (socket 0), 4 far (socket 1,
 * floods with the antagonist). Per refresh k of 25: the antagonist floods
 * in 20, 21, 23, 24 and the victim's CPI doubles then; the decoy floods in
 * 21 and 24 only. */
static void fill(struct xg_sample *s, unsigned k, uint64_t tot[5][4])
{
	sample_clear(s);
	s->host.mono_ns = 1000000000ull * (k + 1);
	bool a = k == 20 || k == 21 || k == 23 || k == 24, d = k == 21 || k == 24;
	for (uint32_t id = 1; id <= 4; id++) {
		struct xg_dom *x = sample_add_dom(s, id);
		snprintf(x->name, sizeof(x->name), "d%u", id);
		double wob = 1 + 0.01 * (double)((k * 7 + id * 3) % 5);
		double ins = 1e9, cpi = id == 1 && a ? 2.0 : 1.0;
		double miss = 1e6 * wob * ((id == 2 || id == 4) && a ? 50 : id == 3 && d ? 40 : 1);
		if (k) {
			tot[id][0] += (uint64_t)ins;
			tot[id][1] += (uint64_t)(ins * cpi * wob);
			tot[id][2] += (uint64_t)miss;
			tot[id][3] += (uint64_t)(miss * 64);
		}
		dom_set(x, XG_F_INSTR, tot[id][0]);
		dom_set(x, XG_F_CYCLES, tot[id][1]);
		dom_set(x, XG_F_LLC_MISS, tot[id][2]);
		struct xg_sock *ks = sample_add_socks(s, x, 2);
		for (uint32_t q = 0; q < 2; q++) {
			ks[q].socket = q;
			sock_set(&ks[q], XG_SOCK_MBM_TOTAL, q == (id == 4) ? tot[id][3] : 0);
		}
	}
}

static void whole_update(void **state)
{
	(void)state;
	struct xg_sample s[2];
	struct xg_table t = { 0 };
	struct xg_suspects sp;
	struct xg_susp_cfg c;
	uint64_t tot[5][4] = { { 0 } };
	susp_cfg_defaults(&c);
	suspects_init(&sp, &c);
	sample_init(&s[0]);
	sample_init(&s[1]);
	for (unsigned k = 0; k < 25; k++) {
		fill(&s[k & 1], k, tot);
		metrics_compute_rows(k ? &s[(k - 1) & 1] : NULL, &s[k & 1], 0, &t);
		suspects_update(&sp, &t);
		suspects_mark_rows(&sp, &t);
		const struct xg_susp_dom *v = suspects_of(&sp, 0);
		if (k < 10) {   /* 5 baseline windows + 5 are needed first */
			assert_int_equal(v->hits, -1);
			assert_false(row_has(&t.rows[0], XG_COL_VICTIM));
		}
		if (k == 22)   /* two outlier windows so far */
			assert_false(v->victim);
	}
	const struct xg_susp_dom *v = suspects_of(&sp, 0);
	assert_true(v->victim);
	assert_int_equal(v->hits, 4);
	assert_int_equal(v->socket, 0);
	assert_true(row_has(&t.rows[0], XG_COL_VICTIM));
	assert_int_equal(t.rows[0].victim, 1);
	assert_float_equal(t.rows[0].v[XG_COL_VICTIM], 4, 0);
	/* the antagonist first and flagged; the decoy ranked, not flagged;
	 * the far socket's domain not a candidate at all */
	assert_int_equal(v->nsusp, 2);
	assert_int_equal(v->susp[0].dom, 1);
	assert_true(v->susp[0].flagged);
	assert_true(v->susp[0].r > 0.9);
	assert_int_equal(v->susp[0].together, 4);
	assert_int_equal(v->susp[1].dom, 2);
	assert_false(v->susp[1].flagged);
	assert_int_equal(v->susp[1].together, 2);
	for (unsigned i = 1; i < 4; i++)
		assert_false(suspects_of(&sp, i)->victim);
	assert_int_equal(sp.nvictims, 1);
	suspects_free(&sp);
	table_free(&t);
	sample_free(&s[0]);
	sample_free(&s[1]);
}

/* Without counters anywhere the update is a host-level test: every domain
 * gets the same verdict (no CPI) without a slot, and the rows metrics
 * builds next start with its reason. When counters come, the domains are
 * judged from fresh slots, as in whole_update; a victim's suspects are
 * ranked only when asked for. A pool is not judged. */
static void no_counters_then_counters(void **state)
{
	(void)state;
	struct xg_sample s[2];
	struct xg_table t = { 0 };
	struct xg_suspects sp;
	struct xg_susp_cfg c;
	uint64_t tot[5][4] = { { 0 } };
	susp_cfg_defaults(&c);
	suspects_init(&sp, &c);
	sample_init(&s[0]);
	sample_init(&s[1]);
	for (unsigned k = 0; k < 30; k++) {
		struct xg_sample *x = &s[k & 1];
		if (k < 5) {
			sample_clear(x);
			for (uint32_t id = 1; id <= 4; id++)
				sample_add_dom(x, id);
		} else {
			fill(x, k - 5, tot);
		}
		x->host.mono_ns = 1000000000ull * (k + 1);
		metrics_compute_rows(k ? &s[(k - 1) & 1] : NULL, x, 0, &t);
		if (k >= 2 && k < 5)   /* the reason is there before the update */
			assert_int_equal(t.rows[3].why[XG_COL_VICTIM], XG_WHY_SUSP_NOCPI);
		suspects_update(&sp, &t);
		suspects_mark_rows(&sp, &t);
		if (k < 5) {
			assert_int_equal(sp.nres, 0);
			assert_int_equal(sp.nlive, 0);
			for (size_t i = 0; i < 4; i++) {
				assert_int_equal(suspects_of(&sp, i)->why, XG_WHY_SUSP_NOCPI);
				assert_int_equal(suspects_of(&sp, i)->hits, -1);
				assert_false(row_has(&t.rows[i], XG_COL_VICTIM));
				assert_int_equal(t.rows[i].why[XG_COL_VICTIM], XG_WHY_SUSP_NOCPI);
			}
			assert_null(suspects_of(&sp, 4));
		} else if (k > 5) {
			assert_int_equal(sp.nres, 4);
			assert_int_not_equal(t.rows[0].why[XG_COL_VICTIM], XG_WHY_SUSP_NOCPI);
		}
	}
	assert_int_equal(sp.nvictims, 1);
	assert_true(sp.res[0].victim);
	assert_false(sp.res[0].ranked);   /* nobody asked yet */
	assert_int_equal(sp.res[0].nsusp, 0);
	const struct xg_susp_dom *v = suspects_of(&sp, 0);
	assert_true(v->ranked);
	assert_int_equal(v->hits, 4);
	assert_int_equal(v->nsusp, 2);
	assert_int_equal(v->susp[0].dom, 1);
	assert_true(v->susp[0].flagged);
	assert_int_equal(v->susp[1].dom, 2);
	assert_false(v->susp[1].flagged);
	assert_true(row_has(&t.rows[0], XG_COL_VICTIM));
	assert_int_equal(t.rows[0].victim, 1);
	/* a pool: one verdict for all, whatever the counters */
	struct xg_sample *x = &s[0];
	fill(x, 25, tot);
	x->host.mono_ns = 1000000000ull * 31;
	xg_grow(&x->peer, &x->peer_cap, 1, sizeof(*x->peer));
	memset(x->peer, 0, sizeof(*x->peer));
	x->npeer = 1;
	metrics_compute_rows(&s[1], x, 0, &t);
	suspects_update(&sp, &t);
	suspects_mark_rows(&sp, &t);
	assert_int_equal(sp.nvictims, 0);
	assert_int_equal(suspects_of(&sp, 0)->why, XG_WHY_SUSP_POOL);
	assert_int_equal(t.rows[0].why[XG_COL_VICTIM], XG_WHY_SUSP_POOL);
	assert_false(row_has(&t.rows[0], XG_COL_VICTIM));
	suspects_free(&sp);
	table_free(&t);
	sample_free(&s[0]);
	sample_free(&s[1]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(pearson),
		cmocka_unit_test(mean_sd),
		cmocka_unit_test(cpi2_rule),
		cmocka_unit_test(cfg_text),
		cmocka_unit_test(whole_update),
		cmocka_unit_test(no_counters_then_counters),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
