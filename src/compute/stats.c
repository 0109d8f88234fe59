// SPDX-License-Identifier: GPL-2.0-or-later
/* Nearest-rank percentiles from the largest values only (a min-heap of k
 * doubles), so a report over a day of samples keeps 5 % of them. */
#include "xgtop/compute/stats.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The nearest rank of percentile p among n values sorted ascending. */
static size_t stats_rank(size_t n, double p)
{
	if (!n)
		return 0;
	size_t r;
	if (p == floor(p) && n < (SIZE_MAX / 100)) {
		/* Whole percentiles in integers: 0.95 * 20 in doubles is
		 * 19.000000000000004, whose ceiling would be 20. */
		size_t pi = (size_t)p;
		r = (pi * n + 99) / 100;
	} else {
		/* Fractions: the same rounding noise, shaved off relatively. */
		double x = p / 100.0 * (double)n;
		r = (size_t)ceil(x - x * 1e-12);
	}
	if (r < 1)
		r = 1;
	return r > n ? n : r;
}

size_t stats_keep(size_t n, double p)
{
	return n ? n - stats_rank(n, p) + 1 : 0;
}

void topk_init(struct xg_topk *t, size_t k)
{
	memset(t, 0, sizeof(*t));
	t->k = k ? k : 1;
}

void topk_free(struct xg_topk *t)
{
	free(t->v);
	memset(t, 0, sizeof(*t));
}

static void swap(double *a, double *b)
{
	double x = *a;
	*a = *b;
	*b = x;
}

static void sift_down(double *v, size_t n, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, m = i;
		if (l < n && v[l] < v[m])
			m = l;
		if (l + 1 < n && v[l + 1] < v[m])
			m = l + 1;
		if (m == i)
			return;
		swap(&v[i], &v[m]);
		i = m;
	}
}

void topk_push(struct xg_topk *t, double x)
{
	if (t->n < t->k) {
		if (!t->v)
			t->v = xg_malloc(t->k * sizeof(*t->v));
		size_t i = t->n++;
		t->v[i] = x;
		while (i && t->v[(i - 1) / 2] > t->v[i]) {
			swap(&t->v[(i - 1) / 2], &t->v[i]);
			i = (i - 1) / 2;
		}
	} else if (x > t->v[0]) {
		t->v[0] = x;
		sift_down(t->v, t->n, 0);
	}
}

static int by_value_desc(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x < y) - (x > y);
}

/* The j-th largest value pushed (1 = the largest), j <= the values kept. */
static double topk_nth(struct xg_topk *t, size_t j)
{
	if (!t->sorted) {
		qsort(t->v, t->n, sizeof(*t->v), by_value_desc);
		t->sorted = true;
	}
	if (!j || j > t->n)
		return NAN;
	return t->v[j - 1];
}

double topk_percentile(struct xg_topk *t, size_t count, double p)
{
	if (!count)
		return NAN;
	return topk_nth(t, count - stats_rank(count, p) + 1);
}
