/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Private to src/linux (and its tests): Parsers of the text of /proc and cgroup v2 files, captured and
 * NUL-terminated (linux_parse.c), the file reads around them (linux_read.c)
 * and the small id index (linux_index.c). */
#ifndef XGTOP_SRC_LINUX_LINUX_TEXT_H
#define XGTOP_SRC_LINUX_LINUX_TEXT_H

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

#endif
