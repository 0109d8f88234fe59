// SPDX-License-Identifier: GPL-2.0-or-later
/* The reader: decodes a recording sample by sample. It inflates with
 * Z_BLOCK so it knows the file offsets where a complete sample ends; that
 * is how a torn tail is told apart from corruption, and where the recorder
 * cuts before appending. */
#include "record_fmt.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#define IN_CHUNK 65536
#define OUT_CHUNK 65536

struct xg_reader {
	char *path;
	int fd;
	unsigned char *in;
	uint64_t in_off;          /* file offset of in[0] */
	bool file_eof;
	z_stream z;
	bool in_member, member_seen;
	uint64_t member_start, member_out;
	uint32_t member_crc;

	struct xg_strbuf text;      /* inflated bytes; text.p[tpos..] not yet parsed */
	size_t tpos;
	uint64_t line_no;

	int hdr;                  /* header lines seen in this member (3 = all) */
	unsigned minor;
	size_t nf, np;            /* fields and PMU slots per 'd' line */
	char **col;
	size_t ncol, col_cap;

	bool in_sample;
	size_t want_dom, want_vcpu, got_vcpu, want_pcpu;
	uint32_t scrc;
	uint64_t expect_first;
	bool have_ident;
	uint64_t *peer_ndom;      /* domains of each 'P' host of this sample */
	size_t peer_cap, peer_at;
	uint64_t peer_left;       /* of the host the next 'd' line belongs to */
	bool sock_ok;             /* a 'k' line may come: right after a 'd' or 'k' */
	uint32_t ident_id, ident_gen;
	uint8_t ident_handle[16];
	char ident_name[XG_NAME_MAX];
	uint8_t *mark;
	size_t mark_cap;
	uint8_t *kmark;           /* per socket entry: bit e = '=' in event e */
	size_t kmark_cap;
	uint32_t *owner;          /* owner domain of vCPU i, for i < owner_n */
	size_t owner_cap, owner_n;
	bool owner_done;
	struct rec_prev prev;      /* samples are deltas against the caller's */
	struct xg_sample empty;

	/* Torn-tail bookkeeping: a candidate is a byte-aligned block boundary;
	 * it becomes the safe point once the text before it parsed to a
	 * sample boundary. */
	bool cand;
	uint64_t cand_in, cand_out;
	uint32_t cand_crc;
	uint64_t safe_in, safe_out;
	uint32_t safe_crc;
	bool done_after_safe, saw_last, unterminated, ended;
	unsigned torn;
	uint64_t samples;
	int state;                /* 0 reading, 1 at end, -1 failed */
	struct xg_err saved;
};

static uint64_t in_pos(const struct xg_reader *r)
{
	return r->in_off + (uint64_t)(r->z.next_in - r->in);
}

static int failv(struct xg_reader *r, struct xg_err *err, uint64_t off, bool line, const char *fmt, va_list ap)
{
	char m[400];
	vsnprintf(m, sizeof(m), fmt, ap);
	if (line)
		xg_fail(err, "%s: byte %" PRIu64 " (line %" PRIu64 "): %s", r->path, off, r->line_no, m);
	else
		xg_fail(err, "%s: byte %" PRIu64 ": %s", r->path, off, m);
	return -1;
}

/* An error in the text: names the file, the compressed offset being
 * decoded and the line of the decompressed stream (zcat FILE | sed -n Lp). */
XG_PRINTF(3, 4)
static int bad_line(struct xg_reader *r, struct xg_err *err, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	failv(r, err, r->hdr < 3 ? r->member_start : in_pos(r), true, fmt, ap);
	va_end(ap);
	return -1;
}

XG_PRINTF(4, 5)
static int bad_at(struct xg_reader *r, struct xg_err *err, uint64_t off, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	failv(r, err, off, false, fmt, ap);
	va_end(ap);
	return -1;
}

/* Keeps the unread input and appends what the file has next. */
static int read_more(struct xg_reader *r, struct xg_err *err)
{
	size_t keep = r->z.avail_in;
	r->in_off += (uint64_t)(r->z.next_in - r->in);
	memmove(r->in, r->z.next_in, keep);
	r->z.next_in = r->in;
	ssize_t n;
	do
		n = pread(r->fd, r->in + keep, IN_CHUNK - keep, (off_t)(r->in_off + keep));
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return xg_fail_errno(err, errno, "%s: read", r->path);
	if (n == 0)
		r->file_eof = true;
	r->z.avail_in = (uInt)(keep + (size_t)n);
	return 0;
}

/* Whether everything from the current input position to the end of the
 * file is zero bytes: what a crash can leave when the file size reached
 * the disk before the data did. */
static bool rest_is_zero(struct xg_reader *r)
{
	for (uInt i = 0; i < r->z.avail_in; i++)
		if (r->z.next_in[i])
			return false;
	uint64_t off = r->in_off + (uint64_t)(r->z.next_in - r->in) + r->z.avail_in;
	unsigned char buf[4096];
	for (;;) {
		ssize_t n = pread(r->fd, buf, sizeof(buf), (off_t)off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n == 0;
		for (ssize_t i = 0; i < n; i++)
			if (buf[i])
				return false;
		off += (uint64_t)n;
	}
}

static bool at_sample_boundary(const struct xg_reader *r)
{
	return r->tpos == r->text.len && r->hdr == 3 && !r->in_sample;
}

static void promote(struct xg_reader *r)
{
	if (r->cand && at_sample_boundary(r)) {
		r->safe_in = r->cand_in;
		r->safe_out = r->cand_out;
		r->safe_crc = r->cand_crc;
		r->done_after_safe = false;
	}
	r->cand = false;
}

/* The data ended inside a gzip member (a writer was killed, or is still
 * writing). Whether a sample was lost: text after the last complete
 * sample, or compressed bytes after the last safe point that no decoded
 * sample accounts for. */
static int end_in_member(struct xg_reader *r)
{
	promote(r);
	bool partial = r->tpos < r->text.len || r->in_sample || r->hdr < 3;
	bool extra = !r->saw_last && in_pos(r) > r->safe_in && !r->done_after_safe;
	/* A data block may end byte-aligned right after a sample; then only
	 * the rest of that sample's sync marker (an empty stored block,
	 * 00 00 00 ff ff) may follow, and nothing was lost. */
	uint64_t left = in_pos(r) - r->safe_in;
	if (extra && left <= 5) {
		static const unsigned char mark[5] = { 0, 0, 0, 0xff, 0xff };
		unsigned char b[5];
		if (pread(r->fd, b, (size_t)left, (off_t)r->safe_in) == (ssize_t)left && !memcmp(b, mark, (size_t)left))
			extra = false;
	}
	if (partial || extra)
		r->torn++;
	r->unterminated = true;
	r->in_member = false;
	r->ended = true;
	return 0;
}

static void member_begin(struct xg_reader *r)
{
	inflateReset(&r->z);
	r->in_member = r->member_seen = true;
	r->member_start = in_pos(r);
	r->member_out = 0;
	r->member_crc = (uint32_t)crc32(0, NULL, 0);
	r->hdr = 0;
	r->prev.have = false;
	r->cand = false;
	r->safe_in = r->member_start;
	r->safe_out = 0;
	r->safe_crc = r->member_crc;
	r->done_after_safe = r->saw_last = false;
	r->unterminated = false;
}

/* Inflates one step. Returns 1 after progress, 0 at the end of the data,
 * -1 on error. */
static int pump(struct xg_reader *r, struct xg_err *err)
{
	if (r->ended)
		return 0;
	if (!r->in_member) {
		if (r->member_seen && !at_sample_boundary(r))
			return bad_at(r, err, r->member_start,
			              "gzip member ends inside a %s", r->hdr < 3 ? "header" : "sample");
		if (r->z.avail_in < 2 && !r->file_eof && read_more(r, err) < 0)
			return -1;
		if (r->z.avail_in == 0) {
			r->ended = true;
			return 0;
		}
		const unsigned char *p = r->z.next_in;
		if (p[0] != 0x1f || (r->z.avail_in > 1 && p[1] != 0x8b)) {
			if (!r->member_seen)
				return bad_at(r, err, in_pos(r), "not an xgtop recording (not gzip data)");
			return bad_at(r, err, in_pos(r), "data after a gzip member is not gzip (corrupt or foreign)");
		}
		member_begin(r);
	}
	promote(r);
	if (r->z.avail_in == 0) {
		if (!r->file_eof && read_more(r, err) < 0)
			return -1;
		if (r->z.avail_in == 0)
			return end_in_member(r);
	}
	if (r->tpos) {
		memmove(r->text.p, r->text.p + r->tpos, r->text.len - r->tpos);
		r->text.len -= r->tpos;
		r->tpos = 0;
	}
	xg_grow(&r->text.p, &r->text.cap, r->text.len + OUT_CHUNK + 1, 1);
	unsigned char *out = (unsigned char *)r->text.p + r->text.len;
	r->z.next_out = out;
	r->z.avail_out = OUT_CHUNK;
	int rc = inflate(&r->z, Z_BLOCK);
	size_t got = OUT_CHUNK - r->z.avail_out;
	r->member_crc = (uint32_t)crc32(r->member_crc, out, (uInt)got);
	r->member_out += got;
	r->text.len += got;
	r->text.p[r->text.len] = 0;
	switch (rc) {
	case Z_OK:
	case Z_BUF_ERROR:
		if (r->z.data_type & 64)
			r->saw_last = true;
		if ((r->z.data_type & 128) && (r->z.data_type & 7) == 0) {
			r->cand = true;
			r->cand_in = in_pos(r);
			r->cand_out = r->member_out;
			r->cand_crc = r->member_crc;
		}
		return 1;
	case Z_STREAM_END:
		r->in_member = false;
		return 1;
	case Z_DATA_ERROR:
		if (rest_is_zero(r))
			return end_in_member(r);
		return bad_at(r, err, in_pos(r), "corrupt compressed data (%s)", r->z.msg ? r->z.msg : "?");
	default:
		return bad_at(r, err, in_pos(r), "zlib error %d", rc);
	}
}

/* The next complete line (NUL-terminated, tabs kept), or NULL. */
static char *next_line(struct xg_reader *r, size_t *len)
{
	if (r->tpos == r->text.len)
		return NULL;
	char *s = r->text.p + r->tpos;
	char *nl = memchr(s, '\n', r->text.len - r->tpos);
	if (!nl)
		return NULL;
	*nl = 0;
	*len = (size_t)(nl - s);
	r->tpos += *len + 1;
	r->line_no++;
	return s;
}

static void split(struct xg_reader *r, char *s)
{
	r->ncol = 0;
	for (;;) {
		xg_grow(&r->col, &r->col_cap, r->ncol + 1, sizeof(*r->col));
		r->col[r->ncol++] = s;
		char *t = strchr(s, '\t');
		if (!t)
			break;
		*t = 0;
		s = t + 1;
	}
}

static const char *col(const struct xg_reader *r, size_t i)
{
	return i < r->ncol ? r->col[i] : "";
}

static bool parse_u64(const char *s, uint64_t *v)
{
	return xg_parse_u64(s, v);
}

static bool parse_hex(const char *s, uint64_t *v)
{
	char *e;
	if (!*s || *s == '-' || *s == '+' || *s == ' ')
		return false;
	errno = 0;
	unsigned long long x = strtoull(s, &e, 16);
	if (errno || *e)
		return false;
	*v = x;
	return true;
}

/* Applies a delta column to base; empty = unchanged. */
static bool parse_delta(const char *s, uint64_t base, uint64_t *v)
{
	if (!*s) {
		*v = base;
		return true;
	}
	uint64_t d;
	if (*s == '-') {
		if (!parse_u64(s + 1, &d))
			return false;
		*v = base - d;
	} else {
		if (!parse_u64(s, &d))
			return false;
		*v = base + d;
	}
	return true;
}

/* An absolute column (decimal, or hex when hex); empty = base. */
static bool parse_abs(const char *s, uint64_t base, uint64_t max, bool hex, uint64_t *v)
{
	if (!*s) {
		*v = base;
		return true;
	}
	return (hex ? parse_hex(s, v) : parse_u64(s, v)) && *v <= max;
}

static bool parse_why(const struct xg_reader *r, const char *s, uint8_t *why)
{
	memset(why, 0, XG_F_COUNT);
	if (!strcmp(s, "-"))
		return true;
	while (*s) {
		char *e;
		if (*s < '0' || *s > '9')
			return false;
		unsigned long f = strtoul(s, &e, 10);
		if (*e != ':' || e[1] < '0' || e[1] > '9')
			return false;
		unsigned long x = strtoul(e + 1, &e, 10);
		if (x > 255 || f >= r->nf || (*e && *e != ','))
			return false;
		if (f < XG_F_COUNT)
			why[f] = (uint8_t)x;
		s = *e ? e + 1 : e;
	}
	return true;
}

static int parse_header(struct xg_reader *r, struct xg_err *err)
{
	if (r->hdr == 0) {
		if (strcmp(col(r, 0), REC_MAGIC))
			return bad_line(r, err, "not an xgtop recording (the first line is not '%s ...')", REC_MAGIC);
		uint64_t major, minor;
		if (!parse_u64(col(r, 1), &major) || !parse_u64(col(r, 2), &minor))
			return bad_line(r, err, "unreadable format version '%s.%s'", col(r, 1), col(r, 2));
		if (major != REC_MAJOR)
			return bad_line(r, err, "recording format version %" PRIu64 ".%" PRIu64
			                " is not supported (this xgtop reads version %d.x)", major, minor, REC_MAJOR);
		r->minor = minor > UINT32_MAX ? UINT32_MAX : (unsigned)minor;
		r->hdr = 1;
		return 0;
	}
	if (r->hdr == 1) {
		if (strcmp(col(r, 0), "fields") || r->ncol > 65)
			return bad_line(r, err, "expected the 'fields' header line (at most 64 fields)");
		r->nf = r->ncol - 1;
		for (size_t i = 0; i < r->nf && i < XG_F_COUNT; i++)
			if (strcmp(r->col[i + 1], field_name((enum xg_field)i)))
				return bad_line(r, err, "field %zu is '%s' where this xgtop has '%s'",
				                i, r->col[i + 1], field_name((enum xg_field)i));
		r->hdr = 2;
		return 0;
	}
	if (strcmp(col(r, 0), "pmu") || r->ncol > 65)
		return bad_line(r, err, "expected the 'pmu' header line (at most 64 slots)");
	r->np = r->ncol - 1;
	for (size_t i = 0; i < r->np && i < REC_PMU_SLOTS; i++) {
		char t[64];
		if (strcmp(r->col[i + 1], rec_pmu_name(i, t, sizeof(t))))
			return bad_line(r, err, "PMU slot %zu is '%s' where this xgtop has '%s'", i, r->col[i + 1], t);
	}
	r->hdr = 3;
	return 0;
}

static int parse_S(struct xg_reader *r, struct xg_sample *out, struct xg_err *err)
{
	const struct xg_sample *p = r->prev.have ? r->prev.base : &r->empty;
	uint64_t ndom, nvcpu, npcpu, pwhy;
	if (!parse_u64(col(r, RS_NDOM), &ndom) || !parse_u64(col(r, RS_NVCPU), &nvcpu) ||
	    ndom > (1u << 24) || nvcpu > (1u << 26))
		return bad_line(r, err, "bad domain or vCPU count on the 'S' line");
	/* Absent before 1.2: no pCPU lines, no reason. */
	if (!parse_abs(col(r, RS_NPCPU), 0, REC_PCPU_MAX, false, &npcpu) ||
	    !parse_abs(col(r, RS_PCPU_WHY), p->pcpu_why, UINT8_MAX, false, &pwhy))
		return bad_line(r, err, "bad pCPU count or reason on the 'S' line");
	sample_clear(out);
	out->host = p->host;
	struct xg_host *h = &out->host;
	uint64_t pc;
	if (!parse_delta(col(r, RS_MONO), p->host.mono_ns, &h->mono_ns) ||
	    !parse_delta(col(r, RS_REAL), p->host.real_ns, &h->real_ns) ||
	    !parse_delta(col(r, RS_PCPUS), p->host.pcpus, &pc) || pc > UINT32_MAX ||
	    !parse_delta(col(r, RS_KHZ), p->host.cpu_khz, &h->cpu_khz) ||
	    !parse_delta(col(r, RS_MEM_TOTAL), p->host.mem_total, &h->mem_total) ||
	    !parse_delta(col(r, RS_MEM_FREE), p->host.mem_free, &h->mem_free) ||
	    !parse_delta(col(r, RS_SELF_CPU), p->host.self_cpu_ns, &h->self_cpu_ns) ||
	    !parse_delta(col(r, RS_LOST), p->host.lost_records, &h->lost_records) ||
	    !parse_abs(col(r, RS_VALID), p->host.valid, UINT64_MAX, true, &h->valid))
		return bad_line(r, err, "bad number on the 'S' line");
	h->pcpus = (uint32_t)pc;
	for (size_t i = 1; i < p->nreason; i++)
		out->reason[i] = xg_strdup(p->reason[i]);
	out->nreason = p->nreason;
	memcpy(out->host_why, p->host_why, sizeof(out->host_why));
	/* Storage grows with the lines actually read, never with what a
	 * (possibly corrupt) 'S' line announces. */
	out->pcpu_why = (uint8_t)pwhy;
	r->want_dom = ndom;
	r->want_vcpu = nvcpu;
	r->want_pcpu = npcpu;
	r->got_vcpu = 0;
	r->expect_first = 0;
	r->have_ident = false;
	r->peer_at = r->peer_left = 0;
	r->sock_ok = false;
	r->owner_done = false;
	r->in_sample = true;
	return 0;
}

static int parse_h(struct xg_reader *r, struct xg_sample *out, struct xg_err *err)
{
	struct xg_host *h = &out->host;
	char *dst[] = { h->source, h->hypervisor, h->hostname, h->sched, h->cache_events };
	size_t len[] = { sizeof(h->source), sizeof(h->hypervisor), sizeof(h->hostname), sizeof(h->sched),
		sizeof(h->cache_events) };
	for (size_t i = 0; i < XG_ARRAY_LEN(dst); i++)
		if (!rec_unesc(col(r, i + 1), dst[i], len[i]))
			return bad_line(r, err, "bad or too long text on the 'h' line");
	return 0;
}

static int parse_P(struct xg_reader *r, struct xg_sample *out, struct xg_err *err)
{
	char name[XG_PEER_NAME_MAX];
	uint64_t v[RH_VALID - RH_STALE];
	if (out->ndom || r->have_ident || out->npeer >= XG_PEER_MAX || r->ncol < RH_COUNT ||
	    !rec_unesc(col(r, RH_NAME), name, sizeof(name)))
		return bad_line(r, err, "bad 'P' line (or one after the domains)");
	for (size_t k = 0; k < XG_ARRAY_LEN(v); k++)
		if (!parse_u64(col(r, RH_STALE + k), &v[k]))
			return bad_line(r, err, "bad number on the 'P' line");
	struct xg_peer *p = sample_add_peer(out, name);
	struct xg_host *h = &p->host;
	if (v[0] > 1 || v[1] >= XG_REASON_MAX || v[RH_PCPUS - RH_STALE] > UINT32_MAX ||
	    !parse_hex(col(r, RH_VALID), &h->valid))
		return bad_line(r, err, "bad number on the 'P' line");
	p->stale = (uint8_t)v[0];
	p->why = (uint8_t)v[1];
	h->mono_ns = v[RH_MONO - RH_STALE];
	h->real_ns = v[RH_REAL - RH_STALE];
	h->pcpus = (uint32_t)v[RH_PCPUS - RH_STALE];
	h->cpu_khz = v[RH_KHZ - RH_STALE];
	h->mem_total = v[RH_MEM_TOTAL - RH_STALE];
	h->mem_free = v[RH_MEM_FREE - RH_STALE];
	h->lost_records = v[RH_LOST - RH_STALE];
	char *dst[] = { h->source, h->hypervisor, h->hostname, h->sched, h->cache_events };
	size_t len[] = { sizeof(h->source), sizeof(h->hypervisor), sizeof(h->hostname), sizeof(h->sched),
		sizeof(h->cache_events) };
	for (size_t i = 0; i < XG_ARRAY_LEN(dst); i++)
		if (!rec_unesc(col(r, RH_TEXT + i), dst[i], len[i]))
			return bad_line(r, err, "bad or too long text on the 'P' line");
	xg_grow(&r->peer_ndom, &r->peer_cap, out->npeer, sizeof(*r->peer_ndom));
	r->peer_ndom[out->npeer - 1] = v[RH_NDOM - RH_STALE];
	return 0;
}

/* A new domain's identity: from its 'D' line, else its baseline's. */
static void take_ident(struct xg_reader *r, struct xg_dom *d, const struct xg_dom *o)
{
	if (r->have_ident) {
		d->gen = r->ident_gen;
		memcpy(d->handle, r->ident_handle, 16);
		memcpy(d->name, r->ident_name, XG_NAME_MAX);
		r->have_ident = false;
	} else {
		d->gen = o->gen;
		memcpy(d->handle, o->handle, 16);
		memcpy(d->name, o->name, XG_NAME_MAX);
	}
}

/* The pool host of the domain a 'd' line adds: 'P' lines said how many
 * of the domains, in order, each host has. */
static int take_peer(struct xg_reader *r, const struct xg_sample *out, struct xg_dom *d, struct xg_err *err)
{
	if (!out->npeer)
		return 0;
	while (!r->peer_left && r->peer_at < out->npeer)
		r->peer_left = r->peer_ndom[r->peer_at++];
	if (!r->peer_left)
		return bad_line(r, err, "more domains than the 'P' lines count");
	r->peer_left--;
	d->host = (uint16_t)(r->peer_at - 1);
	return 0;
}

static int parse_R(struct xg_reader *r, struct xg_sample *out, struct xg_err *err)
{
	for (size_t i = 1; i < out->nreason; i++)
		free(out->reason[i]);
	out->nreason = 1;
	if (r->ncol > XG_REASON_MAX)
		return bad_line(r, err, "more than %d reasons", XG_REASON_MAX - 1);
	for (size_t i = 1; i < r->ncol; i++) {
		size_t n = strlen(r->col[i]) + 1;
		char *t = xg_malloc(n);
		if (!rec_unesc(r->col[i], t, n)) {
			free(t);
			return bad_line(r, err, "bad escape in reason %zu", i);
		}
		out->reason[out->nreason++] = t;
	}
	return 0;
}

static int parse_D(struct xg_reader *r, struct xg_err *err)
{
	uint64_t id, gen;
	const char *hx = col(r, 3);
	if (!parse_u64(col(r, 1), &id) || id > UINT32_MAX || !parse_u64(col(r, 2), &gen) ||
	    gen > UINT32_MAX || strlen(hx) != 32)
		return bad_line(r, err, "bad 'D' line");
	for (int i = 0; i < 16; i++) {
		char b[3] = { hx[2 * i], hx[2 * i + 1], 0 };
		uint64_t v;
		if (!parse_hex(b, &v))
			return bad_line(r, err, "bad handle on the 'D' line");
		r->ident_handle[i] = (uint8_t)v;
	}
	if (!rec_unesc(col(r, 4), r->ident_name, sizeof(r->ident_name)))
		return bad_line(r, err, "bad or too long domain name");
	r->ident_id = (uint32_t)id;
	r->ident_gen = (uint32_t)gen;
	r->have_ident = true;
	return 0;
}

static int parse_d(struct xg_reader *r, struct xg_sample *out, struct xg_err *err)
{
	static const struct xg_dom zero;
	uint64_t id;
	if (out->ndom >= r->want_dom || r->owner_done)
		return bad_line(r, err, "more domains than the 'S' line announced");
	if (!parse_u64(col(r, RD_ID), &id) || id > UINT32_MAX)
		return bad_line(r, err, "bad domain id");
	const struct xg_dom *o = r->prev.have ? rec_index_find(&r->prev.ix, r->prev.base, (uint32_t)id) : NULL;
	if (r->have_ident && r->ident_id != id)
		return bad_line(r, err, "identity line for domain %u is followed by domain %" PRIu64, r->ident_id, id);
	if (!r->have_ident && !o)
		return bad_line(r, err, "domain %" PRIu64 " has no identity ('D') line", id);
	struct xg_dom *d = sample_add_dom(out, (uint32_t)id);
	if (take_peer(r, out, d, err) < 0)
		return -1;
	take_ident(r, d, o);
	if (!o)
		o = &zero;
	uint64_t st, valid, pvalid, guest, first, count;
	if (!parse_abs(col(r, RD_STATE), o->state, UINT32_MAX, false, &st) ||
	    !parse_abs(col(r, RD_VALID), o->valid, UINT64_MAX, true, &valid) ||
	    !parse_abs(col(r, RD_PMU_VALID), o->pmu_valid, UINT64_MAX, true, &pvalid) ||
	    !parse_abs(col(r, RD_GUEST), o->guest_reported, UINT8_MAX, false, &guest) ||
	    !parse_abs(col(r, RD_VCPU_FIRST), r->expect_first, UINT32_MAX, false, &first) ||
	    !parse_abs(col(r, RD_VCPU_COUNT), o->vcpu_count, UINT32_MAX, false, &count))
		return bad_line(r, err, "bad number in the state columns of domain %" PRIu64, id);
	d->state = (uint32_t)st;
	/* Only fields both the file and this xgtop have can be valid: a newer
	 * writer's extra bits go, and so do bits an older file (fewer fields)
	 * sets for fields it does not carry. */
	d->valid = valid & ((1ull << (r->nf < XG_F_COUNT ? r->nf : XG_F_COUNT)) - 1);
	d->pmu_valid = r->np <= REC_PMU_SLOTS ? pvalid : pvalid & ((1ull << REC_PMU_SLOTS) - 1);
	d->guest_reported = (uint8_t)guest;
	d->vcpu_first = (uint32_t)first;
	d->vcpu_count = (uint32_t)count;
	r->expect_first = first + count;
	const char *w = col(r, RD_WHY);
	if (!*w)
		memcpy(d->why, o->why, sizeof(d->why));
	else if (!parse_why(r, w, d->why))
		return bad_line(r, err, "bad reason list '%s' of domain %" PRIu64, w, id);
	uint8_t mark = 0;
	for (size_t f = 0; f < r->nf; f++) {
		const char *c = col(r, RD_VALUES + f);
		uint64_t v;
		if (!strcmp(c, "=")) {
			int si = -1;
			for (int i = 0; i < REC_NSUM; i++)
				if ((size_t)rec_sum_field[i] == f)
					si = i;
			if (si < 0)
				return bad_line(r, err, "'=' in field %s of domain %" PRIu64, field_name((enum xg_field)f), id);
			mark |= (uint8_t)(1u << si);
			continue;
		}
		if (!parse_delta(c, f < XG_F_COUNT ? o->v[f] : 0, &v))
			return bad_line(r, err, "bad value '%s' in column %zu of domain %" PRIu64, c, RD_VALUES + f, id);
		if (f < XG_F_COUNT)
			d->v[f] = v;
	}
	for (size_t k = 0; k < r->np; k++) {
		const char *c = col(r, RD_VALUES + r->nf + k);
		uint64_t v;
		bool known = k < REC_PMU_SLOTS;
		uint64_t base = known ? o->pmu[k / XG_PMU_EVENT_COUNT][k % XG_PMU_EVENT_COUNT] : 0;
		if (!parse_delta(c, base, &v))
			return bad_line(r, err, "bad PMU value '%s' of domain %" PRIu64, c, id);
		if (known)
			d->pmu[k / XG_PMU_EVENT_COUNT][k % XG_PMU_EVENT_COUNT] = v;
	}
	xg_grow(&r->mark, &r->mark_cap, out->ndom, 1);
	r->mark[out->ndom - 1] = mark;
	r->sock_ok = true;
	return 0;
}

/* One pCPU's times, before the domains; the baseline is the entry at the
 * same index of the previous sample. */
static int parse_p(struct xg_reader *r, struct xg_sample *out, struct xg_err *err)
{
	static const struct xg_pcpu zero;
	const struct xg_sample *p = r->prev.have ? r->prev.base : &r->empty;
	if (out->ndom || r->have_ident)
		return bad_line(r, err, "'p' line after a domain");
	if (out->npcpu >= r->want_pcpu)
		return bad_line(r, err, "more pCPUs than the 'S' line announced");
	const struct xg_pcpu *o = out->npcpu < p->npcpu ? &p->pcpu[out->npcpu] : &zero;
	uint64_t id, valid, ns[XG_PC_COUNT];
	if (!parse_abs(col(r, RP_ID), o->id, UINT32_MAX, false, &id) ||
	    !parse_abs(col(r, RP_VALID), o->valid, UINT8_MAX, true, &valid))
		return bad_line(r, err, "bad pCPU number or valid mask on a 'p' line");
	for (int t = 0; t < XG_PC_COUNT; t++)
		if (!parse_delta(col(r, RP_TIMES + t), o->ns[t], &ns[t]))
			return bad_line(r, err, "bad time '%s' on the 'p' line of pCPU %" PRIu64,
			                col(r, RP_TIMES + t), id);
	struct xg_pcpu *x = sample_add_pcpus(out, 1);
	x->id = (uint32_t)id;
	/* Bits of times a newer writer added are dropped with their values. */
	x->valid = (uint8_t)(valid & ((1u << XG_PC_COUNT) - 1));
	memcpy(x->ns, ns, sizeof(x->ns));
	return 0;
}

/* A per-socket entry of the domain whose 'd' line came last; its baseline
 * is the entry at the same offset of that domain's baseline. */
static int parse_k(struct xg_reader *r, struct xg_sample *out, struct xg_err *err)
{
	static const struct xg_sock zero;
	if (!r->sock_ok || !out->ndom)
		return bad_line(r, err, "'k' line not right after a domain's 'd' line");
	struct xg_dom *d = &out->dom[out->ndom - 1];
	if (!d->sock_count)
		d->sock_first = (uint32_t)out->nsock;
	if (d->sock_count >= UINT32_MAX || out->nsock >= UINT32_MAX)
		return bad_line(r, err, "too many socket entries");
	const struct xg_dom *pd = r->prev.have ? rec_index_find(&r->prev.ix, r->prev.base, d->id) : NULL;
	const struct xg_sock *o = pd ? rec_sock_base(pd, r->prev.base, d->sock_count) : NULL;
	if (!o)
		o = &zero;
	uint64_t sock, valid, v[XG_SOCK_EVENT_COUNT];
	if (!parse_abs(col(r, RK_SOCKET), o->socket, UINT32_MAX, false, &sock) ||
	    !parse_abs(col(r, RK_VALID), o->valid, UINT8_MAX, true, &valid))
		return bad_line(r, err, "bad socket number or valid mask on a 'k' line of domain %u", d->id);
	uint8_t mark = 0;
	for (int e = 0; e < XG_SOCK_EVENT_COUNT; e++) {
		const char *c = col(r, RK_VALUES + e);
		v[e] = 0;
		if (!strcmp(c, "="))
			mark |= (uint8_t)(1u << e);   /* resolved at the sample's end */
		else if (!parse_delta(c, o->v[e], &v[e]))
			return bad_line(r, err, "bad value '%s' on a 'k' line of domain %u", c, d->id);
	}
	xg_grow(&r->kmark, &r->kmark_cap, out->nsock + 1, 1);
	r->kmark[out->nsock] = mark;
	xg_grow(&out->sock, &out->sock_cap, out->nsock + 1, sizeof(*out->sock));
	struct xg_sock *k = &out->sock[out->nsock++];
	memset(k, 0, sizeof(*k));
	k->socket = (uint32_t)sock;
	/* Bits of events a newer writer added are dropped with their values. */
	k->valid = (uint8_t)(valid & ((1u << XG_SOCK_EVENT_COUNT) - 1));
	memcpy(k->v, v, sizeof(k->v));
	d->sock_count++;
	return 0;
}

/* The wait totals of the domain whose 'd' line came last; deltas against
 * that domain's baseline entry. */
static int parse_w(struct xg_reader *r, struct xg_sample *out, struct xg_err *err)
{
	static const struct xg_waits zero;
	if (!r->sock_ok || !out->ndom)
		return bad_line(r, err, "'w' line not right after a domain's 'd' line");
	struct xg_dom *d = &out->dom[out->ndom - 1];
	if (sample_waits(out, d))
		return bad_line(r, err, "second 'w' line for domain %u", d->id);
	const struct xg_dom *pd = r->prev.have ? rec_index_find(&r->prev.ix, r->prev.base, d->id) : NULL;
	const struct xg_waits *o = pd ? sample_waits(r->prev.base, pd) : NULL;
	uint64_t was[REC_WAIT_VALUES], v[REC_WAIT_VALUES];
	rec_waits_values(o ? o : &zero, was);
	for (size_t i = 0; i < REC_WAIT_VALUES; i++) {
		const char *c = col(r, RW_TOTAL + i);
		if (!parse_delta(c, was[i], &v[i]))
			return bad_line(r, err, "bad value '%s' on the 'w' line of domain %u", c, d->id);
	}
	struct xg_waits w;
	rec_waits_from(&w, v);
	bool ok = w.ntop <= XG_BEHIND_TOP && w.nlast <= XG_BEHIND_TOP;
	for (int i = 0; i < XG_BEHIND_TOP; i++)
		ok = ok && v[RW_TOP - RW_TOTAL + 2 * i] <= XG_BEHIND_XEN && v[RW_LAST - RW_TOTAL + 2 * i] <= XG_BEHIND_XEN;
	if (!ok)
		return bad_line(r, err, "bad culprit count or id on the 'w' line of domain %u", d->id);
	*sample_add_waits(out, d) = w;
	return 0;
}

/* All 'd' lines are in: check them, and start the vCPU owner map. */
static int owners(struct xg_reader *r, struct xg_sample *out, struct xg_err *err)
{
	if (r->owner_done)
		return 0;
	if (out->ndom != r->want_dom)
		return bad_line(r, err, "sample has %zu of the %zu domains its 'S' line announced",
		                out->ndom, r->want_dom);
	if (r->have_ident)
		return bad_line(r, err, "identity line for domain %u without its 'd' line", r->ident_id);
	r->owner_n = 0;
	r->owner_done = true;
	return 0;
}

/* Extends the owner map (as rec_vcpu_owner() computes it for the whole
 * array) to cover index need-1, doubling so the total work stays linear. */
static void owner_extend(struct xg_reader *r, const struct xg_sample *out, size_t need)
{
	if (need <= r->owner_n)
		return;
	size_t n = r->owner_n * 2 + 1024;
	if (n < need)
		n = need;
	if (n > r->want_vcpu)
		n = r->want_vcpu;
	xg_grow(&r->owner, &r->owner_cap, n, sizeof(*r->owner));
	for (size_t i = r->owner_n; i < n; i++)
		r->owner[i] = UINT32_MAX;
	for (size_t d = 0; d < out->ndom; d++) {
		uint64_t lo = out->dom[d].vcpu_first, hi = lo + out->dom[d].vcpu_count;
		if (lo < r->owner_n)
			lo = r->owner_n;
		for (uint64_t k = lo; k < hi && k < n; k++)
			if (r->owner[k] == UINT32_MAX)
				r->owner[k] = (uint32_t)d;
	}
	r->owner_n = n;
}

static int parse_c(struct xg_reader *r, struct xg_sample *out, struct xg_err *err)
{
	static const struct xg_vcpu zero;
	if (owners(r, out, err) < 0)
		return -1;
	if (r->got_vcpu >= r->want_vcpu)
		return bad_line(r, err, "more vCPUs than the 'S' line announced");
	size_t i = r->got_vcpu++;
	owner_extend(r, out, i + 1);
	xg_grow(&out->vcpu, &out->vcpu_cap, i + 1, sizeof(*out->vcpu));
	out->nvcpu = i + 1;
	const struct xg_vcpu *o = r->prev.have ? rec_vcpu_base(out, r->owner, i, r->prev.base, &r->prev.ix) : NULL;
	if (!o)
		o = &zero;
	struct xg_vcpu *v = &out->vcpu[i];
	memset(v, 0, sizeof(*v));
	uint64_t id, on, valid, cpu = 0;
	bool cpu_eq = !strcmp(col(r, RC_CPU), "=");
	if (!parse_abs(col(r, RC_ID), o->id, UINT32_MAX, false, &id) ||
	    !parse_abs(col(r, RC_ONLINE), o->online, UINT8_MAX, false, &on) ||
	    !parse_abs(col(r, RC_VALID), o->valid, UINT8_MAX, true, &valid) ||
	    (!cpu_eq && !parse_delta(col(r, RC_CPU), o->cpu_ns, &cpu)))
		return bad_line(r, err, "bad 'c' line");
	const char *blk = col(r, RC_SCHED + XG_RS_BLOCKED);
	for (int k = 0; k < XG_RS_COUNT; k++)
		if ((k != XG_RS_BLOCKED || *blk != '~') && !parse_delta(col(r, RC_SCHED + k), o->sched_ns[k], &v->sched_ns[k]))
			return bad_line(r, err, "bad scheduler time on a 'c' line");
	if (*blk == '~') {
		/* Relative to what the interval leaves after the other states. */
		uint64_t dmono = out->host.mono_ns - (r->prev.have ? r->prev.base->host.mono_ns : 0);
		uint64_t rest = rec_blocked_rest(v, o, dmono);
		uint64_t d;
		if (!parse_delta(blk + 1, rest, &d))
			return bad_line(r, err, "bad blocked time on a 'c' line");
		v->sched_ns[XG_RS_BLOCKED] = o->sched_ns[XG_RS_BLOCKED] + d;
	}
	v->id = (uint32_t)id;
	v->online = (uint8_t)on;
	v->valid = (uint8_t)valid;
	v->cpu_ns = cpu_eq ? v->sched_ns[XG_RS_RUNNING] : cpu;
	return 0;
}

/* '=' on a domain's last 'k' line: the domain's field minus its other
 * entries (mod 2^64). Allowed on that line only. */
static int resolve_socks(struct xg_reader *r, struct xg_sample *out, struct xg_dom *d, struct xg_err *err)
{
	for (uint32_t k = 0; k < d->sock_count; k++) {
		uint8_t m = r->kmark[d->sock_first + k];
		if (!m)
			continue;
		if (k + 1 != d->sock_count)
			return bad_line(r, err, "domain %u: '=' on a 'k' line that is not its last", d->id);
		for (int e = 0; e < XG_SOCK_EVENT_COUNT; e++) {
			if (!(m >> e & 1))
				continue;
			uint64_t v = d->v[rec_sock_field[e]];
			for (uint32_t q = 0; q + 1 < d->sock_count; q++)
				v -= out->sock[d->sock_first + q].v[e];
			out->sock[d->sock_first + k].v[e] = v;
		}
	}
	return 0;
}

static int parse_E(struct xg_reader *r, struct xg_sample *out, struct xg_err *err)
{
	if (owners(r, out, err) < 0)
		return -1;
	if (r->got_vcpu != r->want_vcpu)
		return bad_line(r, err, "sample has %zu of the %zu vCPUs its 'S' line announced",
		                r->got_vcpu, r->want_vcpu);
	if (out->npcpu != r->want_pcpu)
		return bad_line(r, err, "sample has %zu of the %zu pCPUs its 'S' line announced",
		                out->npcpu, r->want_pcpu);
	uint64_t crc;
	if (!parse_hex(col(r, 1), &crc))
		return bad_line(r, err, "bad end ('E') line");
#ifndef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
	if (crc != r->scrc)
		return bad_line(r, err, "sample checksum mismatch (corrupt data)");
#endif
	for (size_t d = 0; d < out->ndom; d++) {
		if (resolve_socks(r, out, &out->dom[d], err) < 0)
			return -1;
		for (int i = 0; i < REC_NSUM; i++) {
			if (!(r->mark[d] >> i & 1))
				continue;
			if (!rec_vcpu_sum(out, &out->dom[d], i, &out->dom[d].v[rec_sum_field[i]]))
				return bad_line(r, err, "domain %u: '=' without vCPUs to sum", out->dom[d].id);
		}
	}
	r->in_sample = false;
	rec_prev_keep(&r->prev, out);
	/* Fields this xgtop has and the file does not: say why they are '-'. */
	if (r->nf < XG_F_COUNT) {
		char why[64];
		snprintf(why, sizeof(why), "not in this recording (format %d.%u)", REC_MAJOR, r->minor);
		uint8_t w = sample_reason(out, why);
		for (size_t f = r->nf; f < XG_F_COUNT; f++)
			if (!out->host_why[f])
				out->host_why[f] = w;
	}
	if (r->minor < 7) {
		char why[64];
		snprintf(why, sizeof(why), "not in this recording (format %d.%u)", REC_MAJOR, r->minor);
		out->wait_why = sample_reason(out, why);
	}
	return 1;
}

/* Returns 1 when line completed a sample, 0 to go on, -1 on error. */
static int parse_line(struct xg_reader *r, char *line, size_t len, struct xg_sample *out, struct xg_err *err)
{
	if (r->hdr < 3) {
		split(r, line);
		return parse_header(r, err);
	}
	char type = line[0];
	bool known1 = line[0] && (line[1] == '\t' || !line[1]);
	/* The end line carries a CRC-32 of the sample's other lines. */
	if (known1 && type == 'S')
		r->scrc = (uint32_t)crc32(0, NULL, 0);
	if ((known1 && type == 'S') || (r->in_sample && !(known1 && type == 'E'))) {
		line[len] = '\n';
		r->scrc = (uint32_t)crc32(r->scrc, (const unsigned char *)line, (uInt)len + 1);
		line[len] = 0;
	}
	split(r, line);
	/* 'k' exists from minor 1 on, 'p' from 2, 'P' from 3, 'w' from 7: in an older
	 * member they are corruption. The pool view's first version wrote 'P'
	 * lines under 1.2, so a 1.2 member may hold them too. */
	static const char *const types[] = { "ShRWDdcE", "ShRWDdkcE", "ShRWDdkcpPE", "ShRWDdkcpPwE" };
	bool known = known1 && strchr(types[r->minor < 2 ? r->minor : r->minor < 7 ? 2 : 3], type);
	if (known && type != 'k' && type != 'w')
		r->sock_ok = false;   /* lines a newer minor added do not end the run */
	if (!known) {
		if (r->minor > REC_MINOR)
			return 0;   /* added by a newer minor version: skippable */
		return bad_line(r, err, "unknown line type '%.20s'", col(r, 0));
	}
	if (type == 'S') {
		if (r->in_sample)
			return bad_line(r, err, "sample without its end ('E') line");
		return parse_S(r, out, err);
	}
	if (!r->in_sample)
		return bad_line(r, err, "'%c' line outside a sample", type);
	switch (type) {
	case 'h': return parse_h(r, out, err);
	case 'R': return parse_R(r, out, err);
	case 'P': return parse_P(r, out, err);
	case 'W':
		return parse_why(r, col(r, 1), out->host_why) ? 0 : bad_line(r, err, "bad 'W' line");
	case 'D': return parse_D(r, err);
	case 'd': return parse_d(r, out, err);
	case 'k': return parse_k(r, out, err);
	case 'w': return parse_w(r, out, err);
	case 'p': return parse_p(r, out, err);
	case 'c': return parse_c(r, out, err);
	default: return parse_E(r, out, err);
	}
}

/* A foreign file is refused before its first line is complete. */
static bool header_prefix_ok(const struct xg_reader *r)
{
	if (r->hdr != 0 || r->tpos == r->text.len)
		return true;
	size_t n = r->text.len - r->tpos, m = strlen(REC_MAGIC "\t");
	return !memcmp(r->text.p + r->tpos, REC_MAGIC "\t", n < m ? n : m);
}

static int step(struct xg_reader *r, struct xg_sample *out, struct xg_err *err)
{
	for (;;) {
		size_t len;
		char *line = next_line(r, &len);
		if (line) {
			int rc = parse_line(r, line, len, out, err);
			if (rc)
				return rc;
			if (!out && r->hdr == 3)
				return 0;
			continue;
		}
		if (!header_prefix_ok(r))
			return bad_line(r, err, "not an xgtop recording (it does not start with '%s')", REC_MAGIC);
		if (r->text.len - r->tpos > REC_LINE_MAX)
			return bad_line(r, err, "line longer than %u bytes (corrupt or foreign data)", REC_LINE_MAX);
		int rc = pump(r, err);
		if (rc <= 0)
			return rc < 0 ? -1 : 2;
	}
}

struct xg_reader *reader_open_fd(int fd, const char *path, uint64_t start, struct xg_err *err)
{
	struct xg_reader *r = xg_calloc(1, sizeof(*r));
	r->fd = fd;
	r->in_off = start;
	r->path = xg_strdup(path);
	r->in = xg_malloc(IN_CHUNK);
	r->z.next_in = r->in;
	sample_init(&r->empty);
	if (inflateInit2(&r->z, 15 + 16) != Z_OK) {
		xg_fail(err, "%s: zlib inflateInit failed", path);
		reader_close(r);
		return NULL;
	}
	/* Read the first header now, so a foreign file fails at open. */
	if (step(r, NULL, err) < 0) {
		reader_close(r);
		return NULL;
	}
	return r;
}

struct xg_reader *reader_open_at(const char *path, uint64_t off, struct xg_err *err)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		xg_fail_errno(err, errno, "%s", path);
		return NULL;
	}
	return reader_open_fd(fd, path, off, err);
}

struct xg_reader *reader_open(const char *path, struct xg_err *err)
{
	return reader_open_at(path, 0, err);
}

uint64_t reader_member_offset(const struct xg_reader *r)
{
	return r->member_start;
}

int reader_next(struct xg_reader *r, const struct xg_sample *prev, struct xg_sample *out, struct xg_err *err)
{
	if (r->state > 0)
		return 1;
	if (r->state < 0) {
		if (err)
			*err = r->saved;
		return -1;
	}
	if (!rec_prev_bind(&r->prev, prev, out)) {
		/* A programming error, reported like bad data. */
		xg_fail(err ? err : &r->saved, "%s: reader_next needs the sample it returned last", r->path);
		r->state = -1;
		return -1;
	}
	int rc = step(r, out, err ? err : &r->saved);
	if (rc == 1) {
		r->samples++;
		r->done_after_safe = true;
		return 0;
	}
	sample_clear(out);
	if (rc == 2) {
		r->state = 1;
		return 1;
	}
	r->state = -1;
	if (err)
		r->saved = *err;
	return -1;
}

unsigned reader_torn(const struct xg_reader *r)
{
	return r->torn;
}

void reader_tail(const struct xg_reader *r, struct rec_tail *t)
{
	t->unterminated = r->unterminated;
	t->member_start = r->member_start;
	t->safe_in = r->safe_in;
	t->safe_out = r->safe_out;
	t->safe_crc = r->safe_crc;
	t->samples = r->samples;
}

void reader_close(struct xg_reader *r)
{
	if (!r)
		return;
	inflateEnd(&r->z);
	if (r->fd >= 0)
		close(r->fd);
	free(r->in);
	strbuf_free(&r->text);
	free(r->col);
	free(r->mark);
	free(r->kmark);
	free(r->owner);
	free(r->peer_ndom);
	rec_prev_free(&r->prev);
	sample_free(&r->empty);
	free(r->path);
	free(r);
}
