// SPDX-License-Identifier: GPL-2.0-or-later
/* Runs the xen source's VBD reader once over a tree shaped like dom0's
 * (ROOT/sys/bus/xen-backend/devices, ROOT/dev/shm) and prints each VBD:
 *   NAME ok OO RD WR RSECT WSECT     or     NAME bad REASON
 * xenstore's kthread-pid nodes come from the arguments, D/N=PID each (a
 * VBD not named has none). So a tree made by the dom0 script's own
 * functions (tests/xen/dom0-vbd3.sh) is read by the real reader here,
 * away from Xen (tests/xen/test_vbd3_dry.sh).
 *   xgtop-vbd3-read ROOT [D/N=PID...] */
#include "xgtop/xen/xen_backends.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct args { int argc; char **argv; };

static enum xen_key_rc from_args(void *ctx, const char *path, char *buf, size_t cap,
				const char **why)
{
	const struct args *a = ctx;
	unsigned d, n;
	(void)why;
	if (sscanf(path, "/local/domain/0/backend/vbd3/%u/%u/kthread-pid", &d, &n) != 2)
		return XEN_KEY_ABSENT;
	for (int i = 0; i < a->argc; i++) {
		unsigned ad, an;
		int off = 0;
		if (sscanf(a->argv[i], "%u/%u=%n", &ad, &an, &off) == 2 && off && ad == d && an == n) {
			snprintf(buf, cap, "%s", a->argv[i] + off);
			return XEN_KEY_OK;
		}
	}
	return XEN_KEY_ABSENT;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: xgtop-vbd3-read ROOT [D/N=PID...]\n");
		return 2;
	}
	struct args a = { argc - 2, argv + 2 };
	struct xen_vbd_reader r;
	xen_vbd_init(&r, argv[1]);
	xen_vbd_set_xenstore(&r, from_args, &a);
	struct xen_vbd *v = NULL;
	size_t n = 0, cap = 0;
	struct xg_err err = { 0 };
	if (xen_vbd_read(&r, &v, &n, &cap, &err)) {
		fprintf(stderr, "xgtop-vbd3-read: %s\n", err.msg);
		return 1;
	}
	static const char *const type[] = { "?", "vbd", "tap", "vbd3" };
	for (size_t i = 0; i < n; i++) {
		printf("%s-%u-%u ", type[v[i].type], v[i].domid, v[i].dev);
		if (v[i].ok)
			printf("ok %llu %llu %llu %llu %llu\n", (unsigned long long)v[i].oo_req,
			       (unsigned long long)v[i].rd_req, (unsigned long long)v[i].wr_req,
			       (unsigned long long)v[i].rd_sect, (unsigned long long)v[i].wr_sect);
		else
			printf("bad %s\n", v[i].why[0] ? v[i].why : "statistics unreadable");
	}
	xen_vbd_close(&r);
	free(v);
	return 0;
}
