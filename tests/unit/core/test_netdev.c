// SPDX-License-Identifier: GPL-2.0-or-later
/* The /proc/net/dev rules both sources share: what an interface line is,
 * and that a line which is not one leaves the parser on the next line. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <string.h>

#include "xgtop/core/netdev.h"

static const char text[] =
"Inter-|   Receive                                                |  Transmit\n"
" face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs drop fifo colls carrier compressed\n"
"    lo:     100       2    0    0    0     0          0         0      100       2    0    0    0     0       0          0\n"
"vif1.0:    3538      51    1    2    0     0          0         0  1054133     101    3    4    0     0       0          0\n";

static void lines(void **state)
{
	(void)state;
	struct xg_netdev d;
	const char *p = netdev_body(text);
	assert_non_null(p);
	assert_int_equal(netdev_next(&p, &d), 1);
	assert_string_equal(d.name, "lo");
	assert_int_equal(d.rx_bytes, 100);
	assert_int_equal(netdev_next(&p, &d), 1);
	assert_string_equal(d.name, "vif1.0");
	assert_int_equal(d.rx_bytes, 3538);
	assert_int_equal(d.rx_pkts, 51);
	assert_int_equal(d.rx_errs, 1);
	assert_int_equal(d.rx_drop, 2);
	assert_int_equal(d.tx_bytes, 1054133);
	assert_int_equal(d.tx_pkts, 101);
	assert_int_equal(d.tx_errs, 3);
	assert_int_equal(d.tx_drop, 4);
	assert_int_equal(netdev_next(&p, &d), 0);
	assert_null(netdev_body("one line only\n"));
}

/* Each is not an interface line; the good line after it is still read. */
static void not_lines(void **state)
{
	(void)state;
	static const char *const bad[] = {
		"no colon here\n",
		"\n",
		"a-name-of-16-byt: 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16\n",
		"eth0: 1 2 3 4 5 6 7 8 9 10 11 12\n",                       /* 12 counters */
		"eth0: 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 -16\n",          /* a sign */
		"eth0: 18446744073709551616 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16\n",
		"eth0: 1 2 3 4 5 6 7 8\n9 10 11 12 13 14 15 16\n",          /* cut */
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char buf[256];
		struct xg_netdev d;
		strcpy(buf, bad[i]);
		strcat(buf, "tap0: 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 18446744073709551615\n");
		const char *p = buf;
		assert_int_equal(netdev_next(&p, &d), -1);
		if (strchr(bad[i], '\n') != strrchr(bad[i], '\n'))
			assert_int_equal(netdev_next(&p, &d), -1);   /* the cut line's tail */
		assert_int_equal(netdev_next(&p, &d), 1);
		assert_string_equal(d.name, "tap0");
		assert_int_equal(d.tx_drop, 12);
		assert_int_equal(netdev_next(&p, &d), 0);
	}
	/* The longest name the kernel gives, and a line without its newline. */
	const char *p = "a-name-of-15-by: 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16";
	struct xg_netdev d;
	assert_int_equal(netdev_next(&p, &d), 1);
	assert_string_equal(d.name, "a-name-of-15-by");
	assert_int_equal(netdev_next(&p, &d), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(lines),
		cmocka_unit_test(not_lines),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
