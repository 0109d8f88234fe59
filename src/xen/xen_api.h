/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The Xen tools libraries as xgtop calls them: one table of the functions
 * used, loaded when the Xen source (or the guest agent) opens, and the
 * handles opened through it. xgtop is not linked against them, so it
 * starts, and every other source and `xgtop trace` run, on hosts without
 * them; the Xen source says which one it lacks. */
#ifndef XGTOP_XEN_API_H
#define XGTOP_XEN_API_H

#include "xgtop/core/common.h"

/* The Xen public headers use GNU C and refuse strict ISO C. */
#undef __STRICT_ANSI__
#include <xenctrl.h>
#include <xenevtchn.h>
#include <xenforeignmemory.h>
#include <xenstore.h>

#define XEN_API_CTRL(F) \
	F(xc_interface_open) F(xc_interface_close) F(xc_version) F(xc_sched_id) \
	F(xc_physinfo) F(xc_getcpuinfo) F(xc_domain_getinfolist) F(xc_vcpu_getinfo) \
	F(xc_sysctl) F(xc_cputopoinfo) F(xc_get_max_cpus) F(xc_cpumap_alloc) \
	F(xc_tbuf_enable) F(xc_tbuf_disable) F(xc_tbuf_set_evt_mask) F(xc_tbuf_set_cpu_mask) \
	F(xc_psr_cmt_enabled) F(xc_psr_cmt_get_l3_event_mask) \
	F(xc_psr_cmt_get_l3_upscaling_factor) F(xc_psr_cmt_get_total_rmid) \
	F(xc_psr_cmt_get_domain_rmid) F(xc_psr_cmt_attach) F(xc_psr_cmt_detach) \
	F(xc_psr_cmt_get_data)
#define XEN_API_STORE(F) \
	F(xs_open) F(xs_close) F(xs_read) F(xs_write) F(xs_rm) F(xs_transaction_start) \
	F(xs_transaction_end)
#define XEN_API_EVTCHN(F) \
	F(xenevtchn_open) F(xenevtchn_close) F(xenevtchn_fd) F(xenevtchn_pending) \
	F(xenevtchn_unmask) F(xenevtchn_bind_virq) F(xenevtchn_unbind)
#define XEN_API_FMEM(F) \
	F(xenforeignmemory_open) F(xenforeignmemory_close) F(xenforeignmemory_map) \
	F(xenforeignmemory_unmap)

enum xen_lib_id { XEN_LIB_CTRL, XEN_LIB_STORE, XEN_LIB_EVTCHN, XEN_LIB_FMEM, XEN_LIB_COUNT };

struct xen_api {
	void *so[XEN_LIB_COUNT];      /* dlopen handles, NULL: not loaded */
#define XEN_API_SLOT(fn) __typeof__(fn) *fn;
	XEN_API_CTRL(XEN_API_SLOT)
	XEN_API_STORE(XEN_API_SLOT)
	XEN_API_EVTCHN(XEN_API_SLOT)
	XEN_API_FMEM(XEN_API_SLOT)
#undef XEN_API_SLOT
	xc_interface *xch;            /* the source's handles, opened through the table */
	struct xs_handle *xsh;
};

/* Loads the libraries in the mask (1u << enum xen_lib_id) into x, which
 * starts zeroed. Returns 0, or -1 with "xen: cannot load ..." in err. */
int xen_api_load(struct xen_api *x, unsigned libs, struct xg_err *err);
#define XEN_API_ALL ((1u << XEN_LIB_COUNT) - 1)
/* Unloads what xen_api_load loaded (the handles must be closed first). */
void xen_api_unload(struct xen_api *x);

#endif
