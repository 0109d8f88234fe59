/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Percentiles for `xgtop report`: the nearest-rank method, exact, on a
 * bounded number of values. For a high percentile p of at most N values
 * only the largest N - rank(N, p) + 1 are needed, whatever N turns out to
 * be below that bound: a min-heap keeps them. */
#ifndef XGTOP_STATS_H
#define XGTOP_STATS_H

#include "xgtop/core/common.h"

/* How many of the largest values percentile p (0 < p <= 100) of at most n
 * values needs: n - rank + 1, where the nearest rank among n values sorted
 * ascending is ceil(p / 100 * n), 1-based; 0 when n is 0. */
size_t stats_keep(size_t n, double p);

/* The k largest values pushed so far. */
struct xg_topk {
	double *v;
	size_t n, k;
	bool sorted;        /* v is sorted descending: no more pushes */
};

void topk_init(struct xg_topk *t, size_t k);
void topk_free(struct xg_topk *t);
void topk_push(struct xg_topk *t, double x);
/* Percentile p of the count values pushed (count <= a bound the top-k was
 * sized for with stats_keep): the nearest-rank value. After the first
 * call, no more pushes. */
double topk_percentile(struct xg_topk *t, size_t count, double p);

#endif
