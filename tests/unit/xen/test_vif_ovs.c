// SPDX-License-Identifier: GPL-2.0-or-later
/* vifs on an Open vSwitch host (every XCP-ng and XenServer host): no Linux
 * bridge anywhere, the vifs are ports of the ovs-system datapath and the
 * "bridges" (xenbr0, xapi0) are OVS internal interfaces. The vif reader
 * knows a vif by its name or its backend node, never by a bridge, so each
 * is counted; libxenstat, which looks for a Linux bridge first, attaches
 * none there (xentop shows NETS 0 on such hosts). The tree below is what
 * such a dom0 shows, written in a temporary directory. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "xgtop/xen/xen_backends.h"

static char root[256];

static void sh(const char *fmt, ...)
{
	char cmd[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	assert_int_equal(system(cmd), 0);
}

static void put(const char *rel, const char *text)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/%s", root, rel);
	sh("mkdir -p \"$(dirname '%s')\"", path);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static int setup(void **state)
{
	(void)state;
	snprintf(root, sizeof(root), "/tmp/xgtop-ovs-XXXXXX");
	assert_non_null(mkdtemp(root));
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	char cmd[300];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	return system(cmd);
}

static const char netdev[] =
"Inter-|   Receive                                                |  Transmit\n"
" face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs drop fifo colls carrier compressed\n"
"    lo:     100       2    0    0    0     0          0         0      100       2    0    0    0     0       0          0\n"
"  eth0: 9000000    8000    0    0    0     0          0         0  7000000    6000    0    0    0     0       0          0\n"
"ovs-system:   0       0    0    0    0     0          0         0        0       0    0    0    0     0       0          0\n"
"xenbr0: 5000000    4000    0    0    0     0          0         0  6000000    5000    0    0    0     0       0          0\n"
" xapi0:     300       3    0    0    0     0          0         0      400       4    0    0    0     0       0          0\n"
"vif3.0:    3538      51    0    7    0     0          0         0  1054133     101    0    9    0     0       0          0\n"
"vif3.1:      10       1    0    0    0     0          0         0       20       2    0    0    0     0       0          0\n"
"tap3.0:      77       1    0    0    0     0          0         0       77       1    0    0    0     0       0          0\n"
"vif12.0:    500       5    0    0    0     0          0         0      700       7    0    0    0     0       0          0\n"
"  web0:      60       6    0    0    0     0          0         0       80       8    0    0    0     0       0          0\n";

/* An OVS port: a "master" link to the datapath, no brport directory; the
 * netback device's backend node. */
static void ovs_port(const char *ifname, const char *node)
{
	char rel[256];
	snprintf(rel, sizeof(rel), "sys/class/net/%s/device/nodename", ifname);
	put(rel, node);
	sh("mkdir -p '%s/sys/class/net/ovs-system' && ln -sfn ../ovs-system '%s/sys/class/net/%s/master'",
	   root, root, ifname);
}

static void ovs_vifs_counted(void **state)
{
	(void)state;
	put("proc/net/dev", netdev);
	ovs_port("vif3.0", "backend/vif/3/0\n");
	ovs_port("vif3.1", "backend/vif/3/1\n");
	ovs_port("vif12.0", "backend/vif/12/0\n");
	ovs_port("web0", "backend/vif/12/1\n");   /* a vif renamed by the toolstack */
	/* OVS internal interfaces and the datapath: no device node, no bridge
	 * directory (they are not Linux bridges). */
	sh("mkdir -p '%s/sys/class/net/xenbr0' '%s/sys/class/net/xapi0'", root, root);
	/* The reader must not need a Linux bridge: there is none here. */
	sh("test -z \"$(ls -d '%s'/sys/class/net/*/bridge 2>/dev/null)\"", root);

	struct xen_net_reader r;
	xen_net_init(&r, root);
	struct xen_vif *v = NULL;
	size_t n = 0, cap = 0;
	struct xg_err err = { 0 };
	assert_int_equal(xen_net_read(&r, &v, &n, &cap, &err), 0);
	assert_int_equal(n, 4);   /* vif3.0, vif3.1, vif12.0, web0; not tap3.0 (emulated) */
	unsigned seen = 0;
	for (size_t i = 0; i < n; i++) {
		if (v[i].domid == 3 && v[i].devid == 0) {
			assert_int_equal(v[i].n.rx_bytes, 3538);
			assert_int_equal(v[i].n.rx_drop, 7);
			assert_int_equal(v[i].n.tx_bytes, 1054133);
			assert_int_equal(v[i].n.tx_drop, 9);
			seen |= 1;
		} else if (v[i].domid == 3 && v[i].devid == 1) {
			seen |= 2;
		} else if (v[i].domid == 12 && v[i].devid == 0) {
			assert_int_equal(v[i].n.tx_bytes, 700);
			seen |= 4;
		} else if (v[i].domid == 12 && v[i].devid == 1) {
			assert_int_equal(v[i].n.rx_bytes, 60);
			seen |= 8;
		} else {
			fail_msg("unexpected vif %u.%u", v[i].domid, v[i].devid);
		}
	}
	assert_int_equal(seen, 15);

	xen_net_close(&r);
	free(v);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(ovs_vifs_counted),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
