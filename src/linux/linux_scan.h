/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Private to src/linux (and its tests): The /proc scanner: one pass over /proc (linux_proc.c), the threads of a
 * process and their scheduler accounting (linux_task.c), the files kept open
 * from one refresh to the next (linux_keep.c), per-process io and reaped
 * children's CPU (linux_account.c), host facts (linux_node.c) and process
 * groups (linux_group.c). */
#ifndef XGTOP_SRC_LINUX_LINUX_SCAN_H
#define XGTOP_SRC_LINUX_LINUX_SCAN_H

#include "linux_text.h"

#include <sys/types.h>

/* ---- linux_proc.c: one pass over /proc ---- */

#define LX_NO_VCPU (-1)          /* thread is not a QEMU vCPU thread */

/* Per-thread state kept between refreshes. */
struct lx_thr {
	uint32_t tid;
	int32_t vcpu_no;             /* QEMU "CPU n/ACCEL" thread number (or from the
	                                VM's vcpuN cgroups), or LX_NO_VCPU */
	bool renamed;                /* name read again on the second sighting */
	char state;                  /* from a stat read this refresh, 0 = not read */
	uint8_t accel;               /* enum lx_accel of a named vCPU thread */
	uint64_t start;              /* clock ticks since boot (identity) */
	uint64_t run, wait, blk;     /* cumulative ns; blk = life - run - wait */
	uint64_t d_run, d_wait, d_blk;  /* this refresh's part of p->d_run ... */
};

/* Files of a process kept open between refreshes: one pread() each
 * instead of a path lookup, open and close per file and refresh. */
struct lx_kthr {
	uint32_t tid;
	int fd;                      /* task/TID/schedstat, -1 = to be opened again */
	bool seen;                   /* read in the current refresh */
};
struct lx_keep {
	uint32_t pid;
	uint64_t start;              /* the task the files belong to (when known) */
	bool known;                  /* start is set */
	int stat_fd, statm_fd, io_fd, cg_fd;   /* -1 = not open */
	/* the stat of the last refresh that saw the process (rss from statm),
	 * what an unmoved process shows again without reading it */
	struct lx_stat last;
	bool last_ok;
	struct lx_kthr *thr;         /* in task/ listing order */
	uint32_t nthr, cursor;
	size_t thr_cap;
	uint64_t listed;             /* threads when task/ was last listed, 0 = never */
	bool seen;                   /* in this refresh's listing of /proc */
	bool asked;                  /* a VM's: lx_scan_keep() called since the last scan */
};

/* Per-process state kept between refreshes. A parent that reaps a child
 * adds the child's totals to its own /proc/PID/io and cutime/cstime; what we
 * already counted of that child (its last values) becomes the parent's
 * debt, paid out of the parent's next deltas, so nothing counts twice. */
struct lx_pst {
	uint32_t pid, ppid;
	uint64_t start;
	int32_t prev;                /* this refresh: index of the old state, -1 = none */
	bool io_ok, seen;
	struct lx_io io;             /* last /proc/PID/io values */
	uint64_t own_ticks;          /* last utime + stime */
	uint64_t child_ticks;        /* last cutime + cstime */
	struct lx_io debt_io;
	uint64_t debt_ticks;
	uint32_t nthr;               /* threads read */
	int io_err;                  /* errno of the last /proc/PID/io read */
	/* the network namespace of /proc/PID/ns/net, read by the source when
	 * the process heads a domain; carried over while the process is idle */
	bool netns_read;
	int netns_err;               /* errno of its stat, 0 = netns valid */
	uint64_t netns;
};

/* One process as seen in this refresh. */
struct lx_proc {
	uint32_t pid, ppid, sid;
	uint64_t start;              /* clock ticks since boot */
	char comm[32];
	char state;
	uint64_t rss;                /* bytes */
	uint32_t nthr;
	uint32_t nknown;             /* threads also read in the previous refresh */
	bool idle;                   /* the same threads as in the previous
	                                refresh, none of which ran since: what
	                                only its threads change (io, netns) is
	                                carried over instead of read again */
	bool carried;                /* idle, and its stat not read: the last
	                                one (lx_keep.last) with a new rss */
	uint32_t thr_first;          /* slice of lx_scan.thr / .tnow */
	uint64_t d_run, d_wait, d_blk;  /* ns in this interval (new threads: since start) */
	struct lx_io d_io;           /* bytes in this interval */
	uint64_t d_child_ns;         /* CPU of children reaped in this interval */
	int io_err;                  /* errno of /proc/PID/io, 0 = read */
	int sched_err;               /* errno of an unreadable schedstat, 0 = all read */
	bool runnable;               /* some thread is runnable (R) now */
	int32_t dom;                 /* domain index of the refresh, -1 = none yet */
	int32_t next;                /* next process of the same domain */
	char cg[256];                /* cgroup v2 path (cgroup mode), "" otherwise */
};

/* One schedstat read. */
struct lx_sched {
	int err;                     /* errno of the read, 0 = read */
	bool ok;                     /* read and parsed */
	uint64_t run, wait;
};

struct lx_scan {
	int proc_fd;                 /* /proc */
	bool want_cgroup, want_io;
	const struct lx_cgmap *cgmap; /* where processes' cgroups are known without reading */
	long clk_tck;
	uint64_t tick_ns;
	uint64_t page;                /* bytes per page (rss) */
	bool have_prev;
	uint64_t prev_boot_ns;       /* CLOCK_BOOTTIME at the previous refresh */
	/* The one instant of this refresh: every thread's blocked time runs to
	 * it, so an idle thread's RUN+WAIT+BLK is exactly the interval (not
	 * the interval plus the jitter of when its files were read), and
	 * mono_ns, the sample's stamp, is the same instant on the monotonic
	 * clock (boot time minus an offset that changes only on suspend). */
	uint64_t now_boot_ns, mono_ns, boot_minus_mono;
	/* this refresh */
	struct lx_proc *proc;
	size_t nproc, proc_cap;
	struct lx_thr *tnow;         /* threads seen now, parallel to proc slices */
	size_t ntnow, tnow_cap;
	/* kept state: previous (old) and being built (new), swapped each refresh */
	struct lx_thr *told;
	size_t ntold, told_cap;
	struct lx_index tidx;
	struct lx_pst *pold, *pnew;
	size_t npold, pold_cap, npnew, pnew_cap;
	struct lx_index pidx, nidx;
	uint64_t *gone;              /* scratch: depth << 32 | old state of a vanished process */
	size_t gone_cap;
	struct lx_keep *keep;        /* processes whose files stay open */
	size_t nkeep, keep_cap;
	struct lx_index kidx;        /* pid -> keep index */
	size_t keep_fds, keep_max;   /* kept descriptors, and at most (half the limit) */
	size_t keep_limit;           /* keep_max if not 0 (tests), else from RLIMIT_NOFILE */
	struct lx_sched *pre;        /* the process being scanned: its kept threads
	                                read before its stat (lx_threads_unmoved) */
	size_t npre, pre_cap;
};

int lx_scan_open(struct lx_scan *sc, struct xg_err *err);
/* Reads every process and thread; fills proc/tnow and the deltas. */
int lx_scan_run(struct lx_scan *sc, struct xg_err *err);
void lx_scan_close(struct lx_scan *sc);
/* Every process's files are kept open while the descriptor budget
 * allows; a process asked for here (a VM, asked again after every scan)
 * may use all of the budget, the others three quarters of it. */
void lx_scan_keep(struct lx_scan *sc, uint32_t pid, uint64_t start);

/* Where one process's files are read from in a scan: its kept files, else
 * by path relative to /proc. */
struct lx_src {
	struct lx_scan *sc;
	const char *name;            /* "PID" */
	struct lx_keep *k;
};
/* Reads one of the process's files ("stat", "io"): through *kfd (a kept
 * descriptor of s->k, opened and kept when -1 and the budget allows), else
 * by path. Returns the length or -errno. */
ssize_t lx_src_read(struct lx_src *s, int *kfd, const char *file, char *buf, size_t cap);

/* ---- linux_task.c: the threads of one process ---- */

/* Reads the threads of process p (nthreads from its stat): their
 * schedstat, and turns them into p's run, wait and blocked deltas. */
void lx_scan_threads(struct lx_src *s, struct lx_proc *p, uint64_t nthreads);
/* Before the stat of a kept process: reads its kept threads' schedstat (into
 * sc->pre, for lx_scan_threads) and tells whether it is the process of the
 * last refresh with the same threads, none of which ran or waited since.
 * Such a process cannot have changed its stat but for rss, its state (a
 * thread woken that has not run yet) and its parent (when that exits); VMs
 * (lx_scan_keep) are never taken as unmoved. */
bool lx_threads_unmoved(struct lx_src *s);

/* ---- linux_keep.c: the kept files ---- */

struct lx_keep *lx_keep_find(struct lx_scan *sc, uint32_t pid);
/* The kept files of pid, added when new (and indexed at the sweep); marks
 * it seen in this scan. */
struct lx_keep *lx_keep_get(struct lx_scan *sc, uint32_t pid);
/* Before a scan: the descriptor budget (half of RLIMIT_NOFILE). */
void lx_keep_budget(struct lx_scan *sc);
/* After a scan: closes the files of processes no longer listed, clears the
 * marks and re-indexes the rest. */
void lx_keep_sweep(struct lx_scan *sc);
void lx_keep_drop(struct lx_scan *sc, struct lx_keep *k);
void lx_keep_free(struct lx_scan *sc);
/* Opens path (relative to dirfd) to be kept for k, within the budget (so
 * kept files never starve the rest). Returns the descriptor, -EMFILE when
 * over the budget (the caller reads the file by path), or the open's
 * -errno. */
int lx_keep_open(struct lx_scan *sc, const struct lx_keep *k, int dirfd, const char *path);
/* Closes a kept descriptor (-1: none) and sets it to -1. */
void lx_keep_close(struct lx_scan *sc, int *fd);
/* pread() of a kept file, NUL-terminated; -errno on failure. */
ssize_t lx_keep_pread(int fd, char *buf, size_t cap);
/* The kept schedstat of thread tid of k, opened as path relative to dirfd
 * when new (or closed after a failed read); NULL when it cannot be kept.
 * The caller marks it seen; lx_keep_prune() then closes the threads not
 * seen and clears the marks. */
struct lx_kthr *lx_keep_thread(struct lx_scan *sc, struct lx_keep *k, int dirfd, const char *path,
				uint32_t tid);
void lx_keep_prune(struct lx_scan *sc, struct lx_keep *k, uint64_t nthreads);

/* ---- linux_account.c: per-process io and reaped children's CPU ---- */

/* Starts this refresh's state of p (pnew[i] for proc[i]) from its stat,
 * linked to its previous state when it is the same process; sets p->idle. */
struct lx_pst *lx_account_read(struct lx_scan *sc, struct lx_proc *p, const struct lx_stat *st);
/* Keeps p's /proc/PID/io: io is its text (NULL when not read), io_err the
 * errno of a failed read. */
void lx_account_io(struct lx_pst *n, struct lx_proc *p, const char *io, int io_err);
/* An idle p: its io (and netns) are the previous refresh's. */
void lx_account_carry(struct lx_scan *sc, struct lx_pst *n, struct lx_proc *p);
/* After the scan: debts of vanished processes, then every process's deltas
 * (sc->nidx indexes this refresh's processes by pid, after). */
void lx_account_settle(struct lx_scan *sc);

/* ---- linux_node.c: host facts ---- */

struct xg_host;
struct xg_sample;
struct lx_node {
	char hypervisor[64];         /* "Linux 6.1.0 (KVM)" */
	char hostname[64];
	uint64_t cpu_khz;            /* 0 = unknown */
	uint64_t ticks_per_s;        /* USER_HZ, the unit of /proc/stat */
	uint64_t swap_total;         /* bytes, at the last fill */
};
void lx_node_open(struct lx_node *n);
/* Fills the node part of h (source, clocks, pcpus, memory, ...). */
void lx_node_fill(struct lx_node *n, struct xg_host *h);
/* Appends one pCPU entry per online CPU of /proc/stat to out, or sets
 * out->pcpu_why when it cannot be read. */
void lx_node_pcpus(const struct lx_node *n, struct xg_sample *out);

/* ---- linux_group.c: process mode ---- */

/* Sets leader[i] to the index of the process that heads process i's group
 * (rule in doc/linux-source.md). leader has nproc entries; idx is scratch. */
void lx_group_leaders(const struct lx_proc *proc, size_t nproc, int32_t *leader,
		      struct lx_index *idx);

#endif
