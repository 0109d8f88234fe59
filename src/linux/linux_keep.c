// SPDX-License-Identifier: GPL-2.0-or-later
/* Files kept open between refreshes: every process's stat, statm, io (and
 * cgroup) and each thread's schedstat. A pread() of an open /proc file costs a
 * fraction of the path lookup, open and close it replaces (0.5 us against
 * 3.8 us for a schedstat here). An open /proc file stays bound to its task:
 * once the task is gone (or its pid reused) the read fails with ESRCH, and
 * the scan opens the files again. The descriptors stay within half of
 * RLIMIT_NOFILE; past that, files are read by path. */
#include "linux_scan.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

struct lx_keep *lx_keep_find(struct lx_scan *sc, uint32_t pid)
{
	int64_t i = lx_index_get(&sc->kidx, pid);
	return i >= 0 && sc->keep[i].pid == pid ? &sc->keep[i] : NULL;
}

struct lx_keep *lx_keep_get(struct lx_scan *sc, uint32_t pid)
{
	struct lx_keep *k = lx_keep_find(sc, pid);
	if (!k) {
		/* /proc lists a pid once per scan: no lookup finds it before
		 * the sweep indexes it */
		xg_grow(&sc->keep, &sc->keep_cap, sc->nkeep + 1, sizeof(*sc->keep));
		k = &sc->keep[sc->nkeep++];
		memset(k, 0, sizeof(*k));
		k->pid = pid;
		k->stat_fd = k->statm_fd = k->io_fd = k->cg_fd = -1;
	}
	k->seen = true;
	return k;
}

void lx_scan_keep(struct lx_scan *sc, uint32_t pid, uint64_t start)
{
	struct lx_keep *k = lx_keep_find(sc, pid);
	if (k && k->known && k->start == start)
		k->asked = true;
}

int lx_keep_open(struct lx_scan *sc, const struct lx_keep *k, int dirfd, const char *path)
{
	/* a quarter of the budget is left to the VMs, which are read in full
	 * every refresh */
	size_t max = k->asked ? sc->keep_max : sc->keep_max - sc->keep_max / 4;
	if (sc->keep_fds >= max)
		return -EMFILE;
	int fd = openat(dirfd, path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return -errno;
	sc->keep_fds++;
	return fd;
}

void lx_keep_close(struct lx_scan *sc, int *fd)
{
	if (*fd < 0)
		return;
	close(*fd);
	*fd = -1;
	sc->keep_fds--;
}

void lx_keep_drop(struct lx_scan *sc, struct lx_keep *k)
{
	lx_keep_close(sc, &k->stat_fd);
	lx_keep_close(sc, &k->statm_fd);
	lx_keep_close(sc, &k->io_fd);
	lx_keep_close(sc, &k->cg_fd);
	for (uint32_t i = 0; i < k->nthr; i++)
		lx_keep_close(sc, &k->thr[i].fd);
	k->nthr = k->cursor = 0;
	k->listed = 0;
	k->known = k->last_ok = false;
	sc->npre = 0;   /* what was read through them */
}

void lx_keep_budget(struct lx_scan *sc)
{
	struct rlimit rl;
	sc->keep_max = 512;
	if (sc->keep_limit)
		sc->keep_max = sc->keep_limit;
	else if (getrlimit(RLIMIT_NOFILE, &rl) == 0)
		sc->keep_max = rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur > (1u << 20) ? 1u << 19
										   : (size_t)rl.rlim_cur / 2;
}

void lx_keep_sweep(struct lx_scan *sc)
{
	size_t n = 0;
	for (size_t i = 0; i < sc->nkeep; i++) {
		struct lx_keep *k = &sc->keep[i];
		if (!k->seen) {
			lx_keep_drop(sc, k);
			free(k->thr);
			continue;
		}
		k->seen = k->asked = false;
		sc->keep[n++] = *k;
	}
	sc->nkeep = n;
	lx_index_reset(&sc->kidx, n);
	for (size_t i = 0; i < n; i++)
		lx_index_put(&sc->kidx, sc->keep[i].pid, (uint32_t)i);
}

void lx_keep_free(struct lx_scan *sc)
{
	for (size_t i = 0; i < sc->nkeep; i++) {
		lx_keep_drop(sc, &sc->keep[i]);
		free(sc->keep[i].thr);
	}
	free(sc->keep);
	lx_index_free(&sc->kidx);
	sc->keep = NULL;
	sc->nkeep = sc->keep_cap = 0;
}

ssize_t lx_keep_pread(int fd, char *buf, size_t cap)
{
	ssize_t n = pread(fd, buf, cap - 1, 0);
	if (n < 0)
		return -errno;
	buf[n] = 0;
	return n;
}

struct lx_kthr *lx_keep_thread(struct lx_scan *sc, struct lx_keep *k, int dirfd, const char *path,
				uint32_t tid)
{
	/* threads come in the same order at every listing: look after the
	 * last one found first */
	struct lx_kthr *kt = NULL;
	for (uint32_t i = 0; i < k->nthr && !kt; i++) {
		uint32_t at = (k->cursor + i) % k->nthr;
		if (k->thr[at].tid == tid) {
			k->cursor = (at + 1) % k->nthr;
			kt = &k->thr[at];
		}
	}
	if (kt && kt->fd >= 0)
		return kt;
	int fd = lx_keep_open(sc, k, dirfd, path);
	if (fd < 0)
		return NULL;
	if (!kt) {
		xg_grow(&k->thr, &k->thr_cap, k->nthr + 1, sizeof(*k->thr));
		kt = &k->thr[k->nthr++];
		*kt = (struct lx_kthr){ .tid = tid };
	}
	kt->fd = fd;
	return kt;
}

void lx_keep_prune(struct lx_scan *sc, struct lx_keep *k, uint64_t nthreads)
{
	uint32_t n = 0;
	for (uint32_t i = 0; i < k->nthr; i++) {
		if (!k->thr[i].seen) {
			lx_keep_close(sc, &k->thr[i].fd);
			continue;
		}
		k->thr[i].seen = false;
		k->thr[n++] = k->thr[i];
	}
	k->nthr = n;
	k->cursor = 0;
	k->listed = nthreads;
}
