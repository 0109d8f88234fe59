/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Private to src/linux: wait attribution and run-queue latency from the
 * kernel's scheduler tracepoints (a BPF program, linux_waits.bpf.c, loaded
 * with libbpf by soname: linux_waits.c), and their sharing out to the
 * domains of a refresh (linux_waitfill.c). */
#ifndef XGTOP_SRC_LINUX_LINUX_WAITS_H
#define XGTOP_SRC_LINUX_LINUX_WAITS_H

#include "linux_domain.h"
#include "waits_abi.h"
#include "xgtop/model/waitsum.h"

struct lx_waits_bpf;
/* What a thread waited behind one culprit process on one CPU in the
 * interval (the BPF side's slots; the fill sums a pair's CPUs). */
struct lx_wpair {
	uint32_t tid, tgid;
	uint64_t cgid, ns;
};
/* The waits of one length bucket a thread ended on one CPU. */
struct lx_wlen {
	uint32_t tid, bucket;
	uint64_t count, len_ns;
};
/* A domain's running wait totals: the sample's cumulative wait counters
 * (a domain that restarts under its id starts again). */
struct lx_wsum {
	struct xg_dom_ident ident;
	bool used;
	struct xg_waitsum s;
};
struct lx_waits {
	struct lx_waits_bpf *b;      /* NULL: not collected, why says why */
	char why[200];
	/* drained at the last refresh: what ended since the one before */
	struct lx_wpair *pair;
	size_t npair, cpair;
	struct lx_wlen *len;
	size_t nlen, clen;
	__u64 lost_ns, lost_waits, beyond_log;   /* cumulative (the BPF side's stats) */
	/* linux_waitfill.c's scratch */
	struct lx_index tidx, pidx;
	int32_t *thr_proc;
	size_t thr_proc_cap;
	uint64_t *order;
	size_t order_cap;
	uint64_t *hsum;
	/* each domain's running totals, in the last fill's domain order */
	struct lx_wsum *wsum, *wnext;
	size_t nwsum, cwsum, cwnext;
	struct lx_index widx;        /* domain id -> index in wsum */
};

/* Loads and attaches the program; on failure w->why says why (the
 * columns' reason) and the source carries on without it. */
void lx_waits_open(struct lx_waits *w);
/* Reads and empties the program's maps into w. */
int lx_waits_drain(struct lx_waits *w, struct xg_err *err);
/* Unloads the program after a failure; why becomes the columns' reason. */
void lx_waits_stop(struct lx_waits *w, const char *why);
void lx_waits_close(struct lx_waits *w);

/* Puts the last drain into the domains of out: ds->dom[i] is out->dom[first + i].
 * Sets the interval's fields (BEHIND, WAIT-P50/P99) and adds the waits to
 * each domain's running totals, which become its xg_waits entry. */
void lx_waits_fill(struct lx_waits *w, const struct lx_scan *sc, const struct lx_doms *ds,
		   const struct lx_cgroup *cg, bool vm_mode, struct xg_sample *out, size_t first);
/* The q-quantile (0..1) of a histogram of LW_BUCKETS counts, interpolated
 * within its bucket, in ns; 0 when it is empty. */
double lx_waits_quantile(const uint64_t *hist, double q);

#endif
