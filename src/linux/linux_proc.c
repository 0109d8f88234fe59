// SPDX-License-Identifier: GPL-2.0-or-later
/* One pass over /proc per refresh: every process's stat (and cgroup and io
 * when asked) and every thread's schedstat. The per-thread scheduler split
 * is turned into per-interval deltas here, against state kept from the
 * previous refresh, so that domain counters can be accumulated and stay
 * monotonic while threads come and go. */
#include "xgtop/linux/linux.h"

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
	lx_index_free(&sc->tidx);
	lx_index_free(&sc->pidx);
	lx_index_free(&sc->nidx);
	lx_keep_free(sc);
	memset(sc, 0, sizeof(*sc));
	sc->proc_fd = -1;
}

/* Parses a decimal directory name; false for non-numeric entries. */
static bool dir_id(const char *s, uint32_t *out)
{
	uint64_t v = 0;
	if (!*s)
		return false;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || v > UINT32_MAX / 10)
			return false;
		v = v * 10 + (uint64_t)(*s - '0');
	}
	if (v > UINT32_MAX)
		return false;
	*out = (uint32_t)v;
	return true;
}

/* Where a process's files are read from: its /proc directory, opened
 * when first needed, or, for a kept process, its open files. */
struct src {
	struct lx_scan *sc;
	const char *name;            /* "PID" */
	int pfd;                     /* /proc/PID, -1 = not open yet */
	struct lx_keep *k;           /* NULL = not kept */
};

static int src_dir(struct src *s)
{
	if (s->pfd < 0)
		s->pfd = openat(s->sc->proc_fd, s->name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	return s->pfd;
}

/* Reads one of the process's files: through *kfd (opened and kept when
 * still -1 and there is room) for a kept process (kfd != NULL), else by
 * path. */
static ssize_t src_read(struct src *s, int *kfd, const char *file, char *buf, size_t cap)
{
	if (kfd && *kfd >= 0)
		return lx_keep_pread(*kfd, buf, cap);
	if (src_dir(s) < 0)
		return -errno;
	if (kfd && (*kfd = lx_keep_open(s->sc, s->pfd, file)) >= 0)
		return lx_keep_pread(*kfd, buf, cap);
	return lx_read_at(s->pfd, file, buf, cap);   /* not kept, or no room to keep it */
}

/* A thread's own stat (tid != the process's pid). */
static bool thread_stat(struct src *s, const char *tname, struct lx_stat *st)
{
	char path[48], buf[512];
	snprintf(path, sizeof(path), "task/%.16s/stat", tname);
	return src_dir(s) >= 0 && lx_read_at(s->pfd, path, buf, sizeof(buf)) > 0 &&
	       lx_parse_stat(buf, st);
}

static int32_t vcpu_of(const char *comm, struct lx_thr *t)
{
	enum lx_accel a = LX_ACCEL_NONE;
	int32_t n = lx_vcpu_thread(comm, &a);
	t->accel = (uint8_t)a;
	return n;
}

/* Who thread tid is: the same thread as in the previous refresh (*old set)
 * or a new one, whose start and name are read. false: it exited meanwhile. */
static bool thread_identity(struct lx_scan *sc, struct lx_proc *p, struct src *s, uint32_t tid,
			    const char *tname, struct lx_thr *t, const struct lx_thr **old)
{
	int64_t oi = lx_index_get(&sc->tidx, tid);
	const struct lx_thr *o = oi >= 0 ? &sc->told[oi] : NULL;
	struct lx_stat st;
	*old = NULL;
	if (o && t->run >= o->run && t->wait >= o->wait && (tid != p->pid || o->start == p->start)) {
		*old = o;
		t->start = o->start;
		t->vcpu_no = o->vcpu_no;
		t->accel = o->accel;
		t->renamed = o->renamed;
		/* QEMU names a vCPU thread from inside it, just after it
		 * starts: look at a new thread's name once more */
		if (!t->renamed && tid != p->pid) {
			if (thread_stat(s, tname, &st)) {
				t->vcpu_no = vcpu_of(st.comm, t);
				t->state = st.state;
			}
			t->renamed = true;
		}
	} else if (tid == p->pid) {
		t->start = p->start;
	} else {
		if (!thread_stat(s, tname, &st))
			return false;
		t->start = st.starttime;
		t->vcpu_no = vcpu_of(st.comm, t);
		t->state = st.state;
	}
	if (tid == p->pid) {
		t->vcpu_no = vcpu_of(p->comm, t);   /* read anyway, may have changed */
		t->state = p->state;
	}
	return true;
}

/* The thread's run, wait and blocked ns since the previous refresh, into
 * t and p. */
static void thread_account(struct lx_scan *sc, struct lx_proc *p, struct lx_thr *t,
			   const struct lx_thr *old)
{
	uint64_t start_ns = t->start * sc->tick_ns, now = sc->now_boot_ns;
	uint64_t life = now > start_ns ? now - start_ns : 0;
	t->blk = life > t->run + t->wait ? life - t->run - t->wait : 0;
	if (old) {
		/* never let blk step back: the start is only known to a tick,
		 * and a wait still going on at this instant is not in run_delay
		 * yet (so blk was over-estimated by it, once) */
		if (t->blk < old->blk)
			t->blk = old->blk;
		t->d_run = t->run - old->run;
		t->d_wait = t->wait - old->wait;
		t->d_blk = t->blk - old->blk;
	} else if (sc->have_prev && start_ns > sc->prev_boot_ns) {
		/* born in this interval: all its time belongs to it */
		t->d_run = t->run;
		t->d_wait = t->wait;
		t->d_blk = t->blk;
	}
	/* else: existed before but unseen (first refresh, moved in): baseline */
	p->d_run += t->d_run;
	p->d_wait += t->d_wait;
	p->d_blk += t->d_blk;
}

/* Accounts one thread from the text of its schedstat (n: the read's
 * result): finds its previous state and adds this interval to p. */
static void scan_thread(struct lx_scan *sc, struct lx_proc *p, struct src *s, uint32_t tid,
			const char *tname, const char *sched, ssize_t n)
{
	struct lx_thr t = { .tid = tid, .vcpu_no = LX_NO_VCPU };
	if (n < 0) {
		if (n != -ENOENT && n != -ESRCH && !p->sched_err)
			p->sched_err = (int)-n;
		return;
	}
	if (!lx_parse_schedstat(sched, &t.run, &t.wait)) {
		if (!p->sched_err)
			p->sched_err = EINVAL;
		return;
	}
	const struct lx_thr *old;
	if (!thread_identity(sc, p, s, tid, tname, &t, &old))
		return;   /* exited meanwhile */
	thread_account(sc, p, &t, old);
	/* Runnable now? The process stat gave the main thread's state; other
	 * threads are asked only if they ran or waited lately, since a thread
	 * idle for the whole interval is not the one keeping the domain busy. */
	struct lx_stat st;
	if (!t.state && (t.d_run || t.d_wait) && !p->runnable && thread_stat(s, tname, &st))
		t.state = st.state;
	if (t.state == 'R')
		p->runnable = true;
	xg_grow(&sc->tnow, &sc->tnow_cap, sc->ntnow + 1, sizeof(*sc->tnow));
	sc->tnow[sc->ntnow++] = t;
	p->nthr++;
}

/* Calls fn for each entry of task/ of the process. */
static void list_tasks(struct src *s, void (*fn)(struct src *, struct lx_proc *, int, uint32_t, const char *),
		       struct lx_proc *p)
{
	if (src_dir(s) < 0)
		return;
	int tfd = openat(s->pfd, "task", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (tfd < 0)
		return;
	char dbuf[4096];
	ssize_t n;
	while ((n = getdents64(tfd, dbuf, sizeof(dbuf))) > 0) {
		for (ssize_t off = 0; off < n;) {
			struct dirent64 *de = (struct dirent64 *)(dbuf + off);
			off += de->d_reclen;
			uint32_t tid;
			if (dir_id(de->d_name, &tid))
				fn(s, p, tfd, tid, de->d_name);
		}
	}
	close(tfd);
}

static void listed_thread(struct src *s, struct lx_proc *p, int tfd, uint32_t tid, const char *tname)
{
	char path[48], buf[256];
	snprintf(path, sizeof(path), "%.16s/schedstat", tname);
	ssize_t n = lx_read_at(tfd, path, buf, sizeof(buf));
	scan_thread(s->sc, p, s, tid, tname, buf, n);
}

static void kept_listed_thread(struct src *s, struct lx_proc *p, int tfd, uint32_t tid, const char *tname)
{
	char buf[256];
	struct lx_kthr *kt = lx_keep_thread(s->sc, s->k, s->pfd, tid, tname);
	if (!kt) {
		listed_thread(s, p, tfd, tid, tname);   /* cannot be kept: read it by path */
		return;
	}
	if (kt->seen)
		return;   /* already read in this refresh */
	kt->seen = true;
	scan_thread(s->sc, p, s, tid, tname, buf, lx_keep_pread(kt->fd, buf, sizeof(buf)));
}

/* A kept process: its threads' open schedstat files, without listing task/
 * as long as the thread count is the one last listed and every file reads. */
static void scan_threads_kept(struct src *s, struct lx_proc *p, uint64_t nthreads)
{
	struct lx_keep *k = s->k;
	bool all = k->listed == nthreads && k->nthr == nthreads;
	for (uint32_t i = 0; all && i < k->nthr; i++) {
		char buf[256], tname[16];
		struct lx_kthr *kt = &k->thr[i];
		ssize_t n = lx_keep_pread(kt->fd, buf, sizeof(buf));
		if (n < 0) {
			all = false;   /* gone, maybe replaced: list task/ */
			break;
		}
		kt->seen = true;
		snprintf(tname, sizeof(tname), "%u", (unsigned)kt->tid);
		scan_thread(s->sc, p, s, kt->tid, tname, buf, n);
	}
	if (!all)
		list_tasks(s, kept_listed_thread, p);
	lx_keep_prune(s->sc, k, all ? k->listed : nthreads);
}

static void scan_process(struct lx_scan *sc, uint32_t pid, const char *name)
{
	struct src s = { .sc = sc, .name = name, .pfd = -1, .k = lx_keep_find(sc, pid) };
	char buf[1024];
	struct lx_stat st;
	ssize_t n = src_read(&s, s.k ? &s.k->stat_fd : NULL, "stat", buf, sizeof(buf));
	if (s.k && (n < 0 || !lx_parse_stat(buf, &st) || st.starttime != s.k->start)) {
		lx_keep_drop(sc, s.k);   /* the kept task is gone: a reused pid is read afresh */
		s.k = NULL;
		n = src_read(&s, NULL, "stat", buf, sizeof(buf));
	}
	if (n < 0 || !lx_parse_stat(buf, &st))
		goto out;
	xg_grow(&sc->proc, &sc->proc_cap, sc->nproc + 1, sizeof(*sc->proc));
	struct lx_proc *p = &sc->proc[sc->nproc++];
	memset(p, 0, offsetof(struct lx_proc, cg) + 1);
	p->pid = pid;
	p->ppid = st.ppid > 0 ? (uint32_t)st.ppid : 0;
	p->sid = st.sid > 0 ? (uint32_t)st.sid : 0;
	p->start = st.starttime;
	memcpy(p->comm, st.comm, sizeof(p->comm));
	p->state = st.state;
	p->rss = st.rss_pages * sc->page;
	p->dom = -1;
	p->next = -1;
	if (sc->want_cgroup && src_dir(&s) >= 0) {
		const char *cp;
		size_t cl;
		n = lx_read_at(s.pfd, "cgroup", buf, sizeof(buf));
		if (n > 0 && lx_parse_cgroup_path(buf, &cp, &cl)) {
			if (cl >= sizeof(p->cg))
				cl = sizeof(p->cg) - 1;
			memcpy(p->cg, cp, cl);
			p->cg[cl] = 0;
		}
	}
	n = sc->want_io ? src_read(&s, s.k ? &s.k->io_fd : NULL, "io", buf, sizeof(buf)) : 0;
	lx_account_read(sc, p, sc->want_io && n >= 0 ? buf : NULL, n < 0 ? (int)-n : 0, &st);
	p->thr_first = (uint32_t)sc->ntnow;
	if (s.k) {
		scan_threads_kept(&s, p, st.nthreads);
	} else if (st.nthreads == 1 && src_dir(&s) >= 0) {
		/* a single-threaded process's own schedstat is its only
		 * thread's: no need to list task/ (most processes, all kernel
		 * threads) */
		n = lx_read_at(s.pfd, "schedstat", buf, sizeof(buf));
		scan_thread(sc, p, &s, pid, name, buf, n);
	} else {
		list_tasks(&s, listed_thread, p);
	}
out:
	if (s.pfd >= 0)
		close(s.pfd);
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

int lx_scan_run(struct lx_scan *sc, struct xg_err *err)
{
	rotate(sc);
	lx_keep_sweep(sc);
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
			if (dir_id(de->d_name, &pid))
				scan_process(sc, pid, de->d_name);
		}
	}
	lx_account_settle(sc);
	sc->prev_boot_ns = t0;
	sc->have_prev = true;
	return 0;
}
