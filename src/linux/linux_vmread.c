// SPDX-License-Identifier: GPL-2.0-or-later
/* What a VM has beyond its processes, read every refresh: which threads
 * are its vCPUs, its accelerator, KVM's statistics, its swap, its own
 * cgroup's io.stat, whether it is paused, and the counters of its tap
 * devices. */
#include "linux_vm.h"
#include "xgtop/core/osread.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define PAIRS_MAX 4096   /* vCPUs of one VM found by cgroup or KVM */

/* libvirt's <scope>/libvirt/vcpuN/cgroup.threads (since libvirt 7.1). */
static size_t libvirt_vcpus(struct lx_vms *vt, const struct lx_vm *vm, const struct lx_cgroup *cg)
{
	char path[320], buf[1024];
	snprintf(path, sizeof(path), "%s/libvirt", vm->cg);
	DIR *d = lx_opendir_at(cg->root_fd, path);
	if (!d)
		return 0;
	size_t n = 0;
	struct dirent *e;
	while (n < PAIRS_MAX && (e = readdir(d))) {
		char *end = NULL;
		if (strncmp(e->d_name, "vcpu", 4) || e->d_name[4] < '0' || e->d_name[4] > '9')
			continue;
		unsigned long id = strtoul(e->d_name + 4, &end, 10);
		snprintf(path, sizeof(path), "%s/cgroup.threads", e->d_name);
		if (*end || id > INT32_MAX || xg_read_at(dirfd(d), path, buf, sizeof(buf)) <= 0)
			continue;
		for (char *p = buf; *p && n < PAIRS_MAX;) {
			unsigned long tid = strtoul(p, &end, 10);
			if (end == p)
				break;
			vt->pairs[n++] = (uint64_t)id << 32 | (uint32_t)tid;
			p = end + (*end == '\n');
		}
	}
	closedir(d);
	return n;
}

/* vCPU numbers of a VM's threads when QEMU did not name them
 * (debug-threads=off): libvirt's vcpuN cgroups, else KVM's vcpuN/pid. */
static void vcpus_unnamed(struct lx_vms *vt, struct lx_scan *sc, const struct lx_vm *vm,
			  const struct lx_cgroup *cg)
{
	xg_grow(&vt->pairs, &vt->pairs_cap, PAIRS_MAX, sizeof(*vt->pairs));
	size_t n = 0;
	if (vm->scope.kind == LX_SCOPE_LIBVIRT && vm->cg[0] && cg && cg->root_fd >= 0)
		n = libvirt_vcpus(vt, vm, cg);
	if (!n && vm->kvm_fd >= 0) {
		if (!vt->kvm_tried)
			lx_kvm_open(&vt->kvm);
		vt->kvm_tried = true;
		n = lx_kvm_vcpu_tids(&vt->kvm, vm->pid, vm->kvm_fd, vt->pairs, PAIRS_MAX);
	}
	const struct lx_proc *p = &sc->proc[vm->proc];
	for (uint32_t k = 0; k < p->nthr; k++) {
		struct lx_thr *t = &sc->tnow[p->thr_first + k];
		t->vcpu_no = LX_NO_VCPU;
		for (size_t i = 0; i < n; i++)
			if ((uint32_t)vt->pairs[i] == t->tid)
				t->vcpu_no = (int32_t)(vt->pairs[i] >> 32);
	}
}

/* Which threads are vCPUs, and the accelerator: the threads' names tell
 * both; else KVM's VM descriptor, else the command line. */
static void vm_threads(struct lx_vms *vt, struct lx_scan *sc, struct lx_vm *vm,
		       const struct lx_cgroup *cg)
{
	const struct lx_proc *p = &sc->proc[vm->proc];
	enum lx_accel named = LX_ACCEL_NONE;
	for (uint32_t k = 0; k < p->nthr; k++) {
		const struct lx_thr *t = &sc->tnow[p->thr_first + k];
		if (t->vcpu_no != LX_NO_VCPU && t->accel != LX_ACCEL_NONE)
			named = (enum lx_accel)t->accel;
	}
	vm->vcpu_named = named != LX_ACCEL_NONE;
	if (!vm->vcpu_named)
		vcpus_unnamed(vt, sc, vm, cg);
	vm->nvcpu = 0;
	for (uint32_t k = 0; k < p->nthr; k++)
		vm->nvcpu += sc->tnow[p->thr_first + k].vcpu_no != LX_NO_VCPU;
	if (named != LX_ACCEL_NONE)
		vm->accel = named;
	else if (vm->kvm_fd >= 0)
		vm->accel = LX_ACCEL_KVM;
	else if (vm->fd_ok)
		vm->accel = LX_ACCEL_TCG;   /* no KVM descriptor: QEMU emulates */
	else
		vm->accel = vm->conf.accel;
}

static void kvm_why(struct lx_vm *vm, int err, const char *fmt, const char *arg)
{
	vm->kvm_err = err;
	snprintf(vm->kvm_why, sizeof(vm->kvm_why), fmt, arg);
}

/* The VM's statistics from the copies of QEMU's vCPU statistics
 * descriptors, summed over its vCPUs. */
static void vm_kvm_copies(struct lx_vm *vm)
{
	uint64_t sum[LX_KVM_NSTAT] = { 0 }, v[LX_KVM_NSTAT];
	for (uint32_t i = 0; i < vm->nvstat; i++) {
		int e = lx_kvm_fd_read(&vm->vstat[i], v);
		if (e) {
			kvm_why(vm, e, "QEMU's KVM statistics descriptor: %s", strerror(e));
			return;
		}
		for (int s = 0; s < LX_KVM_NSTAT; s++)
			sum[s] += v[s];
	}
	memcpy(vm->kvm, sum, sizeof(sum));
	vm->kvm_err = 0;
}

/* KVM's statistics of the VM, or why there are none: QEMU's own
 * statistics descriptors when it keeps them, else debugfs. */
static void vm_kvm(struct lx_vms *vt, struct lx_vm *vm)
{
	if (vm->accel == LX_ACCEL_TCG) {
		kvm_why(vm, ENOENT, "%s", "TCG guest (QEMU emulates its CPUs): KVM keeps no statistics of it");
		return;
	}
	if (vm->kvm_fd < 0) {
		if (vm->fd_ok)
			kvm_why(vm, ENOENT, "%s", "no KVM VM descriptor in /proc/PID/fd (not a KVM guest)");
		else if (vm->fd_err == EACCES || vm->fd_err == EPERM)
			kvm_why(vm, vm->fd_err, "%s", "/proc/PID/fd: permission denied (run as root)");
		else
			kvm_why(vm, vm->fd_err, "/proc/PID/fd: %s", strerror(vm->fd_err));
		return;
	}
	if (vm->nvstat) {
		vm_kvm_copies(vm);
		return;
	}
	if (!vt->kvm_tried)
		lx_kvm_open(&vt->kvm);
	vt->kvm_tried = true;
	/* refused once (lockdown, permissions): refused for good */
	if (vm->kvm_err == EPERM || vm->kvm_err == EACCES)
		return;
	vm->kvm_err = lx_kvm_read(&vt->kvm, vm->pid, vm->kvm_fd, vm->kvm_sfd, vm->kvm, vm->kvm_why,
				  sizeof(vm->kvm_why));
}

/* Swap: 0 on a host without swap, else VmSwap of /proc/PID/status (the
 * kernel builds all of status for it, so it is read only then). */
static void vm_swap(struct lx_vms *vt, const struct lx_scan *sc, struct lx_vm *vm)
{
	char path[32], buf[2048];
	vm->swap = 0;
	vm->swap_err = 0;
	if (vt->no_swap)
		return;
	snprintf(path, sizeof(path), "%u/status", (unsigned)vm->pid);
	ssize_t n = xg_read_at(sc->proc_fd, path, buf, sizeof(buf));
	if (n < 0)
		vm->swap_err = (int)-n;
	else if (!lx_parse_vmswap(buf, &vm->swap))
		vm->swap_err = EINVAL;
}

/* io.stat of the VM's own cgroup, through a kept descriptor. */
static void vm_cgio(const struct lx_cgroup *cg, struct lx_vm *vm)
{
	char path[300], buf[4096];
	vm->cgio_ok = false;
	if (!vm->cg[0] || !cg || cg->root_fd < 0 || vm->cgio_missing)
		return;
	if (vm->cg_io_fd < 0) {
		snprintf(path, sizeof(path), "%s/io.stat", vm->cg);
		vm->cg_io_fd = openat(cg->root_fd, path, O_RDONLY | O_CLOEXEC);
		vm->cgio_missing = vm->cg_io_fd < 0;   /* no io controller: do not look again */
		if (vm->cgio_missing)
			return;
	}
	ssize_t n = lx_keep_pread(vm->cg_io_fd, buf, sizeof(buf));
	vm->cgio_ok = n >= 0 && (size_t)n < sizeof(buf) - 1 && lx_parse_io_stat(buf, &vm->cgio);
}

/* Paused: stopped (SIGSTOP, a debugger), or, under KVM, every vCPU thread
 * idle the whole interval and none of them inside KVM: QEMU holds them
 * outside the guest (the monitor's "stop"; an idle guest's vCPU waits in
 * KVM's halt instead). A TCG guest stopped by the monitor cannot be told
 * from an idle one this way. */
static bool vm_paused(const struct lx_scan *sc, const struct lx_vm *vm)
{
	const struct lx_proc *p = &sc->proc[vm->proc];
	if (p->state == 'T' || p->state == 't')
		return true;
	if (vm->accel != LX_ACCEL_KVM || vm->kvm_fd < 0 || !vm->nvcpu || !sc->have_prev)
		return false;
	for (uint32_t k = 0; k < p->nthr; k++) {
		const struct lx_thr *t = &sc->tnow[p->thr_first + k];
		if (t->vcpu_no != LX_NO_VCPU && (t->d_run || t->d_wait || t->state == 'R'))
			return false;
	}
	for (uint32_t k = 0; k < p->nthr; k++) {
		const struct lx_thr *t = &sc->tnow[p->thr_first + k];
		char path[64], buf[64];
		if (t->vcpu_no == LX_NO_VCPU)
			continue;
		snprintf(path, sizeof(path), "%u/task/%u/wchan", (unsigned)p->pid, (unsigned)t->tid);
		if (xg_read_at(sc->proc_fd, path, buf, sizeof(buf)) <= 0 || !strcmp(buf, "0") ||
		    !strncmp(buf, "kvm", 3))
			return false;   /* in KVM, or cannot tell */
	}
	return true;
}

void lx_vm_refresh(struct lx_vms *vt, struct lx_scan *sc, struct lx_vm *vm, const struct lx_cgroup *cg)
{
	vm_threads(vt, sc, vm, cg);
	vm_kvm(vt, vm);
	vm_swap(vt, sc, vm);
	vm_cgio(cg, vm);
	vm->paused = vm_paused(sc, vm);
}

/* The counters of the host namespace's interfaces, when a VM has a tap. */
void lx_vms_netdev(struct lx_vms *vt)
{
	vt->nnetif = 0;
	bool taps = false;
	for (size_t i = 0; i < vt->n; i++)
		taps |= vt->vm[i].ntap > 0;
	if (!taps)
		return;
	size_t cap = 1u << 16;
	char *buf = xg_malloc(cap);
	ssize_t n = xg_read_at(AT_FDCWD, "/proc/net/dev", buf, cap);
	vt->netdev_err = n < 0 ? (int)-n : 0;
	if (n >= 0) {
		xg_grow(&vt->netif, &vt->netif_cap, 1024, sizeof(*vt->netif));
		vt->nnetif = lx_parse_net_devs(buf, vt->netif, 1024);
	}
	free(buf);
}
