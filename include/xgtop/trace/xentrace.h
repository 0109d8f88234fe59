/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Xen trace records (xentrace files and live per-pCPU trace buffers):
 * one decoder and an event merger. Runstate accounting, which consumes
 * the merged events, has its own header (xentrace_account.h).
 *
 * Data flow, shared by `xgtop trace FILE`, `--source trace` and the live
 * consumer:
 *
 *   bytes ──► xt_decoder ──► xt_rec (per record) ──► xt_events (keeps the
 *   scheduler records, one queue per pCPU) ──► merged in TSC order ──►
 *   xt_acct (xentrace_account.h: native or xenalyze's rules)
 *
 * Everything is push-style: a live consumer feeds each pCPU's new bytes
 * with xt_decode_raw(), then drains the merger up to the time it has read
 * all buffers to; a file reader feeds the file with xt_decode_feed(). */
#ifndef XGTOP_XENTRACE_H
#define XGTOP_XENTRACE_H

#include "xgtop/model/sample.h"

/* Event ids (xen/include/public/trace.h). */
#define XT_LOST_RECORDS      0x0001f001u
#define XT_WRAP_BUFFER       0x0001f002u
#define XT_CPU_CHANGE        0x0001f003u
#define XT_RUNSTATE_CHANGE   0x00021001u  /* | old << 8 | new << 4 */
#define XT_CONTINUE_RUNNING  0x00021002u
#define XT_SWITCH_INFPREV    0x0002800eu
#define XT_SWITCH_INFNEXT    0x0002800fu
#define XT_IDLE_DOMID        32767u

/* A vCPU's runstate as records carry it: Xen's RUNSTATE_* numbers, which
 * are enum xg_runstate's, so per-state arrays of either are indexed alike.
 * XT_LOST (records were lost: state unknown) follows the real states. */
enum xt_state {
	XT_RUNNING = XG_RS_RUNNING,
	XT_RUNNABLE = XG_RS_RUNNABLE,
	XT_BLOCKED = XG_RS_BLOCKED,
	XT_OFFLINE = XG_RS_OFFLINE,
	XT_LOST = XG_RS_COUNT,
	XT_NSTATES
};
_Static_assert(XG_RS_RUNNING == 0 && XG_RS_RUNNABLE == 1 && XG_RS_BLOCKED == 2 &&
	       XG_RS_OFFLINE == 3, "records carry RUNSTATE_running..offline as 0..3");

/* ---- decoder ---------------------------------------------------------- */

/* One record. d[] holds the record's own extra words (0..7); a record
 * without a TSC carries the last TSC seen on its pCPU in tsc. */
struct xt_rec {
	uint32_t event;        /* 28-bit event id */
	uint8_t nwords;        /* extra words in this record */
	bool has_tsc;
	uint64_t tsc;
	uint32_t d[7];
	uint32_t pcpu;
	uint64_t offset;       /* byte offset of the record in the input */
};

/* Chunks the file decoder may scan ahead of the current one. */
#define XT_PRE_MAX 4

/* Which pCPUs' chunks one of n threads decodes when they share a file:
 * pCPU p goes to thread owner[p] (p < nowner), else to thread p % n. */
struct xt_share {
	const uint8_t *owner;
	size_t nowner;
	unsigned me, n;
};
static inline bool xt_share_has(const struct xt_share *s, uint32_t p)
{
	return !s || (p < s->nowner ? s->owner[p] : p % s->n) == s->me;
}

/* Called for every record; a non-zero return stops decoding. */
typedef int (*xt_rec_fn)(void *ctx, const struct xt_rec *r);

struct xt_pcpu_info {
	bool seen;
	bool has_tsc;
	uint64_t first_tsc, last_tsc;
	uint64_t records;
	uint64_t tsc_backwards;   /* records whose TSC went back on this pCPU */
};

struct xt_decoder {
	xt_rec_fn fn;
	void *ctx;
	uint64_t offset;          /* bytes consumed so far */
	/* file mode: the current TRC_TRACE_CPU_CHANGE chunk */
	bool in_chunk;
	uint32_t chunk_cpu;
	uint64_t chunk_left;
	uint64_t chunk_start;     /* offset of the chunk's header */
	/* bytes of a record split across two feeds */
	uint8_t carry[40];
	size_t ncarry;
	/* per pCPU */
	struct xt_pcpu_info *pcpu;
	size_t npcpu, pcpu_cap;
	/* totals */
	uint64_t records, chunks;
	bool sched_only;          /* deliver only what xt_sched_wanted() keeps */
	bool want_infprev;        /* ... including INFPREV (TSC-rate estimate) */
	bool failed;              /* a corrupt input stopped decoding */
	uint64_t fail_offset;
	/* File mode: the chunks after the current one, scanned ahead
	 * interleaved with it (two independent chains of record sizes run
	 * faster than one); applied, in file order, when decoding gets there.
	 * pre[0..npre) are pending, in file order; every slot keeps its
	 * buffer of wanted records. */
	struct xt_prescan {
		uint32_t cpu;
		uint64_t body, end;       /* input offsets of its records and its end */
		uint64_t len;             /* bytes scanned so far */
		uint64_t n, back, last;   /* records, TSCs gone back, last TSC */
		struct xt_wanted { const uint8_t *p; uint64_t tsc; } *w;
		size_t nw;
	} pre[XT_PRE_MAX];
	size_t npre;
	/* File mode, when threads share a file (xt_file_load): only the
	 * chunks of the pCPUs share names are decoded, the others skipped by
	 * their size. NULL: every chunk. */
	const struct xt_share *share;
	bool skipping;            /* the open chunk is another thread's */
};

/* Highest pCPU id accepted (Xen's NR_CPUS limit is 4096 on x86). */
#define XT_MAX_PCPU 16384

void xt_decoder_init(struct xt_decoder *dec, xt_rec_fn fn, void *ctx);
void xt_decoder_free(struct xt_decoder *dec);
/* File mode: a stream of TRC_TRACE_CPU_CHANGE chunks as xentrace writes
 * them. buf may split records and chunk headers anywhere. Returns 0, or -1
 * with a message naming the byte offset (records before it were delivered). */
int xt_decode_feed(struct xt_decoder *dec, const void *buf, size_t len, struct xg_err *err);
/* File mode: the input ended; -1 if it ended inside a record or chunk. */
int xt_decode_finish(struct xt_decoder *dec, struct xg_err *err);
/* File mode: the bytes of each pCPU's chunks among the whole chunks at
 * the start of buf, up to about `upto` bytes, by walking their headers
 * ((*bytes)[p], *n entries; the caller frees *bytes). False when a chunk
 * header there is malformed. */
bool xt_chunk_bytes(const void *buf, size_t len, size_t upto, uint64_t **bytes, size_t *n);
/* Takes over what `from` decoded of its own pCPUs (from->share) into
 * dec, which decoded the same input for other pCPUs. */
void xt_decoder_absorb(struct xt_decoder *dec, const struct xt_decoder *from);
/* Live mode: bytes copied from pCPU `pcpu`'s trace buffer (whole records,
 * as Xen writes them; wrap padding included). */
int xt_decode_raw(struct xt_decoder *dec, uint32_t pcpu, const void *buf, size_t len,
                  struct xg_err *err);
/* The records runstate accounting and the TSC-rate estimate use: GEN
 * (lost records, wrap, CPU change), runstate changes, INFPREV. */
static inline bool xt_sched_wanted(uint32_t event, bool infprev)
{
	uint32_t sub = event & 0x0ffff000u;
	return sub == 0x00021000u || sub == 0x0001f000u || (infprev && event == XT_SWITCH_INFPREV);
}
/* Size in bytes of the record whose first word is hdr (4..40): the
 * header, 4 per extra word (bits 28-30), 8 more with a TSC (bit 31).
 * Arithmetic rather than a table: it is on the decoder's critical path. */
static inline size_t xt_rec_size(uint32_t hdr)
{
	return 4 + ((hdr >> 26) & 0x1cu) + ((hdr >> 28) & 8u);
}

/* ---- scheduler events and merging -------------------------------------- */

enum xt_ev_kind {
	XT_EV_CHANGE,      /* runstate old -> new */
	XT_EV_CONTINUE,    /* still running */
	XT_EV_LOST_START,  /* records lost from tsc (first_tsc) on this pCPU */
	XT_EV_LOST_END,    /* ... until tsc; dom/vcpu was current at tsc */
	XT_EV_PCPU_END,    /* the pCPU's last TSC in the input */
};

/* 16 bytes: big traces hold millions of these. */
struct xt_ev {
	uint64_t tsc;
	uint16_t dom, vcpu;  /* LOST_START: the lost count (xt_ev_count) */
	uint16_t pcpu;
	uint8_t kind;        /* enum xt_ev_kind */
	uint8_t old_new;     /* xt_old_new(old, new); LOST_*: 1 = full layout with dom/vcpu */
};
static inline uint32_t xt_ev_count(const struct xt_ev *e)
{
	return (uint32_t)e->dom << 16 | e->vcpu;
}
/* CHANGE / CONTINUE: the old and the new enum xt_state, a nibble each. */
static inline uint8_t xt_old_new(unsigned old, unsigned nw)
{
	return (uint8_t)(old << 4 | nw);
}
static inline unsigned xt_ev_old(const struct xt_ev *e) { return e->old_new >> 4; }
static inline unsigned xt_ev_new(const struct xt_ev *e) { return e->old_new & 0xfu; }

struct xt_evq {
	struct xt_ev *ev;
	size_t n, cap, head;
	uint64_t first_tsc;   /* first and last TSC of any record on this pCPU */
	uint64_t last_tsc;
	bool has_first;
};

/* Collects scheduler events per pCPU from decoded records and merges them
 * in TSC order (ties: lower pCPU first). Also estimates the TSC rate from
 * TRC_SCHED_SWITCH_INFPREV run times (ns) against runstate TSC deltas. */
struct xt_events {
	struct xt_evq *q;
	size_t nq, qcap;
	uint64_t first_tsc, last_tsc;  /* over all records with a TSC */
	bool has_tsc;
	uint64_t lost_records;         /* sum of TRC_LOST_RECORDS counts */
	uint64_t lost_events;
	uint64_t sched_records;
	uint64_t short_records;        /* known events with too few words */
	/* TSC rate estimate */
	double *hz_samples;
	size_t nhz, hz_cap;
	struct { uint16_t dom, vcpu; bool valid; uint64_t tsc; } *cur;  /* per pCPU */
	size_t ncur;
	bool no_hz;                    /* set: no TSC-rate estimate wanted */
};

void xt_events_init(struct xt_events *e);
void xt_events_free(struct xt_events *e);
/* An xt_rec_fn: pass &events as ctx. */
int xt_events_add(void *events, const struct xt_rec *r);
/* The same for k records of pCPU pcpu straight from the input (the
 * decoder's fast path when its consumer is xt_events_add). */
void xt_events_add_wanted(struct xt_events *e, uint32_t pcpu, const struct xt_wanted *w, size_t k);
/* Moves the queues of share's pCPUs from `from` into e, and adds up the
 * totals: e and from hold disjoint pCPUs' events of one input (threads
 * sharing a file). */
void xt_events_absorb(struct xt_events *e, struct xt_events *from, const struct xt_share *share);
/* Widens pCPU p's (and the trace's) TSC span with records not delivered. */
void xt_events_span(struct xt_events *e, uint32_t p, uint64_t first, uint64_t last);
/* Appends an XT_EV_PCPU_END per pCPU (call once, at the end of input). */
void xt_events_close(struct xt_events *e);
/* Merged order without copying: init, run until 0, free. The queues must
 * not grow meanwhile. */
struct xt_mh { uint64_t tsc; uint32_t q; };
struct xt_merge {
	struct xt_events *e;
	struct xt_mh *h;      /* per pCPU queue: its head's (tsc, queue) key */
	uint32_t *lt;         /* loser tree over h: inner node -> losing queue */
	size_t nleaf;         /* leaves: nq rounded up to a power of two */
	uint32_t win;         /* the queue with the earliest head */
};
void xt_merge_init(struct xt_merge *m, struct xt_events *e);
/* The next events in merged order that all come from one queue, in place
 * (no copy): *run points at them, the return value is their count (0 at
 * the end). Valid until the queues change. */
size_t xt_merge_run(struct xt_merge *m, const struct xt_ev **run);
void xt_merge_free(struct xt_merge *m);
/* Live use: passes every queued event with tsc <= upto to fn in merged
 * order (upto = a time all pCPU buffers have been read to). Returns the
 * number passed. */
size_t xt_events_drain(struct xt_events *e, uint64_t upto,
                       void (*fn)(void *ctx, const struct xt_ev *ev), void *ctx);
/* All remaining events in merged order as one array (caller frees). */
struct xt_ev *xt_events_merge_all(struct xt_events *e, size_t *n);
/* Median TSC rate estimate in Hz from INFPREV records, 0 if < 16 samples. */
double xt_events_estimate_hz(struct xt_events *e, size_t *nsamples);
/* Cycles to ns at hz (exact 128-bit arithmetic, rounded to nearest). */
uint64_t xt_cyc_to_ns(uint64_t cyc, double hz);
/* Parses "2.4G", "2400M", "2400000K", "2400000000" into Hz. */
bool xt_parse_hz(const char *s, double *hz);

/* ---- whole files ------------------------------------------------------- */

struct xt_file {
	struct xt_decoder dec;
	struct xt_events ev;
	bool partial;              /* decoding stopped early: err says why */
	struct xg_err err;
	uint64_t size;
	/* Unmapping a large file takes a while: a thread does it while the
	 * caller goes on with the events (xt_file_free waits for it). */
	struct xt_unmap *unmap;
};

/* Decodes a whole xentrace file into fe (events not merged yet); with
 * estimate_hz it also gathers the records xt_events_estimate_hz needs.
 * Up to `threads` threads share the decoding (0: xt_file_threads());
 * the result is the same with any number. Returns -1 only when the file
 * cannot be read at all; a corrupt or truncated file sets fe->partial and
 * fe->err and keeps everything before the fault. */
int xt_file_load(struct xt_file *fe, const char *path, bool estimate_hz, unsigned threads,
                 struct xg_err *err);
/* Threads xt_file_load uses by default: the CPUs this process may run
 * on, at most XT_THREADS_MAX. */
#define XT_THREADS_MAX 8
unsigned xt_file_threads(void);
void xt_file_free(struct xt_file *fe);

#endif
