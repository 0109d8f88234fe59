// SPDX-License-Identifier: GPL-2.0-or-later
/* col_format writes numbers without printf where it can: the text must be
 * printf's, byte for byte, for every unit and for values at and next to
 * the halves where rounding could differ, negative zero included. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "xgtop/compute/metrics.h"
#include "xgtop/compute/cell.h"

static uint64_t st = 88172645463325252ull;

static double rnd(void)
{
	st ^= st << 13;
	st ^= st >> 7;
	st ^= st << 17;
	return (double)(st >> 11) / 9007199254740992.0;
}

/* What col_format wrote with printf alone. */
static void reference(enum xg_col c, double v, char *b, size_t n)
{
	enum xg_unit u = xg_columns[c].unit;
	if (u == XG_UNIT_PCT) {
		snprintf(b, n, "%.1f", v);
	} else if (u == XG_UNIT_SEC) {
		snprintf(b, n, v < 1e6 ? "%.1f" : "%.0f", v);
	} else if (u == XG_UNIT_RATIO) {
		snprintf(b, n, "%.2f", v);
	} else if (u == XG_UNIT_BYTES || u == XG_UNIT_BPS || u == XG_UNIT_PER_S) {
		const char *units = u == XG_UNIT_PER_S ? " kMGTPE" : " KMGTPE";
		double step = u == XG_UNIT_PER_S ? 1000.0 : 1024.0;
		size_t k = 0;
		while (fabs(v) >= 999.5 && k < strlen(units) - 1) {
			v /= step;
			k++;
		}
		if (k == 0)
			snprintf(b, n, "%.0f", v);
		else
			snprintf(b, n, fabs(v) < 9.95 ? "%.1f%c" : "%.0f%c", v, units[k]);
	} else {
		snprintf(b, n, "%.0f", v);
	}
}

static double value(int i)
{
	switch (i % 6) {
	case 0: return rnd() * 1000;
	case 1: return floor(rnd() * 100000) / 100 + (i & 8 ? 0.005 : 0.05);   /* halves */
	case 2: return exp(rnd() * 60);
	case 3: return (double)(long)(rnd() * 1e6) / 8;                       /* exact halves */
	case 4: return -rnd() * 10;
	default: return (i & 16) ? -0.0 : nextafter(0.25, i & 32 ? 1 : 0);
	}
}

static void same_as_printf(void **state)
{
	(void)state;
	static const enum xg_col cols[] = { XG_COL_CPU_PCT, XG_COL_CPU_S, XG_COL_MEM, XG_COL_NET_RX,
					    XG_COL_NET_RXP, XG_COL_MPKI, XG_COL_VCPU };
	for (int i = 0; i < 700000; i++) {
		enum xg_col c = cols[i % XG_ARRAY_LEN(cols)];
		double v = value(i / (int)XG_ARRAY_LEN(cols));
		struct xg_row r;
		char got[64], want[64];
		memset(&r, 0, sizeof(r));
		r.vcpu = -1;
		r.v[c] = v;
		r.valid = 1ull << c;
		col_format(c, &r, got, sizeof(got));
		reference(c, v, want, sizeof(want));
		if (strcmp(got, want))
			fail_msg("%s of %.17g: '%s', printf gives '%s'", xg_columns[c].header, v, got, want);
	}
}

/* Every column has a unit and group name, and the names are the column
 * table's: --explain, --list-columns and the help screen all print them. */
static void unit_and_group_names(void **state)
{
	(void)state;
	for (int c = 0; c < XG_COL_COUNT; c++) {
		assert_true(col_unit_name(xg_columns[c].unit)[0] != 0);
		assert_true(col_group_name(xg_columns[c].group)[0] != 0);
	}
	assert_string_equal(col_unit_name(XG_UNIT_PER_S), "1/s");
	assert_string_equal(col_unit_name(XG_UNIT_BPS), "bytes/s");
	assert_string_equal(col_group_name(XG_GRP_CACHE_BD), "cache-breakdown");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(same_as_printf),
		cmocka_unit_test(unit_and_group_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
