/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Internals of the Linux source (source_linux.c and the linux_*.c helpers):
 * text parsers for /proc and cgroup v2 files, a small id index, the /proc
 * scanner with its per-thread scheduler accounting, process grouping and
 * cgroup discovery. Only the Linux source and its tests include this. */
#ifndef XGTOP_LINUX_H
#define XGTOP_LINUX_H

#include "xgtop/core/common.h"

#include <sys/types.h>

/* ---- linux_parse.c: parsers of captured text (NUL-terminated) ---- */

struct lx_stat {                 /* /proc/PID/stat (or task/TID/stat) */
	char comm[32];
	char state;
	int32_t ppid, pgrp, sid;
	uint64_t utime, stime;       /* clock ticks */
	uint64_t cutime, cstime;     /* clock ticks of reaped children */
	uint64_t nthreads;
	uint64_t starttime;          /* clock ticks since boot */
	uint64_t rss_pages;
};
bool lx_parse_stat(const char *buf, struct lx_stat *out);
/* schedstat: ns on a CPU, ns waiting on a runqueue */
bool lx_parse_schedstat(const char *buf, uint64_t *run_ns, uint64_t *wait_ns);
/* cgroup cpu.stat usage_usec */
bool lx_parse_cpu_stat(const char *buf, uint64_t *usage_usec);

struct lx_io {
	uint64_t rbytes, wbytes, rios, wios;
};
/* cgroup io.stat, summed over devices */
bool lx_parse_io_stat(const char *buf, struct lx_io *out);
/* /proc/PID/io: read_bytes, write_bytes (rios/wios left 0) */
bool lx_parse_proc_io(const char *buf, struct lx_io *out);

struct lx_meminfo {
	uint64_t total, avail;       /* bytes */
};
bool lx_parse_meminfo(const char *buf, struct lx_meminfo *out);
struct lx_net {
	uint64_t rx_bytes, rx_pkts, rx_errs, rx_drop;
	uint64_t tx_bytes, tx_pkts, tx_errs, tx_drop;
	uint32_t nifs;               /* interfaces counted (all but lo) */
};
/* /proc/PID/net/dev, summed over every interface but lo. */
bool lx_parse_net_dev(const char *buf, struct lx_net *out);
/* memory.max / memory.current: a number, or "max" = UINT64_MAX */
bool lx_parse_limit(const char *buf, uint64_t *out);
/* The cgroup v2 line ("0::/path") of /proc/PID/cgroup: sets *path (not
 * NUL-terminated, starts with '/') and *len. */
bool lx_parse_cgroup_path(const char *buf, const char **path, size_t *len);
/* First "cpu MHz" of /proc/cpuinfo, in kHz. */
bool lx_parse_cpu_mhz(const char *buf, uint64_t *khz);
/* A mountinfo line of a cgroup2 mount: copies root and mount point. */
bool lx_parse_mountinfo_cgroup2(const char *line, char *root, size_t rn, char *mnt, size_t mn);

/* ---- linux_read.c ---- */

/* Reads name (relative to dirfd) into buf with one read() in the usual
 * case, NUL-terminates it. Returns the length, or -errno. */
ssize_t lx_read_at(int dirfd, const char *name, char *buf, size_t cap);

/* ---- linux_index.c: uint32 key -> index, rebuilt each refresh ---- */

struct lx_index {
	uint64_t *slot;              /* key << 32 | (index + 1); 0 = empty */
	size_t cap;                  /* power of two */
};
/* Empties x and sizes it for n keys (keeps its memory). */
void lx_index_reset(struct lx_index *x, size_t n);
void lx_index_put(struct lx_index *x, uint32_t key, uint32_t idx);
/* The index stored for key, or -1. */
int64_t lx_index_get(const struct lx_index *x, uint32_t key);
void lx_index_free(struct lx_index *x);
/* The refresh-to-refresh double buffer of per-item state: makes this
 * refresh's array (*now) last refresh's (*old), empties *now keeping its
 * memory, and indexes the old items by the uint32_t key at key_off in
 * each item of size `size`. */
void lx_gen_rotate(void *old, size_t *old_cap, size_t *nold, void *now, size_t *now_cap,
                   size_t *nnow, struct lx_index *idx, size_t size, size_t key_off);

/* ---- linux_proc.c: one pass over /proc ---- */

#define LX_NO_VCPU (-1)          /* thread is not a QEMU vCPU thread */

/* Per-thread state kept between refreshes. */
struct lx_thr {
	uint32_t tid;
	int32_t vcpu_no;             /* QEMU "CPU n/KVM" thread number, or LX_NO_VCPU */
	bool renamed;                /* name read again on the second sighting */
	uint64_t start;              /* clock ticks since boot (identity) */
	uint64_t run, wait, blk;     /* cumulative ns; blk = life - run - wait */
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
};

/* One process as seen in this refresh. */
struct lx_proc {
	uint32_t pid, ppid, sid;
	uint64_t start;              /* clock ticks since boot */
	char comm[32];
	char state;
	uint64_t rss;                /* bytes */
	uint32_t nthr;
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

struct lx_scan {
	int proc_fd;                 /* /proc */
	bool want_cgroup, want_io;
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
};

int lx_scan_open(struct lx_scan *sc, struct xg_err *err);
/* Reads every process and thread; fills proc/tnow and the deltas. */
int lx_scan_run(struct lx_scan *sc, struct xg_err *err);
void lx_scan_close(struct lx_scan *sc);

/* ---- linux_account.c: per-process io and reaped children's CPU ---- */

/* Reads /proc/PID/io (when wanted) and keeps the raw counters of p. */
void lx_account_read(struct lx_scan *sc, struct lx_proc *p, int pfd, const struct lx_stat *st);
/* After the scan: debts of vanished processes, then every process's deltas. */
void lx_account_settle(struct lx_scan *sc);

/* ---- linux_node.c: host facts ---- */

struct xg_host;
struct xg_sample;
struct lx_node {
	char hypervisor[64];         /* "Linux 6.1.0 (KVM)" */
	char hostname[64];
	uint64_t cpu_khz;            /* 0 = unknown */
	uint64_t ticks_per_s;        /* USER_HZ, the unit of /proc/stat */
};
void lx_node_open(struct lx_node *n);
/* Fills the node part of h (source, clocks, pcpus, memory, ...). */
void lx_node_fill(const struct lx_node *n, struct xg_host *h);
/* A "cpuN ..." line of /proc/stat: N, and its busy (user nice system irq
 * softirq steal) and idle (idle iowait) clock ticks; guest time is in user
 * and nice already. false for any other line. */
bool lx_parse_stat_cpu(const char *line, uint32_t *id, uint64_t *busy, uint64_t *idle);
/* Appends one pCPU entry per online CPU of /proc/stat to out, or sets
 * out->pcpu_why when it cannot be read. */
void lx_node_pcpus(const struct lx_node *n, struct xg_sample *out);

/* ---- linux_group.c: process mode ---- */

/* Sets leader[i] to the index of the process that heads process i's group
 * (rule in doc/linux-source.md). leader has nproc entries; idx is scratch. */
void lx_group_leaders(const struct lx_proc *proc, size_t nproc, int32_t *leader,
		      struct lx_index *idx);

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

/* ---- linux_domain.c: processes -> domains, cumulative domain counters ---- */

/* One domain of this refresh, with its processes' figures summed. */
struct lx_dom {
	uint32_t id;
	uint8_t handle[16];
	char name[128];
	int32_t cg;                  /* index in lx_cgroup.dom, -1 in process mode */
	bool own_only;               /* cgroup figures do not apply (root, slice) */
	int32_t head;                /* first process (lx_proc.next links the rest) */
	uint32_t nthr;
	uint64_t rss;
	uint64_t d_run, d_wait, d_blk;
	struct lx_io d_io;
	uint64_t d_child_ns;
	uint64_t used_ns;            /* Σ utime+stime+cutime+cstime of its processes now */
	int io_err, sched_err;       /* first errno seen, 0 = all read */
	bool runnable;
	/* cumulative since the domain was first seen (or its handle changed);
	 * base_ns = CPU its processes had used before that, so that
	 * base + run + child is the group's CPU since its processes started */
	uint64_t run, wait, blk, child_ns, base_ns;
	struct lx_io io;
};

/* Kept between refreshes: a domain's cumulative counters. */
struct lx_acc {
	uint32_t id;
	uint8_t handle[16];
	uint64_t run, wait, blk, child_ns, base_ns;
	struct lx_io io;
};

struct lx_doms {
	struct lx_dom *dom;
	size_t ndom, dom_cap;
	int32_t *leader;             /* process mode scratch */
	size_t leader_cap;
	struct lx_index idx;         /* scratch: pid or path hash -> index */
	struct lx_acc *aold, *anew;
	size_t naold, aold_cap, nanew, anew_cap;
	struct lx_index aidx;
};

/* Groups sc's processes into domains (cg == NULL: process mode) and
 * updates the cumulative counters. */
void lx_doms_build(struct lx_doms *ds, struct lx_scan *sc, struct lx_cgroup *cg);
void lx_doms_free(struct lx_doms *ds);

#endif
