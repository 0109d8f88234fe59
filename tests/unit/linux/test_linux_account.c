// SPDX-License-Identifier: GPL-2.0-or-later
/* The reaped-children accounting of the Linux source on synthetic process
 * tables: a command seen alive and then reaped must count once. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "../../../src/linux/linux_domain.h"

#define TICK 10000000ull   /* ns, USER_HZ = 100 */

struct fixture {
	struct lx_scan sc;
};

static void old_state(struct lx_scan *sc, uint32_t pid, uint32_t ppid, uint64_t start, uint64_t own,
		      uint64_t child, uint64_t wbytes)
{
	xg_grow(&sc->pold, &sc->pold_cap, sc->npold + 1, sizeof(*sc->pold));
	sc->pold[sc->npold++] = (struct lx_pst){ .pid = pid, .ppid = ppid, .start = start, .io_ok = true,
						 .io = { .wbytes = wbytes }, .own_ticks = own,
						 .child_ticks = child, .prev = -1 };
}

/* A process seen now: its raw counters; its old state is looked up. */
static void now_state(struct lx_scan *sc, uint32_t pid, uint32_t ppid, uint64_t start, uint64_t own,
		      uint64_t child, uint64_t wbytes)
{
	xg_grow(&sc->proc, &sc->proc_cap, sc->nproc + 1, sizeof(*sc->proc));
	struct lx_proc *p = &sc->proc[sc->nproc++];
	memset(p, 0, sizeof(*p));
	p->pid = pid;
	p->ppid = ppid;
	p->start = start;
	xg_grow(&sc->pnew, &sc->pnew_cap, sc->npnew + 1, sizeof(*sc->pnew));
	struct lx_pst *n = &sc->pnew[sc->npnew++];
	*n = (struct lx_pst){ .pid = pid, .ppid = ppid, .start = start, .io_ok = true,
			      .io = { .wbytes = wbytes }, .own_ticks = own, .child_ticks = child, .prev = -1 };
	int64_t oi = lx_index_get(&sc->pidx, pid);
	if (oi >= 0 && sc->pold[oi].start == start) {
		sc->pold[oi].seen = true;
		n->prev = (int32_t)oi;
		n->debt_io = sc->pold[oi].debt_io;
		n->debt_ticks = sc->pold[oi].debt_ticks;
	}
}

static void index_old(struct lx_scan *sc)
{
	lx_index_reset(&sc->pidx, sc->npold);
	for (size_t i = 0; i < sc->npold; i++)
		lx_index_put(&sc->pidx, sc->pold[i].pid, (uint32_t)i);
}

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	f->sc.tick_ns = TICK;
	f->sc.have_prev = true;
	f->sc.prev_boot_ns = 5000 * TICK;
	f->sc.want_io = true;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	f->sc.proc_fd = -1;
	free(f->sc.proc);
	free(f->sc.pold);
	free(f->sc.pnew);
	free(f->sc.gone);
	lx_index_free(&f->sc.pidx);
	lx_index_free(&f->sc.nidx);
	free(f);
	return 0;
}

/* bash(100) -> make(200) -> sh(201) -> cc(202), the last three started in
 * the same tick and all reaped between two refreshes. What was counted of
 * them (cc's 250 ticks, make's 300 reaped ticks, make's own 1) must come off
 * bash's cutime jump, leaving only cc's unseen last 10 ticks. */
static void chain_reaped_in_one_interval(void **state)
{
	struct lx_scan *sc = &((struct fixture *)*state)->sc;
	/* children first in the table: nothing but the tree may order them */
	old_state(sc, 202, 201, 4000, 250, 0, 4096);
	old_state(sc, 201, 200, 4000, 0, 0, 0);
	old_state(sc, 200, 100, 4000, 1, 300, 1000);
	old_state(sc, 100, 1, 10, 5, 50, 0);
	index_old(sc);
	/* cc ended at 260 ticks and 8192 bytes; sh reaped it, make reaped
	 * sh, bash reaped make: bash's cutime grew by 1 + 300 + 260 */
	now_state(sc, 100, 1, 10, 5, 50 + 561, 0 + 1000 + 8192);
	lx_account_settle(sc);
	assert_int_equal(sc->proc[0].d_child_ns, 10 * TICK);
	assert_int_equal(sc->proc[0].d_io.wbytes, 8192 - 4096);
	assert_int_equal(sc->pnew[0].debt_ticks, 0);
}

/* The parent reaps the child only after the refresh that noticed it gone:
 * the debt waits for the parent's jump instead of being lost. */
static void debt_waits_for_the_reap(void **state)
{
	struct lx_scan *sc = &((struct fixture *)*state)->sc;
	old_state(sc, 100, 1, 10, 5, 50, 0);
	old_state(sc, 300, 100, 4000, 400, 0, 0);
	index_old(sc);
	now_state(sc, 100, 1, 10, 5, 50, 0);   /* not reaped yet */
	lx_account_settle(sc);
	assert_int_equal(sc->proc[0].d_child_ns, 0);
	assert_int_equal(sc->pnew[0].debt_ticks, 400);
	/* next refresh: the jump of 410 arrives, 10 of it new */
	struct lx_pst keep = sc->pnew[0];
	sc->npold = 0;
	old_state(sc, 100, 1, 10, 5, 50, 0);
	sc->pold[0].debt_ticks = keep.debt_ticks;
	index_old(sc);
	sc->nproc = sc->npnew = 0;
	now_state(sc, 100, 1, 10, 5, 460, 0);
	lx_account_settle(sc);
	assert_int_equal(sc->proc[0].d_child_ns, 10 * TICK);
}

/* A child never seen (born and reaped between refreshes) counts in full;
 * a process born in the interval counts its reaped children from zero. */
static void unseen_children_count(void **state)
{
	struct lx_scan *sc = &((struct fixture *)*state)->sc;
	old_state(sc, 100, 1, 10, 5, 50, 0);
	index_old(sc);
	now_state(sc, 100, 1, 10, 5, 80, 0);
	now_state(sc, 400, 100, 5001, 2, 7, 0);   /* started after the last refresh */
	lx_account_settle(sc);
	assert_int_equal(sc->proc[0].d_child_ns, 30 * TICK);
	assert_int_equal(sc->proc[1].d_child_ns, 7 * TICK);
}

/* A reused pid is a new process: no deltas against the old one, and the
 * old one's debt does not land on it. */
static void reused_pid(void **state)
{
	struct lx_scan *sc = &((struct fixture *)*state)->sc;
	old_state(sc, 100, 1, 10, 5, 50, 0);
	old_state(sc, 500, 100, 4000, 90, 0, 0);
	old_state(sc, 501, 500, 4100, 30, 0, 0);
	index_old(sc);
	now_state(sc, 100, 1, 10, 5, 50, 0);
	now_state(sc, 500, 100, 5002, 1, 0, 0);   /* same pid, younger: new */
	lx_account_settle(sc);
	/* 501's parent 500 is gone (the new 500 is younger than 501), so its
	 * debt rides up to 100 with the old 500's */
	assert_int_equal(sc->pnew[0].debt_ticks, 120);
	assert_int_equal(sc->pnew[1].debt_ticks, 0);
	assert_int_equal(sc->proc[1].d_child_ns, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(chain_reaped_in_one_interval, setup, teardown),
		cmocka_unit_test_setup_teardown(debt_waits_for_the_reap, setup, teardown),
		cmocka_unit_test_setup_teardown(unseen_children_count, setup, teardown),
		cmocka_unit_test_setup_teardown(reused_pid, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
