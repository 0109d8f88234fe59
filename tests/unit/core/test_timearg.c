// SPDX-License-Identifier: GPL-2.0-or-later
/* TIME on the command line: RFC 3339 with a fraction and a zone, local
 * time without one, Unix seconds, now, a duration from either end, and
 * what is none of them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdlib.h>

#include "xgtop/core/timearg.h"

#define S 1000000000ull
#define T0 (1767261600ull * S)     /* 2026-01-01T10:00:00Z */

static uint64_t at(const char *s)
{
	uint64_t ns = 0;
	assert_true(xg_timearg_parse(s, T0 - 3600 * S, T0, &ns));
	return ns;
}

static void absolute_forms(void **state)
{
	(void)state;
	assert_int_equal(at("2026-01-01T10:00:00Z"), T0);
	assert_int_equal(at("2026-01-01t10:00:00z"), T0);
	assert_int_equal(at("2026-01-01T12:00:00+02:00"), T0);
	assert_int_equal(at("2026-01-01T05:30-0430"), T0);
	assert_int_equal(at("2026-01-01 10:00:00.25Z"), T0 + S / 4);
	assert_int_equal(at("2026-01-01T10:00:00.123456789123Z"), T0 + 123456789);
	assert_int_equal(at("1767261600"), T0);
	assert_int_equal(at("1767261600.5"), T0 + S / 2);
	setenv("TZ", "Europe/Paris", 1);
	assert_int_equal(at("2026-01-01T11:00"), T0);
	assert_int_equal(at("2026-01-01"), T0 - 11 * 3600 * S);
}

static void relative_forms(void **state)
{
	(void)state;
	assert_int_equal(at("now"), T0);
	assert_int_equal(at("-1h"), T0 - 3600 * S);
	assert_int_equal(at("-1h30m"), T0 - 5400 * S);
	assert_int_equal(at("-1w"), T0 - 7 * 86400 * S);
	assert_int_equal(at("+90"), T0 - 3600 * S + 90 * S);
	assert_int_equal(at("-10000d"), T0 - 10000ull * 86400 * S);
}

static void not_a_time(void **state)
{
	(void)state;
	static const char *const bad[] = {
		"", "yesterday", "-", "-1x", "-1e9d", "2026-13-01", "2026-01-01T25:00", "2026-01-01T10:00:00+15:00",
		"2026-01-01T10:00:00.Z", "1767261600.", "17672616000000000000", "1.5.2", "now-1h", " 1767261600", "-100000d",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		uint64_t ns = 42;
		if (xg_timearg_parse(bad[i], T0, T0, &ns))
			fail_msg("'%s' taken for %llu", bad[i], (unsigned long long)ns);
		assert_int_equal(ns, 42);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(absolute_forms),
		cmocka_unit_test(relative_forms),
		cmocka_unit_test(not_a_time),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
