// SPDX-License-Identifier: GPL-2.0-or-later
/* The xentrace record decoder: one code path for trace files (a stream of
 * TRC_TRACE_CPU_CHANGE chunks) and for live per-pCPU buffers. Each record
 * is sized by its own header (TSC flag, extra-word count), never by its
 * event id, so events whose layout changed between Xen versions, unknown
 * events and wrap padding all decode without special cases. */
#include "xgtop/trace/xentrace.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void xt_decoder_init(struct xt_decoder *dec, xt_rec_fn fn, void *ctx)
{
	memset(dec, 0, sizeof(*dec));
	dec->fn = fn;
	dec->ctx = ctx;
}

void xt_decoder_free(struct xt_decoder *dec)
{
	free(dec->pcpu);
	dec->pcpu = NULL;
	for (size_t i = 0; i < XT_PRE_MAX; i++) {
		free(dec->pre[i].w);
		dec->pre[i].w = NULL;
	}
	dec->npre = 0;
	dec->npcpu = dec->pcpu_cap = 0;
}

static inline uint32_t rd32(const uint8_t *p)
{
	uint32_t v;
	memcpy(&v, p, 4);   /* the format is host-endian; Xen is little-endian x86/arm */
	return v;
}

static struct xt_pcpu_info *pcpu_get(struct xt_decoder *dec, uint32_t cpu)
{
	if (cpu >= dec->npcpu) {
		xg_grow(&dec->pcpu, &dec->pcpu_cap, (size_t)cpu + 1, sizeof(*dec->pcpu));
		memset(dec->pcpu + dec->npcpu, 0, (cpu + 1 - dec->npcpu) * sizeof(*dec->pcpu));
		dec->npcpu = (size_t)cpu + 1;
	}
	return &dec->pcpu[cpu];
}

static int fail_at(struct xt_decoder *dec, uint64_t off, struct xg_err *err, const char *what)
{
	dec->failed = true;
	dec->fail_offset = off;
	return xg_fail(err, "corrupt trace at byte %llu: %s", (unsigned long long)off, what);
}

/* Delivers one complete record of pCPU cpu. */
static inline int deliver(struct xt_decoder *dec, const uint8_t *p, uint32_t cpu, uint64_t off,
                   struct xg_err *err)
{
	uint32_t hdr = rd32(p);
	struct xt_rec r;
	struct xt_pcpu_info *pi = cpu < dec->npcpu ? &dec->pcpu[cpu] : pcpu_get(dec, cpu);
	r.event = hdr & 0x0fffffffu;
	r.nwords = (hdr >> 28) & 7;
	r.has_tsc = hdr >> 31;
	r.pcpu = cpu;
	r.offset = off;
	const uint8_t *d = p + 4;
	if (r.has_tsc) {
		r.tsc = (uint64_t)rd32(p + 4) | (uint64_t)rd32(p + 8) << 32;
		d += 8;
		if (pi->has_tsc && r.tsc < pi->last_tsc)
			pi->tsc_backwards++;
		if (!pi->has_tsc)
			pi->first_tsc = r.tsc;
		pi->has_tsc = true;
		pi->last_tsc = r.tsc;
	} else {
		r.tsc = pi->last_tsc;
	}
	pi->seen = true;
	pi->records++;
	dec->records++;
	/* Most records (HVM exits, scheduler internals) matter to nobody here:
	 * their TSC is noted above and they go no further. */
	if (dec->sched_only && !xt_sched_wanted(r.event, dec->want_infprev))
		return 0;
	memcpy(r.d, d, 4u * r.nwords);
	if (dec->fn && dec->fn(dec->ctx, &r)) {
		dec->failed = true;
		dec->fail_offset = off;
		return xg_fail(err, "trace processing stopped at byte %llu", (unsigned long long)off);
	}
	return 0;
}

static bool is_chunk_header(uint32_t hdr)
{
	return (hdr & 0x0fffffffu) == XT_CPU_CHANGE && ((hdr >> 28) & 7) >= 2;
}


/* One record in file mode at p (size bytes, complete). */
static int file_record(struct xt_decoder *dec, const uint8_t *p, size_t size, struct xg_err *err)
{
	uint64_t off = dec->offset;
	uint32_t hdr = rd32(p);
	char msg[160];
	if (!dec->in_chunk) {
		if (!is_chunk_header(hdr)) {
			snprintf(msg, sizeof(msg),
			         "expected a TRC_TRACE_CPU_CHANGE chunk header, found word 0x%08x%s", hdr,
			         off ? "" : " (not an xentrace file?)");
			return fail_at(dec, off, err, msg);
		}
		const uint8_t *d = p + 4 + ((hdr >> 31) ? 8 : 0);
		uint32_t cpu = rd32(d), win = rd32(d + 4);
		if (cpu >= XT_MAX_PCPU) {
			snprintf(msg, sizeof(msg), "chunk header names pCPU %u (limit %u)", cpu, XT_MAX_PCPU - 1);
			return fail_at(dec, off, err, msg);
		}
		if (win % 4) {
			snprintf(msg, sizeof(msg), "chunk for pCPU %u has a size of %u bytes, not a multiple of 4",
			         cpu, win);
			return fail_at(dec, off, err, msg);
		}
		pcpu_get(dec, cpu)->seen = true;
		dec->chunks++;
		dec->chunk_cpu = cpu;
		dec->chunk_left = win;
		dec->chunk_start = off;
		dec->in_chunk = win > 0;
		dec->skipping = !xt_share_has(dec->share, cpu);
		dec->offset += size;
		return 0;
	}
	if (size > dec->chunk_left) {
		snprintf(msg, sizeof(msg),
		         "a %zu-byte record overruns the end of pCPU %u's chunk (started at byte %llu) by %llu bytes",
		         size, dec->chunk_cpu, (unsigned long long)dec->chunk_start,
		         (unsigned long long)(size - dec->chunk_left));
		return fail_at(dec, off, err, msg);
	}
	if (deliver(dec, p, dec->chunk_cpu, off, err))
		return -1;
	dec->chunk_left -= size;
	dec->in_chunk = dec->chunk_left > 0;
	dec->offset += size;
	return 0;
}

static inline uint64_t rd64(const uint8_t *p)
{
	uint64_t v;
	memcpy(&v, p, 8);
	return v;
}

#define XT_BATCH 64
/* Wanted records a chunk scanned ahead may hold before its scan stops. */
#define XT_PRE_CAP 2048
/* The scan is one long dependency chain (a record's size says where the
 * next one starts), so every cache or TLB miss stalls it in full; asking
 * for the bytes 2 KiB ahead hides them (measured: -20 % scan time on a
 * 194 MB trace; 1-4 KiB all do about as well). */
#define XT_PREFETCH 2048

/* Per-pCPU counters of the hot loop, kept in registers and written back to
 * the decoder only at the end of a scan (or when a consumer stops it). */
struct scan_state {
	uint64_t n, back, last;
	bool has;
};

/* Replays the TSC bookkeeping over the records in [p, to] (both record
 * starts; to included): used only when a consumer stops decoding inside
 * a batch, so the counters end exactly at the record it stopped at. */
static void replay(struct scan_state *st, const uint8_t *p, const uint8_t *to)
{
	while (p <= to) {
		uint32_t hdr = rd32(p);
		st->n++;
		if (hdr >> 31) {
			uint64_t tsc = rd64(p + 4);
			st->back += tsc < st->last;
			st->last = tsc;
		}
		p += xt_rec_size(hdr);
	}
}

static void scan_commit(struct xt_decoder *dec, struct xt_pcpu_info *pi, struct scan_state *st)
{
	pi->records += st->n;
	dec->records += st->n;
	pi->tsc_backwards += st->back;
	pi->last_tsc = st->last;
	pi->has_tsc = st->has;
	pi->seen = true;
	st->n = st->back = 0;
}

/* One chunk's records being scanned; a local, so it lives in registers. */
struct stream {
	const uint8_t *p, *stop;
	uint64_t n, back, last;
	struct xt_wanted *w;
	size_t k;
};

/* One record of the batch loop: the same branch-free TSC bookkeeping for
 * every record, and a wanted record is noted with a store rather than a
 * branch (which records are wanted is unpredictable). The caller
 * guarantees 40 bytes (the largest record) from s->p to s->stop, so no
 * bounds check is needed. */
static inline __attribute__((always_inline)) void step(struct stream *s, bool infprev)
{
	const uint8_t *p = s->p;
	uint32_t hdr = rd32(p);
	uint64_t tsc = rd64(p + 4);
	bool ht = hdr >> 31;
	__builtin_prefetch(p + XT_PREFETCH);
	s->back += ht & (tsc < s->last);
	s->last = ht ? tsc : s->last;
	s->w[s->k].p = p;
	s->w[s->k].tsc = s->last;
	/* xt_sched_wanted(): class 0x0001f or 0x00021, or INFPREV. */
	bool want = (((hdr & 0x0ffff000u) - 0x0001f000u) & ~0x2000u) == 0;
	if (infprev)
		want |= (hdr & 0x0fffffffu) == XT_SWITCH_INFPREV;
	s->k += want;
	s->p = p + xt_rec_size(hdr);
}

/* The loops count steps once for their streams (s->n), and compare with
 * stop - 40 precomputed: two chunks' state must fit in registers. */
static inline __attribute__((always_inline)) void run_one(struct stream *a, bool infprev)
{
	const uint8_t *lim = a->stop - 40;
	uint64_t n = 0;
	while (a->k < XT_BATCH && a->p <= lim) {
		step(a, infprev);
		n++;
	}
	a->n += n;
}

/* Two chunks at once: their chains of record sizes are independent, so
 * the CPU overlaps them. Stops when either needs attention. */
static inline __attribute__((always_inline)) void run_two(struct stream *a, struct stream *b,
                                                          bool infprev)
{
	const uint8_t *alim = a->stop - 40, *blim = b->stop - 40;
	uint64_t n = 0;
	while (a->k < XT_BATCH && a->p <= alim && b->k < XT_PRE_CAP && b->p <= blim) {
		step(a, infprev);
		step(b, infprev);
		n++;
	}
	a->n += n;
	b->n += n;
}

/* Hands the wanted records w[0..k) of pCPU cpu to the consumer; on a stop,
 * sets the pCPU's counters to end exactly at the record it stopped at
 * (st0: its state at b0, where w's scan began). */
static int deliver_wanted(struct xt_decoder *dec, uint32_t cpu, const struct xt_wanted *w, size_t k,
                          const uint8_t *base, uint64_t base_off, const uint8_t *b0,
                          const struct scan_state *st0, struct xg_err *err)
{
	/* xt_events_add never stops decoding and ignores offsets: hand it the
	 * records as they are, without building an xt_rec for each. */
	if (dec->fn == xt_events_add) {
		xt_events_add_wanted(dec->ctx, cpu, w, k);
		return 0;
	}
	for (size_t j = 0; j < k; j++) {
		const uint8_t *q = w[j].p;
		uint32_t hdr = rd32(q);
		struct xt_rec r;
		r.event = hdr & 0x0fffffffu;
		r.nwords = (hdr >> 28) & 7;
		r.has_tsc = hdr >> 31;
		r.tsc = w[j].tsc;
		r.pcpu = cpu;
		r.offset = base_off + (uint64_t)(q - base);
		/* 28 bytes always lie within the 40 the batch guarantees. */
		memcpy(r.d, q + (r.has_tsc ? 12 : 4), sizeof(r.d));
		if (dec->fn && dec->fn(dec->ctx, &r)) {
			struct scan_state st = *st0;
			replay(&st, b0, q);
			scan_commit(dec, &dec->pcpu[cpu], &st);
			dec->failed = true;
			dec->fail_offset = r.offset;
			return xg_fail(err, "trace processing stopped at byte %llu", (unsigned long long)r.offset);
		}
	}
	return 0;
}

/* Offsets in the input and pointers into the buffer of this feed. */
struct feed_pos {
	const uint8_t *base;   /* the current chunk's records start here ... */
	uint64_t off;          /* ... at this input offset */
	const uint8_t *end;    /* the end of the buffer */
};

static const uint8_t *at(const struct feed_pos *f, uint64_t off)
{
	return f->base + (off - f->off);
}

static uint64_t off_of(const struct feed_pos *f, const uint8_t *p)
{
	return f->off + (uint64_t)(p - f->base);
}

static void to_stream(const struct xt_prescan *s, const struct feed_pos *f, struct stream *b)
{
	b->p = at(f, s->body + s->len);
	b->stop = at(f, s->end);
	b->n = s->n;
	b->back = s->back;
	b->last = s->last;
	b->w = s->w;
	b->k = s->nw;
}

static void from_stream(struct xt_prescan *s, const struct feed_pos *f, const struct stream *b)
{
	s->len = off_of(f, b->p) - s->body;
	s->n = b->n;
	s->back = b->back;
	s->last = b->last;
	s->nw = b->k;
}

static bool stream_open(const struct stream *b)
{
	return b->k < XT_PRE_CAP && b->stop - b->p >= 40;
}

/* The chunk header at q, if it is whole before end and well formed: its
 * size in *hs, the chunk's pCPU and size in *cpu and *win, the chunk
 * whole before end too. */
static bool chunk_at(const uint8_t *q, const uint8_t *end, size_t *hs, uint32_t *cpu,
                     uint32_t *win)
{
	if (end - q < 12 || !is_chunk_header(rd32(q)))
		return false;
	uint32_t hdr = rd32(q);
	*hs = xt_rec_size(hdr);
	if ((size_t)(end - q) < *hs)
		return false;
	const uint8_t *d = q + 4 + ((hdr >> 31) ? 8 : 0);
	*cpu = rd32(d);
	*win = rd32(d + 4);
	return *cpu < XT_MAX_PCPU && *win % 4 == 0 && *win <= (size_t)(end - q) - *hs;
}

/* The header of the next chunk this decoder decodes, from q on, other
 * threads' chunks skipped (see chunk_at). NULL when the buffer ends first
 * or a header looks wrong (decoding reports that when it gets there). */
static const uint8_t *next_own(const struct xt_decoder *dec, const struct feed_pos *f,
                               const uint8_t *q, size_t *hs, uint32_t *cpu, uint32_t *win)
{
	while (chunk_at(q, f->end, hs, cpu, win)) {
		if (xt_share_has(dec->share, *cpu))
			return q;
		q += *hs + *win;
	}
	return NULL;
}

/* A chunk to scan ahead alongside pCPU cpu's chunk, which ends at stop:
 * the last pending one if it can go on, else the next chunk this decoder
 * decodes after it (or after this one), if that is whole in the buffer
 * and for a pCPU with a TSC already and no pending results (nothing else
 * touches its counters until decoding gets there). Its header is checked
 * again, and any error reported, when decoding gets there. Returns its
 * slot, or -1. */
static int partner(struct xt_decoder *dec, uint32_t cpu, const uint8_t *stop,
                   const struct feed_pos *f, struct stream *b)
{
	if (dec->npre) {
		struct xt_prescan *last = &dec->pre[dec->npre - 1];
		to_stream(last, f, b);
		if (stream_open(b))
			return (int)dec->npre - 1;
		stop = at(f, last->end);
	}
	size_t hs;
	uint32_t bcpu, win;
	if (dec->npre == XT_PRE_MAX || !(stop = next_own(dec, f, stop, &hs, &bcpu, &win)))
		return -1;
	if (bcpu == cpu || bcpu >= dec->npcpu || !dec->pcpu[bcpu].has_tsc || win < 40)
		return -1;
	for (size_t i = 0; i < dec->npre; i++)
		if (dec->pre[i].cpu == bcpu)
			return -1;
	struct xt_prescan *s = &dec->pre[dec->npre];
	if (!s->w)
		s->w = xg_malloc(XT_PRE_CAP * sizeof(*s->w));
	s->cpu = bcpu;
	s->body = off_of(f, stop + hs);
	s->end = s->body + win;
	s->len = s->n = s->back = s->nw = 0;
	s->last = dec->pcpu[bcpu].last_tsc;
	to_stream(s, f, b);
	return (int)dec->npre++;
}

/* The results of the chunk scanned ahead first, now that decoding reached
 * it at p (offset dec->offset): delivers its wanted records and counts its
 * records, as if scanned now. Returns the bytes it covers, or -1. */
static int64_t apply_ahead(struct xt_decoder *dec, const uint8_t *p, struct xg_err *err)
{
	struct xt_prescan s = dec->pre[0];
	/* Slot 0 goes to the back, keeping its buffer. */
	memmove(&dec->pre[0], &dec->pre[1], (XT_PRE_MAX - 1) * sizeof(dec->pre[0]));
	dec->pre[XT_PRE_MAX - 1] = s;
	dec->npre--;
	struct xt_pcpu_info *pi = &dec->pcpu[s.cpu];
	struct scan_state st = { 0, 0, pi->last_tsc, pi->has_tsc };
	if (deliver_wanted(dec, s.cpu, s.w, s.nw, p, dec->offset, p, &st, err))
		return -1;
	st.n = s.n;
	st.back = s.back;
	st.last = s.last;
	scan_commit(dec, pi, &st);
	return (int64_t)s.len;
}

/* The chunk scanned ahead alongside the current one, if any. */
struct ahead {
	struct stream b;
	int bi;        /* its slot in dec->pre, -1 none */
	bool seek;     /* whether to look for one */
};

/* One batch of the hot loop, at *pp in pCPU cpu's chunk ending at stop (40
 * bytes or more left, the pCPU's TSC known): scans until XT_BATCH records
 * are wanted, the chunk ahead alongside, then delivers them. Returns -1
 * when the consumer stopped decoding. */
static inline __attribute__((always_inline)) int scan_batch(struct xt_decoder *dec, uint32_t cpu,
                                                            const struct feed_pos *f,
                                                            const uint8_t **pp, const uint8_t *stop,
                                                            struct scan_state *st, struct ahead *ah,
                                                            bool infprev, struct xg_err *err)
{
	struct xt_wanted w[XT_BATCH];
	const uint8_t *b0 = *pp;
	struct scan_state s0 = *st;
	struct stream a = { b0, stop, st->n, st->back, st->last, w, 0 };
	if (ah->bi < 0 && ah->seek && (ah->bi = partner(dec, cpu, stop, f, &ah->b)) < 0)
		ah->seek = false;
	if (ah->bi >= 0) {
		if (infprev)
			run_two(&a, &ah->b, true);
		else
			run_two(&a, &ah->b, false);
		if (!stream_open(&ah->b)) {
			from_stream(&dec->pre[ah->bi], f, &ah->b);   /* done: results wait */
			ah->bi = -1;
		}
	}
	if (infprev)
		run_one(&a, true);
	else
		run_one(&a, false);
	*pp = a.p;
	st->n = a.n;
	st->back = a.back;
	st->last = a.last;
	return deliver_wanted(dec, cpu, w, a.k, f->base, f->off, b0, &s0, err);
}

/* One record outside the batches (before the pCPU's first TSC, in the
 * last 40 bytes of a chunk, or any record when not filtering), at p in
 * pCPU cpu's chunk ending at stop. Returns its size, 0 when it is not
 * whole before stop, or -1 when the consumer stopped decoding. */
static inline __attribute__((always_inline)) ptrdiff_t scan_record(struct xt_decoder *dec, uint32_t cpu,
                                                                   const struct feed_pos *f,
                                                                   const uint8_t *p, const uint8_t *stop,
                                                                   struct xt_pcpu_info **pi,
                                                                   struct scan_state *st,
                                                                   struct xg_err *err)
{
	if (stop - p < 4)
		return 0;
	uint32_t hdr = rd32(p);
	size_t size = xt_rec_size(hdr);
	if ((size_t)(stop - p) < size)
		return 0;
	if (dec->sched_only && !xt_sched_wanted(hdr & 0x0fffffffu, dec->want_infprev)) {
		st->n++;
		if (hdr >> 31) {
			uint64_t tsc = rd64(p + 4);
			if (__builtin_expect(!st->has, 0)) {
				(*pi)->first_tsc = st->last = tsc;
				st->has = true;
			}
			st->back += tsc < st->last;
			st->last = tsc;
		}
		return (ptrdiff_t)size;
	}
	scan_commit(dec, *pi, st);
	if (deliver(dec, p, cpu, off_of(f, p), err))
		return -1;
	*pi = &dec->pcpu[cpu];
	st->last = (*pi)->last_tsc;
	st->has = (*pi)->has_tsc;
	return (ptrdiff_t)size;
}

/* The hot loop: the whole records of the open chunk in [p, stop); end is
 * the end of the input buffer. Only TSC bookkeeping happens for records
 * nobody wants. Returns the bytes consumed, or (size_t)-1 when the
 * consumer stopped decoding. */
static size_t scan_chunk(struct xt_decoder *dec, const uint8_t *p, const uint8_t *stop,
                         const uint8_t *end, struct xg_err *err)
{
	const uint8_t *start = p;
	const uint32_t cpu = dec->chunk_cpu;
	struct xt_pcpu_info *pi = pcpu_get(dec, cpu);
	const bool filter = dec->sched_only, infprev = dec->want_infprev;
	const struct feed_pos f = { start, dec->offset, end };
	if (dec->npre && dec->pre[0].cpu == cpu && dec->pre[0].body == dec->offset) {
		int64_t done = apply_ahead(dec, p, err);
		if (done < 0)
			return (size_t)-1;
		p += done;
	} else {
		dec->npre = 0;
	}
	struct scan_state st = { 0, 0, pi->last_tsc, pi->has_tsc };
	/* Chunks after this one are scanned ahead with it while it lasts,
	 * if it ends in the buffer (stop < end: stop is the chunk's end). */
	struct ahead ah = { .bi = -1, .seek = filter && stop < end };
	for (;;) {
		while (filter && st.has && stop - p >= 40)
			if (scan_batch(dec, cpu, &f, &p, stop, &st, &ah, infprev, err))
				return (size_t)-1;
		ptrdiff_t size = scan_record(dec, cpu, &f, p, stop, &pi, &st, err);
		if (size < 0)
			return (size_t)-1;
		if (!size)
			break;
		p += size;
	}
	scan_commit(dec, pi, &st);
	if (ah.bi >= 0)
		from_stream(&dec->pre[ah.bi], &f, &ah.b);
	return (size_t)(p - start);
}

/* Passes over the open chunk, another thread's, as far as the buffer
 * goes; true while the chunk goes on past it. */
static bool skip_chunk(struct xt_decoder *dec, const uint8_t **p, const uint8_t *end)
{
	size_t avail = (size_t)(end - *p);
	size_t used = dec->chunk_left < avail ? (size_t)dec->chunk_left : avail;
	*p += used;
	dec->offset += used;
	dec->chunk_left -= used;
	dec->in_chunk = dec->chunk_left > 0;
	return dec->in_chunk;
}

int xt_decode_feed(struct xt_decoder *dec, const void *buf, size_t len, struct xg_err *err)
{
	const uint8_t *p = buf, *end = p + len;
	if (dec->failed)
		return xg_fail(err, "corrupt trace at byte %llu", (unsigned long long)dec->fail_offset);
	if (dec->in_chunk && dec->skipping && skip_chunk(dec, &p, end))
		return 0;
	/* Finish a record split by the previous feed. */
	if (dec->ncarry) {
		while (dec->ncarry < 4 && p < end)
			dec->carry[dec->ncarry++] = *p++;
		if (dec->ncarry < 4)
			return 0;
		if (!dec->in_chunk && !is_chunk_header(rd32(dec->carry)))
			return file_record(dec, dec->carry, 4, err);
		size_t need = xt_rec_size(rd32(dec->carry));
		size_t take = need - dec->ncarry;
		if (take > (size_t)(end - p))
			take = (size_t)(end - p);
		memcpy(dec->carry + dec->ncarry, p, take);
		dec->ncarry += take;
		p += take;
		if (dec->ncarry < need)
			return 0;
		dec->ncarry = 0;
		if (file_record(dec, dec->carry, need, err))
			return -1;
	}
	while ((size_t)(end - p) >= 4) {
		if (dec->in_chunk && dec->skipping) {
			if (skip_chunk(dec, &p, end))
				break;
			continue;
		}
		if (dec->in_chunk) {
			size_t avail = (size_t)(end - p);
			bool chunk_ends = dec->chunk_left <= avail;
			const uint8_t *stop = chunk_ends ? p + dec->chunk_left : end;
			size_t used = scan_chunk(dec, p, stop, end, err);
			if (used == (size_t)-1)
				return -1;
			p += used;
			dec->offset += used;
			dec->chunk_left -= used;
			dec->in_chunk = dec->chunk_left > 0;
			if (!dec->in_chunk)
				continue;
			if (chunk_ends && (size_t)(end - p) >= 4 &&
			    xt_rec_size(rd32(p)) <= (size_t)(end - p))
				return file_record(dec, p, xt_rec_size(rd32(p)), err);   /* overruns */
			if (!chunk_ends || (size_t)(end - p) < 4 || xt_rec_size(rd32(p)) > (size_t)(end - p))
				break;   /* the rest arrives with the next feed */
		}
		/* A bad chunk header is reported at once, not as a short record. */
		if (!dec->in_chunk && !is_chunk_header(rd32(p)))
			return file_record(dec, p, 4, err);
		size_t size = xt_rec_size(rd32(p));
		if ((size_t)(end - p) < size)
			break;
		if (file_record(dec, p, size, err))
			return -1;
		p += size;
	}
	memcpy(dec->carry, p, (size_t)(end - p));
	dec->ncarry = (size_t)(end - p);
	dec->npre = 0;   /* they point into this buffer */
	return 0;
}

int xt_decode_finish(struct xt_decoder *dec, struct xg_err *err)
{
	char msg[200];
	if (dec->failed)
		return xg_fail(err, "corrupt trace at byte %llu", (unsigned long long)dec->fail_offset);
	if (dec->ncarry) {
		size_t need = dec->ncarry >= 4 ? xt_rec_size(rd32(dec->carry)) : 4;
		snprintf(msg, sizeof(msg), "the file ends inside a record (%zu of %zu bytes present)",
		         dec->ncarry, need);
		dec->failed = true;
		dec->fail_offset = dec->offset;
		return xg_fail(err, "truncated trace at byte %llu: %s", (unsigned long long)dec->offset, msg);
	}
	if (dec->in_chunk && dec->chunk_left) {
		snprintf(msg, sizeof(msg), "pCPU %u's chunk (started at byte %llu) lacks its last %llu bytes",
		         dec->chunk_cpu, (unsigned long long)dec->chunk_start,
		         (unsigned long long)dec->chunk_left);
		dec->failed = true;
		dec->fail_offset = dec->offset;
		return xg_fail(err, "truncated trace at byte %llu: %s", (unsigned long long)dec->offset, msg);
	}
	if (!dec->chunks) {
		dec->failed = true;
		dec->fail_offset = 0;
		return xg_fail(err, "empty trace: no TRC_TRACE_CPU_CHANGE chunk at byte 0");
	}
	return 0;
}

bool xt_chunk_bytes(const void *buf, size_t len, size_t upto, uint64_t **bytes, size_t *n)
{
	const uint8_t *p = buf, *end = p + len, *stop = p + (upto < len ? upto : len);
	size_t cap = 0, hs;
	uint32_t cpu, win;
	*bytes = NULL;
	*n = 0;
	for (; p < stop; p += hs + win) {
		if (!chunk_at(p, end, &hs, &cpu, &win))
			return false;
		if (cpu >= *n) {
			xg_grow(bytes, &cap, (size_t)cpu + 1, sizeof(**bytes));
			memset(*bytes + *n, 0, (cpu + 1 - *n) * sizeof(**bytes));
			*n = (size_t)cpu + 1;
		}
		(*bytes)[cpu] += win;
	}
	return true;
}

void xt_decoder_absorb(struct xt_decoder *dec, const struct xt_decoder *from)
{
	for (size_t p = 0; p < from->npcpu; p++)
		if (xt_share_has(from->share, (uint32_t)p))
			*pcpu_get(dec, (uint32_t)p) = from->pcpu[p];
	dec->records += from->records;
}

int xt_decode_raw(struct xt_decoder *dec, uint32_t pcpu, const void *buf, size_t len,
                  struct xg_err *err)
{
	const uint8_t *p = buf, *end = p + len;
	if (pcpu >= XT_MAX_PCPU)
		return xg_fail(err, "pCPU %u out of range", pcpu);
	while (p < end) {
		uint64_t off = dec->offset;
		if ((size_t)(end - p) < 4 || (size_t)(end - p) < xt_rec_size(rd32(p))) {
			char msg[120];
			snprintf(msg, sizeof(msg), "pCPU %u's buffer ends inside a record (%zu bytes left)", pcpu,
			         (size_t)(end - p));
			return fail_at(dec, off, err, msg);
		}
		size_t size = xt_rec_size(rd32(p));
		if (deliver(dec, p, pcpu, off, err))
			return -1;
		p += size;
		dec->offset += size;
	}
	return 0;
}
