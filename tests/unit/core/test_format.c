// SPDX-License-Identifier: GPL-2.0-or-later
/* The shared formatters: where each one changes scale and how many
 * digits it keeps, the unit names and the "a, b or c" lists. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "xgtop/core/format.h"

static void sizes(void **state)
{
	(void)state;
	static const struct { double v; const char *want; } cases[] = {
		{ 0, "0B" }, { 1023, "1023B" }, { 1024, "1.0K" }, { 1536, "1.5K" },
		{ 17179869184.0, "16.0G" }, { 8589934592.0, "8.0G" },
		{ 1152921504606846976.0, "1.0E" }, { 1152921504606846976.0 * 4096, "4096.0E" },
	};
	char buf[64];
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		fmt_size(buf, sizeof(buf), cases[i].v);
		assert_string_equal(buf, cases[i].want);
	}
}

static void short_cells(void **state)
{
	(void)state;
	char buf[64];
	static const struct { double v; const char *bytes, *count; } cases[] = {
		{ 0, "0", "0" }, { 999, "999", "999" }, { 999.4, "999", "999" },
		{ 999.5, "1.0K", "1.0k" }, { 1536, "1.5K", "1.5k" }, { 10240, "10K", "10k" },
		{ 4194304, "4.0M", "4.2M" }, { -2048, "-2.0K", "-2.0k" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		fmt_value(buf, sizeof(buf), XG_UNIT_BYTES, cases[i].v);
		assert_string_equal(buf, cases[i].bytes);
		fmt_value(buf, sizeof(buf), XG_UNIT_PER_S, cases[i].v);
		assert_string_equal(buf, cases[i].count);
	}
}

static void values_by_unit(void **state)
{
	(void)state;
	static const struct { enum xg_unit u; double v; const char *want; } cases[] = {
		{ XG_UNIT_PCT, 42.04, "42.0" }, { XG_UNIT_SEC, 120.54, "120.5" },
		{ XG_UNIT_SEC, 2e6 + 0.4, "2000000" }, { XG_UNIT_BPS, 2.5 * 1024 * 1024, "2.5M" },
		{ XG_UNIT_PER_S, 2500, "2.5k" }, { XG_UNIT_RATIO, 3.14159, "3.14" },
		{ XG_UNIT_NONE, 4, "4" },
	};
	char buf[64];
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		fmt_value(buf, sizeof(buf), cases[i].u, cases[i].v);
		assert_string_equal(buf, cases[i].want);
	}
}

static void lists(void **state)
{
	(void)state;
	static const char *const names[] = { "text", "csv", "json", "xentop" };
	char buf[64];
	fmt_list_or(buf, sizeof(buf), names, 4);
	assert_string_equal(buf, "text, csv, json or xentop");
	fmt_list_or(buf, sizeof(buf), names, 2);
	assert_string_equal(buf, "text or csv");
	fmt_list_or(buf, sizeof(buf), names, 1);
	assert_string_equal(buf, "text");
	fmt_list_or(buf, sizeof(buf), names, 0);
	assert_string_equal(buf, "");
	fmt_list_or(buf, 8, names, 4);     /* cut, still a string */
	assert_string_equal(buf, "text, c");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(sizes),
		cmocka_unit_test(short_cells),
		cmocka_unit_test(values_by_unit),
		cmocka_unit_test(lists),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
