// SPDX-License-Identifier: GPL-2.0-or-later
/* The TUI's name fitting: what reaches the terminal from a domain name is
 * safe (controls, invalid UTF-8 and zero-width characters escaped as
 * \xNN), at most the column's width in cells, and never splits a
 * character. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <locale.h>
#include <string.h>

#include "../../../src/tui/tui_state.h"

static bool utf8_locale(void)
{
	return setlocale(LC_CTYPE, "C.UTF-8") || setlocale(LC_CTYPE, "en_US.UTF-8");
}

static void expect(const char *raw, int maxw, const char *want, int want_w)
{
	char out[TUI_CELL_BYTES];
	int w = tui_name_fit(out, sizeof(out), raw, maxw);
	assert_string_equal(out, want);
	assert_int_equal(w, want_w);
}

static void test_plain_and_cut(void **state)
{
	(void)state;
	expect("Domain-0", 40, "Domain-0", 8);
	expect("abcdef", 3, "abc", 3);
	expect("", 10, "", 0);
	expect(NULL, 10, "", 0);
	expect("abc", 0, "", 0);
}

static void test_controls(void **state)
{
	(void)state;
	utf8_locale();
	expect("ctl\x1b[2J\x07-11", 40, "ctl\\x1b[2J\\x07-11", 17);
	expect("del\x7f", 40, "del\\x7f", 7);
	expect("back\\slash", 40, "back\\\\slash", 11);
	/* An escape that does not fit whole is left out, never cut. */
	expect("ab\x01", 5, "ab", 2);
	expect("ab\x01", 6, "ab\\x01", 6);
}

static void test_invalid_utf8(void **state)
{
	(void)state;
	utf8_locale();
	expect("utf8-\xc3(-01", 40, "utf8-\\xc3(-01", 13);
	expect("\xff\xfe", 40, "\\xff\\xfe", 8);
	/* Overlong encoding of '/' and a UTF-16 surrogate. */
	expect("\xc0\xaf", 40, "\\xc0\\xaf", 8);
	expect("\xed\xa0\x80", 40, "\\xed\\xa0\\x80", 12);
	/* Truncated sequence at the end. */
	expect("ok\xe6\x97", 40, "ok\\xe6\\x97", 10);
}

static void test_wide_and_zero_width(void **state)
{
	(void)state;
	if (!utf8_locale())
		skip();
	/* 日本語: three double-width characters. */
	expect("\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e", 40, "\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e", 6);
	/* Five cells hold two of them; the third is not split. */
	expect("\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e", 5, "\xe6\x97\xa5\xe6\x9c\xac", 4);
	expect("caf\xc3\xa9", 40, "caf\xc3\xa9", 4);
	/* A combining accent, a C1 control (CSI) and a bidi override have no
	 * cell of their own: escaped. */
	expect("e\xcc\x81", 40, "e\\xcc\\x81", 9);
	expect("a\xc2\x9b" "2J", 40, "a\\xc2\\x9b2J", 11);
	expect("x\xe2\x80\xaey", 40, "x\\xe2\\x80\\xaey", 14);
}

static void test_c_locale_escapes_all(void **state)
{
	(void)state;
	setlocale(LC_CTYPE, "C");
	expect("caf\xc3\xa9", 40, "caf\\xc3\\xa9", 11);
	expect("plain", 40, "plain", 5);
}

static void test_small_buffer(void **state)
{
	(void)state;
	char out[4];
	int w = tui_name_fit(out, sizeof(out), "abcdef", 40);
	assert_string_equal(out, "abc");
	assert_int_equal(w, 3);
	w = tui_name_fit(out, sizeof(out), "\x01", 40);
	assert_string_equal(out, "");
	assert_int_equal(w, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain_and_cut),
		cmocka_unit_test(test_controls),
		cmocka_unit_test(test_invalid_utf8),
		cmocka_unit_test(test_wide_and_zero_width),
		cmocka_unit_test(test_c_locale_escapes_all),
		cmocka_unit_test(test_small_buffer),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
