// SPDX-License-Identifier: GPL-2.0-or-later
/* The backend readers on a fixture tree shaped like dom0's /proc and /sys:
 * which interfaces are vifs, which directories are VBDs, and what an
 * unreadable or missing part does. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "xgtop/xen/xen_backends.h"

static char root[256];

static void put(const char *rel, const char *text)
{
	char path[512], cmd[600];
	snprintf(path, sizeof(path), "%s/%s", root, rel);
	snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname '%s')\"", path);
	assert_int_equal(system(cmd), 0);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void gone(const char *rel)
{
	char cmd[600];
	snprintf(cmd, sizeof(cmd), "rm -r '%s/%s'", root, rel);
	assert_int_equal(system(cmd), 0);
}

static int setup(void **state)
{
	(void)state;
	snprintf(root, sizeof(root), "/tmp/xgtop-xenback-XXXXXX");
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
"  eth0: 5000000    4000    0    0    0     0          0         0  6000000    5000    0    0    0     0       0          0\n"
"vif1.0:    3538      51    1    2    0     0          0         0  1054133     101    3    4    0     0       0          0\n"
"vif1.1:      10       1    0    0    0     0          0         0       20       2    0    0    0     0       0          0\n"
"vif2.0-emu:  77       1    0    0    0     0          0         0       77       1    0    0    0     0       0          0\n"
"  web0:     500       5    0    0    0     0          0         0      700       7    0    0    0     0       0          0\n";

static void net_finds_vifs(void **state)
{
	(void)state;
	put("proc/net/dev", netdev);
	put("sys/class/net/web0/device/nodename", "backend/vif/3/0\n");
	put("sys/class/net/eth0/device/nodename", "pci0000:00\n");
	struct xen_net_reader r;
	xen_net_init(&r, root);
	struct xen_vif *v = NULL;
	size_t n = 0, cap = 0;
	struct xg_err err = { 0 };
	assert_int_equal(xen_net_read(&r, &v, &n, &cap, &err), 0);
	assert_int_equal(n, 3);
	assert_int_equal(v[0].domid, 1);
	assert_int_equal(v[0].devid, 0);
	/* the backend's own direction: rx = what the guest sent */
	assert_int_equal(v[0].n.rx_bytes, 3538);
	assert_int_equal(v[0].n.rx_pkts, 51);
	assert_int_equal(v[0].n.rx_errs, 1);
	assert_int_equal(v[0].n.rx_drop, 2);
	assert_int_equal(v[0].n.tx_bytes, 1054133);
	assert_int_equal(v[0].n.tx_pkts, 101);
	assert_int_equal(v[0].n.tx_errs, 3);
	assert_int_equal(v[0].n.tx_drop, 4);
	assert_int_equal(v[1].devid, 1);
	assert_int_equal(v[2].domid, 3);    /* renamed vif, found through sysfs */
	assert_int_equal(v[2].n.tx_bytes, 700);
	/* Re-reading the same open file sees new contents. */
	put("proc/net/dev", "Inter-|\n face |bytes\nvif9.2: 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16\n");
	assert_int_equal(xen_net_read(&r, &v, &n, &cap, &err), 0);
	assert_int_equal(n, 1);
	assert_int_equal(v[0].domid, 9);
	assert_int_equal(v[0].n.tx_bytes, 9);
	/* A line that is not an interface line costs only itself. */
	put("proc/net/dev", "Inter-|\n face |bytes\nvif9.2: 1 2 3\n"
	    "vif9.3: 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16\n");
	assert_int_equal(xen_net_read(&r, &v, &n, &cap, &err), 0);
	assert_int_equal(n, 1);
	assert_int_equal(v[0].devid, 3);
	xen_net_close(&r);
	free(v);
}

static void net_errors(void **state)
{
	(void)state;
	struct xen_net_reader r;
	struct xen_vif *v = NULL;
	size_t n = 0, cap = 0;
	struct xg_err err = { 0 };
	char path[512];
	snprintf(path, sizeof(path), "%s/proc/net/dev", root);
	unlink(path);
	xen_net_init(&r, root);
	assert_int_equal(xen_net_read(&r, &v, &n, &cap, &err), -1);
	assert_non_null(strstr(err.msg, "cannot read"));
	assert_non_null(strstr(err.msg, "/proc/net/dev"));
	put("proc/net/dev", "garbage\n");
	assert_int_equal(xen_net_read(&r, &v, &n, &cap, &err), -1);
	assert_non_null(strstr(err.msg, "expected format"));
	xen_net_close(&r);
	free(v);
}

/* Which names are vifs by their name alone: exactly vifD.N. The others
 * (no backend node in sysfs here) are not vifs. */
static void vifnames(void **state)
{
	(void)state;
	put("proc/net/dev", "Inter-|\n face |bytes\n"
	    "vif32751.7: 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16\n"
	    "vif1.0-emu: 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16\n"
	    "vif.0: 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16\n"
	    "vif1.: 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16\n"
	    "eth0: 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16\n");
	struct xen_net_reader r;
	xen_net_init(&r, root);
	struct xen_vif *v = NULL;
	size_t n = 0, cap = 0;
	struct xg_err err = { 0 };
	assert_int_equal(xen_net_read(&r, &v, &n, &cap, &err), 0);
	assert_int_equal(n, 1);
	assert_int_equal(v[0].domid, 32751);
	assert_int_equal(v[0].devid, 7);
	xen_net_close(&r);
	free(v);
}

static void stats(const char *dev, const char *oo, const char *rd, const char *wr,
		  const char *rs, const char *ws)
{
	char p[256];
	const char *names[] = { "oo_req", "rd_req", "wr_req", "rd_sect", "wr_sect" };
	const char *vals[] = { oo, rd, wr, rs, ws };
	for (int i = 0; i < 5; i++) {
		if (!vals[i])
			continue;
		snprintf(p, sizeof(p), "sys/bus/xen-backend/devices/%s/statistics/%s", dev, names[i]);
		put(p, vals[i]);
	}
}

static int by_dev(const void *a, const void *b)
{
	const struct xen_vbd *x = a, *y = b;
	return (x->domid > y->domid) - (x->domid < y->domid);
}

static void vbds(void **state)
{
	(void)state;
	struct xen_vbd_reader r;
	struct xen_vbd *b = NULL;
	size_t n = 0, cap = 0;
	struct xg_err err = { 0 };
	xen_vbd_init(&r, root);
	assert_int_equal(xen_vbd_read(&r, &b, &n, &cap, &err), -1);
	assert_non_null(strstr(err.msg, "/sys/bus/xen-backend/devices"));

	stats("vbd-1-51712", "3\n", "339\n", "32\n", "34456\n", "8192\n");
	stats("tap-2-768", "0\n", "1\n", NULL, "8\n", "0\n");      /* unreadable */
	stats("vbd-32751-832", "0\n", "x\n", "0\n", "0\n", "0\n"); /* garbage */
	stats("qdisk-5-768", "0\n", "1\n", "1\n", "1\n", "1\n");   /* not ours (QEMU) */
	stats("vif-1-0", "0\n", "1\n", "1\n", "1\n", "1\n");
	xen_vbd_close(&r);
	xen_vbd_init(&r, root);
	assert_int_equal(xen_vbd_read(&r, &b, &n, &cap, &err), 0);
	assert_int_equal(n, 3);
	qsort(b, n, sizeof(*b), by_dev);
	assert_int_equal(b[0].domid, 1);
	assert_int_equal(b[0].dev, 51712);
	assert_int_equal(b[0].type, XEN_VBD_BLKBACK);
	assert_true(b[0].ok);
	assert_int_equal(b[0].oo_req, 3);
	assert_int_equal(b[0].rd_req, 339);
	assert_int_equal(b[0].wr_req, 32);
	assert_int_equal(b[0].rd_sect, 34456);
	assert_int_equal(b[0].wr_sect, 8192);
	assert_int_equal(b[1].type, XEN_VBD_BLKTAP);
	assert_false(b[1].ok);
	assert_int_equal(b[2].domid, 32751);
	assert_false(b[2].ok);
	/* The directory stays open; a second pass sees the same devices. */
	assert_int_equal(xen_vbd_read(&r, &b, &n, &cap, &err), 0);
	assert_int_equal(n, 3);
	/* The files stay open too, and a pass reads what they say now: new
	 * counts, a device repaired, one gone, one new. */
	stats("vbd-1-51712", "4\n", "340\n", "33\n", "34464\n", "8200\n");
	stats("tap-2-768", NULL, NULL, "5\n", NULL, NULL);
	gone("sys/bus/xen-backend/devices/vbd-32751-832");
	stats("vbd-7-768", "0\n", "9\n", "8\n", "72\n", "64\n");
	assert_int_equal(xen_vbd_read(&r, &b, &n, &cap, &err), 0);
	assert_int_equal(n, 3);
	assert_int_equal(r.ndev, 3);
	qsort(b, n, sizeof(*b), by_dev);
	assert_true(b[0].ok);
	assert_int_equal(b[0].oo_req, 4);
	assert_int_equal(b[0].rd_req, 340);
	assert_int_equal(b[0].wr_sect, 8200);
	assert_int_equal(b[1].domid, 2);
	assert_true(b[1].ok);
	assert_int_equal(b[1].wr_req, 5);
	assert_int_equal(b[2].domid, 7);
	assert_int_equal(b[2].rd_sect, 72);
	xen_vbd_close(&r);
	free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(net_finds_vifs),
		cmocka_unit_test(net_errors),
		cmocka_unit_test(vifnames),
		cmocka_unit_test(vbds),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
