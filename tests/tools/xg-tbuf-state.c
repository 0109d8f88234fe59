// SPDX-License-Identifier: GPL-2.0-or-later
/* Prints the hypervisor's trace buffer state without changing it (no
 * consumer pointer is written, no VIRQ bound), so the lab can compare it
 * before and after xgtop:
 *   mask=0x0ffff000 allocated=yes enabled=no pending=0 moving=no
 * "enabled" is inferred: records waiting (pending bytes) or prod moving
 * within 300 ms; Xen has no query for it.
 * Usage: xg-tbuf-state [--set-mask MASK]   (the latter puts the event mask
 * back after xentrace -e, which leaves its own mask behind) */
#ifdef HAVE_XEN
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#undef __STRICT_ANSI__
#include <xenctrl.h>
#include <xenforeignmemory.h>
#include <xen/trace.h>

int main(int argc, char **argv)
{
	xc_interface *xch = xc_interface_open(NULL, NULL, 0);
	if (!xch) {
		fprintf(stderr, "xg-tbuf-state: xc_interface_open: %s\n", strerror(errno));
		return 2;
	}
	if (argc == 3 && !strcmp(argv[1], "--set-mask")) {
		if (xc_tbuf_set_evt_mask(xch, (uint32_t)strtoul(argv[2], NULL, 0))) {
			fprintf(stderr, "xg-tbuf-state: set_evt_mask: %s\n", strerror(errno));
			return 2;
		}
		return 0;
	}
	struct xen_sysctl sc;
	memset(&sc, 0, sizeof(sc));
	sc.cmd = XEN_SYSCTL_tbuf_op;
	sc.interface_version = XEN_SYSCTL_INTERFACE_VERSION;
	sc.u.tbuf_op.cmd = XEN_SYSCTL_TBUFOP_get_info;
	if (xc_sysctl(xch, &sc)) {
		fprintf(stderr, "xg-tbuf-state: get_info: %s\n", strerror(errno));
		return 2;
	}
	uint32_t mask = sc.u.tbuf_op.evt_mask;
	uint64_t mfn = sc.u.tbuf_op.buffer_mfn;
	if (!mfn) {
		printf("mask=%#010x allocated=no enabled=no pending=0 moving=no\n", mask);
		return 0;
	}
	xc_physinfo_t pi;
	if (xc_physinfo(xch, &pi)) {
		fprintf(stderr, "xg-tbuf-state: physinfo: %s\n", strerror(errno));
		return 2;
	}
	xenforeignmemory_handle *fm = xenforeignmemory_open(NULL, 0);
	size_t tpages = (sc.u.tbuf_op.size + XC_PAGE_SIZE - 1) / XC_PAGE_SIZE;
	xen_pfn_t pf[64];
	for (size_t i = 0; i < tpages && i < 64; i++)
		pf[i] = (xen_pfn_t)(mfn + i);
	const struct t_info *ti = fm ? xenforeignmemory_map(fm, DOMID_XEN, PROT_READ, tpages, pf, NULL) : NULL;
	if (!ti) {
		fprintf(stderr, "xg-tbuf-state: map t_info: %s\n", strerror(errno));
		return 2;
	}
	unsigned np = ti->tbuf_size;
	uint32_t ds = (uint32_t)(np * XC_PAGE_SIZE - sizeof(struct t_buf));
	struct t_buf *meta[512] = { 0 };
	uint32_t prod0[512] = { 0 };
	xen_pfn_t *bp = calloc(np, sizeof(*bp));
	uint64_t pending = 0;
	for (uint32_t c = 0; c <= pi.max_cpu_id && c < 512; c++) {
		uint16_t off = ti->mfn_offset[c];
		if (!off)
			continue;
		for (unsigned j = 0; j < np; j++)
			bp[j] = ((const uint32_t *)ti)[off + j];
		meta[c] = xenforeignmemory_map(fm, DOMID_XEN, PROT_READ, np, bp, NULL);
		if (!meta[c])
			continue;
		uint32_t cons = meta[c]->cons, prod = meta[c]->prod;
		prod0[c] = prod;
		pending += prod >= cons ? prod - cons : prod + 2 * ds - cons;
	}
	struct timespec ts = { 0, 300 * 1000000 };
	nanosleep(&ts, NULL);
	bool moving = false;
	for (uint32_t c = 0; c <= pi.max_cpu_id && c < 512; c++)
		moving |= meta[c] && meta[c]->prod != prod0[c];
	printf("mask=%#010x allocated=yes enabled=%s pending=%llu moving=%s\n", mask,
	       pending || moving ? "yes" : "no", (unsigned long long)pending, moving ? "yes" : "no");
	return 0;
}
#else
#include <stdio.h>
int main(void)
{
	puts("xg-tbuf-state: built without Xen");
	return 77;
}
#endif
