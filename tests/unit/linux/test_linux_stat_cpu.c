// SPDX-License-Identifier: GPL-2.0-or-later
/* /proc/stat per-CPU lines: which ticks count as busy and which as idle,
 * and the lines that are not a CPU's. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "../../../src/linux/linux_domain.h"

static void busy_and_idle(void **state)
{
	(void)state;
	uint32_t id;
	uint64_t busy, idle;
	/* user nice system idle iowait irq softirq steal guest guest_nice */
	assert_true(lx_parse_stat_cpu("cpu0 48455 1 32796 139706 563 2 445 18 100 7\n", &id, &busy, &idle));
	assert_int_equal(id, 0);
	/* guest time is inside user and nice: not counted twice */
	assert_true(busy == 48455 + 1 + 32796 + 2 + 445 + 18);
	assert_true(idle == 139706 + 563);
	assert_true(lx_parse_stat_cpu("cpu511 1 2 3 4 5 6 7 8\n", &id, &busy, &idle));
	assert_int_equal(id, 511);
	assert_true(busy == 1 + 2 + 3 + 6 + 7 + 8 && idle == 4 + 5);
	/* Kernels before 2.6 stop after idle. */
	assert_true(lx_parse_stat_cpu("cpu3 10 20 30 40", &id, &busy, &idle));
	assert_true(busy == 60 && idle == 40);
}

static void other_lines(void **state)
{
	(void)state;
	uint32_t id;
	uint64_t busy, idle;
	assert_false(lx_parse_stat_cpu("cpu  103908 0 72430 263425 2750 0 1805 36 3 0\n", &id, &busy, &idle));
	assert_false(lx_parse_stat_cpu("intr 123 4 5\n", &id, &busy, &idle));
	assert_false(lx_parse_stat_cpu("cpu1 5 6\n", &id, &busy, &idle));
	assert_false(lx_parse_stat_cpu("cpu99999999999 1 2 3 4\n", &id, &busy, &idle));
	assert_false(lx_parse_stat_cpu("cpux 1 2 3 4\n", &id, &busy, &idle));
	assert_false(lx_parse_stat_cpu("", &id, &busy, &idle));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(busy_and_idle),
		cmocka_unit_test(other_lines),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
