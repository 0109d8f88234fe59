// SPDX-License-Identifier: GPL-2.0-or-later
/* Event selection: vendor detection, default pairs and their labels, the
 * --events rule, and the guest-mode default. libpfm4 is asked to encode
 * for PMUs this machine lacks (LIBPFM_ENCODE_INACTIVE), so the AMD and
 * Intel choices are checked on any host. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "../../../src/pmu/pmu_evset.h"

static void vendors(void **state)
{
	(void)state;
	assert_int_equal(pmu_vendor_parse("processor\t: 0\nvendor_id\t: GenuineIntel\n"),
			 XG_VENDOR_INTEL);
	assert_int_equal(pmu_vendor_parse("vendor_id : AuthenticAMD\n"), XG_VENDOR_AMD);
	assert_int_equal(pmu_vendor_parse("vendor_id\t: HygonGenuine\n"), XG_VENDOR_AMD);
	assert_int_equal(pmu_vendor_parse("vendor_id\t: CentaurHauls\n"), XG_VENDOR_OTHER);
	assert_int_equal(pmu_vendor_parse("processor : 0\nCPU implementer : 0x41\n"), XG_VENDOR_OTHER);
}

static void generic_names(void **state)
{
	(void)state;
	struct perf_event_attr a;
	assert_true(pmu_generic_encode("page-faults", &a));
	assert_int_equal(a.type, PERF_TYPE_SOFTWARE);
	assert_int_equal(a.config, PERF_COUNT_SW_PAGE_FAULTS);
	assert_true(pmu_generic_encode("Cache-Misses", &a));
	assert_int_equal(a.type, PERF_TYPE_HARDWARE);
	assert_int_equal(a.config, PERF_COUNT_HW_CACHE_MISSES);
	assert_true(pmu_generic_encode("cs", &a));
	assert_int_equal(a.config, PERF_COUNT_SW_CONTEXT_SWITCHES);
	assert_false(pmu_generic_encode("no-such-event", &a));
}

static void list_rule(void **state)
{
	(void)state;
	struct pmu_evset set;
	struct xg_err err = { 0 };
	assert_int_equal(pmu_events_select(&set, "page-faults, context-switches", XG_VENDOR_OTHER, &err), 0);
	assert_true(set.ev[XG_PMU_REF].present);
	assert_string_equal(set.ev[XG_PMU_REF].name, "page-faults");
	assert_int_equal(set.ev[XG_PMU_REF].attr.type, PERF_TYPE_SOFTWARE);
	assert_false(set.ev[XG_PMU_REF].hw);
	assert_int_equal(set.ev[XG_PMU_MISS].attr.config, PERF_COUNT_SW_CONTEXT_SWITCHES);
	/* instructions and cycles keep their defaults */
	assert_true(set.ev[XG_PMU_INSTR].present);
	assert_int_equal(set.ev[XG_PMU_INSTR].attr.type, PERF_TYPE_HARDWARE);
	assert_int_equal(set.ev[XG_PMU_INSTR].attr.config, PERF_COUNT_HW_INSTRUCTIONS);
	assert_int_equal(set.ev[XG_PMU_CYCLES].attr.config, PERF_COUNT_HW_CPU_CYCLES);
	assert_true(set.ev[XG_PMU_CYCLES].hw);
	assert_non_null(strstr(set.label, "references = page-faults"));

	/* '-' leaves a slot uncounted, with a reason */
	assert_int_equal(pmu_events_select(&set, "-,cpu-clock", XG_VENDOR_OTHER, &err), 0);
	assert_false(set.ev[XG_PMU_REF].present);
	assert_non_null(strstr(set.ev[XG_PMU_REF].why, "not counted"));
	assert_true(set.ev[XG_PMU_MISS].present);

	/* one name: no miss event */
	assert_int_equal(pmu_events_select(&set, "page-faults", XG_VENDOR_OTHER, &err), 0);
	assert_false(set.ev[XG_PMU_MISS].present);

	/* four names replace instructions and cycles too */
	assert_int_equal(pmu_events_select(&set, "page-faults,cs,cpu-clock,task-clock", XG_VENDOR_OTHER, &err), 0);
	assert_int_equal(set.ev[XG_PMU_INSTR].attr.config, PERF_COUNT_SW_CPU_CLOCK);
	assert_int_equal(set.ev[XG_PMU_CYCLES].attr.config, PERF_COUNT_SW_TASK_CLOCK);

	assert_int_equal(pmu_events_select(&set, "a,b,c,d,e", XG_VENDOR_OTHER, &err), -1);
	assert_non_null(strstr(err.msg, "at most 4"));
	assert_int_equal(pmu_events_select(&set, "page-faults,,cs", XG_VENDOR_OTHER, &err), -1);
	assert_non_null(strstr(err.msg, "empty"));
	assert_int_equal(pmu_events_select(&set, "page-faults,no_such_event_xyz", XG_VENDOR_OTHER, &err), -1);
	assert_non_null(strstr(err.msg, "no_such_event_xyz"));
}

#ifdef HAVE_PFM
static void guest_mode_counted(void **state)
{
	(void)state;
	struct pmu_evset set;
	struct xg_err err = { 0 };
	assert_int_equal(pmu_events_select(&set, "cycles,instructions", XG_VENDOR_OTHER, &err), 0);
	assert_int_equal(set.ev[XG_PMU_REF].attr.exclude_guest, 0);
	assert_int_equal(set.ev[XG_PMU_REF].attr.exclude_host, 0);
	/* an explicit :mg= is the user's choice */
	assert_int_equal(pmu_events_select(&set, "perf::PERF_COUNT_HW_CPU_CYCLES:mh=1",
					   XG_VENDOR_OTHER, &err), 0);
	assert_int_equal(set.ev[XG_PMU_REF].attr.exclude_guest, 1);
}

static void amd_default_is_fill_source_pair(void **state)
{
	(void)state;
	struct pmu_evset set;
	struct xg_err err = { 0 };
	assert_int_equal(pmu_events_select(&set, NULL, XG_VENDOR_AMD, &err), 0);
	assert_int_equal(set.ev[XG_PMU_REF].attr.type, PERF_TYPE_RAW);
	/* event 0x44: references = every source beyond L2, misses = the same
	 * without the local CCX */
	assert_int_equal(set.ev[XG_PMU_REF].attr.config & 0xff, 0x44);
	assert_int_equal(set.ev[XG_PMU_MISS].attr.config & 0xff, 0x44);
	uint64_t ru = (set.ev[XG_PMU_REF].attr.config >> 8) & 0xff;
	uint64_t mu = (set.ev[XG_PMU_MISS].attr.config >> 8) & 0xff;
	assert_int_equal(ru & 0x1, 0);          /* local L2 hits are not references */
	assert_int_equal(ru & 0x2, 0x2);        /* local CCX (L3) fills are */
	assert_int_equal(mu & 0x2, 0);          /* ... and are not misses */
	assert_int_equal(ru & ~mu, 0x2);
	assert_int_equal(set.ev[XG_PMU_REF].attr.exclude_guest, 0);
	assert_non_null(strstr(set.label, "0x44"));
	assert_true(set.ev[XG_PMU_INSTR].present);
}

static void intel_default_is_architectural(void **state)
{
	(void)state;
	struct pmu_evset set;
	struct xg_err err = { 0 };
	assert_int_equal(pmu_events_select(&set, NULL, XG_VENDOR_INTEL, &err), 0);
	assert_non_null(strstr(set.label, "Intel architectural"));
	/* Either libpfm4's ix86arch raw codes, or the generic events the
	 * kernel maps to the same codes on Intel. */
	struct perf_event_attr *r = &set.ev[XG_PMU_REF].attr, *m = &set.ev[XG_PMU_MISS].attr;
	if (r->type == PERF_TYPE_RAW) {
		assert_int_equal(r->config & 0xffff, 0x4f2e);
		assert_int_equal(m->config & 0xffff, 0x412e);
	} else {
		assert_int_equal(r->type, PERF_TYPE_HARDWARE);
		assert_int_equal(r->config, PERF_COUNT_HW_CACHE_REFERENCES);
		assert_int_equal(m->config, PERF_COUNT_HW_CACHE_MISSES);
	}
}

static void other_default_is_labelled_generic(void **state)
{
	(void)state;
	struct pmu_evset set;
	struct xg_err err = { 0 };
	assert_int_equal(pmu_events_select(&set, NULL, XG_VENDOR_OTHER, &err), 0);
	assert_non_null(strstr(set.label, "vendor-defined level"));
	assert_int_equal(set.ev[XG_PMU_REF].attr.config, PERF_COUNT_HW_CACHE_REFERENCES);
}
#else
static void default_without_libpfm(void **state)
{
	(void)state;
	struct pmu_evset set;
	struct xg_err err = { 0 };
	assert_int_equal(pmu_events_select(&set, NULL, XG_VENDOR_INTEL, &err), 0);
	assert_string_equal(set.why_all, XG_PMU_WHY_NOPFM);
	assert_string_equal(set.ev[XG_PMU_REF].why, XG_PMU_WHY_NOPFM);
	assert_int_equal(pmu_events_select(&set, "ix86arch::LLC_MISSES", XG_VENDOR_INTEL, &err), -1);
	assert_non_null(strstr(err.msg, "built without libpfm4"));
}
#endif

int main(void)
{
	setenv("LIBPFM_ENCODE_INACTIVE", "1", 1);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(vendors),
		cmocka_unit_test(generic_names),
		cmocka_unit_test(list_rule),
#ifdef HAVE_PFM
		cmocka_unit_test(guest_mode_counted),
		cmocka_unit_test(amd_default_is_fill_source_pair),
		cmocka_unit_test(intel_default_is_architectural),
		cmocka_unit_test(other_default_is_labelled_generic),
#else
		cmocka_unit_test(default_without_libpfm),
#endif
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
