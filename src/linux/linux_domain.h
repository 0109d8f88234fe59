/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Private to src/linux (and its tests): Processes, cgroups or VMs made domains, with cumulative domain
 * counters (linux_domain.c). */
#ifndef XGTOP_SRC_LINUX_LINUX_DOMAIN_H
#define XGTOP_SRC_LINUX_LINUX_DOMAIN_H

#include "linux_cgroup.h"
#include "linux_vm.h"

/* ---- linux_domain.c: processes -> domains, cumulative domain counters ---- */

/* One domain of this refresh, with its processes' figures summed. */
struct lx_dom {
	uint32_t id;
	uint8_t handle[16];
	uint32_t gen;                /* VMs: the QEMU process's start time */
	char name[128];
	int32_t cg;                  /* index in lx_cgroup.dom, -1 in process mode */
	int32_t vm;                  /* index in lx_vms.vm, -1 = not a VM */
	bool own_only;               /* cgroup figures do not apply (root, slice) */
	int32_t head;                /* first process (lx_proc.next links the rest) */
	uint32_t nthr;
	uint64_t rss;
	uint64_t d_run, d_wait, d_blk;
	struct lx_io d_io;
	uint64_t d_child_ns;
	uint64_t used_ns;            /* Σ utime+stime+cutime+cstime of its processes now */
	int io_err, sched_err;       /* first errno seen, 0 = all read */
	bool runnable;
	uint32_t nvcpu;              /* vCPU threads */
	bool vcpu_runnable;          /* one of them is runnable (R) now */
	uint64_t d_vrun, d_vwait, d_vblk;  /* the vCPU threads' part of d_run ... */
	/* cumulative since the domain was first seen (or its handle changed);
	 * base_ns = CPU its processes had used before that, so that
	 * base + run + child is the group's CPU since its processes started;
	 * vrun.. = the vCPU threads' part, emu = the rest plus child */
	uint64_t run, wait, blk, child_ns, base_ns;
	uint64_t vrun, vwait, vblk, emu;
	struct lx_io io;
};

/* Kept between refreshes: a domain's cumulative counters. */
struct lx_acc {
	uint32_t id;
	uint8_t handle[16];
	uint32_t gen;
	uint64_t run, wait, blk, child_ns, base_ns;
	uint64_t vrun, vwait, vblk, emu;
	struct lx_io io;
};

struct lx_doms {
	struct lx_dom *dom;
	size_t ndom, dom_cap;
	int32_t *leader;             /* process mode scratch */
	size_t leader_cap;
	struct lx_index idx;         /* scratch: pid or path hash -> index */
	struct lx_acc *aold, *anew;
	size_t naold, aold_cap, nanew, anew_cap;
	struct lx_index aidx;
};

/* Groups sc's processes into domains and updates the cumulative counters:
 * VMs and one "host" domain (vms != NULL), cgroups (cg != NULL), else
 * process groups. */
void lx_doms_build(struct lx_doms *ds, struct lx_scan *sc, struct lx_cgroup *cg,
		   const struct lx_vms *vms);
#define LX_HOST_ID 0             /* the host's own processes, in VM mode */
void lx_doms_free(struct lx_doms *ds);

#endif
