// SPDX-License-Identifier: GPL-2.0-or-later
/* The CMT/MBM hypervisor calls over libxenctrl (x86 Xen with PSR). */
#ifdef HAVE_XEN

#include "xgtop/xen/xen_cmt.h"
#include "xgtop/xen/xen_rundir.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xen_api.h"

/* h is the source's struct xen_api: its functions and its xch. */
static int x_enabled(void *h)
{
	const struct xen_api *x = h;
	return x->xc_psr_cmt_enabled(x->xch);
}

/* Xen cannot say whether the CPU lacks CMT or the boot option is missing;
 * its command line can. */
static void x_why_off(void *h, char *buf, size_t n)
{
	const struct xen_api *x = h;
	xen_commandline_t cl;
	memset(cl, 0, sizeof(cl));
	if (x->xc_version(x->xch, XENVER_commandline, &cl) < 0) {
		snprintf(buf, n, "CMT not supported by this CPU/Xen: xc_psr_cmt_enabled = 0 "
			 "(boot Xen with psr=cmt)");
		return;
	}
	cl[sizeof(cl) - 1] = 0;
	bool asked = false;
	for (char *t = strtok(cl, " "); t; t = strtok(NULL, " "))
		if (!strncmp(t, "psr=", 4))
			asked = strstr(t, "cmt") && !strstr(t, "cmt:0") && !strstr(t, "cmt=0");
	if (asked)
		snprintf(buf, n, "CMT not supported by this CPU: xc_psr_cmt_enabled = 0 although Xen "
			 "was booted with psr=cmt (needs Intel RDT monitoring: Haswell-EP or later)");
	else
		snprintf(buf, n, "CMT not supported by this CPU/Xen: xc_psr_cmt_enabled = 0 "
			 "(boot Xen with psr=cmt)");
}

#define XC(h) ((const struct xen_api *)(h))
static int x_mask(void *h, uint32_t *m) { return XC(h)->xc_psr_cmt_get_l3_event_mask(XC(h)->xch, m); }
static int x_upscaling(void *h, uint32_t *f)
{
	return XC(h)->xc_psr_cmt_get_l3_upscaling_factor(XC(h)->xch, f);
}
static int x_total(void *h, uint32_t *n) { return XC(h)->xc_psr_cmt_get_total_rmid(XC(h)->xch, n); }
static int x_get_rmid(void *h, uint32_t d, uint32_t *r)
{
	return XC(h)->xc_psr_cmt_get_domain_rmid(XC(h)->xch, d, r);
}
static int x_attach(void *h, uint32_t d) { return XC(h)->xc_psr_cmt_attach(XC(h)->xch, d); }
static int x_detach(void *h, uint32_t d) { return XC(h)->xc_psr_cmt_detach(XC(h)->xch, d); }

static int x_get_data(void *h, uint32_t rmid, uint32_t cpu, enum xg_sock_event ev, uint64_t *val)
{
	static const xc_psr_cmt_type type[XG_SOCK_EVENT_COUNT] = {
		XC_PSR_CMT_L3_OCCUPANCY, XC_PSR_CMT_TOTAL_MEM_COUNT, XC_PSR_CMT_LOCAL_MEM_COUNT,
	};
	/* libxenctrl returns -1 without touching errno when the counter has
	 * its Error/Unavailable bits set; errno 0 tells the caller so. */
	errno = 0;
	return XC(h)->xc_psr_cmt_get_data(XC(h)->xch, rmid, cpu, type[ev], val, NULL);
}

static int x_socket_cpus(void *h, uint32_t *cpus, unsigned max)
{
	unsigned n = 0;
	if (XC(h)->xc_cputopoinfo(XC(h)->xch, &n, NULL) || !n)
		return -1;
	xc_cputopo_t *topo = xg_calloc(n, sizeof(*topo));
	if (XC(h)->xc_cputopoinfo(XC(h)->xch, &n, topo)) {
		int e = errno;
		free(topo);
		errno = e;
		return -1;
	}
	/* The first online CPU of each socket, sockets in id order. */
	uint32_t sock[XG_CMT_SOCK_MAX];
	unsigned ns = 0;
	for (unsigned c = 0; c < n; c++) {
		uint32_t s = topo[c].socket;
		if (s == XEN_INVALID_SOCKET_ID)
			continue;
		unsigned k = 0;
		while (k < ns && sock[k] < s)
			k++;
		if (k < ns && sock[k] == s)
			continue;
		if (ns == max) {
			free(topo);
			errno = E2BIG;
			return -1;
		}
		memmove(&sock[k + 1], &sock[k], (ns - k) * sizeof(*sock));
		memmove(&cpus[k + 1], &cpus[k], (ns - k) * sizeof(*cpus));
		sock[k] = s;
		cpus[k] = c;
		ns++;
	}
	free(topo);
	return (int)ns;
}

static const struct xg_cmt_ops xc_ops = {
	.enabled = x_enabled,
	.why_off = x_why_off,
	.event_mask = x_mask,
	.upscaling = x_upscaling,
	.total_rmid = x_total,
	.socket_cpus = x_socket_cpus,
	.get_rmid = x_get_rmid,
	.attach = x_attach,
	.detach = x_detach,
	.get_data = x_get_data,
};

struct xg_cmt *xen_cmt_open_xc(const struct xen_api *x, bool attach, struct xg_err *err)
{
	/* The ops take no const handle; they only read through it. */
	struct xg_cmt *c = xen_cmt_open(&xc_ops, (void *)(uintptr_t)x, attach, err);
	if (c)
		xen_cmt_keep_state(c, XG_RUN_DIR);
	return c;
}

#endif /* HAVE_XEN */
