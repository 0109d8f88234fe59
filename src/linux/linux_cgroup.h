/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Private to src/linux (and its tests): cgroup v2 discovery and figures (linux_cgroup.c) and the processes'
 * cgroups read from cgroup.procs (linux_cgmap.c). */
#ifndef XGTOP_SRC_LINUX_LINUX_CGROUP_H
#define XGTOP_SRC_LINUX_LINUX_CGROUP_H

#include "linux_scan.h"

/* ---- linux_cgroup.c: cgroup v2 ---- */

struct lx_cgdom {
	uint32_t id;                 /* low 32 bits of the cgroup inode */
	uint64_t ino;
	char path[256];              /* relative to the cgroup2 root, "" = root */
	bool own_only;               /* figures from its own processes only */
};

struct lx_cgroup {
	int root_fd;                 /* cgroup2 mount, -1 = none */
	char mnt[256], mnt_root[256];
	struct lx_cgdom *dom;
	size_t ndom, dom_cap;
};

/* Finds the cgroup2 mount (none is not an error: root_fd stays -1). */
int lx_cgroup_open(struct lx_cgroup *cg, struct xg_err *err);
/* true when some process lives outside the cgroup2 root (what --group
 * auto uses: a hybrid or unused v2 mount keeps every process in the root). */
bool lx_cgroup_populated(const struct lx_cgroup *cg, int proc_fd);
/* Lists the domain cgroups: "/" then depth-1 cgroups, or depth-2 ones
 * below a top-level "*.slice". */
int lx_cgroup_list(struct lx_cgroup *cg, struct xg_err *err);
/* The domain path a process's cgroup path belongs to (a prefix of p). */
size_t lx_cgroup_domain_len(const char *p, size_t n);
/* Adds a domain for path (relative, "" = root) if it exists; returns its
 * index or -1. */
int64_t lx_cgroup_add(struct lx_cgroup *cg, const char *path, bool own_only);

struct lx_cgstat {
	bool cpu_ok, mem_ok, max_ok, io_ok;
	uint64_t cpu_ns, mem, max;
	struct lx_io io;
};
/* Reads cpu.stat, memory.current, memory.max and io.stat of a domain. */
void lx_cgroup_stat(const struct lx_cgroup *cg, const struct lx_cgdom *d, struct lx_cgstat *out);
void lx_cgroup_close(struct lx_cgroup *cg);

/* ---- linux_cgmap.c: the processes' cgroups from cgroup.procs ---- */

#define LX_CGMAP_PATH_MAX 200    /* longer paths are read from /proc/PID/cgroup */
struct lx_cgnode {
	uint32_t path;               /* offset in lx_cgmap.names ("" = the root) */
	int32_t parent;              /* -1 for the root */
	bool unread;                 /* its cgroup.procs could not be read */
	bool unsure;                 /* its list does not say where its processes are */
};
struct lx_cgmap {
	bool usable;                 /* /proc shows pids of our pid namespace */
	bool walked;                 /* this refresh's map is there */
	char *names;                 /* the cgroups' paths below the mount, NUL-ended */
	size_t nnames, names_cap;
	struct lx_cgnode *node;
	size_t nnode, node_cap;
	uint64_t *pairs;             /* pid << 32 | node, as listed */
	size_t npairs, pairs_cap;
	struct lx_index pid;         /* pid -> node */
};
void lx_cgmap_open(struct lx_cgmap *m);
/* Lists every cgroup's processes below root_fd, when there are several
 * processes (nproc: the last scan's) for each cgroup; else leaves the map
 * empty for this refresh. */
void lx_cgmap_walk(struct lx_cgmap *m, int root_fd, size_t nproc);
/* pid's cgroup path as the 0:: line of /proc/PID/cgroup gives it ("/a/b"),
 * cut to n - 1 bytes; false when the walk did not place pid exactly once
 * (or there was no walk, or m is NULL): read /proc/PID/cgroup then. */
bool lx_cgmap_path(const struct lx_cgmap *m, uint32_t pid, char *out, size_t n);
void lx_cgmap_close(struct lx_cgmap *m);

#endif
