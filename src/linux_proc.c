// SPDX-License-Identifier: GPL-2.0-or-later
/* One pass over /proc per refresh: every process's stat (and cgroup and io
 * when asked) and every thread's schedstat. The per-thread scheduler split
 * is turned into per-interval deltas here, against state kept from the
 * previous refresh, so that domain counters can be accumulated and stay
 * monotonic while threads come and go. */
#include "xgtop/linux.h"

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

/* QEMU names its vCPU threads "CPU <n>/KVM". */
static int32_t qemu_vcpu(const char *comm)
{
	if (strncmp(comm, "CPU ", 4))
		return LX_NO_VCPU;
	const char *p = comm + 4;
	int32_t n = 0;
	if (*p < '0' || *p > '9')
		return LX_NO_VCPU;
	while (*p >= '0' && *p <= '9' && n < 1000000)
		n = n * 10 + (*p++ - '0');
	return strcmp(p, "/KVM") ? LX_NO_VCPU : n;
}

/* Accounts one thread: reads its schedstat, finds its previous state and
 * adds this interval's run/wait/blocked ns to p. */
static void scan_thread(struct lx_scan *sc, struct lx_proc *p, int tfd, uint32_t tid,
			const char *tname, uint64_t now)
{
	char path[48], buf[256];
	snprintf(path, sizeof(path), "%.16s/schedstat", tname);
	ssize_t n = lx_read_at(tfd, path, buf, sizeof(buf));
	uint64_t run, wait;
	if (n < 0) {
		if (n != -ENOENT && n != -ESRCH && !p->sched_err)
			p->sched_err = (int)-n;
		return;
	}
	if (!lx_parse_schedstat(buf, &run, &wait)) {
		if (!p->sched_err)
			p->sched_err = EINVAL;
		return;
	}
	int64_t oi = lx_index_get(&sc->tidx, tid);
	const struct lx_thr *old = oi >= 0 ? &sc->told[oi] : NULL;
	struct lx_thr t = { .tid = tid, .vcpu_no = LX_NO_VCPU };
	bool known = false;
	char state = 0;   /* from a task stat read, 0 = not read */
	if (old && run >= old->run && wait >= old->wait &&
	    (tid != p->pid || old->start == p->start)) {
		t.start = old->start;
		t.vcpu_no = old->vcpu_no;
		known = true;
	} else if (tid == p->pid) {
		t.start = p->start;
		t.vcpu_no = qemu_vcpu(p->comm);
	} else {
		struct lx_stat st;
		snprintf(path, sizeof(path), "%.16s/stat", tname);
		if (lx_read_at(tfd, path, buf, sizeof(buf)) < 0 || !lx_parse_stat(buf, &st))
			return;   /* exited meanwhile */
		t.start = st.starttime;
		t.vcpu_no = qemu_vcpu(st.comm);
		state = st.state;
	}
	bool active = false;
	uint64_t start_ns = t.start * sc->tick_ns;
	uint64_t life = now > start_ns ? now - start_ns : 0;
	t.run = run;
	t.wait = wait;
	t.blk = life > run + wait ? life - run - wait : 0;
	if (known) {
		/* start is only known to a tick: never let blk step back */
		if (t.blk < old->blk)
			t.blk = old->blk;
		p->d_run += run - old->run;
		p->d_wait += wait - old->wait;
		p->d_blk += t.blk - old->blk;
		active = run != old->run || wait != old->wait;
	} else if (sc->have_prev && start_ns > sc->prev_boot_ns) {
		/* born in this interval: all its time belongs to it */
		p->d_run += run;
		p->d_wait += wait;
		p->d_blk += t.blk;
		active = run || wait;
	}
	/* Runnable now? The process stat gave the main thread's state; other
	 * threads are asked only if they ran or waited lately, since a thread
	 * idle for the whole interval is not the one keeping the domain busy. */
	if (tid == p->pid)
		state = p->state;
	else if (active && !state) {
		struct lx_stat st;
		snprintf(path, sizeof(path), "%.16s/stat", tname);
		if (lx_read_at(tfd, path, buf, sizeof(buf)) > 0 && lx_parse_stat(buf, &st))
			state = st.state;
	}
	if (state == 'R')
		p->runnable = true;
	/* else: existed before but unseen (first refresh, moved in): baseline */
	xg_grow(&sc->tnow, &sc->tnow_cap, sc->ntnow + 1, sizeof(*sc->tnow));
	sc->tnow[sc->ntnow++] = t;
	p->nthr++;
}

static void scan_threads(struct lx_scan *sc, struct lx_proc *p, int pfd, uint64_t now)
{
	int tfd = openat(pfd, "task", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (tfd < 0)
		return;
	char dbuf[4096];
	for (;;) {
		ssize_t n = getdents64(tfd, dbuf, sizeof(dbuf));
		if (n <= 0)
			break;
		for (ssize_t off = 0; off < n;) {
			struct dirent64 *de = (struct dirent64 *)(dbuf + off);
			off += de->d_reclen;
			uint32_t tid;
			if (dir_id(de->d_name, &tid))
				scan_thread(sc, p, tfd, tid, de->d_name, now);
		}
	}
	close(tfd);
}

/* Pays a debt out of a delta: what is left of the delta after the debt. */
static uint64_t pay(uint64_t delta, uint64_t *debt)
{
	uint64_t d = delta < *debt ? delta : *debt;
	*debt -= d;
	return delta - d;
}

/* Per-process counters that are not per thread: /proc/PID/io and the CPU
 * of reaped children. Only the raw values are read here; the deltas are
 * taken after the whole scan (account_deltas), once the debts of children
 * that vanished in the meantime are known. pnew[i] belongs to proc[i]. */
static void scan_account(struct lx_scan *sc, struct lx_proc *p, int pfd, const struct lx_stat *st)
{
	struct lx_pst n = { .pid = p->pid, .ppid = p->ppid, .start = p->start, .prev = -1,
			    .own_ticks = st->utime + st->stime, .child_ticks = st->cutime + st->cstime };
	int64_t oi = lx_index_get(&sc->pidx, p->pid);
	if (oi >= 0 && sc->pold[oi].start == p->start) {
		struct lx_pst *old = &sc->pold[oi];
		old->seen = true;
		n.prev = (int32_t)oi;
		n.debt_io = old->debt_io;
		n.debt_ticks = old->debt_ticks;
	}
	if (sc->want_io) {
		char buf[512];
		ssize_t r = lx_read_at(pfd, "io", buf, sizeof(buf));
		if (r < 0)
			p->io_err = (int)-r;
		else if (!lx_parse_proc_io(buf, &n.io))
			p->io_err = EINVAL;
		n.io_ok = !p->io_err;
	}
	xg_grow(&sc->pnew, &sc->pnew_cap, sc->npnew + 1, sizeof(*sc->pnew));
	sc->pnew[sc->npnew++] = n;
}

static void account_deltas(struct lx_scan *sc)
{
	for (size_t i = 0; i < sc->nproc; i++) {
		struct lx_proc *p = &sc->proc[i];
		struct lx_pst *n = &sc->pnew[i];
		const struct lx_pst *old = n->prev >= 0 ? &sc->pold[n->prev] : NULL;
		bool born = !old && sc->have_prev && p->start * sc->tick_ns > sc->prev_boot_ns;
		if (n->io_ok) {
			struct lx_io d = { 0 };
			if (old && old->io_ok && n->io.rbytes >= old->io.rbytes && n->io.wbytes >= old->io.wbytes) {
				d.rbytes = n->io.rbytes - old->io.rbytes;
				d.wbytes = n->io.wbytes - old->io.wbytes;
			} else if (born) {
				d = n->io;
			}
			p->d_io.rbytes = pay(d.rbytes, &n->debt_io.rbytes);
			p->d_io.wbytes = pay(d.wbytes, &n->debt_io.wbytes);
		}
		if (sc->want_children) {
			uint64_t d = 0;
			if (old && n->child_ticks >= old->child_ticks)
				d = n->child_ticks - old->child_ticks;
			else if (born)
				d = n->child_ticks;
			p->d_child_ns = pay(d, &n->debt_ticks) * sc->tick_ns;
		}
	}
}

static int by_start_desc(const void *a, const void *b, void *ctx)
{
	const struct lx_pst *p = ctx;
	uint64_t x = p[*(const uint32_t *)a].start, y = p[*(const uint32_t *)b].start;
	return (x < y) - (x > y);
}

static void add_debt(struct lx_pst *par, const struct lx_pst *c)
{
	/* the child's own unpaid debt (grandchildren it reaped after our
	 * last look) is in its totals too */
	if (c->io_ok) {
		par->debt_io.rbytes += c->io.rbytes + c->debt_io.rbytes;
		par->debt_io.wbytes += c->io.wbytes + c->debt_io.wbytes;
	}
	par->debt_ticks += c->own_ticks + c->child_ticks + c->debt_ticks;
}

/* Processes gone since the last refresh were reaped: their parent's io and
 * cutime now include their totals, of which we counted up to their last
 * values already. Youngest first, so that when parent and child both went,
 * the child's debt rides up with the parent's. */
static void settle_reaped(struct lx_scan *sc)
{
	lx_index_reset(&sc->nidx, sc->npnew);
	for (size_t i = 0; i < sc->npnew; i++)
		lx_index_put(&sc->nidx, sc->pnew[i].pid, (uint32_t)i);
	size_t ngone = 0;
	for (size_t i = 0; i < sc->npold; i++) {
		if (sc->pold[i].seen)
			continue;
		xg_grow(&sc->gone, &sc->gone_cap, ngone + 1, sizeof(*sc->gone));
		sc->gone[ngone++] = (uint32_t)i;
	}
	qsort_r(sc->gone, ngone, sizeof(*sc->gone), by_start_desc, sc->pold);
	for (size_t k = 0; k < ngone; k++) {
		const struct lx_pst *c = &sc->pold[sc->gone[k]];
		int64_t pi = lx_index_get(&sc->nidx, c->ppid);
		if (pi >= 0 && sc->pnew[pi].start <= c->start) {
			add_debt(&sc->pnew[pi], c);
			continue;
		}
		pi = lx_index_get(&sc->pidx, c->ppid);
		if (pi >= 0 && !sc->pold[pi].seen && sc->pold[pi].start <= c->start)
			add_debt(&sc->pold[pi], c);
	}
}

static void scan_process(struct lx_scan *sc, uint32_t pid, const char *name)
{
	int pfd = openat(sc->proc_fd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (pfd < 0)
		return;
	char buf[1024];
	struct lx_stat st;
	if (lx_read_at(pfd, "stat", buf, sizeof(buf)) < 0 || !lx_parse_stat(buf, &st)) {
		close(pfd);
		return;
	}
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
	if (sc->want_cgroup) {
		const char *cp;
		size_t cl;
		ssize_t n = lx_read_at(pfd, "cgroup", buf, sizeof(buf));
		if (n > 0 && lx_parse_cgroup_path(buf, &cp, &cl)) {
			if (cl >= sizeof(p->cg))
				cl = sizeof(p->cg) - 1;
			memcpy(p->cg, cp, cl);
			p->cg[cl] = 0;
		}
	}
	scan_account(sc, p, pfd, &st);
	p->thr_first = (uint32_t)sc->ntnow;
	/* a single-threaded process's own schedstat is its only thread's:
	 * no need to list task/ (most processes, all kernel threads) */
	if (st.nthreads == 1)
		scan_thread(sc, p, pfd, pid, ".", boot_ns());
	else
		scan_threads(sc, p, pfd, boot_ns());
	close(pfd);
}

/* Makes last refresh's "now" state this refresh's "old" state. */
static void rotate(struct lx_scan *sc)
{
	struct lx_thr *t = sc->told;
	size_t tc = sc->told_cap;
	sc->told = sc->tnow;
	sc->told_cap = sc->tnow_cap;
	sc->ntold = sc->ntnow;
	sc->tnow = t;
	sc->tnow_cap = tc;
	sc->ntnow = 0;
	lx_index_reset(&sc->tidx, sc->ntold);
	for (size_t i = 0; i < sc->ntold; i++)
		lx_index_put(&sc->tidx, sc->told[i].tid, (uint32_t)i);

	struct lx_pst *p = sc->pold;
	size_t pc = sc->pold_cap;
	sc->pold = sc->pnew;
	sc->pold_cap = sc->pnew_cap;
	sc->npold = sc->npnew;
	sc->pnew = p;
	sc->pnew_cap = pc;
	sc->npnew = 0;
	lx_index_reset(&sc->pidx, sc->npold);
	for (size_t i = 0; i < sc->npold; i++)
		lx_index_put(&sc->pidx, sc->pold[i].pid, (uint32_t)i);
	sc->nproc = 0;
}

int lx_scan_run(struct lx_scan *sc, struct xg_err *err)
{
	rotate(sc);
	uint64_t t0 = boot_ns();
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
	settle_reaped(sc);
	account_deltas(sc);
	sc->prev_boot_ns = t0;
	sc->have_prev = true;
	return 0;
}
