// SPDX-License-Identifier: GPL-2.0-or-later
/* The /proc scan's caching rules on a /proc-like tree in a temporary
 * directory: kept files, an idle process's io carried over, exact blocked
 * time of a thread that did not run, a reused pid or tid, the descriptor
 * budget. The scan reads the tree through its kept descriptors the way it
 * reads /proc; a file rewritten in place is what a kept /proc file reads
 * at its next pread, a file replaced by a new one is a new task's. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../../src/linux/linux_domain.h"
#include "../tmpdir.h"

#define START 100          /* clock ticks since boot: long before any scan */

static void put(const char *rel, const char *text)
{
	/* in place (O_TRUNC, same inode): a kept descriptor reads the new text */
	assert_int_equal(tmpdir_write(tmp(rel), text), 0);
}

static void replace(const char *rel, const char *text)
{
	/* a new file: what a new task's /proc file is to an old descriptor */
	assert_int_equal(unlink(tmp(rel)), 0);
	put(rel, text);
}

static void mkdirs(const char *rel)
{
	char cmd[400];
	snprintf(cmd, sizeof(cmd), "mkdir -p %s", tmp(rel));
	assert_int_equal(system(cmd), 0);
}

static void statm_of(uint32_t pid, uint64_t rss)
{
	char rel[64], text[100];
	snprintf(rel, sizeof(rel), "%u/statm", pid);
	snprintf(text, sizeof(text), "1000 %llu 20 10 0 300 0\n", (unsigned long long)rss);
	put(rel, text);
}

/* stat with parent ppid (rss 250 pages there; statm says 260) */
static void stat_ppid(uint32_t pid, uint32_t ppid, const char *comm, uint64_t start, int nthreads)
{
	char rel[64], text[400];
	snprintf(rel, sizeof(rel), "%u/stat", pid);
	snprintf(text, sizeof(text),
		 "%u (%s) S %u %u %u 0 -1 4194560 100 0 0 0 7 3 0 0 20 0 %d 0 %llu 1000000 250 "
		 "18446744073709551615 0 0 0 0 0 0 0 0 0 0 0 0 17 0 0 0 0 0 0\n",
		 pid, comm, ppid, pid, pid, nthreads, (unsigned long long)start);
	put(rel, text);
	statm_of(pid, 260);
}

static void stat_of(uint32_t pid, const char *comm, uint64_t start, int nthreads)
{
	stat_ppid(pid, 1, comm, start, nthreads);
}

static void sched_of(uint32_t pid, uint32_t tid, uint64_t run, uint64_t wait)
{
	char rel[64], text[80];
	snprintf(text, sizeof(text), "%llu %llu 5\n", (unsigned long long)run, (unsigned long long)wait);
	snprintf(rel, sizeof(rel), "%u/task/%u/schedstat", pid, tid);
	put(rel, text);
	if (pid == tid) {
		snprintf(rel, sizeof(rel), "%u/schedstat", pid);
		put(rel, text);
	}
}

static void thread_of(uint32_t pid, uint32_t tid, uint64_t start, uint64_t run)
{
	char rel[64], text[400];
	snprintf(rel, sizeof(rel), "%u/task/%u", pid, tid);
	mkdirs(rel);
	snprintf(rel, sizeof(rel), "%u/task/%u/stat", pid, tid);
	snprintf(text, sizeof(text), "%u (worker) S 1 %u %u 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 %llu 0 0\n",
		 tid, pid, pid, (unsigned long long)start);
	put(rel, text);
	sched_of(pid, tid, run, 0);
}

static void io_of(uint32_t pid, uint64_t rbytes, uint64_t wbytes, bool in_place)
{
	char rel[64], text[300];
	snprintf(rel, sizeof(rel), "%u/io", pid);
	snprintf(text, sizeof(text),
		 "rchar: 0\nwchar: 0\nsyscr: 0\nsyscw: 0\nread_bytes: %llu\nwrite_bytes: %llu\n"
		 "cancelled_write_bytes: 0\n", (unsigned long long)rbytes, (unsigned long long)wbytes);
	(in_place ? put : replace)(rel, text);
}

/* A process of nthreads threads (tids pid, pid + 1, ...), run ns each. */
static void process(uint32_t pid, uint64_t start, int nthreads, uint64_t run)
{
	char rel[32];
	snprintf(rel, sizeof(rel), "%u", pid);
	mkdirs(rel);
	stat_of(pid, "proc", start, nthreads);
	for (int i = 0; i < nthreads; i++)
		thread_of(pid, pid + (uint32_t)i, start, run);
	io_of(pid, 1000, 2000, true);
}

static void scan(struct lx_scan *sc)
{
	struct xg_err err = { 0 };
	assert_int_equal(lx_scan_run(sc, &err), 0);
}

/* The item of arr (n items of size bytes) whose uint32_t at off is id;
 * fails the test when there is none. */
static void *find(const void *arr, size_t n, size_t size, size_t off, uint32_t id, const char *what)
{
	for (size_t i = 0; i < n; i++) {
		const char *item = (const char *)arr + i * size;
		uint32_t v;
		memcpy(&v, item + off, sizeof(v));
		if (v == id)
			return (void *)item;
	}
	fail_msg("%s %u not found", what, id);
	return NULL;
}

static const struct lx_proc *proc(const struct lx_scan *sc, uint32_t pid)
{
	return find(sc->proc, sc->nproc, sizeof(*sc->proc), offsetof(struct lx_proc, pid), pid,
		    "scanned process");
}

static const struct lx_thr *thread(const struct lx_scan *sc, uint32_t tid)
{
	return find(sc->tnow, sc->ntnow, sizeof(*sc->tnow), offsetof(struct lx_thr, tid), tid,
		    "scanned thread");
}

static int setup(void **state)
{
	if (tmpdir_make("scan") < 0)
		return -1;
	struct lx_scan *sc = malloc(sizeof(*sc));
	struct xg_err err = { 0 };
	if (lx_scan_open(sc, &err) < 0)
		return -1;
	close(sc->proc_fd);
	sc->proc_fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	sc->want_io = true;
	*state = sc;
	return 0;
}

static int teardown(void **state)
{
	lx_scan_close(*state);
	free(*state);
	return tmpdir_remove();
}

/* A thread that did not run has no new run or wait, and its blocked time
 * grows by exactly the interval; the one that ran gets its run time. */
static void idle_thread_blocked_is_the_interval(void **state)
{
	struct lx_scan *sc = *state;
	process(300, START, 2, 5000);
	scan(sc);
	uint64_t t1 = sc->now_boot_ns;
	sched_of(300, 301, 9000, 40);
	scan(sc);
	uint64_t dt = sc->now_boot_ns - t1;
	const struct lx_thr *idle = thread(sc, 300), *ran = thread(sc, 301);
	assert_int_equal(idle->d_run, 0);
	assert_int_equal(idle->d_wait, 0);
	assert_int_equal(idle->d_blk, dt);
	assert_int_equal(ran->d_run, 4000);
	assert_int_equal(ran->d_wait, 40);
	assert_int_equal(ran->d_blk, dt - 4040);
	assert_false(proc(sc, 300)->idle);
	uint64_t t2 = sc->now_boot_ns;
	scan(sc);
	assert_true(proc(sc, 300)->idle);
	assert_int_equal(proc(sc, 300)->d_run + proc(sc, 300)->d_wait, 0);
	assert_int_equal(proc(sc, 300)->d_blk, 2 * (sc->now_boot_ns - t2));
}

/* What a kept /proc file does once its task has exited: it no longer
 * reads (ESRCH there, EISDIR here). */
static void task_exits(int fd)
{
	int d = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	assert_true(d >= 0 && fd >= 0);
	assert_int_equal(dup2(d, fd), fd);
	close(d);
}

static struct lx_kthr *kept_thread(struct lx_scan *sc, uint32_t pid, uint32_t tid)
{
	struct lx_keep *k = lx_keep_find(sc, pid);
	assert_non_null(k);
	return find(k->thr, k->nthr, sizeof(*k->thr), offsetof(struct lx_kthr, tid), tid, "kept thread");
}

/* An idle process's io is not read again: what it shows is the last read,
 * and an increase is counted in full at the first refresh it ran in. */
static void idle_io_carried_then_counted(void **state)
{
	struct lx_scan *sc = *state;
	process(400, START, 1, 7000);
	scan(sc);
	scan(sc);
	io_of(400, 1000, 2000 + 4096, true);   /* cannot happen without running */
	scan(sc);
	assert_true(proc(sc, 400)->idle);
	assert_int_equal(proc(sc, 400)->d_io.wbytes, 0);
	sched_of(400, 400, 7500, 0);
	io_of(400, 1000, 2000 + 8192, true);
	scan(sc);
	assert_false(proc(sc, 400)->idle);
	assert_int_equal(proc(sc, 400)->d_io.wbytes, 8192);
	assert_int_equal(sc->pnew[0].io.wbytes, 2000 + 8192);
}

/* A pid reused by a new process, seen through the kept stat (a new start
 * time) or after the kept stat stopped reading: none of the old task's
 * kept files (its io here) are read for it, and its threads start a new
 * baseline. */
static void reused_pid(struct lx_scan *sc, bool old_stat_fails)
{
	process(500, START, 1, 90000);
	scan(sc);
	scan(sc);
	if (old_stat_fails) {
		task_exits(lx_keep_find(sc, 500)->stat_fd);
		replace("500/stat", "");
	}
	stat_of(500, "new", START + 50, 1);
	replace("500/statm", "1000 777 20 10 0 300 0\n");
	sched_of(500, 500, 100, 0);
	io_of(500, 7, 9, false);
	scan(sc);
	const struct lx_proc *p = proc(sc, 500);
	assert_false(p->idle);
	assert_false(p->carried);
	assert_string_equal(p->comm, "new");
	assert_int_equal(p->rss, 777 * sc->page);
	assert_int_equal(thread(sc, 500)->start, START + 50);
	assert_int_equal(thread(sc, 500)->run, 100);
	assert_int_equal(p->d_run, 0);   /* existed before the last refresh: a baseline */
	assert_int_equal(sc->pnew[0].prev, -1);
	assert_int_equal(sc->pnew[0].io.wbytes, 9);
	assert_int_equal(sc->pnew[0].io.rbytes, 7);
	scan(sc);
	assert_true(proc(sc, 500)->idle);
}

static void reused_pid_new_start(void **state)
{
	reused_pid(*state, false);
}

static void reused_pid_after_exit(void **state)
{
	reused_pid(*state, true);
}

/* A thread gone and another one in its place (the count unchanged): the
 * gone one's kept file fails, task/ is listed again, its file closed and
 * the new one's read; the same with the id reused; then one thread less. */
static void thread_set_changes(void **state)
{
	struct lx_scan *sc = *state;
	process(600, START, 3, 1000);
	scan(sc);
	size_t fds = sc->keep_fds;
	char cmd[300];
	task_exits(kept_thread(sc, 600, 602)->fd);
	snprintf(cmd, sizeof(cmd), "rm -r %s", tmp("600/task/602"));
	assert_int_equal(system(cmd), 0);
	thread_of(600, 610, START + 1, 50);
	scan(sc);
	assert_int_equal(proc(sc, 600)->nthr, 3);
	assert_int_equal(thread(sc, 610)->run, 50);
	assert_int_equal(sc->keep_fds, fds);
	assert_false(proc(sc, 600)->idle);
	scan(sc);
	assert_true(proc(sc, 600)->idle);
	/* a thread id reused within the process: the new thread's file */
	task_exits(kept_thread(sc, 600, 601)->fd);
	replace("600/task/601/schedstat", "20 0 1\n");
	thread_of(600, 601, START + 2, 20);
	scan(sc);
	assert_int_equal(proc(sc, 600)->nthr, 3);
	assert_int_equal(thread(sc, 601)->run, 20);
	assert_int_equal(thread(sc, 601)->start, START + 2);
	assert_int_equal(proc(sc, 600)->sched_err, 0);
	assert_int_equal(sc->keep_fds, fds);
	stat_of(600, "proc", START, 2);
	task_exits(kept_thread(sc, 600, 610)->fd);
	snprintf(cmd, sizeof(cmd), "rm -r %s", tmp("600/task/610"));
	assert_int_equal(system(cmd), 0);
	scan(sc);
	assert_int_equal(proc(sc, 600)->nthr, 2);
	assert_int_equal(sc->keep_fds, fds - 1);
	assert_false(proc(sc, 600)->idle);   /* a thread went: it may have done I/O */
}

/* A process none of whose threads ran keeps its last stat (its comm
 * here, which only the process itself can change): only statm is read
 * for it, since memory can be reclaimed from a process that does not run. */
static void unmoved_stat_carried(void **state)
{
	struct lx_scan *sc = *state;
	process(800, START, 2, 5000);
	scan(sc);
	assert_false(proc(sc, 800)->carried);   /* first sight */
	assert_int_equal(proc(sc, 800)->rss, 260 * sc->page);   /* statm's, not stat's 250 */
	scan(sc);
	assert_true(proc(sc, 800)->carried);
	stat_of(800, "renamed", START, 2);   /* cannot happen without running */
	statm_of(800, 100);
	scan(sc);
	const struct lx_proc *p = proc(sc, 800);
	assert_true(p->carried && p->idle);
	assert_string_equal(p->comm, "proc");
	assert_int_equal(p->nthr, 2);
	assert_int_equal(p->rss, 100 * sc->page);
	sched_of(800, 801, 5001, 0);
	scan(sc);
	p = proc(sc, 800);
	assert_false(p->carried || p->idle);
	assert_string_equal(p->comm, "renamed");
	assert_int_equal(p->d_run, 1);
	/* waiting on a runqueue is moving too */
	sched_of(800, 800, 5000, 7);
	scan(sc);
	assert_false(proc(sc, 800)->carried);
	assert_int_equal(proc(sc, 800)->d_wait, 7);
}

/* A process only changes parent when its parent exits: a carried stat's
 * parent stands while that parent is the same process, and the stat is
 * read again once it is gone. */
static void carried_parent_exits(void **state)
{
	struct lx_scan *sc = *state;
	process(900, START, 1, 10);
	process(905, START + 1, 1, 20);
	stat_ppid(905, 900, "child", START + 1, 1);
	scan(sc);
	scan(sc);
	assert_true(proc(sc, 905)->carried);
	assert_int_equal(proc(sc, 905)->ppid, 900);
	stat_ppid(905, 77, "child", START + 1, 1);   /* not read while 900 lives */
	scan(sc);
	assert_true(proc(sc, 905)->carried);
	assert_int_equal(proc(sc, 905)->ppid, 900);
	struct lx_keep *k = lx_keep_find(sc, 900);
	task_exits(k->stat_fd);
	task_exits(k->thr[0].fd);
	char cmd[300];
	snprintf(cmd, sizeof(cmd), "rm -r %s", tmp("900"));
	assert_int_equal(system(cmd), 0);
	stat_ppid(905, 1, "child", START + 1, 1);   /* reparented to init */
	scan(sc);
	assert_true(proc(sc, 905)->carried);
	assert_int_equal(proc(sc, 905)->ppid, 1);
	assert_int_equal(sc->pnew[0].ppid, 1);
	scan(sc);
	assert_int_equal(proc(sc, 905)->ppid, 1);
}

/* The files of a process that exited are closed at the next refresh:
 * processes coming and going leave the descriptor count where it was. */
static void exited_process_files_closed(void **state)
{
	struct lx_scan *sc = *state;
	process(1000, START, 2, 10);
	scan(sc);
	scan(sc);
	size_t fds = sc->keep_fds;
	assert_true(fds >= 5);   /* stat, statm, io and two threads' schedstat */
	char cmd[300];
	for (int round = 0; round < 3; round++) {
		process(1010, START + 5, 3, 10);
		scan(sc);
		scan(sc);
		assert_true(sc->keep_fds >= fds + 6);
		struct lx_keep *k = lx_keep_find(sc, 1010);
		task_exits(k->stat_fd);
		for (uint32_t i = 0; i < k->nthr; i++)
			task_exits(k->thr[i].fd);
		snprintf(cmd, sizeof(cmd), "rm -r %s", tmp("1010"));
		assert_int_equal(system(cmd), 0);
		scan(sc);
		assert_int_equal(sc->nproc, 1);
		assert_int_equal(sc->keep_fds, fds);
		assert_null(lx_keep_find(sc, 1010));
	}
}

/* Past the budget, files are read by path: the same figures, no more
 * descriptors than allowed. */
static void budget_reads_by_path(void **state)
{
	struct lx_scan *sc = *state;
	struct lx_scan wide;
	struct xg_err err = { 0 };
	assert_int_equal(lx_scan_open(&wide, &err), 0);
	close(wide.proc_fd);
	wide.proc_fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	wide.want_io = true;
	sc->keep_limit = 4;
	for (uint32_t i = 0; i < 4; i++)
		process(700 + 10 * i, START + i, 1 + (int)i, 100 * i);
	for (int round = 0; round < 3; round++) {
		for (uint32_t i = 0; i < 4; i++) {
			sched_of(700 + 10 * i, 700 + 10 * i, 100 * i + (uint64_t)round * 7, 3);
			io_of(700 + 10 * i, 10, 20 + (uint64_t)round, true);
		}
		scan(sc);
		scan(&wide);
		assert_true(sc->keep_fds <= 3);   /* three quarters of 4 */
		assert_true(wide.keep_fds > 4);
		assert_int_equal(sc->nproc, wide.nproc);
		assert_int_equal(sc->ntnow, wide.ntnow);
		for (size_t t = 0; t < sc->ntnow; t++) {
			assert_int_equal(sc->tnow[t].run, wide.tnow[t].run);
			assert_int_equal(sc->tnow[t].d_run, wide.tnow[t].d_run);
		}
		for (size_t p = 0; p < sc->nproc; p++)
			assert_int_equal(sc->pnew[p].io.wbytes, wide.pnew[p].io.wbytes);
	}
	lx_scan_close(&wide);
}

/* The budget is half of RLIMIT_NOFILE's soft limit: with a limit of 64,
 * twenty processes of five files each are all read, with at most 24 files
 * kept (three quarters of 32), the rest by path. */
static void budget_from_rlimit(void **state)
{
	struct lx_scan *sc = *state;
	struct rlimit was, low;
	assert_int_equal(getrlimit(RLIMIT_NOFILE, &was), 0);
	low = was;
	low.rlim_cur = 64;
	assert_int_equal(setrlimit(RLIMIT_NOFILE, &low), 0);
	for (uint32_t i = 0; i < 20; i++)
		process(1100 + 10 * i, START + i, 2, 1000 + i);
	for (int round = 0; round < 3; round++) {
		scan(sc);
		assert_int_equal(sc->keep_max, 32);
		assert_true(sc->keep_fds <= 24);
		assert_int_equal(sc->nproc, 20);
		assert_int_equal(sc->ntnow, 40);
		for (uint32_t i = 0; i < 20; i++) {
			assert_int_equal(thread(sc, 1100 + 10 * i + 1)->run, 1000 + i);
			assert_int_equal(proc(sc, 1100 + 10 * i)->rss, 260 * sc->page);
			assert_int_equal(proc(sc, 1100 + 10 * i)->io_err, 0);
		}
	}
	assert_int_equal(setrlimit(RLIMIT_NOFILE, &was), 0);
}

int main(void)
{
#define T(test) cmocka_unit_test_setup_teardown(test, setup, teardown)
	const struct CMUnitTest tests[] = {
		T(idle_thread_blocked_is_the_interval), T(idle_io_carried_then_counted),
		T(reused_pid_new_start), T(reused_pid_after_exit), T(thread_set_changes),
		T(budget_reads_by_path), T(budget_from_rlimit), T(unmoved_stat_carried),
		T(carried_parent_exits), T(exited_process_files_closed),
	};
#undef T
	return cmocka_run_group_tests(tests, NULL, NULL);
}
