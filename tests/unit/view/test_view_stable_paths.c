// SPDX-License-Identifier: GPL-2.0-or-later
/* Rows that hold still (view/view_stable.c) build their order two ways:
 * out of the exact sort, or, when few rows are new, without it. Both must
 * give the same order, refresh after refresh: two views see the same
 * tables, one each way, through figures that jitter, jump, tie, go
 * unmeasured, domains that go, come (new, or an id reused), many at once,
 * tables out of (host, id) order, filters, resets, reverses, other sort
 * columns, and the more moves than settle allows. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "xgtop/view/view.h"
#include "../../../src/view/view_stable.h"

#define MAXDOM 400

/* A domain of the simulated host. */
struct dom {
	uint32_t id;
	double cpu, mem;
	bool fresh;       /* no baseline this refresh */
	bool unmeasured;  /* no CPU% this refresh */
};

static struct dom doms[MAXDOM];
static size_t ndom;
static uint32_t next_id;
static struct xg_row rows[MAXDOM];
static char names[MAXDOM][16];
static struct xg_table table;
static uint64_t rng = 88172645463325252ull;

static uint64_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static bool chance(unsigned pct)
{
	return rnd() % 100 < pct;
}

static double unit(void)
{
	return (double)(rnd() % 1000000) / 1e6;
}

static void add_dom(void)
{
	if (ndom == MAXDOM)
		return;
	/* Mostly a new id after the others (table order holds); sometimes one
	 * that goes in between. */
	size_t at = ndom;
	uint32_t id = ++next_id * 4;
	if (ndom && chance(30)) {
		at = rnd() % ndom;
		id = doms[at].id - 1 - (uint32_t)(rnd() % 2);
		if ((at && doms[at - 1].id >= id) || !id)
			at = ndom, id = ++next_id * 4;
	}
	memmove(&doms[at + 1], &doms[at], (ndom - at) * sizeof(doms[0]));
	doms[at] = (struct dom){ id, 100 * unit(), 1e9 * unit(), true, chance(20) };
	ndom++;
}

/* One refresh's changes to the domains. */
static void step(void)
{
	for (size_t i = 0; i < ndom; i++) {
		doms[i].fresh = false;
		doms[i].unmeasured = chance(1);
		doms[i].cpu *= 1 + 0.04 * (unit() - 0.5);   /* +-2 % */
		doms[i].mem += 1e6 * (unit() - 0.5);
		if (chance(2))
			doms[i].cpu = 100 * unit();          /* a jump */
		if (chance(2) && i)
			doms[i].cpu = doms[i - 1].cpu;       /* a tie */
		if (chance(1) && i)                      /* next to a tie, by one bit */
			doms[i].cpu = nextafter(doms[i - 1].cpu, 1000);
		if (chance(1))
			doms[i].fresh = true;                /* the id reused */
	}
	if (chance(10) && ndom)   /* the last one goes */
		ndom--;
	if (chance(5) && ndom > 1) {   /* one from the middle goes */
		size_t at = rnd() % ndom;
		memmove(&doms[at], &doms[at + 1], (ndom - at - 1) * sizeof(doms[0]));
		ndom--;
	}
	unsigned add = chance(15) ? 1 + (unsigned)(rnd() % 3) : 0;
	if (chance(2))
		add = 70 + (unsigned)(rnd() % 30);   /* more than few at once */
	for (unsigned k = 0; k < add; k++)
		add_dom();
	if (chance(2))   /* everything reshuffled: more moves than settle allows */
		for (size_t i = 0; i < ndom; i++)
			doms[i].cpu = 100 * unit();
}

/* The table for this refresh; sometimes two rows out of (host, id) order. */
static void make_table(void)
{
	memset(rows, 0, sizeof(rows));
	for (size_t i = 0; i < ndom; i++) {
		struct xg_row *r = &rows[i];
		r->id = doms[i].id;
		r->vcpu = -1;
		snprintf(names[i], sizeof(names[i]), "d%u", (unsigned)doms[i].id);
		r->name = names[i];
		r->base_index = doms[i].fresh ? XG_NO_BASE : (uint32_t)i;
		r->v[XG_COL_ID] = r->id;
		r->v[XG_COL_CPU_PCT] = doms[i].cpu;
		r->v[XG_COL_MEM] = doms[i].mem;
		r->valid = 1ull << XG_COL_ID | 1ull << XG_COL_MEM;
		if (!doms[i].unmeasured)
			r->valid |= 1ull << XG_COL_CPU_PCT;
	}
	if (ndom > 2 && chance(1)) {
		size_t a = rnd() % (ndom - 1);
		struct xg_row tmp = rows[a];
		rows[a] = rows[a + 1];
		rows[a + 1] = tmp;
	}
	table.rows = rows;
	table.n = table.ndom_rows = ndom;
}

/* What the user does between refreshes, to both views. */
static void user(struct xg_view *a, struct xg_view *b)
{
	struct xg_err err = { 0 };
	struct xg_view *v[2] = { a, b };
	unsigned what = (unsigned)(rnd() % 1000);
	for (int k = 0; k < 2; k++) {
		if (what < 5)
			v[k]->stable_reset = true;
		else if (what < 8)
			v[k]->reverse = !v[k]->reverse;
		else if (what < 10)
			view_sort_by(v[k], XG_COL_MEM);
		else if (what < 12)
			view_sort_by(v[k], XG_COL_CPU_PCT);
		else if (what < 13)
			view_sort_by(v[k], XG_COL_NAME);
		else if (what < 15)
			assert_int_equal(view_set_filter(v[k], "[13579]$", &err), 0);
		else if (what < 17)
			assert_int_equal(view_set_filter(v[k], "", &err), 0);
	}
}

static void both_ways_give_one_order(void **state)
{
	(void)state;
	struct xg_config cfg;
	struct xg_view a, b;
	config_defaults(&cfg);
	size_t held = 0;
	for (uint64_t seed = 1; seed <= 4; seed++) {
		rng = 88172645463325252ull ^ (seed * 0x9e3779b97f4a7c15ull);
		ndom = 0, next_id = 0;
		for (int i = 0; i < 200; i++)
			add_dom();
		view_init(&a, &cfg);
		view_init(&b, &cfg);
		a.stable_live = b.stable_live = true;
		for (int r = 0; r < 1500; r++) {
			step();
			make_table();
			user(&a, &b);
			view_stable_unsorted(true);
			view_apply(&a, &table);
			view_stable_unsorted(false);
			view_apply(&b, &table);
			assert_int_equal(a.norder, b.norder);
			if (memcmp(a.order, b.order, a.norder * sizeof(*a.order)))
				fail_msg("seed %llu refresh %d: the orders differ", (unsigned long long)seed, r);
			/* Not just the exact order each time: rows were held. */
			for (size_t i = 1; i < a.norder; i++)
				if (row_has(&rows[a.order[i]], a.sort_col) &&
				    row_has(&rows[a.order[i - 1]], a.sort_col) &&
				    rows[a.order[i]].v[a.sort_col] > rows[a.order[i - 1]].v[a.sort_col] &&
				    xg_columns[a.sort_col].descending != a.reverse) {
					held++;
					break;
				}
		}
		view_stable_unsorted(true);
		view_free(&a);
		view_free(&b);
	}
	assert_true(held > 1000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(both_ways_give_one_order),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
