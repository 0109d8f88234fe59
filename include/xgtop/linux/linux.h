/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Internals of the Linux source (source_linux.c and the linux_*.c helpers):
 * text parsers for /proc and cgroup v2 files, a small id index, the /proc
 * scanner with its per-thread scheduler accounting, process grouping and
 * cgroup discovery. Only the Linux source and its tests include this. */
#ifndef XGTOP_LINUX_H
#define XGTOP_LINUX_H

#include "xgtop/core/common.h"
#include "xgtop/core/netdev.h"
#include "xgtop/model/sample.h"

#include <dirent.h>
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
/* A decimal /proc entry name (a pid or tid); false for any other name. */
bool lx_parse_id(const char *s, uint32_t *out);
/* schedstat: ns on a CPU, ns waiting on a runqueue */
bool lx_parse_schedstat(const char *buf, uint64_t *run_ns, uint64_t *wait_ns);
/* /proc/PID/statm: resident pages (its second field) */
bool lx_parse_statm(const char *buf, uint64_t *pages);
/* /proc/PID/status VmSwap, in bytes */
bool lx_parse_vmswap(const char *buf, uint64_t *bytes);
/* /proc/PID/fdinfo/N of a tun/tap descriptor: the interface ("iff:") */
bool lx_parse_fdinfo_iff(const char *buf, char name[16]);
/* cgroup cpu.stat usage_usec */
bool lx_parse_cpu_stat(const char *buf, uint64_t *usage_usec);
/* cgroup.stat nr_descendants: the live cgroups below this one */
bool lx_parse_cg_descendants(const char *buf, uint64_t *n);

struct lx_io {
	uint64_t rbytes, wbytes, rios, wios;
};
/* cgroup io.stat, summed over devices */
bool lx_parse_io_stat(const char *buf, struct lx_io *out);
/* /proc/PID/io: read_bytes, write_bytes (rios/wios left 0) */
bool lx_parse_proc_io(const char *buf, struct lx_io *out);

struct lx_meminfo {
	uint64_t total, avail;       /* bytes */
	uint64_t swap_total;         /* bytes, 0 = no swap (or not said) */
};
bool lx_parse_meminfo(const char *buf, struct lx_meminfo *out);
struct lx_net {
	uint64_t rx_bytes, rx_pkts, rx_errs, rx_drop;
	uint64_t tx_bytes, tx_pkts, tx_errs, tx_drop;
	uint32_t nifs;               /* interfaces counted (all but lo) */
};
/* /proc/PID/net/dev, summed over every interface but lo; false when a
 * line is not an interface line (the text was cut). */
bool lx_parse_net_dev(const char *buf, struct lx_net *out);
/* Every interface line of net/dev, in order, at most max, up to the first
 * line that is not one; returns the count. */
size_t lx_parse_net_devs(const char *buf, struct xg_netdev *out, size_t max);
/* memory.max / memory.current: a number, or "max" = UINT64_MAX */
bool lx_parse_limit(const char *buf, uint64_t *out);
/* The cgroup v2 line ("0::/path") of /proc/PID/cgroup: sets *path (not
 * NUL-terminated, starts with '/') and *len. */
bool lx_parse_cgroup_path(const char *buf, const char **path, size_t *len);
/* A "cpuN ..." line of /proc/stat: N, and its busy (user nice system irq
 * softirq steal) and idle (idle iowait) clock ticks; guest time is in user
 * and nice already. false for any other line. */
bool lx_parse_stat_cpu(const char *line, uint32_t *id, uint64_t *busy, uint64_t *idle);
/* First "cpu MHz" of /proc/cpuinfo, in kHz. */
bool lx_parse_cpu_mhz(const char *buf, uint64_t *khz);
/* A mountinfo line of a cgroup2 mount: copies root and mount point. */
bool lx_parse_mountinfo_cgroup2(const char *line, char *root, size_t rn, char *mnt, size_t mn);

/* ---- linux_read.c (files: core's xg_read_at) ---- */

/* opendir() of path relative to dirfd (-1: NULL); errno set on failure. */
DIR *lx_opendir_at(int dirfd, const char *path);

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

/* ---- linux_cgmap.c: the processes' cgroups from cgroup.procs ---- */

#define LX_CGMAP_PATH_MAX 200    /* longer paths are read from /proc/PID/cgroup */
struct lx_cgnode {
	uint32_t path;               /* offset in lx_cgmap.names ("" = the root) */
	int32_t parent;              /* -1 for the root */
	bool unread;                 /* its cgroup.procs could not be read */
	bool unsure;                 /* its list does not say where its processes are */
};
struct lx_cgmap {
	bool usable;                 /* /proc shows pids of our pid namespace */
	bool walked;                 /* this refresh's map is there */
	char *names;                 /* the cgroups' paths below the mount, NUL-ended */
	size_t nnames, names_cap;
	struct lx_cgnode *node;
	size_t nnode, node_cap;
	uint64_t *pairs;             /* pid << 32 | node, as listed */
	size_t npairs, pairs_cap;
	struct lx_index pid;         /* pid -> node */
};
void lx_cgmap_open(struct lx_cgmap *m);
/* Lists every cgroup's processes below root_fd, when there are several
 * processes (nproc: the last scan's) for each cgroup; else leaves the map
 * empty for this refresh. */
void lx_cgmap_walk(struct lx_cgmap *m, int root_fd, size_t nproc);
/* pid's cgroup path as the 0:: line of /proc/PID/cgroup gives it ("/a/b"),
 * cut to n - 1 bytes; false when the walk did not place pid exactly once
 * (or there was no walk, or m is NULL): read /proc/PID/cgroup then. */
bool lx_cgmap_path(const struct lx_cgmap *m, uint32_t pid, char *out, size_t n);
void lx_cgmap_close(struct lx_cgmap *m);

/* ---- linux_vmargs.c: what a QEMU process says about its VM ---- */

enum lx_accel { LX_ACCEL_NONE, LX_ACCEL_KVM, LX_ACCEL_TCG, LX_ACCEL_OTHER };

struct lx_vmconf {               /* from the command line */
	char name[XG_NAME_MAX];      /* -name guest=NAME or -name NAME, "" = none */
	bool has_uuid;
	uint8_t uuid[16];            /* -uuid */
	uint64_t mem;                /* -m, bytes; 0 = not given */
	uint32_t cpus, maxcpus;      /* -smp; 0 = not given */
	int64_t vmid;                /* Proxmox's -id N, -1 = none */
	enum lx_accel accel;         /* -accel, -enable-kvm, -machine accel=; NONE = not said */
};
/* Parses QEMU's arguments: len bytes of NUL-separated strings (the
 * command line after argv[0]). Option strings ("guest=a,,b,debug-threads=on")
 * read ",," as a comma, and a first item without '=' as the option's main
 * key (guest, size, accel); -m takes a number (fractions allowed) with an
 * optional suffix B K M G T P E (powers of 1024), MiB without one; -smp
 * takes cpus (a first number or cpus=), maxcpus=, else what the topology
 * (sockets, dies, clusters, cores, threads ...) multiplies to. */
void lx_vm_parse_args(const char *args, size_t len, struct lx_vmconf *c);
/* A QEMU process name: qemu-system-*, qemu-kvm, or Proxmox's kvm. */
bool lx_is_qemu_comm(const char *comm);
/* QEMU's name for a vCPU thread, "CPU <n>/<ACCEL>" (and "ALL CPUs/TCG",
 * single-threaded TCG, as vCPU 0): n and the accelerator, or LX_NO_VCPU. */
int32_t lx_vcpu_thread(const char *comm, enum lx_accel *accel);

enum lx_scope_kind { LX_SCOPE_NONE, LX_SCOPE_LIBVIRT, LX_SCOPE_PROXMOX };
struct lx_vmscope {
	enum lx_scope_kind kind;
	size_t len;                  /* the scope is path[0, len) */
	int64_t id;                  /* libvirt's domain id or Proxmox's VMID, -1 */
	char name[XG_NAME_MAX];      /* libvirt's machine name (unescaped, maybe cut) */
};
/* Finds a libvirt scope (machine-qemu\x2d<id>\x2d<name>.scope, or
 * qemu-<id>-<name>.libvirt-qemu without systemd) or a Proxmox one
 * (qemu.slice/<vmid>.scope) in a cgroup path. */
bool lx_vm_scope(const char *path, struct lx_vmscope *out);

/* ---- linux_kvm.c: KVM's own statistics (debugfs kvm/<pid>-<fd>/) ---- */

enum lx_kvm_stat { LX_KVM_EXITS, LX_KVM_POLL_OK_NS, LX_KVM_POLL_FAIL_NS, LX_KVM_NSTAT };
struct lx_kvm {
	int dir_fd;                  /* debugfs kvm/, -1 = none */
	bool mounted;                /* debugfs mounted by us (unmounted at close) */
	char why[128];               /* why there are no statistics, "" = there are */
};
/* Finds debugfs's kvm directory; mounts debugfs when running as root and
 * it is not mounted. Never fails: a host without it gets a reason. */
void lx_kvm_open(struct lx_kvm *k);
void lx_kvm_close(struct lx_kvm *k);
/* Reads the VM's statistics from dir "<pid>-<vmfd>" (fds kept in fd[],
 * -1 = not open yet). Returns 0, or an errno with why set. */
int lx_kvm_read(struct lx_kvm *k, uint32_t pid, int vmfd, int fd[LX_KVM_NSTAT],
		uint64_t out[LX_KVM_NSTAT], char *why, size_t n);
/* A copy of one of QEMU's vCPU statistics descriptors (KVM's binary
 * statistics) and where its figures are in it. */
struct lx_kvmfd {
	int fd;
	uint32_t off[LX_KVM_NSTAT];  /* byte offsets of the values */
};
/* Copies QEMU's descriptor qfd (pidfd_getfd on pidfd) and finds the
 * statistics in it: 0, or an errno (k->fd -1). */
int lx_kvm_borrow(int pidfd, int qfd, struct lx_kvmfd *k);
/* One vCPU's statistics: 0, or an errno. */
int lx_kvm_fd_read(const struct lx_kvmfd *k, uint64_t out[LX_KVM_NSTAT]);
/* The vCPU threads KVM knows: vcpuN/pid of the VM's directory (readable
 * where the statistics are locked down), as N << 32 | tid; returns the
 * count. */
size_t lx_kvm_vcpu_tids(struct lx_kvm *k, uint32_t pid, int vmfd, uint64_t *out, size_t max);

/* ---- linux_vm.c: QEMU processes as virtual machines ---- */

#define LX_VM_TAPS 8
struct lx_tap {
	char ifname[16];
	bool macvtap;                /* counts the guest's direction, tap the host's */
};

struct lx_vm {
	uint32_t pid;
	uint64_t start;              /* identity with pid (clock ticks since boot) */
	char comm[32];
	int32_t proc;                /* this refresh: index in lx_scan.proc, -1 = gone */
	uint32_t id, want_id;        /* domain id: VMID, libvirt's id, else the pid */
	char name[XG_NAME_MAX];
	struct lx_vmconf conf;
	struct lx_vmscope scope;
	char cg[256];                /* its own cgroup, relative to the cgroup2 root, "" = none */
	bool other_netns;            /* QEMU runs in another network namespace than xgtop */
	enum lx_accel accel;         /* from its threads, its fds, else its arguments */
	uint32_t nvcpu;              /* vCPU threads found this refresh */
	bool vcpu_named;             /* ... by their names (else by vcpuN cgroups / KVM) */
	bool paused;
	/* descriptors of the QEMU process, listed when their number changes */
	int fd_dir;                  /* /proc/PID/fd kept open (fstat gives the count) */
	bool fd_ok;
	int fd_err;
	uint64_t fd_count;
	uint32_t fd_age;             /* refreshes since the last listing */
	int kvm_fd;                  /* QEMU's kvm-vm descriptor, -1 = none */
	uint32_t ntap;
	struct lx_tap tap[LX_VM_TAPS];
	/* KVM's statistics: copies of QEMU's vCPU statistics descriptors
	 * (kvm-vcpu-stats), else debugfs files kept open */
	int *vstat_q;                /* QEMU's descriptor numbers, at the last listing */
	uint32_t nvstat_q;
	size_t vstat_q_cap;
	struct lx_kvmfd *vstat;      /* our copies */
	uint32_t nvstat;
	size_t vstat_cap;
	int kvm_sfd[LX_KVM_NSTAT];
	int kvm_err;                 /* 0 = read */
	char kvm_why[160];
	uint64_t kvm[LX_KVM_NSTAT];
	int swap_err;                /* 0 = swap read */
	uint64_t swap;               /* bytes */
	int cg_io_fd;                /* its own cgroup's io.stat, kept; -1 */
	bool cgio_missing;           /* no io.stat there (io controller off) */
	bool cgio_ok;
	struct lx_io cgio;
};

struct lx_vms {
	struct lx_vm *vm;
	size_t n, cap;
	struct lx_index idx;         /* pid -> index, rebuilt each refresh */
	struct lx_index ids;         /* domain id -> index, to keep ids unique */
	struct lx_kvm kvm;
	bool kvm_tried;              /* lx_kvm_open done (at the first KVM guest) */
	bool no_swap;                /* the host has no swap: every VM's is 0 */
	uint64_t netns;              /* xgtop's network namespace inode, 0 = unknown */
	struct xg_netdev *netif;     /* /proc/net/dev this refresh (when a VM has taps) */
	size_t nnetif, netif_cap;
	int netdev_err;
	char *args;                  /* scratch: a command line */
	size_t args_cap;
	uint64_t *pairs;             /* scratch: vCPU << 32 | tid */
	size_t pairs_cap;
};
void lx_vms_open(struct lx_vms *vt);
/* Finds the VMs among sc's processes (cg: for their cgroups, may have no
 * root), names them, marks their vCPU threads and reads what only VMs
 * have; asks sc to keep their files open. */
void lx_vms_update(struct lx_vms *vt, struct lx_scan *sc, const struct lx_cgroup *cg);
/* true when a QEMU process runs (what --group auto asks at start). */
bool lx_vms_present(int proc_fd);
void lx_vms_close(struct lx_vms *vt);

/* ---- linux_vmread.c: a VM's figures of this refresh ---- */

void lx_vm_refresh(struct lx_vms *vt, struct lx_scan *sc, struct lx_vm *vm, const struct lx_cgroup *cg);
/* Reads /proc/net/dev into vt->netif when some VM has a tap. */
void lx_vms_netdev(struct lx_vms *vt);

/* ---- linux_vmfill.c: a VM's own figures into the sample ---- */

#define LX_WHY_NO_VCPUS "no vCPU threads found: QEMU names them only with -name ...,debug-threads=on, " \
	"and neither libvirt's vcpuN cgroups nor KVM's vcpuN/pid listed them"
struct lx_dom;
/* VCPUS, VCPUS_MAX, MAXMEM (configured), SWAP, EMU, KVM's exits and halt
 * polling, the taps' traffic (unless nonet), paused. */
void lx_vm_fill(struct xg_sample *out, struct xg_dom *x, const struct lx_dom *d,
		const struct lx_vm *vm, const struct lx_vms *vt, bool nonet);
/* The network fields of x from n, or all invalid with why (n NULL). */
void lx_fill_net(struct xg_sample *out, struct xg_dom *x, const struct lx_net *n, const char *why);
/* The reason of the VM-only fields for every domain (before they are
 * filled), and the VM flag of the sample in VM mode. */
void lx_vm_absent(struct xg_sample *out, bool vm_mode);

/* ---- linux_domain.c: processes -> domains, cumulative domain counters ---- */

/* One domain of this refresh, with its processes' figures summed. */
struct lx_dom {
	uint32_t id;
	uint8_t handle[16];
	uint32_t gen;                /* VMs: the QEMU process's start time */
	char name[128];
	int32_t cg;                  /* index in lx_cgroup.dom, -1 in process mode */
	int32_t vm;                  /* index in lx_vms.vm, -1 = not a VM */
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
	uint32_t nvcpu;              /* vCPU threads */
	bool vcpu_runnable;          /* one of them is runnable (R) now */
	uint64_t d_vrun, d_vwait, d_vblk;  /* the vCPU threads' part of d_run ... */
	/* cumulative since the domain was first seen (or its handle changed);
	 * base_ns = CPU its processes had used before that, so that
	 * base + run + child is the group's CPU since its processes started;
	 * vrun.. = the vCPU threads' part, emu = the rest plus child */
	uint64_t run, wait, blk, child_ns, base_ns;
	uint64_t vrun, vwait, vblk, emu;
	struct lx_io io;
};

/* Kept between refreshes: a domain's cumulative counters. */
struct lx_acc {
	uint32_t id;
	uint8_t handle[16];
	uint32_t gen;
	uint64_t run, wait, blk, child_ns, base_ns;
	uint64_t vrun, vwait, vblk, emu;
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

/* Groups sc's processes into domains and updates the cumulative counters:
 * VMs and one "host" domain (vms != NULL), cgroups (cg != NULL), else
 * process groups. */
void lx_doms_build(struct lx_doms *ds, struct lx_scan *sc, struct lx_cgroup *cg,
		   const struct lx_vms *vms);
#define LX_HOST_ID 0             /* the host's own processes, in VM mode */
void lx_doms_free(struct lx_doms *ds);

#endif
