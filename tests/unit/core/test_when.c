// SPDX-License-Identifier: GPL-2.0-or-later
/* --at's times: RFC 3339 with Z or an offset and fractions, Unix
 * seconds, spans before now; and what is none of them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "xgtop/core/when.h"

static void accepted(void **state)
{
	(void)state;
	const double now = 1796551200;   /* 2026-12-06T10:00:00Z */
	static const struct { const char *s; double want; } cases[] = {
		{ "2026-12-06T10:00:00Z", 1796551200 }, { "2026-12-06t10:00:00z", 1796551200 },
		{ "2026-12-06 10:00:00Z", 1796551200 }, { "2026-12-06T11:30:00+01:30", 1796551200 },
		{ "2026-12-06T08:00:00-02:00", 1796551200 }, { "2026-12-06T10:00:00.25Z", 1796551200.25 },
		{ "1796551200", 1796551200 }, { "1796551200.5", 1796551200.5 },
		{ "-30s", now - 30 }, { "-15m", now - 900 }, { "-2h", now - 7200 }, { "-1d", now - 86400 },
		{ "-1w", now - 7 * 86400 }, { "-1.5h", now - 5400 },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		double t = 0;
		assert_true(xg_parse_when(cases[i].s, now, &t));
		assert_float_equal(t, cases[i].want, 1e-6);
	}
}

static void refused(void **state)
{
	(void)state;
	static const char *const bad[] = {
		"", "yesterday", "-5x", "-m", "15m", "--15m", "-15m ", "2026-13-01T00:00:00Z",
		"2026-02-31T00:00:00Z", "2026-12-06T10:00:00", "2026-12-06T24:00:00Z", "2026-12-06T10:00:00+1",
		"2026-12-06T10:00:00.Z", "1796551200.", "0x10", "1e9", "0", "1969-12-31T23:59:59Z", "-99999999d",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		double t = 42;
		assert_false(xg_parse_when(bad[i], 1796551200, &t));
		assert_float_equal(t, 42, 0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(accepted),
		cmocka_unit_test(refused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
