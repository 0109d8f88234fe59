// SPDX-License-Identifier: GPL-2.0-or-later
/* One pass over /proc per refresh: every process's stat (and cgroup and io
 * when asked) and its threads (linux_task.c), through files kept open
 * between refreshes (linux_keep.c). */
#include "linux_cgroup.h"
#include "xgtop/core/osread.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static uint64_t boot_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_BOOTTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

int lx_scan_open(struct lx_scan *sc, struct xg_err *err)
{
	memset(sc, 0, sizeof(*sc));
	sc->proc_fd = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (sc->proc_fd < 0)
		return xg_fail_errno(err, errno, "/proc");
	sc->clk_tck = sysconf(_SC_CLK_TCK);
	if (sc->clk_tck <= 0)
		sc->clk_tck = 100;
	sc->tick_ns = 1000000000ull / (uint64_t)sc->clk_tck;
	long pg = sysconf(_SC_PAGESIZE);
	sc->page = pg > 0 ? (uint64_t)pg : 4096;
	return 0;
}

void lx_scan_close(struct lx_scan *sc)
{
	if (sc->proc_fd >= 0)
		close(sc->proc_fd);
	free(sc->proc);
	free(sc->tnow);
	free(sc->told);
	free(sc->pold);
	free(sc->pnew);
	free(sc->gone);
	free(sc->pre);
	lx_index_free(&sc->tidx);
	lx_index_free(&sc->pidx);
	lx_index_free(&sc->nidx);
	lx_keep_free(sc);
	memset(sc, 0, sizeof(*sc));
	sc->proc_fd = -1;
}

ssize_t lx_src_read(struct lx_src *s, int *kfd, const char *file, char *buf, size_t cap)
{
	if (*kfd >= 0)
		return lx_keep_pread(*kfd, buf, cap);
	char path[48];
	snprintf(path, sizeof(path), "%.16s/%s", s->name, file);
	int fd = lx_keep_open(s->sc, s->k, s->sc->proc_fd, path);
	if (fd >= 0) {
		*kfd = fd;
		return lx_keep_pread(fd, buf, cap);
	}
	if (fd != -EMFILE)
		return fd;   /* the open's error */
	return xg_read_at(s->sc->proc_fd, path, buf, cap);   /* no room to keep it */
}

/* The process's stat, through its kept file. A kept file that no longer
 * reads belongs to a task that is gone (its pid may be reused): the files
 * are opened again; a stat of another task (start time) than the one the
 * files were kept for closes the others. */
static bool read_stat(struct lx_src *s, char *buf, size_t cap, struct lx_stat *st)
{
	struct lx_keep *k = s->k;
	ssize_t n = -1;
	if (k->stat_fd >= 0 && (n = lx_keep_pread(k->stat_fd, buf, cap)) < 0)
		lx_keep_drop(s->sc, k);
	if (n < 0)
		n = lx_src_read(s, &k->stat_fd, "stat", buf, cap);
	if (n <= 0 || !lx_parse_stat(buf, st))
		return false;
	if (!k->known || k->start != st->starttime) {
		int fd = k->stat_fd;   /* opened just now: this task's */
		k->stat_fd = -1;
		lx_keep_drop(s->sc, k);
		k->stat_fd = fd;
		k->start = st->starttime;
		k->known = true;
	}
	return true;
}

static struct lx_proc *new_proc(struct lx_scan *sc, uint32_t pid, const struct lx_stat *st)
{
	xg_grow(&sc->proc, &sc->proc_cap, sc->nproc + 1, sizeof(*sc->proc));
	struct lx_proc *p = &sc->proc[sc->nproc++];
	memset(p, 0, offsetof(struct lx_proc, cg) + 1);
	p->pid = pid;
	p->ppid = st->ppid > 0 ? (uint32_t)st->ppid : 0;
	p->sid = st->sid > 0 ? (uint32_t)st->sid : 0;
	p->start = st->starttime;
	memcpy(p->comm, st->comm, sizeof(p->comm));
	p->state = st->state;
	p->rss = st->rss_pages * sc->page;
	p->dom = -1;
	p->next = -1;
	p->thr_first = (uint32_t)sc->ntnow;
	return p;
}

static void read_cgroup(struct lx_src *s, struct lx_proc *p)
{
	/* a line per hierarchy before the v2 one on a hybrid host: room for
	 * all of them, so the v2 path is never cut */
	char buf[4096];
	const char *cp;
	size_t cl;
	if (lx_src_read(s, &s->k->cg_fd, "cgroup", buf, sizeof(buf)) > 0 &&
	    lx_parse_cgroup_path(buf, &cp, &cl)) {
		if (cl >= sizeof(p->cg))
			cl = sizeof(p->cg) - 1;
		memcpy(p->cg, cp, cl);
		p->cg[cl] = 0;
	}
}

/* A kept file of the process still reads: the process has not exited. */
static bool still_there(const struct lx_keep *k)
{
	char buf[256];
	int fd = k->nthr && k->thr[0].fd >= 0 ? k->thr[0].fd : k->stat_fd;
	return fd < 0 || lx_keep_pread(fd, buf, sizeof(buf)) >= 0;
}

/* The resident pages, from statm (the exact count; stat's field 24 is the
 * kernel's per-CPU approximation since Linux 6.16), every refresh: memory
 * can be reclaimed from a process that does not run. The statm file is
 * opened by path once; the open is kept only if another kept file of the
 * process still reads after it (else the pid may have been freed and
 * reused in between, and the file would be another process's). */
static bool read_rss(struct lx_src *s, struct lx_stat *st)
{
	struct lx_keep *k = s->k;
	char buf[256];
	bool fresh = k->statm_fd < 0;
	ssize_t n = lx_src_read(s, &k->statm_fd, "statm", buf, sizeof(buf));
	if (n > 0 && fresh && k->statm_fd >= 0 && !still_there(k)) {
		lx_keep_close(s->sc, &k->statm_fd);
		return false;
	}
	return n > 0 && lx_parse_statm(buf, &st->rss_pages);
}

static void scan_process(struct lx_scan *sc, uint32_t pid, const char *name)
{
	struct lx_src s = { .sc = sc, .name = name, .k = lx_keep_get(sc, pid) };
	char buf[1024];
	struct lx_stat st;
	/* the threads first: one none of which ran keeps its last stat */
	bool carried = lx_threads_unmoved(&s);
	if (carried)
		st = s.k->last;
	else if (!read_stat(&s, buf, sizeof(buf), &st))
		return;
	if (!read_rss(&s, &st))
		return;   /* exited meanwhile */
	s.k->last = st;
	s.k->last_ok = true;
	struct lx_proc *p = new_proc(sc, pid, &st);
	p->carried = carried;
	if (sc->want_cgroup && !lx_cgmap_path(sc->cgmap, pid, p->cg, sizeof(p->cg)))
		read_cgroup(&s, p);
	/* the threads before io: a process none of whose threads ran since
	 * its io was last read cannot have done any */
	lx_scan_threads(&s, p, st.nthreads);
	struct lx_pst *n = lx_account_read(sc, p, &st);
	if (p->idle) {
		lx_account_carry(sc, n, p);
	} else if (sc->want_io) {
		ssize_t r = lx_src_read(&s, &s.k->io_fd, "io", buf, sizeof(buf));
		lx_account_io(n, p, r >= 0 ? buf : NULL, r < 0 ? (int)-r : 0);
	}
}

/* Makes last refresh's "now" state this refresh's "old" state. */
static void rotate(struct lx_scan *sc)
{
	lx_gen_rotate(&sc->told, &sc->told_cap, &sc->ntold, &sc->tnow, &sc->tnow_cap, &sc->ntnow,
	              &sc->tidx, sizeof(*sc->told), offsetof(struct lx_thr, tid));
	lx_gen_rotate(&sc->pold, &sc->pold_cap, &sc->npold, &sc->pnew, &sc->pnew_cap, &sc->npnew,
	              &sc->pidx, sizeof(*sc->pold), offsetof(struct lx_pst, pid));
	sc->nproc = 0;
}

/* A carried stat names the last refresh's parent. A process changes
 * parent only when its parent exits: while the parent is the same process
 * as at the last refresh (same pid and start), the parent stands; else the
 * stat is read again. */
static void check_parents(struct lx_scan *sc)
{
	for (size_t i = 0; i < sc->nproc; i++) {
		struct lx_proc *p = &sc->proc[i];
		if (!p->carried || !p->ppid)
			continue;   /* (a parent outside our pid namespace stays outside) */
		int64_t j = lx_index_get(&sc->nidx, p->ppid);
		if (j >= 0 && sc->pnew[j].prev >= 0)
			continue;
		struct lx_keep *k = lx_keep_find(sc, p->pid);
		char buf[1024];
		struct lx_stat st;
		if (!k || k->stat_fd < 0 || lx_keep_pread(k->stat_fd, buf, sizeof(buf)) <= 0 ||
		    !lx_parse_stat(buf, &st) || st.starttime != p->start)
			continue;   /* exited meanwhile */
		k->last.ppid = st.ppid;
		p->ppid = sc->pnew[i].ppid = st.ppid > 0 ? (uint32_t)st.ppid : 0;
	}
}

int lx_scan_run(struct lx_scan *sc, struct xg_err *err)
{
	rotate(sc);
	lx_keep_budget(sc);
	uint64_t t0 = boot_ns(), mono = xg_now_mono_ns();
	uint64_t off = t0 > mono ? t0 - mono : 0;
	uint64_t drift = off > sc->boot_minus_mono ? off - sc->boot_minus_mono : sc->boot_minus_mono - off;
	if (!sc->have_prev || drift > 1000000)
		sc->boot_minus_mono = off;   /* first refresh, or after a suspend */
	sc->now_boot_ns = t0;
	sc->mono_ns = t0 - sc->boot_minus_mono;
	if (lseek(sc->proc_fd, 0, SEEK_SET) < 0)
		return xg_fail_errno(err, errno, "/proc: rewind");
	char dbuf[8192];
	for (;;) {
		ssize_t n = getdents64(sc->proc_fd, dbuf, sizeof(dbuf));
		if (n < 0)
			return xg_fail_errno(err, errno, "/proc: list");
		if (n == 0)
			break;
		for (ssize_t off = 0; off < n;) {
			struct dirent64 *de = (struct dirent64 *)(dbuf + off);
			off += de->d_reclen;
			uint32_t pid;
			if (lx_parse_id(de->d_name, &pid))
				scan_process(sc, pid, de->d_name);
		}
	}
	lx_keep_sweep(sc);
	lx_account_settle(sc);
	check_parents(sc);   /* (with the index of this scan's processes settling made) */
	sc->prev_boot_ns = t0;
	sc->have_prev = true;
	return 0;
}
