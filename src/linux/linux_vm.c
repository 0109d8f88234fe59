// SPDX-License-Identifier: GPL-2.0-or-later
/* QEMU processes as virtual machines: found among the scanned processes
 * by name (or by QEMU's vCPU thread names), named as libvirt, Proxmox or
 * the command line name them, and read for what only a VM has: its vCPU
 * threads, accelerator, tap devices, KVM statistics and swap. The table
 * is kept between refreshes, so a command line is parsed once per VM; a
 * reused pid is told from the old VM by the process's start time.
 * doc/linux-source.md ("Virtual machines") has the rules. */
#include "linux_vm.h"
#include "xgtop/core/osread.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#define FD_RESCAN 60   /* refreshes between fd listings when the count cannot tell */

void lx_vms_open(struct lx_vms *vt)
{
	memset(vt, 0, sizeof(*vt));
	vt->kvm.dir_fd = -1;
	/* a VM's files stay open (one per thread and a few more): take what
	 * the hard limit allows, as the PMU counters do */
	struct rlimit rl;
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		(void)setrlimit(RLIMIT_NOFILE, &rl);
	}
}

static void vstat_release(struct lx_vm *vm)
{
	for (uint32_t i = 0; i < vm->nvstat; i++)
		close(vm->vstat[i].fd);
	vm->nvstat = 0;
}

static void vm_release(struct lx_vm *vm)
{
	vstat_release(vm);
	free(vm->vstat);
	free(vm->vstat_q);
	for (int i = 0; i < LX_KVM_NSTAT; i++)
		if (vm->kvm_sfd[i] >= 0)
			close(vm->kvm_sfd[i]);
	if (vm->cg_io_fd >= 0)
		close(vm->cg_io_fd);
	if (vm->fd_dir >= 0)
		close(vm->fd_dir);
}

void lx_vms_close(struct lx_vms *vt)
{
	for (size_t i = 0; i < vt->n; i++)
		vm_release(&vt->vm[i]);
	lx_kvm_close(&vt->kvm);
	free(vt->vm);
	free(vt->args);
	free(vt->pairs);
	free(vt->netif);
	lx_index_free(&vt->idx);
	lx_index_free(&vt->ids);
	memset(vt, 0, sizeof(*vt));
	vt->kvm.dir_fd = -1;
}

/* /proc/PID/cmdline into vt->args; its length, 0 when empty (a kernel
 * thread) or unreadable. */
static size_t read_cmdline(struct lx_vms *vt, int proc_fd, uint32_t pid)
{
	char path[32];
	snprintf(path, sizeof(path), "%u/cmdline", (unsigned)pid);
	int fd = openat(proc_fd, path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	size_t len = 0;
	for (ssize_t r = 1; r > 0 && len < (1u << 20); len += (size_t)r) {
		xg_grow(&vt->args, &vt->args_cap, len + 4097, 1);
		r = read(fd, vt->args + len, 4096);
		if (r < 0)
			r = 0;
	}
	close(fd);
	if (vt->args)
		vt->args[len] = 0;
	return len;
}

/* The VM's cgroup: a libvirt or Proxmox scope is its own; another cgroup
 * is when nothing but the VM's process lives in it. */
static void vm_cgroup(struct lx_vm *vm, int proc_fd, const struct lx_cgroup *cg)
{
	char buf[1024], path[300];
	const char *cp;
	size_t cl;
	snprintf(path, sizeof(path), "%u/cgroup", (unsigned)vm->pid);
	if (xg_read_at(proc_fd, path, buf, sizeof(buf)) <= 0 || !lx_parse_cgroup_path(buf, &cp, &cl) ||
	    cl >= sizeof(vm->cg))
		return;
	char full[sizeof(vm->cg)];
	memcpy(full, cp, cl);
	full[cl] = 0;
	if (lx_vm_scope(full, &vm->scope)) {
		snprintf(vm->cg, sizeof(vm->cg), "%.*s", (int)vm->scope.len - 1, full + 1);
		return;
	}
	if (cl < 2 || !strncmp(full, "/..", 3) || !cg || cg->root_fd < 0)
		return;
	snprintf(path, sizeof(path), "%s/cgroup.procs", full + 1);
	uint64_t only;
	const char *nl;
	if (xg_read_at(cg->root_fd, path, buf, sizeof(buf)) > 0 && lx_parse_limit(buf, &only) &&
	    only == vm->pid && (!(nl = strchr(buf, '\n')) || !nl[1]))   /* that one line only */
		snprintf(vm->cg, sizeof(vm->cg), "%s", full + 1);
}

/* The name and id operators know it by. */
static void vm_name(struct lx_vm *vm)
{
	if (vm->conf.name[0])
		snprintf(vm->name, sizeof(vm->name), "%s", vm->conf.name);
	else if (vm->scope.kind == LX_SCOPE_LIBVIRT && vm->scope.name[0])
		snprintf(vm->name, sizeof(vm->name), "%s", vm->scope.name);
	else
		snprintf(vm->name, sizeof(vm->name), "%s", vm->comm);
	if (vm->conf.vmid > 0)
		vm->want_id = (uint32_t)vm->conf.vmid;
	else if (vm->scope.id > 0 && vm->scope.id <= UINT32_MAX)
		vm->want_id = (uint32_t)vm->scope.id;
	else
		vm->want_id = vm->pid;
}

/* A new VM from process p; false when it is not one (no command line). */
static bool vm_new(struct lx_vms *vt, const struct lx_scan *sc, const struct lx_proc *p,
		   const struct lx_cgroup *cg, struct lx_vm *vm)
{
	size_t len = read_cmdline(vt, sc->proc_fd, p->pid);
	if (!len)
		return false;
	memset(vm, 0, sizeof(*vm));
	vm->pid = p->pid;
	vm->start = p->start;
	memcpy(vm->comm, p->comm, sizeof(vm->comm));
	vm->kvm_fd = vm->cg_io_fd = vm->fd_dir = -1;
	for (int i = 0; i < LX_KVM_NSTAT; i++)
		vm->kvm_sfd[i] = -1;
	vm->scope.id = -1;
	size_t a0 = strnlen(vt->args, len) + 1;   /* after argv[0] */
	lx_vm_parse_args(vt->args + a0, len > a0 ? len - a0 : 0, &vm->conf);
	vm_cgroup(vm, sc->proc_fd, cg);
	vm_name(vm);
	char path[32];
	struct stat ns;
	snprintf(path, sizeof(path), "%u/ns/net", (unsigned)p->pid);
	vm->other_netns = vt->netns && fstatat(sc->proc_fd, path, &ns, 0) == 0 &&
			  (uint64_t)ns.st_ino != vt->netns;
	vm->fd_age = FD_RESCAN;   /* list its fds at once */
	return true;
}

/* Is process p a VM: a QEMU process, or any process with QEMU's vCPU
 * thread names (QEMU started with -name process=...)? Kernel threads
 * (children of kthreadd) never are. */
static bool looks_like_vm(const struct lx_scan *sc, const struct lx_proc *p)
{
	if (p->ppid == 2 || p->pid == 2)
		return false;
	if (lx_is_qemu_comm(p->comm))
		return true;
	for (uint32_t k = 0; k < p->nthr; k++)
		if (sc->tnow[p->thr_first + k].vcpu_no != LX_NO_VCPU)
			return true;
	return false;
}

/* Keeps the VMs still running (same pid and start), adds new ones, drops
 * the rest; vm->proc points at this refresh's process. */
static void vms_match(struct lx_vms *vt, struct lx_scan *sc, const struct lx_cgroup *cg)
{
	for (size_t i = 0; i < vt->n; i++)
		vt->vm[i].proc = -1;
	for (size_t i = 0; i < sc->nproc; i++) {
		const struct lx_proc *p = &sc->proc[i];
		if (!looks_like_vm(sc, p))
			continue;
		int64_t j = lx_index_get(&vt->idx, p->pid);
		if (j >= 0 && vt->vm[j].pid == p->pid && vt->vm[j].start == p->start &&
		    !strcmp(vt->vm[j].comm, p->comm)) {
			vt->vm[j].proc = (int32_t)i;
			continue;
		}
		struct lx_vm vm;
		if (!vm_new(vt, sc, p, cg, &vm))
			continue;
		vm.proc = (int32_t)i;
		xg_grow(&vt->vm, &vt->cap, vt->n + 1, sizeof(*vt->vm));
		vt->vm[vt->n++] = vm;
	}
	size_t n = 0;
	for (size_t i = 0; i < vt->n; i++) {
		if (vt->vm[i].proc < 0) {
			vm_release(&vt->vm[i]);   /* gone (or its pid now someone else's) */
			continue;
		}
		vt->vm[n++] = vt->vm[i];
	}
	vt->n = n;
	lx_index_reset(&vt->idx, n);
	lx_index_reset(&vt->ids, n);
	for (size_t i = 0; i < n; i++) {
		struct lx_vm *vm = &vt->vm[i];
		lx_index_put(&vt->idx, vm->pid, (uint32_t)i);
		/* ids stay unique: a clash (a VMID equal to another VM's pid)
		 * falls back to the pid, then to the pid with the top bit set */
		vm->id = vm->want_id;
		if (lx_index_get(&vt->ids, vm->id) >= 0)
			vm->id = vm->pid;
		if (lx_index_get(&vt->ids, vm->id) >= 0)
			vm->id = vm->pid | 0x80000000u;
		lx_index_put(&vt->ids, vm->id, (uint32_t)i);
	}
}

/* The number of the descriptor a /proc/PID/fd entry is named after, or
 * -1 for a name that is not one. */
static int fd_number(const char *name)
{
	uint32_t fd;
	return lx_parse_id(name, &fd) && fd <= INT_MAX ? (int)fd : -1;
}

/* One descriptor of the VM's process: KVM's VM, or a tap / macvtap. */
static void vm_fd(struct lx_vm *vm, int proc_fd, int dfd, const char *name)
{
	char link[64], path[64], buf[512];
	ssize_t n = readlinkat(dfd, name, link, sizeof(link) - 1);
	if (n <= 0)
		return;
	link[n] = 0;
	unsigned ifindex;
	struct lx_tap t = { .macvtap = false };
	if (!strcmp(link, "anon_inode:kvm-vm")) {
		vm->kvm_fd = fd_number(name);
		return;
	}
	if (!strncmp(link, "anon_inode:kvm-vcpu-stats:", 26)) {
		int fd = fd_number(name);
		if (fd < 0)
			return;
		xg_grow(&vm->vstat_q, &vm->vstat_q_cap, vm->nvstat_q + 1, sizeof(*vm->vstat_q));
		vm->vstat_q[vm->nvstat_q++] = fd;
		return;
	}
	if (!strcmp(link, "/dev/net/tun")) {
		snprintf(path, sizeof(path), "%u/fdinfo/%.16s", (unsigned)vm->pid, name);
		if (xg_read_at(proc_fd, path, buf, sizeof(buf)) <= 0 || !lx_parse_fdinfo_iff(buf, t.ifname))
			return;
	} else if (sscanf(link, "/dev/tap%u", &ifindex) == 1) {
		if (!if_indextoname(ifindex, t.ifname))
			return;
		t.macvtap = true;
	} else {
		return;
	}
	for (uint32_t i = 0; i < vm->ntap; i++)
		if (!strcmp(vm->tap[i].ifname, t.ifname))
			return;   /* multiqueue: one device, several descriptors */
	if (vm->ntap < LX_VM_TAPS)
		vm->tap[vm->ntap++] = t;
}

/* Copies of QEMU's vCPU statistics descriptors, when it keeps them. */
static void vm_borrow(struct lx_vm *vm)
{
	vstat_release(vm);
	if (!vm->nvstat_q)
		return;
	int pidfd = (int)syscall(SYS_pidfd_open, vm->pid, 0);
	for (uint32_t i = 0; pidfd >= 0 && i < vm->nvstat_q; i++) {
		xg_grow(&vm->vstat, &vm->vstat_cap, vm->nvstat + 1, sizeof(*vm->vstat));
		if (lx_kvm_borrow(pidfd, vm->vstat_q[i], &vm->vstat[vm->nvstat]) == 0)
			vm->nvstat++;
	}
	if (pidfd >= 0)
		close(pidfd);
	if (vm->nvstat < vm->nvstat_q)
		vstat_release(vm);   /* all or none: part of the vCPUs is not the VM's figure */
}

/* Lists the VM's descriptors when their number changed (kernels that
 * give it as the size of /proc/PID/fd), else every FD_RESCAN refreshes. */
static void vm_fds(struct lx_vm *vm, int proc_fd)
{
	char path[32];
	struct stat st;
	snprintf(path, sizeof(path), "%u/fd", (unsigned)vm->pid);
	/* an open /proc/PID/fd answers fstat with the current count */
	if (vm->fd_dir < 0)
		vm->fd_dir = openat(proc_fd, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	bool counted = vm->fd_dir >= 0 && fstat(vm->fd_dir, &st) == 0 && st.st_size > 0;
	if (counted && (uint64_t)st.st_size == vm->fd_count && vm->fd_ok)
		return;
	if (!counted && vm->fd_age++ < FD_RESCAN)
		return;
	DIR *d = lx_opendir_at(proc_fd, path);
	vm->fd_err = d ? 0 : errno;
	vm->fd_ok = d != NULL;
	if (!d)
		return;
	int kvm_fd = vm->kvm_fd;
	vm->kvm_fd = -1;
	vm->ntap = vm->nvstat_q = 0;
	struct dirent *e;
	while ((e = readdir(d)))
		if (e->d_name[0] >= '0' && e->d_name[0] <= '9')
			vm_fd(vm, proc_fd, dirfd(d), e->d_name);
	closedir(d);
	vm->fd_count = counted ? (uint64_t)st.st_size : 0;
	vm->fd_age = 0;
	vm_borrow(vm);
	if (kvm_fd != vm->kvm_fd)   /* another VM descriptor: its statistics are elsewhere */
		for (int i = 0; i < LX_KVM_NSTAT; i++) {
			if (vm->kvm_sfd[i] >= 0)
				close(vm->kvm_sfd[i]);
			vm->kvm_sfd[i] = -1;
		}
}

void lx_vms_update(struct lx_vms *vt, struct lx_scan *sc, const struct lx_cgroup *cg)
{
	vms_match(vt, sc, cg);
	for (size_t i = 0; i < vt->n; i++) {
		struct lx_vm *vm = &vt->vm[i];
		vm_fds(vm, sc->proc_fd);
		lx_vm_refresh(vt, sc, vm, cg);
		/* read every refresh in full: keep its files open */
		lx_scan_keep(sc, vm->pid, vm->start);
	}
	lx_vms_netdev(vt);
}

/* Is the process named by the /proc entry name a QEMU one (not a kernel
 * thread, which has no command line)? */
static bool qemu_process(int proc_fd, const char *name)
{
	char path[48], buf[512];
	struct lx_stat st;
	snprintf(path, sizeof(path), "%.16s/stat", name);
	if (xg_read_at(proc_fd, path, buf, sizeof(buf)) <= 0 || !lx_parse_stat(buf, &st) ||
	    !lx_is_qemu_comm(st.comm) || st.ppid == 2)
		return false;
	snprintf(path, sizeof(path), "%.16s/cmdline", name);
	return xg_read_at(proc_fd, path, buf, sizeof(buf)) > 0;
}

bool lx_vms_present(int proc_fd)
{
	DIR *d = lx_opendir_at(proc_fd, ".");
	if (!d)
		return false;
	bool found = false;
	struct dirent *e;
	while (!found && (e = readdir(d)))
		found = e->d_name[0] >= '1' && e->d_name[0] <= '9' && qemu_process(proc_fd, e->d_name);
	closedir(d);
	return found;
}
