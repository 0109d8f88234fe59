// SPDX-License-Identifier: GPL-2.0-or-later
/* The history ring: one row per sample, XG_HIST_NCOLS floats per domain
 * slot. Adding a sample walks the old and the new domain lists together
 * (both sorted by id): one identity check per domain and one row written
 * front to back, so 10,000 domains cost a few hundredths of a millisecond
 * (a block per domain, written at one place each, cost ten times that in
 * cache misses). */
#include "xgtop/compute/history.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const enum xg_col xg_hist_cols[XG_HIST_NCOLS] = {
	/* put_row relies on this order */
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

uint64_t hist_cols(void)
{
	uint64_t m = 0;
	for (int k = 0; k < XG_HIST_NCOLS; k++)
		m |= 1ull << xg_hist_cols[k];
	return m;
}

#define SLOT_FLOATS XG_HIST_NCOLS
#define SLOT_BYTES (SLOT_FLOATS * sizeof(float))

#include "history_simd.h"

static float *cell(const struct xg_history *h, uint64_t row, size_t slot)
{
	return h->ring + (row * h->nslots + slot) * SLOT_FLOATS;
}

/* The most samples that let nslots slots fit the budget (at least 2: a
 * graph needs two points), at most want. */
static unsigned cap_for(const struct xg_history *h, size_t nslots)
{
	size_t per = nslots ? XG_HIST_BUDGET / nslots : XG_HIST_BUDGET;
	size_t rows = per > XG_NAME_MAX ? (per - XG_NAME_MAX) / SLOT_BYTES : 0;
	if (rows < 2)
		rows = 2;
	return rows < h->want ? (unsigned)rows : h->want;
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
	h->ndom = 0;
	h->n = 0;
	h->first = 0;
	h->used = 0;
	h->nfree = 0;
	if (h->ring)
		memset(h->ring, 0xff, (size_t)h->cap * h->nslots * SLOT_BYTES);
}

void hist_free(struct xg_history *h)
{
	free(h->ring);
	free(h->names);
	free(h->free);
	free(h->ids);
	free(h->spare);
	free(h->real_ns);
	memset(h, 0, sizeof(*h));
}

/* Copies slot from of the old ring into slot to of the new one, for the
 * samples kept. */
static void move_slot(const struct xg_history *h, float *ring, unsigned cap, size_t nslots,
		      uint64_t from, uint64_t keep, size_t src, size_t dst)
{
	for (uint64_t s = from; s < from + keep; s++)
		memcpy(ring + (s % cap * nslots + dst) * SLOT_FLOATS, cell(h, s % h->cap, src), SLOT_BYTES);
}

/* Lays the ring out again with cap rows of nslots slots, keeping the
 * newest samples that fit. compact: the live domains take slots 0.. in
 * their order and the rest are free, else every slot stays where it is.
 * All-ones bytes are a NaN: "not measured" until a sample writes it. */
static void relayout(struct xg_history *h, unsigned cap, size_t nslots, bool compact)
{
	uint64_t keep = h->n < cap ? h->n : cap, from = h->first + h->n - keep;
	float *ring = xg_malloc((size_t)cap * nslots * SLOT_BYTES);
	xg_advise_huge(ring, (size_t)cap * nslots * SLOT_BYTES, (size_t)cap * nslots * SLOT_BYTES);
	char (*names)[XG_NAME_MAX] = xg_calloc(nslots, sizeof(*names));
	uint64_t *times = xg_calloc(cap, sizeof(*times));
	memset(ring, 0xff, (size_t)cap * nslots * SLOT_BYTES);
	for (uint64_t s = from; s < from + keep; s++)
		times[s % cap] = h->real_ns[s % h->cap];
	size_t nmove = compact ? h->ndom : (h->nslots < nslots ? h->nslots : nslots);
	for (size_t i = 0; i < nmove; i++) {
		size_t src = compact ? h->ids[i].slot : i;
		move_slot(h, ring, cap, nslots, from, keep, src, i);
		memcpy(names[i], h->names[src], XG_NAME_MAX);
		if (compact)
			h->ids[i].slot = (uint32_t)i;
	}
	if (compact) {
		h->used = h->ndom;
		h->nfree = 0;
	}
	free(h->ring);
	free(h->names);
	free(h->real_ns);
	h->ring = ring;
	h->names = names;
	h->real_ns = times;
	h->cap = cap;
	h->nslots = nslots;
	h->first = from;
	h->n = keep;
}

/* Before a sample of nd domains: slots for them (with a little room), no
 * more than twice as many, and as many samples as the budget leaves. */
static void fit(struct xg_history *h, size_t nd)
{
	size_t want = nd + nd / 16 + 16;
	if (nd > h->nslots || (h->nslots > 64 && h->nslots > 2 * want && h->ndom <= want)) {
		relayout(h, cap_for(h, want), want, nd <= h->nslots);
		return;
	}
	unsigned cap = cap_for(h, h->nslots);
	if (cap != h->cap)
		relayout(h, cap, h->nslots, false);
}

/* A slot for a domain new in this sample: one left by a domain that went
 * (its old samples made NaN), else a fresh one, growing the ring. */
static uint32_t slot_new(struct xg_history *h)
{
	if (h->nfree) {
		uint32_t s = h->free[--h->nfree];
		for (unsigned r = 0; r < h->cap; r++)
			memset(cell(h, r, s), 0xff, SLOT_BYTES);
		return s;
	}
	if (h->used == h->nslots) {
		size_t n = h->nslots + h->nslots / 16 + 16;
		relayout(h, cap_for(h, n) < h->cap ? cap_for(h, n) : h->cap, n, false);
	}
	return (uint32_t)h->used++;
}

static void slot_free(struct xg_history *h, uint32_t s)
{
	xg_grow(&h->free, &h->free_cap, h->nfree + 1, sizeof(*h->free));
	h->free[h->nfree++] = s;
}

static bool same_dom(const struct xg_history *h, const struct xg_hist_id *a, const struct xg_dom *d)
{
	return a->host == d->host && a->id == d->id && a->gen == d->gen &&
	       !memcmp(a->handle, d->handle, sizeof(a->handle)) && dom_names_equal(h->names[a->slot], d->name);
}

/* The samples' order (dom_order): by pool host, then id. */
static bool id_before(const struct xg_hist_id *a, const struct xg_dom *d)
{
	return a->host != d->host ? a->host < d->host : a->id < d->id;
}

static struct xg_hist_id id_new(struct xg_history *h, const struct xg_dom *d)
{
	struct xg_hist_id n = { .id = d->id, .gen = d->gen, .host = d->host, .slot = slot_new(h) };
	memcpy(n.handle, d->handle, sizeof(n.handle));
	memcpy(h->names[n.slot], d->name, XG_NAME_MAX);
	h->names[n.slot][XG_NAME_MAX - 1] = 0;
	return n;
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

/* Does t follow the sample added last? Then metrics has matched its
 * domains with that sample's (base_index), and the ids need no check. */
static bool follows(const struct xg_history *h, const struct xg_table *t)
{
	return h->ndom && t->prev && t->prev->ndom == h->ndom && t->prev->host.mono_ns == h->last_mono;
}

/* Writes the id of domain row i to *out: the old one it continues, or a
 * new one. The walk (j) passes old ids in order; those it skips left. */
static void next_id(struct xg_history *h, const struct xg_table *t, size_t i, bool fast, size_t *j,
		    struct xg_hist_id *out)
{
	const struct xg_row *r = &t->rows[i];
	const struct xg_dom *d = &t->cur->dom[r->dom_index];
	uint32_t b = r->base_index;
	if (fast) {
		/* The row's id, not the domain's: the fast path reads no sample. */
		if (b == XG_NO_BASE || b >= h->ndom || h->ids[b].id != r->id || b < *j) {
			*out = id_new(h, d);
			return;
		}
		while (*j < b)
			slot_free(h, h->ids[(*j)++].slot);
		*out = h->ids[(*j)++];
		return;
	}
	while (*j < h->ndom && id_before(&h->ids[*j], d))
		slot_free(h, h->ids[(*j)++].slot);
	/* New here, or a new domain under an old id (the old one's slot is
	 * freed when the walk passes it). */
	if (*j < h->ndom && same_dom(h, &h->ids[*j], d))
		*out = h->ids[(*j)++];
	else
		*out = id_new(h, d);
}

XG_HOT void hist_add(struct xg_history *h, uint64_t seq, const struct xg_table *t)
{
	size_t nd = t->ndom_rows, j = 0;
	bool fast = follows(h, t);
	fit(h, nd);
	uint64_t row = ring_row(h, seq, t->cur ? t->cur->host.real_ns : 0);
	fast = fast && h->ndom;   /* ring_row starts again on a gap */
	xg_grow(&h->spare, &h->spare_cap, nd ? nd : 1, sizeof(*h->spare));
	unsigned cap = h->cap;
	uint64_t cols = hist_cols();
	for (size_t i = 0; i < nd; i++) {
		if (i + 4 < nd)
			prefetch_row(&t->rows[i + 4]);
		next_id(h, t, i, fast, &j, &h->spare[i]);
		if (h->cap != cap) {
			/* slot_new grew the ring: the row moved with it. */
			cap = h->cap;
			row = seq % cap;
		}
		put_row(cell(h, row, h->spare[i].slot), &t->rows[i], cols);
	}
	while (j < h->ndom)
		slot_free(h, h->ids[j++].slot);
	put_rows_done();   /* the slots' stores, in order with what follows */
	xg_swap_arrays(&h->ids, &h->ids_cap, &h->spare, &h->spare_cap);
	h->ndom = nd;
	h->last_mono = t->cur ? t->cur->host.mono_ns : 0;
}

long hist_find(const struct xg_history *h, const struct xg_row *r)
{
	if (!h || r->dom_index >= h->ndom || h->ids[r->dom_index].id != r->id)
		return -1;
	return (long)h->ids[r->dom_index].slot;
}

size_t hist_values(const struct xg_history *h, long d, int k, float *out, size_t n)
{
	if (d < 0 || (size_t)d >= h->nslots || k < 0 || k >= XG_HIST_NCOLS)
		return 0;
	if (n > h->n)
		n = (size_t)h->n;
	uint64_t from = h->first + h->n - n;
	for (size_t i = 0; i < n; i++)
		out[i] = cell(h, (from + i) % h->cap, (size_t)d)[k];
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
	return (size_t)h->cap * h->nslots * SLOT_BYTES + h->nslots * XG_NAME_MAX +
	       (h->ids_cap + h->spare_cap) * sizeof(*h->ids) + h->free_cap * sizeof(*h->free) +
	       h->cap * sizeof(*h->real_ns);
}
