// SPDX-License-Identifier: GPL-2.0-or-later
/* The recorder: appends samples to a gzip stream, one sync-flushed write
 * per sample, so every sample that reached the file can be decoded even
 * if the process is killed (doc/recording.md). */
#include "record_fmt.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

struct xg_recorder {
	char *path;
	int fd;
	z_stream z;
	bool member_open;
	bool broken;
	unsigned member_samples, member_limit;
	int level;
	uint64_t member_bytes;
	struct xg_strbuf text;
	unsigned char *zout;
	size_t zlen, zcap;
	struct rec_prev prev;      /* samples are written as differences from it */
	struct xg_sample empty;
	uint32_t *owner;
	size_t owner_cap;
};

static int write_all(int fd, const void *p, size_t n)
{
	const char *c = p;
	while (n) {
		ssize_t w = write(fd, c, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -1;
		c += w;
		n -= (size_t)w;
	}
	return 0;
}

/* Compresses text into r->zout; flush is Z_SYNC_FLUSH or Z_FINISH. */
static void squeeze(struct xg_recorder *r, const char *p, size_t n, int flush)
{
	r->z.next_in = (unsigned char *)p;
	r->z.avail_in = (uInt)n;
	int rc;
	do {
		xg_grow(&r->zout, &r->zcap, r->zlen + 65536, 1);
		r->z.next_out = r->zout + r->zlen;
		r->z.avail_out = (uInt)(r->zcap - r->zlen);
		rc = deflate(&r->z, flush);
		r->zlen = r->zcap - r->z.avail_out;
		/* Z_BUF_ERROR only means nothing was left to do. */
		if (rc == Z_STREAM_ERROR)
			break;
	} while (flush == Z_FINISH ? rc != Z_STREAM_END : r->z.avail_out == 0);
	r->member_bytes += n;
}

static int flush_out(struct xg_recorder *r, struct xg_err *err)
{
	if (write_all(r->fd, r->zout, r->zlen) < 0) {
		/* The deflate state now assumes bytes the file lacks; appending
		 * more would corrupt the member, so stop here. */
		r->broken = true;
		return xg_fail_errno(err, errno, "%s: write failed, recording stopped", r->path);
	}
	r->zlen = 0;
	return 0;
}

static void member_begin(struct xg_recorder *r)
{
	struct xg_strbuf h = { 0 };
	rec_header(&h);
	squeeze(r, h.p, h.len, Z_SYNC_FLUSH);
	strbuf_free(&h);
	r->member_open = true;
	r->member_samples = 0;
	r->prev.have = false;
}

static void member_end(struct xg_recorder *r)
{
	squeeze(r, NULL, 0, Z_FINISH);
	deflateReset(&r->z);
	r->member_open = false;
	r->member_bytes = 0;
}

/* A column: the tab before it, then v if it differs from its baseline o
 * (an empty column says "unchanged"). */
static void col_u64(struct xg_strbuf *b, uint64_t v, uint64_t o)
{
	strbuf_putc(b, '\t');
	if (v != o)
		rbuf_u64(b, v);
}
static void col_hex(struct xg_strbuf *b, uint64_t v, uint64_t o)
{
	strbuf_putc(b, '\t');
	if (v != o)
		rbuf_hex(b, v);
}

static void put_why(struct xg_strbuf *b, const uint8_t *why)
{
	bool any = false;
	for (int f = 0; f < XG_F_COUNT; f++) {
		if (!why[f])
			continue;
		if (any)
			strbuf_putc(b, ',');
		rbuf_u64(b, (uint64_t)f);
		strbuf_putc(b, ':');
		rbuf_u64(b, why[f]);
		any = true;
	}
	if (!any)
		strbuf_putc(b, '-');
}

static bool reasons_equal(const struct xg_sample *a, const struct xg_sample *b)
{
	if (a->nreason != b->nreason)
		return false;
	for (size_t i = 1; i < a->nreason; i++)
		if (strcmp(a->reason[i], b->reason[i]))
			return false;
	return true;
}

static void put_host(struct xg_strbuf *b, const struct xg_sample *s, const struct xg_sample *p)
{
	const struct xg_host *h = &s->host, *o = &p->host;
	size_t ls = b->len;
	strbuf_puts(b, "S\t");
	rbuf_u64(b, s->ndom);
	strbuf_putc(b, '\t');
	rbuf_u64(b, s->nvcpu);
	const uint64_t now[] = { h->mono_ns, h->real_ns, h->pcpus, h->cpu_khz, h->mem_total,
		h->mem_free, h->self_cpu_ns, h->lost_records };
	const uint64_t was[] = { o->mono_ns, o->real_ns, o->pcpus, o->cpu_khz, o->mem_total,
		o->mem_free, o->self_cpu_ns, o->lost_records };
	for (size_t i = 0; i < XG_ARRAY_LEN(now); i++) {
		strbuf_putc(b, '\t');
		rbuf_delta(b, now[i], was[i]);
	}
	col_hex(b, h->valid, o->valid);
	col_u64(b, s->npcpu, 0);   /* written whenever there are pCPU lines */
	col_u64(b, s->pcpu_why, p->pcpu_why);
	rbuf_trim_tabs(b, ls);
	strbuf_putc(b, '\n');

	if (strcmp(h->source, o->source) || strcmp(h->hypervisor, o->hypervisor) ||
	    strcmp(h->hostname, o->hostname) || strcmp(h->sched, o->sched) ||
	    strcmp(h->cache_events, o->cache_events)) {
		const char *str[] = { h->source, h->hypervisor, h->hostname, h->sched, h->cache_events };
		strbuf_putc(b, 'h');
		for (size_t i = 0; i < XG_ARRAY_LEN(str); i++) {
			strbuf_putc(b, '\t');
			rbuf_esc(b, str[i]);
		}
		strbuf_putc(b, '\n');
	}
	if (!reasons_equal(s, p)) {
		strbuf_putc(b, 'R');
		for (size_t i = 1; i < s->nreason; i++) {
			strbuf_putc(b, '\t');
			rbuf_esc(b, s->reason[i]);
		}
		strbuf_putc(b, '\n');
	}
	if (memcmp(s->host_why, p->host_why, sizeof(s->host_why))) {
		strbuf_puts(b, "W\t");
		put_why(b, s->host_why);
		strbuf_putc(b, '\n');
	}
}

/* One 'p' line per pCPU, against the entry at the same index of the
 * previous sample (sources list the same pCPUs in the same order). */
static void put_pcpus(struct xg_strbuf *b, const struct xg_sample *s, const struct xg_sample *p)
{
	static const struct xg_pcpu zero;
	for (size_t i = 0; i < s->npcpu; i++) {
		const struct xg_pcpu *x = &s->pcpu[i], *o = i < p->npcpu ? &p->pcpu[i] : &zero;
		size_t ls = b->len;
		strbuf_putc(b, 'p');
		col_u64(b, x->id, o->id);
		col_hex(b, x->valid, o->valid);
		for (int t = 0; t < XG_PC_COUNT; t++) {
			strbuf_putc(b, '\t');
			rbuf_delta(b, x->ns[t], o->ns[t]);
		}
		rbuf_trim_tabs(b, ls);
		strbuf_putc(b, '\n');
	}
}

/* The domain's per-socket CMT/MBM entries, one 'k' line each, right after
 * its 'd' line; values are deltas against the entry at the same offset of
 * the baseline domain. Sources set the domain's fields to the sums, so the
 * last entry's values are mostly '=' (the field minus the other entries):
 * a noisy number less per event. */
static void put_socks(struct xg_strbuf *b, const struct xg_sample *s, const struct xg_dom *d,
                      const struct xg_dom *pd, const struct xg_sample *prev)
{
	static const struct xg_sock zero;
	/* A slice outside the pool (a broken source) is written as none. */
	if (!d->sock_count || d->sock_first > s->nsock || d->sock_count > s->nsock - d->sock_first)
		return;
	uint64_t sum[XG_SOCK_EVENT_COUNT] = { 0 };
	for (uint32_t k = 0; k < d->sock_count; k++)
		for (int e = 0; e < XG_SOCK_EVENT_COUNT; e++)
			sum[e] += s->sock[d->sock_first + k].v[e];
	for (uint32_t k = 0; k < d->sock_count; k++) {
		const struct xg_sock *x = &s->sock[d->sock_first + k];
		const struct xg_sock *o = pd ? rec_sock_base(pd, prev, k) : NULL;
		if (!o)
			o = &zero;
		size_t ls = b->len;
		strbuf_putc(b, 'k');
		col_u64(b, x->socket, o->socket);
		col_hex(b, x->valid, o->valid);
		bool last = k + 1 == d->sock_count;
		for (int e = 0; e < XG_SOCK_EVENT_COUNT; e++) {
			strbuf_putc(b, '\t');
			if (x->v[e] == o->v[e])
				continue;
			if (last && sum[e] == d->v[rec_sock_field[e]])
				strbuf_putc(b, '=');
			else
				rbuf_delta(b, x->v[e], o->v[e]);
		}
		rbuf_trim_tabs(b, ls);
		strbuf_putc(b, '\n');
	}
}

/* The domain's wait totals, one 'w' line after its 'd' and 'k' lines;
 * values are deltas against the baseline domain's entry. */
static void put_waits(struct xg_strbuf *b, const struct xg_sample *s, const struct xg_dom *d,
                      const struct xg_dom *pd, const struct xg_sample *prev)
{
	static const struct xg_waits zero;
	const struct xg_waits *w = sample_waits(s, d);
	if (!w)
		return;
	const struct xg_waits *o = pd && prev ? sample_waits(prev, pd) : NULL;
	uint64_t now[REC_WAIT_VALUES], was[REC_WAIT_VALUES];
	rec_waits_values(w, now);
	rec_waits_values(o ? o : &zero, was);
	size_t ls = b->len;
	strbuf_putc(b, 'w');
	for (size_t i = 0; i < REC_WAIT_VALUES; i++) {
		strbuf_putc(b, '\t');
		rbuf_delta(b, now[i], was[i]);
	}
	rbuf_trim_tabs(b, ls);
	strbuf_putc(b, '\n');
}

/* The 'D' line: who the domain is (written when that changes). */
static void put_ident(struct xg_strbuf *b, const struct xg_dom *d)
{
	static const char hx[] = "0123456789abcdef";
	strbuf_puts(b, "D\t");
	rbuf_u64(b, d->id);
	strbuf_putc(b, '\t');
	rbuf_u64(b, d->gen);
	strbuf_putc(b, '\t');
	for (int i = 0; i < 16; i++) {
		strbuf_putc(b, hx[d->handle[i] >> 4]);
		strbuf_putc(b, hx[d->handle[i] & 15]);
	}
	strbuf_putc(b, '\t');
	char name[XG_NAME_MAX];
	memcpy(name, d->name, XG_NAME_MAX);
	name[XG_NAME_MAX - 1] = 0;
	rbuf_esc(b, name);
	strbuf_putc(b, '\n');
}

static void put_dom(struct xg_recorder *r, const struct xg_sample *s, const struct xg_dom *d,
                    uint64_t expect_first)
{
	static const struct xg_dom zero;
	struct xg_strbuf *b = &r->text;
	const struct xg_dom *pd = r->prev.have ? rec_index_find(&r->prev.ix, r->prev.base, d->id) : NULL;
	const struct xg_dom *o = pd ? pd : &zero;
	struct xg_dom_ident was = dom_ident(o);
	if (!pd || !dom_same(&was, d, XG_SAME_ROW))
		put_ident(b, d);

	size_t ls = b->len;
	strbuf_puts(b, "d\t");
	rbuf_u64(b, d->id);
	col_u64(b, d->state, o->state);
	col_hex(b, d->valid, o->valid);
	col_hex(b, d->pmu_valid, o->pmu_valid);
	col_u64(b, d->guest_reported, o->guest_reported);
	col_u64(b, d->vcpu_first, expect_first);
	col_u64(b, d->vcpu_count, o->vcpu_count);
	strbuf_putc(b, '\t');
	if (memcmp(d->why, o->why, sizeof(d->why)))
		put_why(b, d->why);
	for (int f = 0; f < XG_F_COUNT; f++) {
		strbuf_putc(b, '\t');
		if (d->v[f] == o->v[f])
			continue;
		int si = -1;
		for (int i = 0; i < REC_NSUM; i++)
			if (rec_sum_field[i] == (enum xg_field)f)
				si = i;
		uint64_t sum;
		if (si >= 0 && rec_vcpu_sum(s, d, si, &sum) && sum == d->v[f])
			strbuf_putc(b, '=');
		else
			rbuf_delta(b, d->v[f], o->v[f]);
	}
	for (size_t k = 0; k < REC_PMU_SLOTS; k++) {
		strbuf_putc(b, '\t');
		rbuf_delta(b, d->pmu[k / XG_PMU_EVENT_COUNT][k % XG_PMU_EVENT_COUNT],
		           o->pmu[k / XG_PMU_EVENT_COUNT][k % XG_PMU_EVENT_COUNT]);
	}
	rbuf_trim_tabs(b, ls);
	strbuf_putc(b, '\n');
	put_socks(b, s, d, pd, r->prev.base);
	put_waits(b, s, d, pd, r->prev.base);
}

/* The blocked time of a vCPU is mostly what the interval leaves after
 * running, waiting and offline; writing only the difference from that
 * ("~R") saves a noisy number per vCPU. Whichever text is shorter wins. */
static void put_blocked(struct xg_strbuf *b, const struct xg_vcpu *v, const struct xg_vcpu *o, uint64_t dmono)
{
	uint64_t rest = rec_blocked_rest(v, o, dmono);
	size_t at = b->len;
	rbuf_delta(b, v->sched_ns[XG_RS_BLOCKED], o->sched_ns[XG_RS_BLOCKED]);
	size_t plain = b->len - at;
	strbuf_putc(b, '~');
	rbuf_delta(b, v->sched_ns[XG_RS_BLOCKED] - o->sched_ns[XG_RS_BLOCKED], rest);
	size_t resid = b->len - at - plain;
	if (resid < plain) {
		memmove(b->p + at, b->p + at + plain, resid);
		b->len = at + resid;
	} else {
		b->len = at + plain;
	}
	b->p[b->len] = 0;
}

static void put_vcpu(struct xg_strbuf *b, const struct xg_vcpu *v, const struct xg_vcpu *o, uint64_t dmono)
{
	static const struct xg_vcpu zero;
	if (!o)
		o = &zero;
	size_t ls = b->len;
	strbuf_putc(b, 'c');
	col_u64(b, v->id, o->id);
	col_u64(b, v->online, o->online);
	col_hex(b, v->valid, o->valid);
	strbuf_putc(b, '\t');
	if (v->cpu_ns != o->cpu_ns) {
		if (v->cpu_ns == v->sched_ns[XG_RS_RUNNING])
			strbuf_putc(b, '=');
		else
			rbuf_delta(b, v->cpu_ns, o->cpu_ns);
	}
	for (int i = 0; i < XG_RS_COUNT; i++) {
		strbuf_putc(b, '\t');
		if (i == XG_RS_BLOCKED)
			put_blocked(b, v, o, dmono);
		else
			rbuf_delta(b, v->sched_ns[i], o->sched_ns[i]);
	}
	rbuf_trim_tabs(b, ls);
	strbuf_putc(b, '\n');
}

/* A pool's hosts, one 'P' line each, absolute values: the host's name,
 * whether it answered, its facts and clocks, and how many of the domains
 * that follow (in host order) are its. */
static void put_peers(struct xg_strbuf *b, const struct xg_sample *s)
{
	size_t d = 0;
	for (size_t i = 0; i < s->npeer; i++) {
		const struct xg_peer *p = &s->peer[i];
		const struct xg_host *h = &p->host;
		size_t n = 0;
		while (d + n < s->ndom && s->dom[d + n].host == i)
			n++;
		d += n;
		strbuf_puts(b, "P\t");
		rbuf_esc(b, p->name);
		const uint64_t num[] = { p->stale, p->why, n, h->mono_ns, h->real_ns, h->pcpus, h->cpu_khz,
			h->mem_total, h->mem_free, h->lost_records };
		for (size_t k = 0; k < XG_ARRAY_LEN(num); k++) {
			strbuf_putc(b, '\t');
			rbuf_u64(b, num[k]);
		}
		strbuf_putc(b, '\t');
		rbuf_hex(b, h->valid);
		const char *str[] = { h->source, h->hypervisor, h->hostname, h->sched, h->cache_events };
		for (size_t k = 0; k < XG_ARRAY_LEN(str); k++) {
			strbuf_putc(b, '\t');
			rbuf_esc(b, str[k]);
		}
		strbuf_putc(b, '\n');
	}
}

static void put_sample(struct xg_recorder *r, const struct xg_sample *s)
{
	struct xg_strbuf *b = &r->text;
	const struct xg_sample *p = r->prev.have ? r->prev.base : &r->empty;
	b->len = 0;
	put_host(b, s, p);
	put_pcpus(b, s, p);
	put_peers(b, s);
	uint64_t expect = 0;
	for (size_t i = 0; i < s->ndom; i++) {
		put_dom(r, s, &s->dom[i], expect);
		expect = (uint64_t)s->dom[i].vcpu_first + s->dom[i].vcpu_count;
	}
	xg_grow(&r->owner, &r->owner_cap, s->nvcpu, sizeof(*r->owner));
	rec_vcpu_owner(s, r->owner);
	for (size_t i = 0; i < s->nvcpu; i++) {
		const struct xg_vcpu *o = r->prev.have ? rec_vcpu_base(s, r->owner, i, r->prev.base, &r->prev.ix) : NULL;
		put_vcpu(b, &s->vcpu[i], o, s->host.mono_ns - p->host.mono_ns);
	}
	uint32_t crc = (uint32_t)crc32(0, (const unsigned char *)b->p, (uInt)b->len);
	static const char hx[] = "0123456789abcdef";
	strbuf_puts(b, "E\t");
	for (int sh = 28; sh >= 0; sh -= 4)
		strbuf_putc(b, hx[(crc >> sh) & 15]);
	strbuf_putc(b, '\n');
}

/* Cuts a torn last member back to its last complete sample and closes it
 * with an empty final stored block and the gzip trailer, so what follows
 * is a valid next member. */
static int repair_tail(int fd, const char *path, const struct rec_tail *t, struct xg_err *err)
{
	if (!t->unterminated)
		return 0;
	if (t->safe_in <= t->member_start) {
		if (ftruncate(fd, (off_t)t->member_start) < 0)
			return xg_fail_errno(err, errno, "%s: cannot cut the torn tail", path);
	} else {
		unsigned char tail[13] = { 0x01, 0x00, 0x00, 0xff, 0xff };
		for (int i = 0; i < 4; i++) {
			tail[5 + i] = (unsigned char)(t->safe_crc >> (8 * i));
			tail[9 + i] = (unsigned char)(t->safe_out >> (8 * i));
		}
		if (ftruncate(fd, (off_t)t->safe_in) < 0 || write_all(fd, tail, sizeof(tail)) < 0)
			return xg_fail_errno(err, errno, "%s: cannot close the torn tail", path);
	}
	if (fsync(fd) < 0)
		return xg_fail_errno(err, errno, "%s: fsync", path);
	return 0;
}

/* Reads a recording from start to its end; fills the tail on success. */
static int read_from(int fd, const char *path, uint64_t start, struct rec_tail *t, struct xg_err *err)
{
	int rfd = dup(fd);
	if (rfd < 0)
		return xg_fail_errno(err, errno, "%s", path);
	struct xg_reader *rd = reader_open_fd(rfd, path, start, err);
	if (!rd)
		return -1;
	struct xg_sample s[2];
	sample_init(&s[0]);
	sample_init(&s[1]);
	int rc, k = 0;
	while ((rc = reader_next(rd, k ? &s[k & 1] : NULL, &s[(k + 1) & 1], err)) == 0)
		k++;
	sample_free(&s[0]);
	sample_free(&s[1]);
	reader_tail(rd, t);
	reader_close(rd);
	return rc < 0 ? -1 : 0;
}

/* Offsets where a gzip member as zlib writes it may start (magic, deflate,
 * no flags, no mtime, any XFL, OS Unix), scanning back from the end; fills
 * at most n of them, nearest to the end first. */
static size_t member_candidates(int fd, uint64_t size, uint64_t *cand, size_t n)
{
	enum { CHUNK = 1 << 16, HDR = 10 };
	static const unsigned char pat[HDR] = { 0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3 };
	unsigned char *buf = xg_malloc(CHUNK + HDR);
	size_t found = 0;
	uint64_t end = size;
	/* The last member is at most REC_MEMBER_BYTES of text; do not scan a
	 * whole foreign-sized file backwards. */
	uint64_t floor = size > 4ull * REC_MEMBER_BYTES ? size - 4ull * REC_MEMBER_BYTES : 0;
	while (end > floor && found < n) {
		uint64_t lo = end > CHUNK ? end - CHUNK : 0;
		size_t len = (size_t)(end - lo) + (end < size ? HDR - 1 : 0);
		if (lo + len > size)
			len = (size_t)(size - lo);
		ssize_t got = pread(fd, buf, len, (off_t)lo);
		if (got < (ssize_t)HDR)
			break;
		for (ssize_t i = got - HDR; i >= 0 && found < n; i--) {
			if (lo + (uint64_t)i >= end)
				continue;
			if (buf[i] == 0x1f && !memcmp(buf + i, pat, 8) && buf[i + 9] == 3)
				cand[found++] = lo + (uint64_t)i;
		}
		end = lo;
	}
	free(buf);
	return found;
}

/* Before appending: the first header must say this is a recording of a
 * version we write, and the last member must read to its end (its torn
 * tail, if any, is cut). Reading only the last member keeps opening a
 * day-long recording fast; if the member start cannot be found, the whole
 * file is read. */
static int check_existing(int fd, const char *path, uint64_t size, struct xg_err *err)
{
	struct rec_tail t;
	int rfd = dup(fd);
	if (rfd < 0)
		return xg_fail_errno(err, errno, "%s", path);
	struct xg_reader *rd = reader_open_fd(rfd, path, 0, err);
	if (!rd)
		goto refuse;
	reader_close(rd);
	uint64_t cand[4];
	size_t nc = member_candidates(fd, size, cand, XG_ARRAY_LEN(cand));
	for (size_t i = 0; i < nc; i++) {
		struct xg_err e2;
		if (cand[i] > 0 && read_from(fd, path, cand[i], &t, &e2) == 0)
			return repair_tail(fd, path, &t, err);
	}
	if (read_from(fd, path, 0, &t, err) == 0)
		return repair_tail(fd, path, &t, err);
refuse:;
	char m[sizeof(err->msg)];
	snprintf(m, sizeof(m), "%s", err->msg);
	return xg_fail(err, "cannot append, %s", m);
}

struct xg_recorder *recorder_open(const char *path, struct xg_err *err)
{
	int fd = open(path, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (fd < 0) {
		xg_fail_errno(err, errno, "%s", path);
		return NULL;
	}
	struct stat st;
	if (fstat(fd, &st) < 0) {
		xg_fail_errno(err, errno, "%s", path);
		close(fd);
		return NULL;
	}
	if (S_ISREG(st.st_mode)) {
		if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
			if (errno == EWOULDBLOCK)
				xg_fail(err, "%s: another process is recording to this file", path);
			else
				xg_fail_errno(err, errno, "%s: lock", path);
			close(fd);
			return NULL;
		}
		if (st.st_size > 0 && check_existing(fd, path, (uint64_t)st.st_size, err) < 0) {
			close(fd);
			return NULL;
		}
	}
	struct xg_recorder *r = xg_calloc(1, sizeof(*r));
	r->fd = fd;
	r->member_limit = REC_MEMBER_SAMPLES;
	r->path = xg_strdup(path);
	sample_init(&r->empty);
	r->level = REC_LEVEL;
	if (deflateInit2(&r->z, REC_LEVEL, Z_DEFLATED, 15 + 16, 9, Z_DEFAULT_STRATEGY) != Z_OK) {
		xg_fail(err, "%s: zlib deflateInit failed", path);
		close(fd);
		free(r->path);
		free(r);
		return NULL;
	}
	return r;
}

int recorder_append(struct xg_recorder *r, const struct xg_sample *prev, const struct xg_sample *s,
                    struct xg_err *err)
{
	if (r->broken)
		return xg_fail(err, "%s: recording stopped after an earlier write error", r->path);
	if (r->member_open && (r->member_samples >= r->member_limit || r->member_bytes >= REC_MEMBER_BYTES))
		member_end(r);
	if (!r->member_open)
		member_begin(r);
	if (!rec_prev_bind(&r->prev, prev, s))
		return xg_fail(err, "%s: recorder_append needs the sample it appended last", r->path);
	put_sample(r, s);
	/* Thousands of domains make megabytes of text per sample; a faster
	 * level there keeps the recorder's CPU cost per refresh small. Safe to
	 * switch here: nothing is pending after the last sync flush. */
	int level = r->text.len > REC_FAST_BYTES ? REC_LEVEL_FAST : REC_LEVEL;
	if (level != r->level && deflateParams(&r->z, level, Z_DEFAULT_STRATEGY) == Z_OK)
		r->level = level;
	squeeze(r, r->text.p, r->text.len, Z_SYNC_FLUSH);
	/* One write per sample: a kill between writes never splits a
	 * sample across two of them; the OS has it once write returns. */
	if (flush_out(r, err) < 0)
		return -1;
	r->member_samples++;
	rec_prev_keep(&r->prev, s);
	return 0;
}

int recorder_close(struct xg_recorder *r, struct xg_err *err)
{
	if (!r)
		return 0;
	int rc = 0;
	if (r->member_open && !r->broken) {
		member_end(r);
		rc = flush_out(r, err);
	}
	if (close(r->fd) < 0 && rc == 0)
		rc = xg_fail_errno(err, errno, "%s: close", r->path);
	deflateEnd(&r->z);
	strbuf_free(&r->text);
	free(r->zout);
	free(r->owner);
	rec_prev_free(&r->prev);
	sample_free(&r->empty);
	free(r->path);
	free(r);
	return rc;
}

void recorder_set_member_samples(struct xg_recorder *r, unsigned n)
{
	r->member_limit = n ? n : 1;
}
