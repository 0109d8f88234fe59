// SPDX-License-Identifier: GPL-2.0-or-later
/* Which cgroup each process is in, from one read of every cgroup's
 * cgroup.procs instead of one read of every process's /proc/PID/cgroup.
 * The kernel builds /proc/PID/cgroup under its cgroup locks, once for every
 * hierarchy mounted (ten lines on a hybrid host: 4-5 us a process here),
 * while cgroup.procs lists a cgroup's processes at about 0.3 us each. The
 * walk pays where processes outnumber cgroups; elsewhere, and for any
 * process the walk cannot place exactly once, /proc/PID/cgroup is read as
 * before.
 *
 * The path given is the one /proc/PID/cgroup's "0::" line shows: the
 * cgroup2 mount is the root of our cgroup namespace (lx_cgroup_open takes
 * no other), so a cgroup's path below the mount is the process's path.
 * Processes the walk cannot place: those outside our cgroup namespace (not
 * below the mount), zombies (cgroup.procs leaves them out), processes
 * started or moved during the walk (missing or listed twice), and those of
 * a threaded subtree (listed by its domain cgroup whatever thread cgroup
 * their main thread is in: a cgroup whose cgroup.procs cannot be read makes
 * its readable ancestor's list uncertain). */
#include "linux_cgroup.h"
#include "xgtop/core/osread.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define UNSURE (UINT32_MAX - 1)   /* index value: not placed exactly once */
#define PROCS_PER_CGROUP 4        /* walk when processes >= this x cgroups */

/* /proc and cgroup.procs give pids in the same namespace only when /proc
 * was mounted for ours: then NSpid has one entry. */
static bool proc_is_our_pidns(void)
{
	char buf[4096];
	if (xg_read_at(AT_FDCWD, "/proc/self/status", buf, sizeof(buf)) <= 0)
		return false;
	const char *l = strstr(buf, "\nNSpid:");
	if (!l)
		return false;   /* a kernel without NSpid cannot tell */
	l += 7;
	unsigned fields = 0;
	for (bool in = false; *l && *l != '\n'; l++) {
		bool digit = *l >= '0' && *l <= '9';
		fields += digit && !in;
		in = digit;
	}
	return fields == 1;
}

void lx_cgmap_open(struct lx_cgmap *m)
{
	memset(m, 0, sizeof(*m));
	m->usable = proc_is_our_pidns();
}

void lx_cgmap_close(struct lx_cgmap *m)
{
	free(m->names);
	free(m->node);
	free(m->pairs);
	lx_index_free(&m->pid);
	memset(m, 0, sizeof(*m));
}

static int32_t add_node(struct lx_cgmap *m, const char *path, size_t len, int32_t parent)
{
	xg_grow(&m->names, &m->names_cap, m->nnames + len + 1, 1);
	memcpy(m->names + m->nnames, path, len);
	m->names[m->nnames + len] = 0;
	xg_grow(&m->node, &m->node_cap, m->nnode + 1, sizeof(*m->node));
	m->node[m->nnode] = (struct lx_cgnode){ .path = (uint32_t)m->nnames, .parent = parent,
						.unsure = len > LX_CGMAP_PATH_MAX };
	m->nnames += len + 1;
	return (int32_t)m->nnode++;
}

static void add_pid(struct lx_cgmap *m, uint64_t pid, int32_t node)
{
	if (pid > UINT32_MAX)
		return;
	xg_grow(&m->pairs, &m->pairs_cap, m->npairs + 1, sizeof(*m->pairs));
	m->pairs[m->npairs++] = pid << 32 | (uint32_t)node;
}

/* Reads the cgroup.procs of dfd (one pid a line) into the pairs of node.
 * Returns 0 or -errno. */
static int read_procs(struct lx_cgmap *m, int dfd, int32_t node)
{
	int fd = openat(dfd, "cgroup.procs", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	char buf[16384];
	uint64_t v = 0;
	bool digits = false;
	ssize_t n;
	while ((n = read(fd, buf, sizeof(buf))) > 0) {
		for (ssize_t i = 0; i < n; i++) {
			char c = buf[i];
			if (c >= '0' && c <= '9' && v <= UINT32_MAX) {
				v = v * 10 + (uint64_t)(c - '0');
				digits = true;
			} else if (c == '\n') {
				if (digits)
					add_pid(m, v, node);
				v = 0;
				digits = false;
			}
		}
	}
	int e = n < 0 ? errno : 0;
	close(fd);
	return -e;
}

/* A cgroup whose list cannot be read (a threaded one refuses, or it went
 * away): the nearest ancestor that was read may list its processes. */
static void unread(struct lx_cgmap *m, int32_t node)
{
	m->node[node].unread = true;
	for (int32_t a = m->node[node].parent; a >= 0; a = m->node[a].parent) {
		if (!m->node[a].unread) {
			m->node[a].unsure = true;
			return;
		}
	}
}

/* The cgroup at dfd (path[0, len) below the mount) and all below it. */
static void walk(struct lx_cgmap *m, int dfd, char *path, size_t len, int32_t parent)
{
	int32_t me = add_node(m, path, len, parent);
	if (read_procs(m, dfd, me) < 0)
		unread(m, me);
	int lfd = openat(dfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (lfd < 0)
		return;
	char dbuf[4096];
	ssize_t n;
	while ((n = getdents64(lfd, dbuf, sizeof(dbuf))) > 0) {
		for (ssize_t off = 0; off < n;) {
			struct dirent64 *de = (struct dirent64 *)(dbuf + off);
			off += de->d_reclen;
			size_t nl = strlen(de->d_name);
			if (de->d_type != DT_DIR || de->d_name[0] == '.' || len + 1 + nl >= PATH_MAX)
				continue;
			int cfd = openat(dfd, de->d_name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
			if (cfd < 0)
				continue;   /* gone: its processes are read from /proc */
			size_t cl = len ? len + 1 + nl : nl;
			if (len)
				path[len] = '/';
			memcpy(path + cl - nl, de->d_name, nl);
			walk(m, cfd, path, cl, me);
			close(cfd);
		}
	}
	close(lfd);
}

/* Whether the walk pays: at least PROCS_PER_CGROUP processes (as many as
 * the last scan found) for each cgroup (the root's nr_descendants + 1). */
static bool worth_walking(int root_fd, size_t nproc)
{
	char buf[256];
	uint64_t below;
	return nproc && xg_read_at(root_fd, "cgroup.stat", buf, sizeof(buf)) > 0 &&
	       lx_parse_cg_descendants(buf, &below) && below < nproc / PROCS_PER_CGROUP;
}

void lx_cgmap_walk(struct lx_cgmap *m, int root_fd, size_t nproc)
{
	m->walked = false;
	if (!m->usable || root_fd < 0 || !worth_walking(root_fd, nproc))
		return;
	m->nnames = m->nnode = m->npairs = 0;
	char path[PATH_MAX];
	walk(m, root_fd, path, 0, -1);
	lx_index_reset(&m->pid, m->npairs);
	for (size_t i = 0; i < m->npairs; i++) {
		uint32_t pid = (uint32_t)(m->pairs[i] >> 32), node = (uint32_t)m->pairs[i];
		bool twice = lx_index_get(&m->pid, pid) >= 0;
		lx_index_put(&m->pid, pid, twice || m->node[node].unsure ? UNSURE : node);
	}
	m->walked = true;
}

bool lx_cgmap_path(const struct lx_cgmap *m, uint32_t pid, char *out, size_t n)
{
	if (!m || !m->walked || n < 2)
		return false;
	int64_t node = lx_index_get(&m->pid, pid);
	if (node < 0 || node == UNSURE)
		return false;
	/* as read_cgroup() keeps /proc's path: "/" + the path, cut to n - 1 */
	const char *p = m->names + m->node[node].path;
	snprintf(out, n, "/%s", p);
	return true;
}
