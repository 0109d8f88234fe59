/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Intel CMT/MBM per domain through Xen's PSR interface (libxenctrl): L3
 * occupancy (a gauge, bytes) and memory bandwidth (cumulative bytes, total
 * and local), per socket and summed. Xen keeps one monitoring ID (RMID)
 * per domain; RMID 0 means "not monitored". xgtop gives domains an RMID
 * only with --cmt-attach and then detaches exactly the ones it attached,
 * on close and at exit, and after a SIGKILL at the next start (a state
 * file: xen_cmt_keep_state). The hypervisor calls go through a table so the
 * bookkeeping and the MBM wrap handling are tested without Xen.
 * Rules and every message: doc/cmt-agent.md. */
#ifndef XGTOP_XEN_CMT_H
#define XGTOP_XEN_CMT_H

#include "xgtop/model/config.h"
#include "xgtop/model/sample.h"

/* Sockets xgtop reads (one CPU each); more are summed as unreadable. */
#define XG_CMT_SOCK_MAX 64

/* The hypervisor calls. All return 0 (or a count) on success, -1 with
 * errno set on failure; h is the implementation's handle. */
struct xg_cmt_ops {
	/* 1 when Xen monitors (booted with psr=cmt on capable hardware), else 0. */
	int (*enabled)(void *h);
	/* Why enabled() is 0, in one line for the user. */
	void (*why_off)(void *h, char *buf, size_t n);
	int (*event_mask)(void *h, uint32_t *mask);     /* bit i: enum xg_sock_event i */
	int (*upscaling)(void *h, uint32_t *factor);    /* bytes per counter unit */
	int (*total_rmid)(void *h, uint32_t *n);
	/* One CPU of each socket, in socket order; returns the number of
	 * sockets (at most max), or -1. */
	int (*socket_cpus)(void *h, uint32_t *cpus, unsigned max);
	int (*get_rmid)(void *h, uint32_t domid, uint32_t *rmid);
	int (*attach)(void *h, uint32_t domid);
	int (*detach)(void *h, uint32_t domid);
	/* Raw counter of rmid for event ev on the socket of cpu. -1 with
	 * errno 0: the hardware flagged the value Error/Unavailable. */
	int (*get_data)(void *h, uint32_t rmid, uint32_t cpu, enum xg_sock_event ev, uint64_t *val);
};

struct xg_cmt;

/* Prepares monitoring. When CMT is off it still returns a handle whose
 * collect marks the fields invalid with the reason, except when attach
 * (--cmt-attach) was asked for: then NULL and err says why nothing can be
 * attached. */
struct xg_cmt *xen_cmt_open(const struct xg_cmt_ops *ops, void *h, bool attach, struct xg_err *err);
/* Keeps a file in dir (created, mode 0700) listing the domains this
 * handle has attached, so that a run killed before it could detach them
 * is cleaned up by the next start, and takes over the files there of runs
 * that are gone: at the first xen_cmt_collect, each of their domains still
 * alive with an RMID is this handle's (with attach), or detached at once
 * (without). Nothing when CMT is off. */
void xen_cmt_keep_state(struct xg_cmt *c, const char *dir);
/* Fills XG_F_L3_OCC, XG_F_MBM_TOTAL, XG_F_MBM_LOCAL and the per-socket
 * slots of every domain of s (already listed, with id, handle and gen),
 * attaching RMIDs when allowed. now_ns: monotonic time of the sample. */
void xen_cmt_collect(struct xg_cmt *c, struct xg_sample *s, uint64_t now_ns);
/* Detaches every RMID this handle attached (domains that still exist),
 * then frees it. Returns the number of detaches that failed (each also
 * said on stderr with the xl command that finishes the job). */
int xen_cmt_close(struct xg_cmt *c);

#ifdef HAVE_XEN
struct xen_api;
/* xen_cmt_open over libxenctrl (x, the Xen source's libraries and handles,
 * stays owned by the caller and must outlive the handle). */
struct xg_cmt *xen_cmt_open_xc(const struct xen_api *x, bool attach, struct xg_err *err);
#endif

#endif
