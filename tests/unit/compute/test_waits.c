// SPDX-License-Identifier: GPL-2.0-or-later
/* Ranked culprits and interval histograms from a domain's wait totals:
 * shares of the whole, 'other' for the rest, names from the sample, the
 * histogram as the difference from the same domain's entry before (a
 * restarted domain counts from its start). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "xgtop/compute/waits.h"

static struct xg_dom *dom(struct xg_sample *s, uint32_t id, const char *name, uint32_t gen)
{
	struct xg_dom *d = sample_add_dom(s, id);
	snprintf(d->name, sizeof(d->name), "%s", name);
	d->gen = gen;
	return d;
}

static void ranked(void **state)
{
	(void)state;
	struct xg_sample s;
	sample_init(&s);
	struct xg_dom *a = dom(&s, 1, "web1", 0);
	dom(&s, 7, "batch7", 0);
	struct xg_waits *w = sample_add_waits(&s, a);
	w->total_ns = 10000;
	w->ntop = 3;
	w->top[0] = (struct xg_wait_part){ 7, 6000 };
	w->top[1] = (struct xg_wait_part){ XG_BEHIND_IDLE, 2000 };
	w->top[2] = (struct xg_wait_part){ 9, 1000 };
	w->nlast = 2;
	w->last[0] = (struct xg_wait_part){ 7, 300 };
	w->last[1] = (struct xg_wait_part){ XG_BEHIND_XEN, 100 };
	dom_set(a, XG_F_BEHIND_WAIT_NS, 400);
	struct xg_wait_rank r[XG_WAIT_RANKS];
	uint64_t whole;
	assert_int_equal(waits_ranked(&s, a, true, r, &whole), 4);
	assert_int_equal(whole, 10000);
	assert_true(r[0].share > 0.5999 && r[0].share < 0.6001);
	assert_true(r[3].other && r[3].ns == 1000);
	char buf[32];
	assert_string_equal(waits_culprit(&s, a, r[0].who, buf, sizeof(buf)), "batch7");
	assert_string_equal(waits_culprit(&s, a, r[1].who, buf, sizeof(buf)), "idle");
	assert_string_equal(waits_culprit(&s, a, r[2].who, buf, sizeof(buf)), "dom 9");
	/* the interval's parts make up its whole: no 'other' */
	assert_int_equal(waits_ranked(&s, a, false, r, &whole), 2);
	assert_int_equal(whole, 400);
	assert_true(r[0].share > 0.7499 && r[0].share < 0.7501);
	assert_string_equal(waits_culprit(&s, a, r[1].who, buf, sizeof(buf)), "xen");
	/* no entry, or nothing waited: nothing */
	assert_int_equal(waits_ranked(&s, &s.dom[1], true, r, &whole), 0);
	sample_free(&s);
}

static void hist(void **state)
{
	(void)state;
	struct xg_sample p, c;
	sample_init(&p);
	sample_init(&c);
	struct xg_waits *wp = sample_add_waits(&p, dom(&p, 3, "db", 0));
	wp->bucket[4] = 10;
	wp->bucket[7] = 5;
	struct xg_dom *d = dom(&c, 3, "db", 0);
	struct xg_waits *wc = sample_add_waits(&c, d);
	wc->bucket[4] = 13;
	wc->bucket[7] = 5;
	wc->bucket[XG_WAIT_LE_N] = 1;
	uint64_t h[XG_WAIT_LE_N + 1];
	assert_true(waits_hist(&p, &c, d, h));
	assert_int_equal(h[4], 3);
	assert_int_equal(h[7], 0);
	assert_int_equal(h[XG_WAIT_LE_N], 1);
	/* restarted (new gen): since its start */
	d->gen = 1;
	assert_true(waits_hist(&p, &c, d, h));
	assert_int_equal(h[4], 13);
	assert_int_equal(h[7], 5);
	/* a domain without totals: none */
	assert_false(waits_hist(&p, &c, dom(&c, 4, "new", 0), h));
	char b[16];
	waits_bound_text(0, b, sizeof(b));
	assert_string_equal(b, "8.19us");
	waits_bound_text(5, b, sizeof(b));
	assert_string_equal(b, "1.05ms");
	waits_bound_text(XG_WAIT_LE_N, b, sizeof(b));
	assert_string_equal(b, "inf");
	sample_free(&p);
	sample_free(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(ranked),
		cmocka_unit_test(hist),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
