// SPDX-License-Identifier: GPL-2.0-or-later
/* The loader of optional libraries: a table filled by name, and a missing
 * library or function named in one line. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <math.h>
#include <string.h>

#include "xgtop/core/dynlib.h"

struct mathlib {
	void *so;
	double (*cos)(double);
	double (*sqrt)(double);
};

static const struct xg_dl_fn fns[] = {
	XG_DL_FN(struct mathlib, cos) XG_DL_FN(struct mathlib, sqrt)
};

static void fills_the_table(void **state)
{
	(void)state;
	struct mathlib m = { 0 };
	struct xg_err err = { 0 };
	m.so = xg_dl_load("libm.so.6", "the C math library", fns, 2, &m, &err);
	assert_non_null(m.so);
	assert_true(m.cos(0.0) == 1.0);
	assert_true(m.sqrt(16.0) == 4.0);
	xg_dl_close(m.so);
}

static void says_what_is_missing(void **state)
{
	(void)state;
	struct mathlib m = { 0 };
	struct xg_err err = { 0 };
	assert_null(xg_dl_load("libxgtop-absent.so.7", "a test library", fns, 2, &m, &err));
	assert_non_null(strstr(err.msg, "cannot load libxgtop-absent.so.7 (a test library): "));
	assert_null(strchr(err.msg, '\n'));
	static const struct xg_dl_fn bad[] = { { "xgtop_no_such_function", 0 } };
	assert_null(xg_dl_load("libm.so.6", "the C math library", bad, 1, &m, &err));
	assert_string_equal(err.msg, "libm.so.6 (the C math library) lacks xgtop_no_such_function: "
	                             "a different version than xgtop was built with?");
	xg_dl_close(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(fills_the_table),
		cmocka_unit_test(says_what_is_missing),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
