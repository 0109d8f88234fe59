// SPDX-License-Identifier: GPL-2.0-or-later
/* The Linux source: cgroups (or process groups) as domains, read from /proc
 * and cgroup v2. linux_proc.c scans, linux_domain.c groups and accumulates,
 * this file turns the result into a host sample with a reason for every
 * figure the kernel does not give. doc/linux-source.md describes it all. */
#include "linux_domain.h"
#include "xgtop/core/osread.h"
#include "xgtop/pmu/pmu.h"
#include "xgtop/linux/linux_source.h"
#include "linux_pressure.h"
#include "linux_waits.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define VCPU_ROWS_MAX 64   /* per domain: enough for a VM, bounded for a JVM */

struct xg_source {
	bool cgroup_mode;
	bool vm_mode;           /* --group vm: VMs and one host domain */
	bool nodisk;
	bool notrace;
	bool nonet;
	bool nocache_cfg;
	bool sched_supported;
	uint64_t netns;         /* our network namespace's inode, 0 = unknown */
	struct lx_node node;
	struct lx_scan sc;
	struct lx_cgroup cg;
	struct lx_cgmap cgm;    /* cgroup mode: the processes' cgroups */
	struct lx_doms ds;
	struct lx_vms vms;
	struct lx_pressure psi;
	uint64_t *vtmp;         /* vcpu row scratch: id << 32 | thread index */
	size_t vtmp_cap;
	struct xg_pmu *pmu;     /* cache counters; NULL with --nocache */
	pid_t *tids;            /* scratch: one process group's threads */
	size_t tids_cap;
	struct lx_waits waits;  /* BEHIND, WAIT-P50/P99 (waits.b NULL: waits.why) */
};

static bool linux_probe(void)
{
	return access("/proc/self/stat", R_OK) == 0;
}

static void linux_close(struct xg_source *s)
{
	if (!s)
		return;
	lx_scan_close(&s->sc);
	lx_cgroup_close(&s->cg);
	lx_cgmap_close(&s->cgm);
	lx_doms_free(&s->ds);
	lx_vms_close(&s->vms);
	pmu_close(s->pmu);
	lx_waits_close(&s->waits);
	free(s->vtmp);
	free(s->tids);
	free(s);
}

static int linux_open(struct xg_source **out, const struct xg_config *cfg, struct xg_err *err)
{
	struct xg_source *s = xg_calloc(1, sizeof(*s));
	s->cg.root_fd = -1;
	lx_vms_open(&s->vms);
	if (lx_scan_open(&s->sc, err) < 0 || lx_cgroup_open(&s->cg, err) < 0) {
		linux_close(s);
		return -1;
	}
	enum xg_group g = cfg ? cfg->group : XG_GROUP_AUTO;
	if (g == XG_GROUP_CGROUP && s->cg.root_fd < 0) {
		linux_close(s);
		return xg_fail(err, "--group cgroup: no cgroup v2 hierarchy is mounted (use --group process)");
	}
	/* auto: VMs when QEMU runs (decided once, here); else cgroups when
	 * the v2 tree is actually used, since a hybrid or unused hierarchy
	 * would show everything as one "/" domain */
	s->vm_mode = g == XG_GROUP_VM || (g == XG_GROUP_AUTO && lx_vms_present(s->sc.proc_fd));
	s->cgroup_mode = !s->vm_mode && (g == XG_GROUP_CGROUP ||
			 (g == XG_GROUP_AUTO && lx_cgroup_populated(&s->cg, s->sc.proc_fd)));
	s->nodisk = cfg && cfg->nodisk;
	s->notrace = cfg && cfg->notrace;
	s->nonet = cfg && cfg->nonet;
	s->nocache_cfg = cfg && cfg->nocache;
	struct stat ns;
	if (stat("/proc/self/ns/net", &ns) == 0)
		s->netns = s->vms.netns = (uint64_t)ns.st_ino;
	char buf[128];
	s->sched_supported = xg_read_at(AT_FDCWD, "/proc/self/schedstat", buf, sizeof(buf)) > 0;
	s->sc.want_cgroup = s->cgroup_mode;
	if (s->cgroup_mode) {
		lx_cgmap_open(&s->cgm);
		s->sc.cgmap = &s->cgm;
	}
	s->sc.want_io = !s->nodisk;
	lx_node_open(&s->node);
	lx_pressure_open(&s->psi);
	/* XGTOP_TRACE_WAITS=0 leaves the BPF program out, as on Xen, to
	 * measure what it costs (bench/linux_waits_cost.sh) */
	const char *keep_waits = getenv("XGTOP_TRACE_WAITS");
	if (s->notrace)
		snprintf(s->waits.why, sizeof(s->waits.why), "scheduler split not shown (--notrace)");
	else if (keep_waits && !strcmp(keep_waits, "0"))
		snprintf(s->waits.why, sizeof(s->waits.why), "not kept (XGTOP_TRACE_WAITS=0)");
	else
		lx_waits_open(&s->waits);
	/* NULL only for a bad --events; a host without a PMU still opens and
	 * the counters show '-' with the reason. */
	if (!s->nocache_cfg && !(s->pmu = pmu_open(cfg, err))) {
		linux_close(s);
		return -1;
	}
	*out = s;
	return 0;
}

static const char *errno_reason(char *buf, size_t n, const char *file, int e)
{
	if ((e == EACCES || e == EPERM) && geteuid() != 0)
		snprintf(buf, n, "%s: permission denied (run as root)", file);
	else if (e == EACCES || e == EPERM)
		snprintf(buf, n, "%s: permission denied (ptrace access refused)", file);
	else
		snprintf(buf, n, "%s: %s", file, strerror(e));
	return buf;
}

/* RUN/WAIT/BLK (and CPU time when it also comes from the threads) of x
 * cannot be given, for the same reason. */
static void sched_invalid(struct xg_sample *out, struct xg_dom *x, const char *why, bool cpu_too)
{
	dom_invalid(out, x, XG_F_RUN_NS, why);
	dom_invalid(out, x, XG_F_WAIT_NS, why);
	dom_invalid(out, x, XG_F_BLK_NS, why);
	if (cpu_too)
		dom_invalid(out, x, XG_F_CPU_NS, why);
}

static void fill_sched(struct xg_source *s, struct xg_sample *out, struct xg_dom *x,
		       const struct lx_dom *d, bool cpu_from_cgroup)
{
	char why[128];
	if (!s->sched_supported) {
		sched_invalid(out, x, "schedstat missing (kernel built without CONFIG_SCHED_INFO)",
			      !cpu_from_cgroup);
		return;
	}
	if (d->sched_err) {
		errno_reason(why, sizeof(why), "/proc/PID/task/TID/schedstat", d->sched_err);
		sched_invalid(out, x, why, !cpu_from_cgroup);
		return;
	}
	bool vm = d->vm >= 0;   /* a VM's split is its vCPUs' */
	if (s->notrace) {
		/* the threads are still read: CPU and thread counts need them */
		sched_invalid(out, x, "scheduler split not shown (--notrace)", false);
	} else if (vm && !d->nvcpu) {
		sched_invalid(out, x, LX_WHY_NO_VCPUS, false);
	} else {
		dom_set(x, XG_F_RUN_NS, vm ? d->vrun : d->run);
		dom_set(x, XG_F_WAIT_NS, vm ? d->vwait : d->wait);
		dom_set(x, XG_F_BLK_NS, vm ? d->vblk : d->blk);
	}
	if (!cpu_from_cgroup)
		dom_set(x, XG_F_CPU_NS, d->base_ns + d->run + d->child_ns);
}

static void fill_disk(struct xg_source *s, struct xg_sample *out, struct xg_dom *x,
		      const struct lx_dom *d, const struct lx_cgstat *cs)
{
	static const enum xg_field all[] = { XG_F_DISK_RD_BYTES, XG_F_DISK_WR_BYTES,
					     XG_F_DISK_RD_OPS, XG_F_DISK_WR_OPS };
	char why[128];
	if (s->nodisk) {
		for (size_t i = 0; i < XG_ARRAY_LEN(all); i++)
			dom_invalid(out, x, all[i], "disk statistics not collected (--nodisk)");
		return;
	}
	if (cs && cs->io_ok) {
		dom_set(x, XG_F_DISK_RD_BYTES, cs->io.rbytes);
		dom_set(x, XG_F_DISK_WR_BYTES, cs->io.wbytes);
		dom_set(x, XG_F_DISK_RD_OPS, cs->io.rios);
		dom_set(x, XG_F_DISK_WR_OPS, cs->io.wios);
		return;
	}
	const char *ops = cs ? "io.stat missing (cgroup io controller not enabled): request counts unknown"
			     : "per-process disk request counts are not kept by the kernel (bytes from /proc/PID/io)";
	dom_invalid(out, x, XG_F_DISK_RD_OPS, ops);
	dom_invalid(out, x, XG_F_DISK_WR_OPS, ops);
	if (d->io_err) {
		errno_reason(why, sizeof(why), "/proc/PID/io", d->io_err);
		dom_invalid(out, x, XG_F_DISK_RD_BYTES, why);
		dom_invalid(out, x, XG_F_DISK_WR_BYTES, why);
		return;
	}
	dom_set(x, XG_F_DISK_RD_BYTES, d->io.rbytes);
	dom_set(x, XG_F_DISK_WR_BYTES, d->io.wbytes);
}

static void fill_mem(struct xg_sample *out, struct xg_dom *x, const struct lx_dom *d,
		     const struct lx_cgstat *cs)
{
	if (cs && cs->mem_ok)
		dom_set(x, XG_F_MEM, cs->mem);
	else
		dom_set(x, XG_F_MEM, d->rss);   /* resident pages, shared ones counted per process */
	if (cs && cs->max_ok)
		dom_set(x, XG_F_MAXMEM, cs->max);
	else if (cs)
		dom_invalid(out, x, XG_F_MAXMEM, "memory.max missing (memory controller not enabled for this cgroup)");
	else if (d->cg < 0 && d->id == LX_HOST_ID && !strcmp(d->name, "host"))
		dom_invalid(out, x, XG_F_MAXMEM, "the host's own processes have no memory limit");
	else if (d->cg < 0)
		dom_invalid(out, x, XG_F_MAXMEM, "a process group has no memory limit of its own");
	else if (d->name[0] == '/' && !d->name[1])
		dom_invalid(out, x, XG_F_MAXMEM, "the root cgroup has no memory limit");
	else
		dom_invalid(out, x, XG_F_MAXMEM, "processes directly in a parent cgroup have no limit of their own");
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

/* One row per thread; for a QEMU process only its "CPU n/KVM" threads,
 * numbered as the guest numbers them. */
static bool is_qemu(const struct xg_source *s, const struct lx_dom *d)
{
	for (int32_t i = d->head; i >= 0; i = s->sc.proc[i].next) {
		const struct lx_proc *p = &s->sc.proc[i];
		for (uint32_t k = 0; k < p->nthr; k++)
			if (s->sc.tnow[p->thr_first + k].vcpu_no != LX_NO_VCPU)
				return true;
	}
	return false;
}

static void fill_vcpus(struct xg_source *s, struct xg_sample *out, struct xg_dom *x,
		       const struct lx_dom *d, bool qemu)
{
	/* the host row of VM mode has threads, not vCPUs */
	if (!s->sched_supported || (s->vm_mode && d->vm < 0))
		return;
	size_t n = 0;
	for (int32_t i = d->head; i >= 0; i = s->sc.proc[i].next) {
		const struct lx_proc *p = &s->sc.proc[i];
		for (uint32_t k = 0; k < p->nthr; k++) {
			uint32_t ti = p->thr_first + k;
			const struct lx_thr *t = &s->sc.tnow[ti];
			if (qemu && t->vcpu_no == LX_NO_VCPU)
				continue;
			uint32_t id = qemu ? (uint32_t)t->vcpu_no : t->tid;
			xg_grow(&s->vtmp, &s->vtmp_cap, n + 1, sizeof(*s->vtmp));
			s->vtmp[n++] = (uint64_t)id << 32 | ti;
		}
	}
	if (!n)
		return;
	qsort(s->vtmp, n, sizeof(*s->vtmp), cmp_u64);
	if (n > VCPU_ROWS_MAX && !qemu)
		n = VCPU_ROWS_MAX;
	struct xg_vcpu *v = sample_add_vcpus(out, x, n);
	for (size_t i = 0; i < n; i++) {
		const struct lx_thr *t = &s->sc.tnow[(uint32_t)s->vtmp[i]];
		v[i].id = (uint32_t)(s->vtmp[i] >> 32);
		v[i].online = 1;
		v[i].cpu_ns = t->run;
		v[i].sched_ns[XG_RS_RUNNING] = t->run;
		v[i].sched_ns[XG_RS_RUNNABLE] = t->wait;
		v[i].sched_ns[XG_RS_BLOCKED] = t->blk;
		/* A thread is never offline: OFF% stays unmeasured. */
		v[i].valid = XG_VCPU_CPU_VALID;
		if (!s->notrace)
			v[i].valid |= 1u << XG_RS_RUNNING | 1u << XG_RS_RUNNABLE | 1u << XG_RS_BLOCKED;
	}
}

/* The network namespace of the domain's first process: stat of its
 * /proc/PID/ns/net, kept with the process's state (a process changes
 * namespace only by running, so an idle one keeps the last answer). */
static int head_netns(struct xg_source *s, const struct lx_dom *d, uint64_t *ino)
{
	struct lx_pst *st = &s->sc.pnew[d->head];
	if (!st->netns_read) {
		char path[64];
		struct stat ns;
		snprintf(path, sizeof(path), "%u/ns/net", s->sc.proc[d->head].pid);
		st->netns_err = fstatat(s->sc.proc_fd, path, &ns, 0) < 0 ? errno : 0;
		st->netns = st->netns_err ? 0 : (uint64_t)ns.st_ino;
		st->netns_read = true;
	}
	*ino = st->netns;
	return st->netns_err;
}

/* The kernel counts traffic per interface, so a domain has network figures
 * only when it has interfaces of its own: its (first) process lives in a
 * network namespace other than ours, as a container does. */
static void fill_net(struct xg_source *s, struct xg_sample *out, struct xg_dom *x,
		     const struct lx_dom *d)
{
	if (s->nonet || d->head < 0 || !s->netns)
		return;   /* the reason given for every domain applies */
	char path[64], why[128];
	uint32_t pid = s->sc.proc[d->head].pid;
	uint64_t ino;
	int e = head_netns(s, d, &ino);
	if (e) {
		if (e == EACCES || e == EPERM)
			lx_fill_net(out, x, NULL, errno_reason(why, sizeof(why), "/proc/PID/ns/net", e));
		return;
	}
	if (ino == s->netns)
		return;
	char buf[8192];
	struct lx_net n;
	snprintf(path, sizeof(path), "%u/net/dev", pid);
	ssize_t r = xg_read_at(s->sc.proc_fd, path, buf, sizeof(buf));
	if (r < 0 || (size_t)r == sizeof(buf) - 1 || !lx_parse_net_dev(buf, &n)) {
		if (r < 0)
			errno_reason(why, sizeof(why), "/proc/PID/net/dev", (int)-r);
		else
			snprintf(why, sizeof(why), "/proc/PID/net/dev: unreadable (too many interfaces?)");
		lx_fill_net(out, x, NULL, why);
		return;
	}
	lx_fill_net(out, x, &n, NULL);
}

/* Cache counters: a cgroup domain is counted by its directory on every
 * CPU; a process group (and the root cgroup's own processes, since a root
 * cgroup counter would count every task) thread by thread. */
static void fill_pmu(struct xg_source *s, struct xg_sample *out, struct xg_dom *x,
		     const struct lx_dom *d, bool qemu)
{
	unsigned fl = qemu ? XG_PMU_VM : 0;
	const char *vm_cg = d->vm >= 0 && s->cg.root_fd >= 0 ? s->vms.vm[d->vm].cg : "";
	if (*vm_cg) {
		pmu_attach_cgroup_at(s->pmu, x->id, s->cg.root_fd, vm_cg, fl, NULL);
	} else if (d->cg >= 0 && !d->own_only) {
		pmu_attach_cgroup_at(s->pmu, x->id, s->cg.root_fd, s->cg.dom[d->cg].path, fl, NULL);
	} else {
		size_t n = 0;
		for (int32_t i = d->head; i >= 0; i = s->sc.proc[i].next) {
			const struct lx_proc *p = &s->sc.proc[i];
			xg_grow(&s->tids, &s->tids_cap, n + p->nthr, sizeof(*s->tids));
			for (uint32_t k = 0; k < p->nthr; k++)
				s->tids[n++] = (pid_t)s->sc.tnow[p->thr_first + k].tid;
		}
		pmu_sync_tasks(s->pmu, x->id, s->tids, n, fl, NULL);
	}
	pmu_read(s->pmu, x->id, out, x);
}

/* A VM's cgroup figures: only io.stat, and only from its own cgroup. */
static struct lx_cgstat *vm_cgstat(const struct lx_vm *vm, struct lx_cgstat *cs)
{
	if (!vm->cg[0])
		return NULL;
	memset(cs, 0, sizeof(*cs));
	cs->io_ok = vm->cgio_ok;
	cs->io = vm->cgio;
	return cs;
}

/* Pressure is kept per cgroup: a cgroup domain's own, a VM's scope; the
 * other domains say why they have none. */
static void fill_pressure(struct xg_source *s, struct xg_sample *out, struct xg_dom *x,
			  const struct lx_dom *d, const struct lx_vm *vm)
{
	const char *path = NULL, *why = NULL;
	if (s->cg.root_fd < 0)
		why = "no cgroup v2 hierarchy is mounted: pressure is kept per cgroup v2 (the host's is in /proc/pressure)";
	else if (vm && vm->cg[0])
		path = vm->cg;
	else if (vm)
		why = "the VM has no cgroup of its own (QEMU not started in a libvirt or Proxmox scope)";
	else if (s->vm_mode)
		why = "the host's own processes are not one cgroup";
	else if (d->cg < 0)
		why = "a process group has no pressure file: the kernel keeps pressure per cgroup (--group cgroup)";
	else if (!d->own_only)
		path = s->cg.dom[d->cg].path;
	else if (!s->cg.dom[d->cg].path[0])
		why = "the root cgroup's pressure is the whole host's (/proc/pressure), not its own processes'";
	else
		why = "processes directly in a parent cgroup have no pressure file of their own";
	lx_pressure_fill(&s->psi, out, x, s->cg.root_fd, path, why);
}

static void fill_dom(struct xg_source *s, struct xg_sample *out, const struct lx_dom *d)
{
	struct xg_dom *x = sample_add_dom(out, d->id);
	memcpy(x->handle, d->handle, sizeof(x->handle));
	x->gen = d->gen;
	memcpy(x->name, d->name, sizeof(x->name));
	x->name[sizeof(x->name) - 1] = 0;
	x->state = d->runnable ? XG_ST_RUNNING : XG_ST_BLOCKED;
	const struct lx_vm *vm = d->vm >= 0 ? &s->vms.vm[d->vm] : NULL;
	struct lx_cgstat cst, *cs = NULL;
	if (vm) {
		cs = vm_cgstat(vm, &cst);
	} else if (d->cg >= 0 && !d->own_only) {
		lx_cgroup_stat(&s->cg, &s->cg.dom[d->cg], &cst);
		cs = &cst;
	}
	bool cpu_cg = cs && cs->cpu_ok;
	if (cpu_cg)
		dom_set(x, XG_F_CPU_NS, cs->cpu_ns);
	fill_sched(s, out, x, d, cpu_cg);
	dom_set(x, XG_F_VCPUS, d->nthr);
	fill_mem(out, x, d, cs);
	fill_disk(s, out, x, d, cs);
	if (vm)
		lx_vm_fill(out, x, d, vm, &s->vms, s->nonet);
	else if (!s->vm_mode)
		fill_net(s, out, x, d);   /* (the host row of VM mode keeps the reason for all) */
	fill_pressure(s, out, x, d, vm);
	bool qemu = vm || is_qemu(s, d);
	fill_vcpus(s, out, x, d, qemu);
	if (s->pmu)
		fill_pmu(s, out, x, d, qemu);
}

/* Fields no Linux domain has (or only some have), with the reason, for
 * every domain at once: set before the domains, so a domain that does have
 * the figure (a container's network) keeps it. */
static void fill_absent(struct xg_source *s, struct xg_sample *out)
{
	const char *net = s->nonet ? "network statistics not collected (--nonet)"
		: s->vm_mode ? "the host's own traffic is not counted per process (each VM's tap devices are on its row)"
		: s->cgroup_mode ? "per-cgroup network traffic is not counted by the kernel (shown for network namespaces only)"
				 : "per-process network traffic is not counted by the kernel (shown for network namespaces only)";
	for (enum xg_field f = XG_F_NETS; f <= XG_F_NET_TX_DROP; f++)
		sample_invalid_all(out, f, net);
	sample_invalid_all(out, XG_F_VCPUS_MAX, "no configured vCPU count for Linux tasks");
	sample_invalid_all(out, XG_F_VBDS, "no virtual block devices for Linux tasks");
	sample_invalid_all(out, XG_F_DISK_OO, "no blkback out-of-request events on Linux");
	sample_invalid_all(out, XG_F_OFF_NS, "no offline state for Linux tasks");
	sample_invalid_all(out, XG_F_SSID, "no XSM labels on Linux");
	if (!s->waits.b)
		for (enum xg_field f = XG_F_BEHIND_WAIT_NS; f <= XG_F_WAIT_P99_NS; f++)
			sample_invalid_all(out, f, s->waits.why);
	if (!s->pmu)
		for (enum xg_field f = XG_F_LLC_REF; f <= XG_F_CYCLES; f++)
			sample_invalid_all(out, f, "cache counters not collected (--nocache)");
	else
		snprintf(out->host.cache_events, sizeof(out->host.cache_events), "%s",
			 pmu_label(s->pmu));
	lx_vm_absent(out, s->vm_mode);
	lx_pressure_absent(&s->psi, out);
	const char *cmt = "Intel CMT/MBM is only read on Xen";
	sample_invalid_all(out, XG_F_L3_OCC, cmt);
	sample_invalid_all(out, XG_F_MBM_TOTAL, cmt);
	sample_invalid_all(out, XG_F_MBM_LOCAL, cmt);
}

static int linux_collect(struct xg_source *s, struct xg_sample *out, struct xg_err *err)
{
	out->host.mono_ns = xg_now_mono_ns();
	out->host.real_ns = xg_now_real_ns();
	lx_node_fill(&s->node, &out->host);
	lx_node_pcpus(&s->node, out);
	if (s->cgroup_mode && lx_cgroup_list(&s->cg, err) < 0)
		return XG_COLLECT_ERROR;
	if (s->cgroup_mode)
		lx_cgmap_walk(&s->cgm, s->cg.root_fd, s->sc.nproc);   /* (the last scan's count) */
	if (lx_scan_run(&s->sc, err) < 0)
		return XG_COLLECT_ERROR;
	out->host.mono_ns = s->sc.mono_ns;   /* the instant the thread times run to */
	if (s->vm_mode) {
		s->vms.no_swap = !s->node.swap_total;
		lx_vms_update(&s->vms, &s->sc, &s->cg);
	}
	lx_doms_build(&s->ds, &s->sc, s->cgroup_mode ? &s->cg : NULL, s->vm_mode ? &s->vms : NULL);
	/* a failed read ends the attribution, not the monitor: the columns
	 * say why from then on */
	struct xg_err werr = { 0 };
	if (s->waits.b && lx_waits_drain(&s->waits, &werr) < 0)
		lx_waits_stop(&s->waits, werr.msg);
	fill_absent(s, out);
	size_t first = out->ndom;
	for (size_t i = 0; i < s->ds.ndom; i++)
		fill_dom(s, out, &s->ds.dom[i]);
	if (s->waits.b)
		lx_waits_fill(&s->waits, &s->sc, &s->ds, s->cgroup_mode ? &s->cg : NULL, s->vm_mode, out, first);
	else if (!s->notrace)
		host_mark(&out->host, XG_H_WAITS);   /* the columns show '-' and why (not root ...) */
	if (s->pmu)
		pmu_sweep(s->pmu);   /* counters of vanished domains are closed */
	sample_sort(out);
	/* the monitor's own cost includes this refresh */
	out->host.self_cpu_ns = xg_self_cpu_ns();
	return XG_COLLECT_OK;
}

const struct xg_source_ops source_linux_ops = {
	.name = "linux",
	.probe = linux_probe,
	.open = linux_open,
	.collect = linux_collect,
	.next_gap_ns = NULL,
	.close = linux_close,
};
