// SPDX-License-Identifier: GPL-2.0-or-later
/* cgroup v2: where it is mounted, which cgroups are domains, and their
 * cpu/memory/io figures.
 *
 * Domains are the top-level cgroups, except that a top-level systemd slice
 * ("*.slice") is replaced by its children (system.slice/ssh.service,
 * user.slice/user-1000.slice, machine.slice/machine-qemu...scope). Deeper
 * cgroups count towards the domain above them. The root ("/": kernel
 * threads, init on some hosts) and any slice holding processes directly
 * are domains whose figures come from those processes only. */
#include "linux_cgroup.h"
#include "xgtop/core/osread.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int lx_cgroup_open(struct lx_cgroup *cg, struct xg_err *err)
{
	memset(cg, 0, sizeof(*cg));
	cg->root_fd = -1;
	size_t cap = 1 << 16;
	char *buf = xg_malloc(cap);
	ssize_t n = xg_read_at(AT_FDCWD, "/proc/self/mountinfo", buf, cap);
	if (n < 0) {
		free(buf);
		return xg_fail_errno(err, (int)-n, "/proc/self/mountinfo");
	}
	for (char *line = buf; line && *line;) {
		char *eol = strchr(line, '\n');
		if (eol)
			*eol = 0;
		if (lx_parse_mountinfo_cgroup2(line, cg->mnt_root, sizeof(cg->mnt_root), cg->mnt,
					       sizeof(cg->mnt))) {
			cg->root_fd = open(cg->mnt, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
			if (cg->root_fd >= 0)
				break;
		}
		line = eol ? eol + 1 : NULL;
	}
	free(buf);
	/* A bind mount of a subtree ("root" not "/") would need path
	 * translation; such hosts use process mode. */
	if (cg->root_fd >= 0 && strcmp(cg->mnt_root, "/")) {
		close(cg->root_fd);
		cg->root_fd = -1;
	}
	return 0;
}

void lx_cgroup_close(struct lx_cgroup *cg)
{
	if (cg->root_fd >= 0)
		close(cg->root_fd);
	free(cg->dom);
	memset(cg, 0, sizeof(*cg));
	cg->root_fd = -1;
}

/* Calls fn(ctx, name) for every subdirectory of dirfd. */
static void each_subdir(int dirfd, void (*fn)(void *, const char *), void *ctx)
{
	int fd = openat(dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return;
	char dbuf[4096];
	for (;;) {
		ssize_t n = getdents64(fd, dbuf, sizeof(dbuf));
		if (n <= 0)
			break;
		for (ssize_t off = 0; off < n;) {
			struct dirent64 *de = (struct dirent64 *)(dbuf + off);
			off += de->d_reclen;
			if (de->d_type == DT_DIR && de->d_name[0] != '.')
				fn(ctx, de->d_name);
		}
	}
	close(fd);
}

bool lx_cgroup_populated(const struct lx_cgroup *cg, int proc_fd)
{
	if (cg->root_fd < 0)
		return false;
	/* any process outside the root will do; on a systemd host init itself
	 * is in init.scope, so this usually stops at the first process */
	int fd = openat(proc_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return false;
	char dbuf[4096], path[300], buf[1024];
	bool found = false;
	for (ssize_t n; !found && (n = getdents64(fd, dbuf, sizeof(dbuf))) > 0;) {
		for (ssize_t off = 0; off < n && !found;) {
			struct dirent64 *de = (struct dirent64 *)(dbuf + off);
			off += de->d_reclen;
			if (de->d_name[0] < '1' || de->d_name[0] > '9')
				continue;
			snprintf(path, sizeof(path), "%.250s/cgroup", de->d_name);
			const char *p;
			size_t len;
			if (xg_read_at(proc_fd, path, buf, sizeof(buf)) > 0 &&
			    lx_parse_cgroup_path(buf, &p, &len) && len > 1 && strncmp(p, "/..", 3))
				found = true;
		}
	}
	close(fd);
	return found;
}

int64_t lx_cgroup_add(struct lx_cgroup *cg, const char *path, bool own_only)
{
	struct stat st;
	if (fstatat(cg->root_fd, *path ? path : ".", &st, 0) < 0 || !S_ISDIR(st.st_mode))
		return -1;
	xg_grow(&cg->dom, &cg->dom_cap, cg->ndom + 1, sizeof(*cg->dom));
	struct lx_cgdom *d = &cg->dom[cg->ndom];
	memset(d, 0, sizeof(*d));
	d->ino = (uint64_t)st.st_ino;
	d->id = (uint32_t)st.st_ino;
	snprintf(d->path, sizeof(d->path), "%s", path);
	d->own_only = own_only;
	return (int64_t)cg->ndom++;
}

static bool is_slice(const char *name, size_t n)
{
	return n > 6 && !memcmp(name + n - 6, ".slice", 6);
}

struct slice_ctx {
	struct lx_cgroup *cg;
	const char *slice;
};

static void add_child(void *ctx, const char *name)
{
	struct slice_ctx *sx = ctx;
	char path[256];
	if ((size_t)snprintf(path, sizeof(path), "%s/%s", sx->slice, name) < sizeof(path))
		lx_cgroup_add(sx->cg, path, false);
}

static void add_top(void *ctx, const char *name)
{
	struct lx_cgroup *cg = ctx;
	if (!is_slice(name, strlen(name))) {
		lx_cgroup_add(cg, name, false);
		return;
	}
	int fd = openat(cg->root_fd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return;
	struct slice_ctx sx = { cg, name };
	each_subdir(fd, add_child, &sx);
	close(fd);
}

int lx_cgroup_list(struct lx_cgroup *cg, struct xg_err *err)
{
	cg->ndom = 0;
	if (cg->root_fd < 0)
		return xg_fail(err, "no cgroup v2 hierarchy is mounted");
	if (lx_cgroup_add(cg, "", true) < 0)
		return xg_fail_errno(err, errno, "%s", cg->mnt);
	each_subdir(cg->root_fd, add_top, cg);
	return 0;
}

size_t lx_cgroup_domain_len(const char *p, size_t n)
{
	/* p = "/a/b/c" */
	size_t i = 1;
	while (i < n && p[i] != '/')
		i++;
	if (i == 1)
		return 1;                    /* the root */
	if (!is_slice(p + 1, i - 1) || i >= n)
		return i;
	size_t j = i + 1;
	while (j < n && p[j] != '/')
		j++;
	return j;
}

static bool read_num(int dfd, const char *name, bool (*parse)(const char *, uint64_t *), uint64_t *out)
{
	char buf[256];
	return xg_read_at(dfd, name, buf, sizeof(buf)) > 0 && parse(buf, out);
}

void lx_cgroup_stat(const struct lx_cgroup *cg, const struct lx_cgdom *d, struct lx_cgstat *out)
{
	memset(out, 0, sizeof(*out));
	int dfd = openat(cg->root_fd, *d->path ? d->path : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return;
	uint64_t usec;
	if (read_num(dfd, "cpu.stat", lx_parse_cpu_stat, &usec) && usec <= UINT64_MAX / 1000) {
		out->cpu_ns = usec * 1000;
		out->cpu_ok = true;
	}
	out->mem_ok = read_num(dfd, "memory.current", lx_parse_limit, &out->mem);
	out->max_ok = read_num(dfd, "memory.max", lx_parse_limit, &out->max);
	char buf[16384];
	ssize_t n = xg_read_at(dfd, "io.stat", buf, sizeof(buf));
	out->io_ok = n >= 0 && (size_t)n < sizeof(buf) - 1 && lx_parse_io_stat(buf, &out->io);
	close(dfd);
}
