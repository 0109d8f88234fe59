// SPDX-License-Identifier: GPL-2.0-or-later
/* BEHIND, BEHIND%, WAIT-P50 and WAIT-P99 from a sample's wait gauges: the
 * culprit's name found in the sample (or idle, xen, "dom N"), its share,
 * the text cell "name NN%" and the raw (CSV/JSON) cell with the name
 * alone, and '-' with the right reason when nothing can be said. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "xgtop/compute/cell.h"
#include "xgtop/compute/metrics.h"

static struct xg_dom *dom(struct xg_sample *s, uint32_t id, const char *name, uint64_t wait, uint64_t top,
			  uint32_t who)
{
	struct xg_dom *d = sample_add_dom(s, id);
	snprintf(d->name, sizeof(d->name), "%s", name);
	dom_set(d, XG_F_BEHIND_WAIT_NS, wait);
	dom_set(d, XG_F_BEHIND_NS, top);
	dom_set(d, XG_F_BEHIND_ID, who);
	dom_set(d, XG_F_WAIT_P50_NS, 1500000);
	dom_set(d, XG_F_WAIT_P99_NS, 12250000);
	return d;
}

static const struct xg_row *row(const struct xg_table *t, uint32_t id)
{
	for (size_t i = 0; i < t->ndom_rows; i++)
		if (t->rows[i].id == id)
			return &t->rows[i];
	fail_msg("no row %u", id);
	return NULL;
}

static void cells(void **state)
{
	(void)state;
	struct xg_sample s;
	sample_init(&s);
	s.host.mono_ns = 1000000000;
	dom(&s, 1, "batch7", 0, 0, 0);                       /* waited for nothing */
	dom(&s, 2, "web1", 1000000, 620000, 1);              /* 62 % behind batch7 */
	dom(&s, 3, "db", 2000000, 800000, XG_BEHIND_IDLE);   /* 40 % behind idle */
	dom(&s, 4, "app", 1000000, 125000, XG_BEHIND_XEN);
	dom(&s, 5, "gone", 1000000, 500000, 9);              /* a culprit not in the sample */
	struct xg_dom *d6 = sample_add_dom(&s, 6);           /* not measured: the source's reason */
	snprintf(d6->name, sizeof(d6->name), "linux");
	for (int f = XG_F_BEHIND_WAIT_NS; f <= XG_F_WAIT_P99_NS; f++)
		dom_invalid(&s, d6, (enum xg_field)f, "no trace here");
	sample_sort(&s);
	struct xg_table t = { 0 };
	metrics_compute_rows(NULL, &s, 0, &t);
	char buf[64];

	const struct xg_row *r = row(&t, 2);
	assert_true(row_has(r, XG_COL_BEHIND) && row_has(r, XG_COL_BEHIND_PCT));
	col_format(XG_COL_BEHIND, r, buf, sizeof(buf));
	assert_string_equal(buf, "batch7 62%");
	col_format_raw(XG_COL_BEHIND, r, buf, sizeof(buf));
	assert_string_equal(buf, "batch7");
	col_format_raw(XG_COL_BEHIND_PCT, r, buf, sizeof(buf));
	assert_string_equal(buf, "62.000");
	assert_true(row_has(r, XG_COL_WAIT_P50) && r->v[XG_COL_WAIT_P50] == 1.5);
	assert_true(row_has(r, XG_COL_WAIT_P99) && r->v[XG_COL_WAIT_P99] == 12.25);

	col_format(XG_COL_BEHIND, row(&t, 3), buf, sizeof(buf));
	assert_string_equal(buf, "idle 40%");
	col_format(XG_COL_BEHIND, row(&t, 4), buf, sizeof(buf));
	assert_string_equal(buf, "xen 12%");   /* 12.5 rounds to even */
	col_format_raw(XG_COL_BEHIND, row(&t, 5), buf, sizeof(buf));
	assert_string_equal(buf, "dom 9");

	r = row(&t, 1);   /* no wait ended: '-' and why, not 0 */
	assert_false(row_has(r, XG_COL_BEHIND) || row_has(r, XG_COL_BEHIND_PCT));
	assert_string_equal(row_why(&t, r, XG_COL_BEHIND), "no wait ended in the interval");
	col_format(XG_COL_BEHIND, r, buf, sizeof(buf));
	assert_string_equal(buf, "-");
	col_format_raw(XG_COL_BEHIND, r, buf, sizeof(buf));
	assert_string_equal(buf, "");

	r = row(&t, 6);
	for (int c = XG_COL_BEHIND; c <= XG_COL_WAIT_P99; c++) {
		assert_false(row_has(r, (enum xg_col)c));
		assert_string_equal(row_why(&t, r, (enum xg_col)c), "no trace here");
	}
	table_free(&t);
	sample_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(cells),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
