/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Private to the recorder and reader: constants and helpers of the
 * recording text format (doc/recording.md describes it byte by byte). */
#ifndef XGTOP_RECORD_FMT_H
#define XGTOP_RECORD_FMT_H

#include "xgtop/core/strbuf.h"
#include "xgtop/record/record.h"

#define REC_MAGIC "xgtop-recording"
#define REC_MAJOR 1
/* 1.1 added 'k' lines (per-socket CMT/MBM entries); 1.2 'p' lines
 * (per-pCPU times) and their count and reason on the 'S' line; 1.3 'P'
 * lines (the hosts of a pool view); 1.4 appended the VM fields (emu_ns ..
 * swap_bytes) and the host's VM flag; 1.5 the pressure fields
 * (psi_cpu_some_ns .. psi_io_full_ns) and the host's pressure flag; 1.6
 * the wait attribution and latency fields (behind_wait_ns .. wait_p99_ns); 1.7
 * 'w' lines (a domain's cumulative wait totals by culprit and length). */
#define REC_MINOR 7
/* A new gzip member after this many samples or uncompressed bytes, so
 * damage in one member is bounded and repairing a torn tail is cheap. */
#define REC_MEMBER_SAMPLES 3600
#define REC_MEMBER_BYTES (32u << 20)
/* zlib levels: the default, and the faster one for samples whose text is
 * larger than REC_FAST_BYTES (thousands of domains). */
#define REC_LEVEL 6
#define REC_LEVEL_FAST 2
#define REC_FAST_BYTES (256u << 10)
/* No legitimate line comes near this; a foreign file hits it early. */
#define REC_LINE_MAX (1u << 20)
#define REC_PMU_SLOTS (XG_PMU_WHERE_COUNT * XG_PMU_EVENT_COUNT)

/* Columns of a 'd' line before the field values. */
enum rec_dcol { RD_TYPE, RD_ID, RD_STATE, RD_VALID, RD_PMU_VALID, RD_GUEST,
	RD_VCPU_FIRST, RD_VCPU_COUNT, RD_WHY, RD_VALUES };
/* Columns of an 'S' line. */
enum rec_scol { RS_TYPE, RS_NDOM, RS_NVCPU, RS_MONO, RS_REAL, RS_PCPUS, RS_KHZ,
	RS_MEM_TOTAL, RS_MEM_FREE, RS_SELF_CPU, RS_LOST, RS_VALID, RS_NPCPU, RS_PCPU_WHY, RS_COUNT };
/* Columns of a 'p' line (one pCPU's times). */
enum rec_pcol { RP_TYPE, RP_ID, RP_VALID, RP_TIMES, RP_COUNT = RP_TIMES + XG_PC_COUNT };
/* At most this many pCPU lines in a sample (a corrupt count is refused). */
#define REC_PCPU_MAX (1u << 20)
/* Columns of a 'k' line (one per-socket entry of the domain before it). */
enum rec_kcol { RK_TYPE, RK_SOCKET, RK_VALID, RK_VALUES, RK_COUNT = RK_VALUES + XG_SOCK_EVENT_COUNT };
/* Columns of a 'w' line (the wait totals of the domain before it): the
 * total, the top culprits (count, then who and ns each), the last
 * interval's top parts (the same), the lengths' count, sum and buckets. */
enum rec_wcol { RW_TYPE, RW_TOTAL, RW_NTOP, RW_TOP, RW_NLAST = RW_TOP + 2 * XG_BEHIND_TOP, RW_LAST,
	RW_NWAITS = RW_LAST + 2 * XG_BEHIND_TOP, RW_SUM, RW_BUCKET, RW_COUNT = RW_BUCKET + XG_WAIT_LE_N + 1 };
/* A 'w' line's numbers, in column order from RW_TOTAL (the writer and
 * reader walk the same list). */
#define REC_WAIT_VALUES (RW_COUNT - RW_TOTAL)
void rec_waits_values(const struct xg_waits *w, uint64_t v[REC_WAIT_VALUES]);
void rec_waits_from(struct xg_waits *w, const uint64_t v[REC_WAIT_VALUES]);

/* Columns of a 'P' line (one per pool host, before the domains). */
enum rec_hcol { RH_TYPE, RH_NAME, RH_STALE, RH_WHY, RH_NDOM, RH_MONO, RH_REAL, RH_PCPUS, RH_KHZ,
	RH_MEM_TOTAL, RH_MEM_FREE, RH_LOST, RH_VALID, RH_TEXT, RH_COUNT = RH_TEXT + 5 };
/* Columns of a 'c' line. */
enum rec_ccol { RC_TYPE, RC_ID, RC_ONLINE, RC_VALID, RC_CPU, RC_SCHED, RC_COUNT = RC_SCHED + 4 };

/* Domain fields that may be written as "=": the sum of the same counter
 * over the domain's vCPUs, which sources fill by construction. Index into
 * this table is also the bit in the reader's per-domain mark. */
#define REC_NSUM 5
extern const enum xg_field rec_sum_field[REC_NSUM];
/* The vCPU counter summed for rec_sum_field[i]. */
uint64_t rec_vcpu_counter(const struct xg_vcpu *v, int i);
/* What the interval dmono leaves for the blocked time of v (o: the same
 * vCPU in the previous sample) after running, runnable and offline, mod
 * 2^64. A 'c' line may give the blocked time relative to it ("~R"). */
uint64_t rec_blocked_rest(const struct xg_vcpu *v, const struct xg_vcpu *o, uint64_t dmono);
/* true and the sum when d's vCPU slice lies inside s. */
bool rec_vcpu_sum(const struct xg_sample *s, const struct xg_dom *d, int i, uint64_t *sum);

const char *rec_pmu_name(size_t slot, char *buf, size_t n);

/* Record text is built in a core strbuf; these add the format's own
 * pieces to it. */
void rbuf_u64(struct xg_strbuf *b, uint64_t v);
void rbuf_hex(struct xg_strbuf *b, uint64_t v);
/* v - base as a signed decimal; nothing when they are equal. */
void rbuf_delta(struct xg_strbuf *b, uint64_t v, uint64_t base);
/* Escapes control bytes, backslash and invalid UTF-8 as \xNN / \\. */
void rbuf_esc(struct xg_strbuf *b, const char *s);
/* Drops trailing tabs (empty trailing columns mean "unchanged"). */
void rbuf_trim_tabs(struct xg_strbuf *b, size_t line_start);
/* Text of a member's header lines. */
void rec_header(struct xg_strbuf *b);

/* Undoes rbuf_esc into out (size n, NUL-terminated); false on a bad
 * escape, an embedded NUL or text too long for out. */
bool rec_unesc(const char *s, char *out, size_t n);

/* Finds the baseline of a domain: the first domain with the same id in the
 * previous sample. Both writer and reader use this very lookup. */
struct rec_index {
	struct rec_ent { uint32_t id, pos; } *e;
	size_t n, cap;
};
void rec_index_build(struct rec_index *ix, const struct xg_sample *s);
const struct xg_dom *rec_index_find(const struct rec_index *ix, const struct xg_sample *s, uint32_t id);
void rec_index_free(struct rec_index *ix);

/* The previous sample a reader or recorder works against. Its caller holds
 * it anyway (the engine and a replay keep two samples), so neither keeps a
 * copy; what identifies it is remembered so that a wrong one is refused
 * rather than turned into wrong differences. */
struct rec_prev {
	const struct xg_sample *base;  /* the caller's sample, valid during one call */
	bool have;                     /* an earlier sample of this member exists */
	size_t ndom;                   /* ... and these identify it */
	uint64_t mono;
	struct rec_index ix;           /* base's domains by id */
};
/* Binds the caller's prev for one call when an earlier sample exists.
 * false: prev is missing, is cur, or is not the sample remembered. */
bool rec_prev_bind(struct rec_prev *p, const struct xg_sample *prev, const struct xg_sample *cur);
/* Remembers s as the sample the next call must pass. */
void rec_prev_keep(struct rec_prev *p, const struct xg_sample *s);
void rec_prev_free(struct rec_prev *p);

/* For each vCPU of s, the index of the first domain whose slice holds it
 * (UINT32_MAX if none); owner must hold s->nvcpu entries. */
void rec_vcpu_owner(const struct xg_sample *s, uint32_t *owner);
/* Baseline for vCPU i of s: the vCPU at the same offset of the same
 * domain in prev, or NULL. */
const struct xg_vcpu *rec_vcpu_base(const struct xg_sample *s, const uint32_t *owner, size_t i,
                                    const struct xg_sample *prev, const struct rec_index *pix);

/* The domain field holding the sum of per-socket event e. A domain's last
 * 'k' line may write '=' for e: that field minus its other entries. */
extern const enum xg_field rec_sock_field[XG_SOCK_EVENT_COUNT];

/* Baseline of entry off of d's socket slice: the entry at the same offset
 * of the baseline domain pd (in prev), or NULL. */
const struct xg_sock *rec_sock_base(const struct xg_dom *pd, const struct xg_sample *prev, uint32_t off);

/* Where the reader stopped, for the recorder to repair a torn tail before
 * appending: an unterminated last member is cut at its last sample
 * boundary and closed with an empty final block and the gzip trailer. */
struct rec_tail {
	bool unterminated;
	uint64_t member_start;   /* file offset of the last member */
	uint64_t safe_in;        /* file offset just after the last complete sample */
	uint64_t safe_out;       /* uncompressed bytes of the member up to there */
	uint32_t safe_crc;       /* their CRC-32 */
	uint64_t samples;
};
/* Tests start gzip members more often than REC_MEMBER_SAMPLES. */
void recorder_set_member_samples(struct xg_recorder *r, unsigned n);
/* Reads from file offset start, which must be where a gzip member begins. */
struct xg_reader *reader_open_fd(int fd, const char *path, uint64_t start, struct xg_err *err);
void reader_tail(const struct xg_reader *r, struct rec_tail *t);

#endif
