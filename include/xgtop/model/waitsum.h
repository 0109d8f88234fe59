/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Running wait totals of one domain: what the sample's cumulative wait
 * counters (struct xg_waits) are made of, whichever source measures the
 * waits (Xen's trace, Linux's scheduler tracepoints). Every culprit's
 * total is kept, so that the XG_BEHIND_TOP largest are the largest since
 * the start and the rest (total minus them) never decreases, whichever
 * culprit enters or leaves the top. A source adds an interval's parts and
 * wait lengths, then takes the figures once per refresh. */
#ifndef XGTOP_MODEL_WAITSUM_H
#define XGTOP_MODEL_WAITSUM_H

#include "xgtop/model/sample.h"

struct xg_waitsum {
	struct xg_wait_part *by;  /* every culprit's total, in no order */
	size_t nby, cby;
	struct xg_wait_part *now; /* this interval's parts, in no order */
	size_t nnow, cnow;
	uint64_t total_ns, count, sum_ns;
	uint64_t bucket[XG_WAIT_LE_N + 1];
};

/* ns of this interval's waits behind culprit who. */
void waitsum_add(struct xg_waitsum *s, uint32_t who, uint64_t ns);
/* n waits of a finer histogram's bucket whose lower bound is lo_ns; its
 * bounds must not straddle an xg_wait_le_ns edge (powers of two of ns
 * that are bucket edges do not). */
void waitsum_add_lengths(struct xg_waitsum *s, uint64_t lo_ns, uint64_t n);
/* ns: the sum of the lengths of the waits added by waitsum_add_lengths. */
void waitsum_add_length_ns(struct xg_waitsum *s, uint64_t ns);
/* The xg_waits bucket of a length of lo_ns. */
unsigned waitsum_bucket(uint64_t lo_ns);
/* Ends the interval: writes the cumulative figures, with the interval's
 * largest parts (biggest first, ties to the lower id), to out. */
void waitsum_take(struct xg_waitsum *s, struct xg_waits *out);
void waitsum_free(struct xg_waitsum *s);

/* The finer wait-length histograms the sources keep (Xen's trace
 * accounting, Linux's BPF program), in ns: log2 octaves, each cut in
 * XG_WH_SUB equal sub-buckets; lengths below XG_WH_SUB ns have a bucket
 * each. Bucket b holds [*lo, *hi). */
#define XG_WH_SUB_BITS 3
#define XG_WH_SUB (1u << XG_WH_SUB_BITS)
void waitsum_wh_bounds(unsigned b, uint64_t *lo, uint64_t *hi);
/* The q-quantile (0..1) of such a histogram of n buckets, interpolated
 * within its bucket (0 when it is empty). */
double waitsum_wh_quantile(const uint64_t *hist, unsigned n, double q);

#endif
