// SPDX-License-Identifier: GPL-2.0-or-later
/* KVM's own statistics of a VM. debugfs: kvm/<pid>-<fd>/ holds one file
 * per statistic, the vCPU ones summed over the VM's vCPUs, and a vcpuN/
 * directory per vCPU whose "pid" file names its thread. The statistic
 * files are writable (writing 0 clears them), so a kernel in lockdown
 * refuses to open them even for root (EPERM), while the read-only
 * vcpuN/pid files stay readable.
 *
 * KVM's binary statistics (KVM_GET_STATS_FD) cannot be asked for from
 * outside: the ioctl on a VM or vCPU descriptor fails with EIO unless it
 * comes from the process that created the VM. But the statistics
 * descriptors a QEMU opened and keeps can be copied and read (below).
 * doc/linux-source.md says more. */
#include "linux_vm.h"
#include "xgtop/core/osread.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/kvm.h>
#include <sys/mount.h>
#include <sys/syscall.h>
#include <sys/vfs.h>
#include <unistd.h>

#define DEBUGFS "/sys/kernel/debug"
#define DEBUGFS_MAGIC 0x64626720

static const char *const stat_file[LX_KVM_NSTAT] = {
	[LX_KVM_EXITS] = "exits",
	[LX_KVM_POLL_OK_NS] = "halt_poll_success_ns",
	[LX_KVM_POLL_FAIL_NS] = "halt_poll_fail_ns",
};

static bool debugfs_mounted(void)
{
	struct statfs f;
	return statfs(DEBUGFS, &f) == 0 && (unsigned long)f.f_type == DEBUGFS_MAGIC;
}

void lx_kvm_open(struct lx_kvm *k)
{
	memset(k, 0, sizeof(*k));
	k->dir_fd = open(DEBUGFS "/kvm", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (k->dir_fd >= 0)
		return;
	int e = errno;
	bool mounted = debugfs_mounted();
	if (!mounted && geteuid() == 0) {
		/* kvm_stat needs it as well; unmounted again at close */
		if (mount("debugfs", DEBUGFS, "debugfs", 0, NULL) == 0) {
			k->mounted = true;
			k->dir_fd = open(DEBUGFS "/kvm", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
			if (k->dir_fd >= 0)
				return;
			e = errno;
			mounted = true;
		} else {
			snprintf(k->why, sizeof(k->why), "mounting debugfs on " DEBUGFS ": %s",
				 strerror(errno));
			return;
		}
	}
	if (!mounted && geteuid() != 0)
		snprintf(k->why, sizeof(k->why), "debugfs is not mounted (run as root: xgtop mounts it)");
	else if (e == EACCES || e == EPERM)
		snprintf(k->why, sizeof(k->why), DEBUGFS "/kvm: permission denied (run as root)");
	else if (e == ENOENT)
		snprintf(k->why, sizeof(k->why), "no kvm directory in debugfs (kvm module not loaded)");
	else
		snprintf(k->why, sizeof(k->why), DEBUGFS "/kvm: %s", strerror(e));
}

void lx_kvm_close(struct lx_kvm *k)
{
	if (k->dir_fd >= 0)
		close(k->dir_fd);
	k->dir_fd = -1;
	/* busy (someone else uses it now): leave it */
	if (k->mounted)
		umount2(DEBUGFS, 0);
	k->mounted = false;
}

static void open_why(char *why, size_t n, const char *file, int e)
{
	if (e == EPERM)
		snprintf(why, n, "debugfs kvm/PID-FD/%s: operation not permitted (kernel lockdown "
			 "keeps KVM's statistics from debugfs readers)", file);
	else if (e == ENOENT)
		snprintf(why, n, "debugfs kvm/PID-FD/%s: no such file (kernel without this statistic?)",
			 file);
	else
		snprintf(why, n, "debugfs kvm/PID-FD/%s: %s", file, strerror(e));
}

int lx_kvm_read(struct lx_kvm *k, uint32_t pid, int vmfd, int fd[LX_KVM_NSTAT],
		uint64_t out[LX_KVM_NSTAT], char *why, size_t n)
{
	if (k->dir_fd < 0) {
		snprintf(why, n, "%s", k->why);
		return ENOENT;
	}
	char path[96], buf[32];
	for (int i = 0; i < LX_KVM_NSTAT; i++) {
		if (fd[i] < 0) {
			snprintf(path, sizeof(path), "%u-%d/%s", (unsigned)pid, vmfd, stat_file[i]);
			fd[i] = openat(k->dir_fd, path, O_RDONLY | O_CLOEXEC);
			if (fd[i] < 0) {
				int e = errno;
				open_why(why, n, stat_file[i], e);
				return e;
			}
		}
		ssize_t r = lx_keep_pread(fd[i], buf, sizeof(buf));
		if (r <= 0 || !lx_parse_limit(buf, &out[i]) || out[i] == UINT64_MAX) {
			snprintf(why, n, "debugfs kvm/PID-FD/%s: %s", stat_file[i],
				 r < 0 ? strerror((int)-r) : "unreadable");
			return r < 0 ? (int)-r : EINVAL;
		}
	}
	return 0;
}

size_t lx_kvm_vcpu_tids(struct lx_kvm *k, uint32_t pid, int vmfd, uint64_t *out, size_t max)
{
	char path[300], buf[32];
	snprintf(path, sizeof(path), "%u-%d", (unsigned)pid, vmfd);
	DIR *d = lx_opendir_at(k->dir_fd, path);
	if (!d)
		return 0;
	size_t cnt = 0;
	struct dirent *e;
	while (cnt < max && (e = readdir(d))) {
		char *end = NULL;
		unsigned long id = strncmp(e->d_name, "vcpu", 4) ? ULONG_MAX : strtoul(e->d_name + 4, &end, 10);
		uint64_t tid;
		if (id > INT32_MAX || end == e->d_name + 4 || *end)
			continue;
		snprintf(path, sizeof(path), "%s/pid", e->d_name);
		if (xg_read_at(dirfd(d), path, buf, sizeof(buf)) > 0 && lx_parse_limit(buf, &tid) &&
		    tid && tid <= UINT32_MAX)
			out[cnt++] = (uint64_t)id << 32 | tid;
	}
	closedir(d);
	return cnt;
}

/* ---- QEMU's own statistics descriptors ----
 * Newer QEMU releases open KVM's binary statistics of every vCPU
 * (KVM_GET_STATS_FD) and keep them: /proc/PID/fd shows them as
 * anon_inode:kvm-vcpu-stats:N. Reading such a descriptor is not checked
 * against the VM's owner the way the ioctl is, so a copy taken with
 * pidfd_getfd() (root, or ptrace rights over QEMU) reads them, under
 * lockdown too, and per vCPU. */

static const char *const bin_name[LX_KVM_NSTAT] = {
	[LX_KVM_EXITS] = "exits",
	[LX_KVM_POLL_OK_NS] = "halt_poll_success_ns",
	[LX_KVM_POLL_FAIL_NS] = "halt_poll_fail_ns",
};

/* Finds the statistics in the descriptor block d of n entries. */
static int find_stats(const char *d, const struct kvm_stats_header *h, struct lx_kvmfd *k)
{
	size_t step = sizeof(struct kvm_stats_desc) + h->name_size;
	for (uint32_t i = 0; i < h->num_desc; i++) {
		const struct kvm_stats_desc *sd = (const void *)(d + i * step);
		const char *name = d + i * step + sizeof(*sd);
		for (int s = 0; s < LX_KVM_NSTAT; s++) {
			if (strncmp(name, bin_name[s], h->name_size) || sd->size < 1)
				continue;
			/* the halt-polling times must be in ns to be added as such */
			if (s != LX_KVM_EXITS && ((sd->flags & KVM_STATS_UNIT_MASK) != KVM_STATS_UNIT_SECONDS ||
						  sd->exponent != -9))
				continue;
			k->off[s] = h->data_offset + sd->offset;
		}
	}
	for (int s = 0; s < LX_KVM_NSTAT; s++)
		if (k->off[s] == UINT32_MAX)
			return ENOENT;
	return 0;
}

int lx_kvm_borrow(int pidfd, int qfd, struct lx_kvmfd *k)
{
	memset(k->off, 0xff, sizeof(k->off));
	k->fd = (int)syscall(SYS_pidfd_getfd, pidfd, qfd, 0);
	if (k->fd < 0)
		return errno;
	struct kvm_stats_header h;
	int e = EINVAL;
	if (pread(k->fd, &h, sizeof(h), 0) == (ssize_t)sizeof(h) && h.num_desc && h.num_desc < 4096 &&
	    h.name_size && h.name_size < 256) {
		size_t len = (size_t)h.num_desc * (sizeof(struct kvm_stats_desc) + h.name_size);
		char *d = xg_malloc(len);
		if (pread(k->fd, d, len, h.desc_offset) == (ssize_t)len)
			e = find_stats(d, &h, k);
		free(d);
	}
	if (e) {
		close(k->fd);
		k->fd = -1;
	}
	return e;
}

int lx_kvm_fd_read(const struct lx_kvmfd *k, uint64_t out[LX_KVM_NSTAT])
{
	for (int s = 0; s < LX_KVM_NSTAT; s++)
		if (pread(k->fd, &out[s], sizeof(out[s]), k->off[s]) != (ssize_t)sizeof(out[s]))
			return errno ? errno : EIO;
	return 0;
}
