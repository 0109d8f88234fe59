// SPDX-License-Identifier: GPL-2.0-or-later
/* The counting module on this very thread with software events: many
 * domains attached and detached (the domain table), totals that survive a
 * detached thread, and the reasons for domains that are not attached. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "xgtop/pmu/pmu.h"

#define NDOM 300

static void touch_pages(long n)
{
	long pg = sysconf(_SC_PAGESIZE);
	volatile char *m = mmap(NULL, (size_t)(n * pg), PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	assert_true(m != MAP_FAILED);
	for (long i = 0; i < n; i++)
		m[i * pg] = 1;
	munmap((void *)m, (size_t)(n * pg));
}

static struct xg_pmu *open_sw(bool breakdown)
{
	struct xg_config cfg;
	config_defaults(&cfg);
	cfg.events = "page-faults,context-switches";
	cfg.nosumcache = breakdown;
	struct xg_err err = { 0 };
	struct xg_pmu *p = pmu_open(&cfg, &err);
	assert_non_null(p);
	return p;
}

static void many_domains(void **state)
{
	(void)state;
	struct xg_pmu *p = open_sw(false);
	if (!pmu_event_name(p, XG_PMU_REF)) {
		/* e.g. an unprivileged CI runner with perf_event_paranoid >= 2 */
		print_message("skipped: %s\n", pmu_event_why(p, XG_PMU_REF));
		pmu_close(p);
		skip();
	}
	pid_t self = gettid();
	struct xg_err err;
	for (uint64_t k = 0; k < NDOM; k++)
		assert_int_equal(pmu_sync_tasks(p, k * 7919, &self, 1, 0, &err), 0);
	/* syncing the same thread again is a no-op */
	assert_int_equal(pmu_sync_tasks(p, 0, &self, 1, 0, &err), 0);
	assert_int_equal(pmu_nfds(p), NDOM * 2);
	/* A refresh that no longer lists the even domains lets them go. */
	pmu_sweep(p);
	for (uint64_t k = 1; k < NDOM; k += 2)
		assert_int_equal(pmu_sync_tasks(p, k * 7919, &self, 1, 0, &err), 0);
	pmu_sweep(p);
	assert_int_equal(pmu_nfds(p), NDOM);

	struct xg_sample s;
	sample_init(&s);
	for (uint64_t k = 0; k < NDOM; k++)
		sample_add_dom(&s, (uint32_t)k);
	for (uint64_t k = 0; k < NDOM; k++)
		pmu_read(p, k * 7919, &s, &s.dom[k]);
	uint64_t before[NDOM] = { 0 };
	for (uint64_t k = 1; k < NDOM; k += 2)
		before[k] = s.dom[k].v[XG_F_LLC_REF];
	touch_pages(500);
	for (uint64_t k = 0; k < NDOM; k++)
		pmu_read(p, k * 7919, &s, &s.dom[k]);
	for (uint64_t k = 0; k < NDOM; k++) {
		struct xg_dom *d = &s.dom[k];
		if (k % 2 == 0) {
			assert_false(dom_has(d, XG_F_LLC_REF));
			assert_non_null(strstr(dom_why(&s, d, XG_F_LLC_REF), "not attached"));
		} else {
			assert_true(dom_has(d, XG_F_LLC_REF));
			assert_true(d->v[XG_F_LLC_REF] - before[k] >= 500);
			/* no breakdown counted: no slice is valid */
			assert_int_equal(d->pmu_valid, 0);
		}
	}
	/* A thread that left the domain leaves its counts in the total. */
	uint64_t total = s.dom[1].v[XG_F_LLC_REF];
	assert_int_equal(pmu_sync_tasks(p, 1 * 7919, NULL, 0, 0, &err), 0);
	touch_pages(100);
	pmu_read(p, 1 * 7919, &s, &s.dom[1]);
	assert_true(dom_has(&s.dom[1], XG_F_LLC_REF));
	assert_true(s.dom[1].v[XG_F_LLC_REF] >= total);
	assert_true(s.dom[1].v[XG_F_LLC_REF] < total + 100);
	/* Domains neither attached nor read since the last sweep go away. */
	pmu_sweep(p);
	pmu_read(p, 3 * 7919, &s, &s.dom[3]);
	pmu_sweep(p);
	assert_int_equal(pmu_nfds(p), 2);
	pmu_read(p, 5 * 7919, &s, &s.dom[5]);
	assert_non_null(strstr(dom_why(&s, &s.dom[5], XG_F_LLC_REF), "not attached"));
	sample_free(&s);
	pmu_close(p);
}

static void breakdown_slices(void **state)
{
	(void)state;
	struct xg_pmu *p = open_sw(true);
	if (!pmu_event_name(p, XG_PMU_REF)) {
		pmu_close(p);
		skip();
	}
	struct xg_err err;
	pid_t self = gettid();
	assert_int_equal(pmu_sync_tasks(p, 1, &self, 1, 0, &err), 0);
	/* a VM domain with software events cannot split guest from host:
	 * one sum group */
	assert_int_equal(pmu_sync_tasks(p, 2, &self, 1, XG_PMU_VM, &err), 0);
	assert_int_equal(pmu_nfds(p), 2 * 2 + 2);
	touch_pages(300);
	struct xg_sample s;
	sample_init(&s);
	struct xg_dom *a = sample_add_dom(&s, 1), *b = sample_add_dom(&s, 2);
	pmu_read(p, 1, &s, a);
	pmu_read(p, 2, &s, b);
	unsigned gu = XG_PMU_GUEST_USER * XG_PMU_EVENT_COUNT + XG_PMU_REF;
	unsigned gk = XG_PMU_GUEST_KERNEL * XG_PMU_EVENT_COUNT + XG_PMU_REF;
	unsigned h = XG_PMU_HOST * XG_PMU_EVENT_COUNT + XG_PMU_REF;
	assert_true((a->pmu_valid >> gu) & 1);
	assert_true((a->pmu_valid >> h) & 1);
	assert_false((a->pmu_valid >> gk) & 1);
	assert_true(a->pmu[XG_PMU_GUEST_USER][XG_PMU_REF] >= 300);
	assert_int_equal(a->pmu[XG_PMU_GUEST_USER][XG_PMU_REF] + a->pmu[XG_PMU_HOST][XG_PMU_REF],
			 a->v[XG_F_LLC_REF]);
	assert_int_equal(b->pmu_valid, 0);
	assert_true(b->v[XG_F_LLC_REF] >= 300);
	/* the thread leaves domain 1: its groups close */
	assert_int_equal(pmu_sync_tasks(p, 1, NULL, 0, 0, &err), 0);
	assert_int_equal(pmu_nfds(p), 2);
	sample_free(&s);
	pmu_close(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(many_domains),
		cmocka_unit_test(breakdown_slices),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
