// SPDX-License-Identifier: GPL-2.0-or-later
/* The threads of one process in a scan: each thread's schedstat (run and
 * wait ns) and the blocked rest of its life, turned into deltas against the
 * previous refresh so that domain counters can be accumulated and stay
 * monotonic while threads come and go. A kept process's schedstat files
 * are read without listing task/ while its thread count stays the same. */
#include "linux_vm.h"
#include "xgtop/core/osread.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

/* A thread's own stat (the process's main thread included). */
static bool thread_stat(const struct lx_src *s, uint32_t tid, struct lx_stat *st)
{
	char path[64], buf[512];
	snprintf(path, sizeof(path), "%.16s/task/%u/stat", s->name, (unsigned)tid);
	return xg_read_at(s->sc->proc_fd, path, buf, sizeof(buf)) > 0 && lx_parse_stat(buf, st);
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
static bool thread_identity(struct lx_src *s, struct lx_proc *p, uint32_t tid, struct lx_thr *t,
			    const struct lx_thr **old)
{
	struct lx_scan *sc = s->sc;
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
			if (thread_stat(s, tid, &st)) {
				t->vcpu_no = vcpu_of(st.comm, t);
				t->state = st.state;
			}
			t->renamed = true;
		}
	} else if (tid == p->pid) {
		t->start = p->start;
	} else {
		if (!thread_stat(s, tid, &st))
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

/* The schedstat read into buf (n: the read's result). */
static struct lx_sched sched_of(const char *buf, ssize_t n)
{
	struct lx_sched r = { .err = n < 0 ? (int)-n : 0 };
	r.ok = n >= 0 && lx_parse_schedstat(buf, &r.run, &r.wait);
	return r;
}

static struct lx_sched sched_pread(int fd)
{
	char buf[256];
	return sched_of(buf, lx_keep_pread(fd, buf, sizeof(buf)));
}

/* Accounts one thread from its schedstat: finds its previous state and
 * adds this interval to p. */
static void scan_thread(struct lx_src *s, struct lx_proc *p, uint32_t tid, const struct lx_sched *r)
{
	struct lx_scan *sc = s->sc;
	struct lx_thr t = { .tid = tid, .vcpu_no = LX_NO_VCPU, .run = r->run, .wait = r->wait };
	if (r->err) {
		if (r->err != ENOENT && r->err != ESRCH && !p->sched_err)
			p->sched_err = r->err;
		return;
	}
	if (!r->ok) {
		if (!p->sched_err)
			p->sched_err = EINVAL;
		return;
	}
	const struct lx_thr *old;
	if (!thread_identity(s, p, tid, &t, &old))
		return;   /* exited meanwhile */
	thread_account(sc, p, &t, old);
	p->nknown += old != NULL;
	/* Runnable now? The process stat gave the main thread's state; other
	 * threads are asked only if they ran or waited lately, since a thread
	 * idle for the whole interval is not the one keeping the domain busy. */
	struct lx_stat st;
	if (!t.state && (t.d_run || t.d_wait) && !p->runnable && thread_stat(s, tid, &st))
		t.state = st.state;
	if (t.state == 'R')
		p->runnable = true;
	xg_grow(&sc->tnow, &sc->tnow_cap, sc->ntnow + 1, sizeof(*sc->tnow));
	sc->tnow[sc->ntnow++] = t;
	p->nthr++;
}

/* One thread's schedstat, path relative to dirfd: through its kept file
 * when it can be kept, else by path. */
static void read_thread(struct lx_src *s, struct lx_proc *p, int dirfd, const char *path,
			uint32_t tid)
{
	char buf[256];
	struct lx_sched r;
	struct lx_kthr *kt = lx_keep_thread(s->sc, s->k, dirfd, path, tid);
	if (kt && kt->seen)
		return;   /* already read in this refresh */
	if (kt) {
		kt->seen = true;
		r = sched_pread(kt->fd);
	} else {
		r = sched_of(buf, xg_read_at(dirfd, path, buf, sizeof(buf)));
	}
	scan_thread(s, p, tid, &r);
}

/* Reads every thread listed in task/ of the process. */
static void list_threads(struct lx_src *s, struct lx_proc *p)
{
	char path[48], dbuf[4096];
	snprintf(path, sizeof(path), "%.16s/task", s->name);
	int tfd = openat(s->sc->proc_fd, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (tfd < 0)
		return;
	ssize_t n;
	while ((n = getdents64(tfd, dbuf, sizeof(dbuf))) > 0) {
		for (ssize_t off = 0; off < n;) {
			struct dirent64 *de = (struct dirent64 *)(dbuf + off);
			off += de->d_reclen;
			uint32_t tid;
			if (!lx_parse_id(de->d_name, &tid))
				continue;
			snprintf(path, sizeof(path), "%.16s/schedstat", de->d_name);
			read_thread(s, p, tfd, path, tid);
		}
	}
	close(tfd);
}

/* The kept threads, each read with one pread() (or read already by
 * lx_threads_unmoved); false when one of them cannot be read (gone, maybe
 * replaced): task/ is to be listed. */
static bool read_kept(struct lx_src *s, struct lx_proc *p)
{
	struct lx_scan *sc = s->sc;
	struct lx_keep *k = s->k;
	for (uint32_t i = 0; i < k->nthr; i++) {
		struct lx_kthr *kt = &k->thr[i];
		struct lx_sched r = i < sc->npre ? sc->pre[i]
				  : kt->fd < 0 ? (struct lx_sched){ .err = EBADF } : sched_pread(kt->fd);
		if (r.err) {
			lx_keep_close(sc, &kt->fd);   /* opened again if still listed */
			return false;
		}
		kt->seen = true;
		scan_thread(s, p, kt->tid, &r);
	}
	return true;
}

bool lx_threads_unmoved(struct lx_src *s)
{
	struct lx_scan *sc = s->sc;
	struct lx_keep *k = s->k;
	sc->npre = 0;
	if (!k->last_ok || k->asked || k->stat_fd < 0 || !k->nthr || k->nthr != k->listed)
		return false;
	int64_t pi = lx_index_get(&sc->pidx, k->pid);
	if (pi < 0 || sc->pold[pi].start != k->start || sc->pold[pi].nthr != k->nthr)
		return false;
	bool unmoved = true;
	xg_grow(&sc->pre, &sc->pre_cap, k->nthr, sizeof(*sc->pre));
	for (uint32_t i = 0; i < k->nthr; i++) {
		const struct lx_kthr *kt = &k->thr[i];
		if (kt->fd < 0)
			return false;
		struct lx_sched r = sched_pread(kt->fd);
		sc->pre[sc->npre++] = r;
		if (r.err)
			return false;   /* gone: task/ is listed */
		int64_t ti = lx_index_get(&sc->tidx, kt->tid);
		if (!r.ok || ti < 0 || sc->told[ti].run != r.run || sc->told[ti].wait != r.wait)
			unmoved = false;   /* the rest is still read, for lx_scan_threads */
	}
	return unmoved;
}

void lx_scan_threads(struct lx_src *s, struct lx_proc *p, uint64_t nthreads)
{
	struct lx_keep *k = s->k;
	bool all = nthreads && k->listed == nthreads && k->nthr == nthreads && read_kept(s, p);
	if (!all && nthreads == 1) {
		/* a single-threaded process's own schedstat is its only
		 * thread's: no need to list task/ (most processes, all kernel
		 * threads) */
		char path[48];
		snprintf(path, sizeof(path), "%.16s/schedstat", s->name);
		read_thread(s, p, s->sc->proc_fd, path, p->pid);
	} else if (!all) {
		list_threads(s, p);
	}
	lx_keep_prune(s->sc, k, all ? k->listed : nthreads);
}
