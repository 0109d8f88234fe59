/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Runstate accounting: per (domain, vCPU) running / runnable / blocked /
 * offline / lost time from the scheduler events xentrace.h decodes and
 * merges, by xgtop's own rules (xentrace_account.c) or xenalyze's
 * (xentrace_compat.c). Used by `xgtop trace FILE`, `--source trace` and
 * the live consumer of Xen's trace buffers. */
#ifndef XGTOP_XENTRACE_ACCOUNT_H
#define XGTOP_XENTRACE_ACCOUNT_H

#include "xgtop/trace/xentrace.h"

struct xt_vcpu_acct {
	uint32_t dom;            /* 0..32767; XT_DEFAULT_DOMID = compat placeholder */
	uint16_t vcpu;
	uint8_t state;           /* enum xt_state, or XT_NSTATES = not known yet */
	uint16_t pcpu;           /* where it last ran */
	uint64_t since;          /* tsc the current state began */
	uint64_t cyc[XT_NSTATES];
	uint64_t n[XT_NSTATES];  /* intervals (count) per state */
	/* xenalyze compatibility bookkeeping */
	uint8_t xs;              /* xenalyze's state (incl. INIT) */
	uint64_t xtsc;
	int32_t xp;              /* pCPU, -1 none */
	bool activated;
	uint8_t lo_wrong, lo_actual;
	uint64_t lo_tsc;
	int32_t lo_pid;
	/* wait attribution and latency (xentrace_behind.c), when enabled */
	int32_t ran_pcpu;        /* pCPU it last ran on, -1 none seen */
	bool wait_censored;      /* the open wait began before the trace */
	struct xt_wait_by *by;   /* WAIT cycles by culprit, nby entries */
	uint32_t nby, cby;
	uint32_t *whist;         /* wait lengths in ns (XT_WH_N buckets), NULL none */
	uint64_t wsum_ns;        /* the sum of those lengths */
};

/* Wait attribution ("behind"): a culprit is a domain id (0..32767, the
 * idle domain 32767 included) or XT_BEHIND_XEN, no vCPU on the pCPU
 * (Xen itself between two vCPUs, or nothing known there). */
#define XT_BEHIND_XEN 0x10000u
struct xt_wait_by {
	uint32_t who;
	uint64_t cyc;
};

/* Wait-length histogram in ns: log2 octaves, each cut in XT_WH_SUB equal
 * sub-buckets (percentiles within 1/XT_WH_SUB of an octave); lengths
 * below XT_WH_SUB ns have a bucket each. */
#define XT_WH_SUB_BITS 3
#define XT_WH_SUB (1u << XT_WH_SUB_BITS)
#define XT_WH_N ((64 - XT_WH_SUB_BITS + 1) * XT_WH_SUB)
static inline unsigned xt_wh_bucket(uint64_t ns)
{
	if (ns < XT_WH_SUB)
		return (unsigned)ns;
	unsigned msb = 63u - (unsigned)__builtin_clzll(ns);
	return (msb - XT_WH_SUB_BITS + 1) * XT_WH_SUB +
	       (unsigned)((ns >> (msb - XT_WH_SUB_BITS)) & (XT_WH_SUB - 1));
}
/* Cycles to ns for the histograms: a 32.32 fixed-point product, exact
 * to a part in 10^9, cheaper than xt_cyc_to_ns's division (it runs once
 * per wait). */
static inline uint64_t xt_wh_ns(uint64_t cyc, uint64_t mult)
{
	return (uint64_t)(((unsigned __int128)cyc * mult) >> 32);
}
/* The lengths bucket b holds: [lo, hi). */
void xt_wh_bounds(unsigned b, uint64_t *lo, uint64_t *hi);
/* The q-quantile (0..1) of hist (XT_WH_N counts), interpolated within its
 * bucket, in ns; 0 when it is empty. */
double xt_wh_quantile(const uint64_t *hist, double q);

/* The live consumer's interval: what one domain's vCPUs waited in the
 * waits that ended since the last xt_behind_take (behind and/or
 * wait_hist on). Its parts (by) add up to total_cyc; hist counts those
 * waits' lengths in ns (the ones that ended in running). */
struct xt_dom_waits {
	uint64_t total_cyc;       /* WAIT cycles attributed */
	struct xt_wait_by *by;    /* by culprit, biggest first (ties: lower id) */
	size_t nby, cby;
	uint64_t nwaits;          /* lengths in hist */
	uint64_t sum_ns;          /* their sum */
	uint64_t hist[XT_WH_N];
};

#define XT_DEFAULT_DOMID 32768u   /* compat: xenalyze's placeholder domain */

enum xt_mode { XT_NATIVE, XT_COMPAT };

/* Per (domain, vCPU) running / runnable / blocked / offline / lost time.
 * Domain ids and vCPU ids are 16 bits (idle = 32767): v[] is found through
 * a table indexed directly by domain id, each entry a table indexed by
 * vCPU id (both grown on demand), so every event costs two array reads
 * rather than a hash probe, and no domid or vcpu limit applies. */
struct xt_dom_ix {
	uint32_t *ix;             /* index + 1 into v by vCPU id, 0 = none */
	uint32_t cap;
};
struct xt_acct {
	enum xt_mode mode;
	struct xt_vcpu_acct *v;
	size_t nv, vcap;
	struct xt_dom_ix *dix;    /* by domain id */
	size_t ndix;
	uint64_t start_tsc, end_tsc;
	bool started;
	uint64_t lost_records, lost_events;
	uint64_t first_lost_tsc;  /* 0: no loss seen */
	uint64_t inconsistent;    /* records whose old state contradicted ours */
	/* per pCPU */
	struct xt_pcpu_acct {
		int32_t current;      /* vCPU index running there, -1 none */
		int32_t dflt;         /* compat: xenalyze's default vCPU, -1 none */
		uint64_t first_tsc, last_tsc;
		bool lost_active, lost_dom_valid, seen_valid_schedule, active;
		uint64_t lost_tsc;
		uint16_t lost_dom, lost_vcpu;
	} *p;
	size_t np, pcap;
	int lost_cpus;
	/* Wait attribution (behind) and latency histograms, native mode
	 * only: off unless xt_acct_behind() turned them on. Each pCPU's log
	 * says who ran there since the oldest wait still open. */
	bool behind, wait_hist;
	bool waits;               /* either */
	uint64_t ns_mult;         /* the histograms' conversion: ns = cyc * ns_mult >> 32 */
	uint64_t behind_horizon;  /* cycles: a pCPU log keeps no more than this much
	                             history even for older open waits (0: all) */
	struct xt_seglog {
		struct xt_seg { uint64_t tsc; uint32_t who; } *s;
		size_t n, cap;
	} *plog;
	size_t nplog;
	uint64_t compat_abort;    /* conditions on which xenalyze would stop */
	uint64_t compat_skew;     /* xenalyze would correct TSC skew here */
};

void xt_acct_init(struct xt_acct *a, enum xt_mode mode);
void xt_acct_free(struct xt_acct *a);
/* Trace start: vCPUs first seen later are back-dated to it (native). */
void xt_acct_start(struct xt_acct *a, uint64_t tsc);
/* Seeds every vCPU of a merged event array with the state its first
 * record shows it was in (native): a vCPU that never changes state during
 * a window is then accounted 100 % in that state for that window. */
void xt_acct_seed_from(struct xt_acct *a, const struct xt_ev *ev, size_t n, uint64_t start);
/* Tells compat mode the first TSC of pCPU p (xenalyze back-dates to it). */
void xt_acct_pcpu_first(struct xt_acct *a, uint32_t p, uint64_t tsc);
void xt_acct_event(struct xt_acct *a, const struct xt_ev *ev);
/* Every event of an initialised merge in merged order, run after run
 * (xt_merge_run). */
void xt_acct_merged(struct xt_acct *a, struct xt_merge *m);
/* Native: closes every open interval at tsc (end of trace). */
void xt_acct_finish(struct xt_acct *a, uint64_t tsc);
/* Native: cumulative cycles of v up to tsc, counting its open interval. */
void xt_acct_at(const struct xt_acct *a, const struct xt_vcpu_acct *v, uint64_t tsc,
                uint64_t cyc[XT_NSTATES]);
/* Native mode: also attribute every runnable interval (behind) and/or
 * keep each vCPU's wait-length histogram (wait_hist, lengths converted
 * to ns at hz). Call before the first event. */
void xt_acct_behind(struct xt_acct *a, bool behind, bool wait_hist, double hz);
/* Live: sums dom's wait parts and histograms since the last call into w
 * (see struct xt_dom_waits), then zeroes them in a, so the next call
 * gives the next interval. */
void xt_behind_take(struct xt_acct *a, uint32_t dom, struct xt_dom_waits *w);
void xt_dom_waits_free(struct xt_dom_waits *w);
/* Sorts vCPUs by (dom, vcpu) for reports (invalidates the hash order). */
void xt_acct_sort(struct xt_acct *a);

size_t xt_acct_vcpu_add(struct xt_acct *a, uint32_t dom, uint32_t vcpu);
/* Index of (dom, vcpu) in a->v, created in the state "not known yet" on
 * first use. Inline: it runs for every scheduler event. */
static inline size_t xt_acct_vcpu(struct xt_acct *a, uint32_t dom, uint32_t vcpu)
{
	if (dom < a->ndix && vcpu < a->dix[dom].cap && a->dix[dom].ix[vcpu])
		return a->dix[dom].ix[vcpu] - 1;
	return xt_acct_vcpu_add(a, dom, vcpu);   /* new, or a vCPU id above 16 bits */
}

#endif
