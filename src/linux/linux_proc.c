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
		t.renamed = old->renamed;
		known = true;
		/* QEMU names a vCPU thread from inside it, just after it
		 * starts: look at a new thread's name once more */
		if (!t.renamed && tid != p->pid) {
			struct lx_stat st;
			snprintf(path, sizeof(path), "%.16s/stat", tname);
			if (lx_read_at(tfd, path, buf, sizeof(buf)) > 0 && lx_parse_stat(buf, &st)) {
				t.vcpu_no = qemu_vcpu(st.comm);
				state = st.state;
			}
			t.renamed = true;
		}
	} else if (tid == p->pid) {
		t.start = p->start;
	} else {
		struct lx_stat st;
		snprintf(path, sizeof(path), "%.16s/stat", tname);
		if (lx_read_at(tfd, path, buf, sizeof(buf)) < 0 || !lx_parse_stat(buf, &st))
			return;   /* exited meanwhile */
		t.start = st.starttime;
		t.vcpu_no = qemu_vcpu(st.comm);
		state = st.state;
	}
	if (tid == p->pid)
		t.vcpu_no = qemu_vcpu(p->comm);   /* read anyway, may have changed */
	bool active = false;
	uint64_t start_ns = t.start * sc->tick_ns;
	uint64_t life = now > start_ns ? now - start_ns : 0;
	t.run = run;
	t.wait = wait;
	t.blk = life > run + wait ? life - run - wait : 0;
	if (known) {
		/* never let blk step back: the start is only known to a tick,
		 * and a wait still going on at this instant is not in run_delay
		 * yet (so blk was over-estimated by it, once) */
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
	/* else: existed before but unseen (first refresh, moved in): baseline */

	/* Runnable now? The process stat gave the main thread's state; other
	 * threads are asked only if they ran or waited lately, since a thread
	 * idle for the whole interval is not the one keeping the domain busy. */
	if (tid == p->pid)
		state = p->state;
	else if (active && !state && !p->runnable) {
		struct lx_stat st;
		snprintf(path, sizeof(path), "%.16s/stat", tname);
		if (lx_read_at(tfd, path, buf, sizeof(buf)) > 0 && lx_parse_stat(buf, &st))
			state = st.state;
	}
	if (state == 'R')
		p->runnable = true;
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
	lx_account_read(sc, p, pfd, &st);
	p->thr_first = (uint32_t)sc->ntnow;
	/* a single-threaded process's own schedstat is its only thread's:
	 * no need to list task/ (most processes, all kernel threads) */
	if (st.nthreads == 1)
		scan_thread(sc, p, pfd, pid, ".", sc->now_boot_ns);
	else
		scan_threads(sc, p, pfd, sc->now_boot_ns);
	close(pfd);
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
