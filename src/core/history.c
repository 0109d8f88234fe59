// SPDX-License-Identifier: GPL-2.0-or-later
/* The history ring: per domain a block of float rows, one per sample, in
 * the order of the table's domain rows. Adding a sample walks the old and
 * the new domain lists together (both are sorted by id), so it costs one
 * identity check and one row of stores per domain. */
#include "xgtop/core/history.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const enum xg_col xg_hist_cols[XG_HIST_NCOLS] = {
	XG_COL_CPU_PCT, XG_COL_MEM,
	XG_COL_NET_RX, XG_COL_NET_TX, XG_COL_NET_RXP, XG_COL_NET_TXP,
	XG_COL_DISK_RD, XG_COL_DISK_WR, XG_COL_DISK_RDB, XG_COL_DISK_WRB,
	XG_COL_RUN, XG_COL_WAIT, XG_COL_BLK, XG_COL_OFF,
	XG_COL_LLC_REF, XG_COL_LLC_MISS, XG_COL_HIT, XG_COL_MPKI,
	XG_COL_L3_OCC, XG_COL_MEM_BW,
};

int hist_slot(enum xg_col c)
{
	if (c == XG_COL_MEM_PCT)
		c = XG_COL_MEM;
	for (int k = 0; k < XG_HIST_NCOLS; k++)
		if (xg_hist_cols[k] == c)
			return k;
	return -1;
}

#define ROW_FLOATS XG_HIST_NCOLS

static size_t block_bytes(unsigned cap)
{
	return sizeof(struct xg_hist_dom) + (size_t)cap * ROW_FLOATS * sizeof(float);
}

/* The most samples that let ndom domains fit the budget (at least 2: a
 * graph needs two points), at most want. */
static unsigned cap_for(const struct xg_history *h, size_t ndom)
{
	size_t per = ndom ? XG_HIST_BUDGET / ndom : XG_HIST_BUDGET;
	size_t rows = per > sizeof(struct xg_hist_dom)
			      ? (per - sizeof(struct xg_hist_dom)) / (ROW_FLOATS * sizeof(float)) : 0;
	if (rows < 2)
		rows = 2;
	return rows < h->want ? (unsigned)rows : h->want;
}

static struct xg_hist_dom *block_new(unsigned cap)
{
	struct xg_hist_dom *d = xg_malloc(block_bytes(cap));
	/* All-ones is a NaN: "not measured" until a sample writes the row. */
	memset(d->v, 0xff, (size_t)cap * ROW_FLOATS * sizeof(float));
	return d;
}

void hist_init(struct xg_history *h, unsigned want)
{
	memset(h, 0, sizeof(*h));
	h->want = want < 1 ? 1 : want > XG_HIST_MAX ? XG_HIST_MAX : want;
	h->cap = h->want;
	h->real_ns = xg_calloc(h->cap, sizeof(*h->real_ns));
}

void hist_clear(struct xg_history *h)
{
	for (size_t i = 0; i < h->ndom; i++)
		free(h->dom[i]);
	h->ndom = 0;
	h->n = 0;
	h->first = 0;
}

void hist_free(struct xg_history *h)
{
	hist_clear(h);
	free(h->dom);
	free(h->spare);
	free(h->real_ns);
	memset(h, 0, sizeof(*h));
}

/* Changes the ring to cap rows, keeping the newest samples that fit. */
static void relayout(struct xg_history *h, unsigned cap)
{
	uint64_t keep = h->n < cap ? h->n : cap, from = h->first + h->n - keep;
	uint64_t *times = xg_calloc(cap, sizeof(*times));
	for (uint64_t s = from; s < from + keep; s++)
		times[s % cap] = h->real_ns[s % h->cap];
	for (size_t i = 0; i < h->ndom; i++) {
		struct xg_hist_dom *o = h->dom[i], *d = block_new(cap);
		memcpy(d, o, sizeof(*d));
		for (uint64_t s = from; s < from + keep; s++)
			memcpy(d->v + s % cap * ROW_FLOATS, o->v + s % h->cap * ROW_FLOATS,
			       ROW_FLOATS * sizeof(float));
		free(o);
		h->dom[i] = d;
	}
	free(h->real_ns);
	h->real_ns = times;
	h->cap = cap;
	h->first = from;
	h->n = keep;
}

/* Fewer samples when the domains outgrow the budget; more again once they
 * fit with a quarter to spare, so a count near the limit does not flap. */
static void fit_budget(struct xg_history *h, size_t ndom)
{
	unsigned need = cap_for(h, ndom);
	if (need < h->cap)
		relayout(h, need);
	else if (h->cap < h->want && cap_for(h, ndom + ndom / 3) > h->cap)
		relayout(h, cap_for(h, ndom + ndom / 3));
}

static bool same_dom(const struct xg_hist_dom *a, const struct xg_dom *d)
{
	return a->id == d->id && a->gen == d->gen && !memcmp(a->handle, d->handle, sizeof(a->handle)) &&
	       !strcmp(a->name, d->name);
}

static struct xg_hist_dom *dom_new(const struct xg_history *h, const struct xg_dom *d)
{
	struct xg_hist_dom *n = block_new(h->cap);
	n->id = d->id;
	n->gen = d->gen;
	memcpy(n->handle, d->handle, sizeof(n->handle));
	memcpy(n->name, d->name, sizeof(n->name));
	n->name[sizeof(n->name) - 1] = 0;
	return n;
}

static void put_row(float *dst, const struct xg_row *r)
{
	for (int k = 0; k < ROW_FLOATS; k++) {
		enum xg_col c = xg_hist_cols[k];
		dst[k] = row_has(r, c) ? (float)r->v[c] : NAN;
	}
}

/* Opens ring row seq: the next sample, or (any other seq) a new start. */
static uint64_t ring_row(struct xg_history *h, uint64_t seq, uint64_t real_ns)
{
	if (h->n && seq != h->first + h->n)
		hist_clear(h);
	if (!h->n)
		h->first = seq;
	if (h->n < h->cap)
		h->n++;
	else
		h->first++;
	uint64_t row = seq % h->cap;
	h->real_ns[row] = real_ns;
	return row;
}

void hist_add(struct xg_history *h, uint64_t seq, const struct xg_table *t)
{
	size_t nd = t->ndom_rows, j = 0;
	fit_budget(h, nd);
	uint64_t row = ring_row(h, seq, t->cur ? t->cur->host.real_ns : 0);
	xg_grow(&h->spare, &h->spare_cap, nd ? nd : 1, sizeof(*h->spare));
	for (size_t i = 0; i < nd; i++) {
		const struct xg_dom *d = &t->cur->dom[t->rows[i].dom_index];
		while (j < h->ndom && h->dom[j]->id < d->id)
			free(h->dom[j++]);
		struct xg_hist_dom *hd;
		if (j < h->ndom && same_dom(h->dom[j], d)) {
			hd = h->dom[j++];
		} else {
			/* New here, or a new domain under an old id (the old
			 * one's block goes when the walk passes it). */
			hd = dom_new(h, d);
		}
		put_row(hd->v + row * ROW_FLOATS, &t->rows[i]);
		h->spare[i] = hd;
	}
	while (j < h->ndom)
		free(h->dom[j++]);
	struct xg_hist_dom **tmp = h->dom;
	size_t tcap = h->dom_cap;
	h->dom = h->spare;
	h->dom_cap = h->spare_cap;
	h->spare = tmp;
	h->spare_cap = tcap;
	h->ndom = nd;
}

const struct xg_hist_dom *hist_dom(const struct xg_history *h, const struct xg_row *r)
{
	if (!h || r->dom_index >= h->ndom || h->dom[r->dom_index]->id != r->id)
		return NULL;
	return h->dom[r->dom_index];
}

size_t hist_values(const struct xg_history *h, const struct xg_hist_dom *d, int k, float *out,
		   size_t n)
{
	if (!d || k < 0 || k >= XG_HIST_NCOLS)
		return 0;
	if (n > h->n)
		n = (size_t)h->n;
	uint64_t from = h->first + h->n - n;
	for (size_t i = 0; i < n; i++)
		out[i] = d->v[(from + i) % h->cap * ROW_FLOATS + (size_t)k];
	return n;
}

uint64_t hist_time(const struct xg_history *h, uint64_t back)
{
	if (back >= h->n)
		return 0;
	return h->real_ns[(h->first + h->n - 1 - back) % h->cap];
}

size_t hist_bytes(const struct xg_history *h)
{
	return h->ndom * block_bytes(h->cap) + (h->dom_cap + h->spare_cap) * sizeof(*h->dom) +
	       h->cap * sizeof(*h->real_ns);
}
