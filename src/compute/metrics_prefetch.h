/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The metrics stage's tuned code, private to metrics.c, kept apart so that
 * what it assumes is said in one place: GCC or clang (__builtin_prefetch),
 * 64-byte cache lines, and struct xg_dom laid out with what metrics reads
 * first (identity, validity, counters) before pmu_valid. A prefetch is a
 * hint: on another machine it is slower or faster, never different. */
#ifndef XGTOP_METRICS_PREFETCH_H
#define XGTOP_METRICS_PREFETCH_H

#include "xgtop/model/sample.h"

#include <stddef.h>

/* Metrics read each domain of both samples once, in order: identity,
 * validity and the counters, up to the PMU breakdown. At thousands of
 * domains that waited on memory; fetching a few domains ahead took the
 * metrics stage of bench/tui_refresh.sh at 10,000 domains from about 0.5
 * to 0.35 ms. */
enum { PREFETCH_AHEAD = 6 };
static inline void prefetch_dom(const struct xg_dom *d)
{
	const char *q = (const char *)d;
	for (size_t off = 0; off < offsetof(struct xg_dom, pmu_valid); off += 64)
		__builtin_prefetch(q + off);
}

#endif
