// SPDX-License-Identifier: GPL-2.0-or-later
/* Recordings: exact round trip, torn tails at every byte, corruption,
 * foreign files, versions, appending, replay pacing. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "../../../src/record/record_fmt.h"
#include "../tmpdir.h"
#include "xgtop/model/config.h"
#include "xgtop/model/source.h"
#include "xgtop/engine/engine.h"

extern const struct xg_source_ops source_replay_ops;


static uint64_t rnd(uint64_t *st)
{
	*st ^= *st << 13;
	*st ^= *st >> 7;
	*st ^= *st << 17;
	return *st;
}

/* Samples of this seed are a pool (--source remote): see make_pool. */
#define POOL_SEED 5

/* Spreads the domains of s over 1 to 3 hosts (the number changes), in
 * contiguous runs as the remote source makes them, their ids counted
 * from 0 again on each host, so hosts share ids. Host names need escaping;
 * host 1 is sometimes stale, with a reason; each host has its own clocks
 * and facts (no self CPU time: not a pool host's figure). */
static void make_pool(struct xg_sample *s, unsigned k)
{
	size_t nh = 1 + k % 3, first = 0;
	for (size_t i = 0; i < s->ndom; i++) {
		uint16_t h = (uint16_t)(i * nh / s->ndom);
		if (i && h != s->dom[i - 1].host)
			first = i;
		s->dom[i].host = h;
		s->dom[i].id = (uint32_t)(i - first) * 3;
	}
	for (size_t h = 0; h < nh; h++) {
		char name[32];
		if (h == 2)
			snprintf(name, sizeof(name), "c\tab\t%u\\", k);
		else
			snprintf(name, sizeof(name), "host-%zu", h);
		struct xg_peer *p = sample_add_peer(s, name);
		p->host = s->host;
		p->host.self_cpu_ns = 0;
		p->host.mono_ns = s->host.mono_ns - h * 777;
		p->host.pcpus = (uint32_t)(4 << h);
		p->host.lost_records = h == 1 ? k : 0;
		snprintf(p->host.hostname, sizeof(p->host.hostname), "%s", name);
		p->stale = h == 1 && k % 4 == 3;
		if (p->stale)
			p->why = sample_reason(s, "host-1: no answer (test)");
	}
}

/* A sample exercising every field kind: extreme numbers, counters that go
 * backwards, names with control bytes and invalid UTF-8, changing reasons,
 * domains that come and go, a reused id, odd vCPU layouts. */
static void make_sample(struct xg_sample *s, unsigned k, uint64_t seed)
{
	uint64_t st = seed * 7919 + k * 104729 + 1;
	sample_clear(s);
	snprintf(s->host.source, sizeof(s->host.source), k % 5 ? "linux" : "xen\t\\x");
	snprintf(s->host.hypervisor, sizeof(s->host.hypervisor), "Linux 6.1 (KVM)\n%u", k / 3);
	snprintf(s->host.hostname, sizeof(s->host.hostname), "h\xff\xc3(");
	snprintf(s->host.sched, sizeof(s->host.sched), "%s", k % 2 ? "" : "credit2");
	snprintf(s->host.cache_events, sizeof(s->host.cache_events), "%s",
	         k % 3 ? "LLC_REFERENCES/LLC_MISSES (Intel arch.)" : "");
	s->host.mono_ns = 5000000000ull + k * 1000000000ull + rnd(&st) % 1000;
	s->host.real_ns = k == 3 ? 0 : 1767225600000000000ull + k * 1000000000ull;
	s->host.pcpus = k % 7 == 6 ? UINT32_MAX : 8;
	s->host.cpu_khz = rnd(&st);
	s->host.mem_total = UINT64_MAX - k;
	s->host.mem_free = rnd(&st) % 1000;
	s->host.self_cpu_ns = k * 12345;
	s->host.lost_records = k % 4 ? 0 : UINT64_MAX;
	s->host.valid = k % 3 ? (k % 2 ? 0x1f | 1u << XG_H_VMS : 0x1f) : 0x3;
	if (k % 4 != 1)
		sample_invalid_all(s, XG_F_SSID, k % 4 ? "no XSM" : "no XSM\tat all\\");
	if (k % 6 == 2)
		sample_reason(s, "unused reason");
	/* pCPU entries: their number changes (a CPU going offline), ids with
	 * gaps, times that go backwards or sit at the extremes. */
	unsigned np = seed >= 100 ? 0 : k % 7 == 3 ? 0 : 2 + k % 3;
	struct xg_pcpu *pc = np ? sample_add_pcpus(s, np) : NULL;
	for (unsigned q = 0; q < np; q++) {
		pc[q].id = q == 2 ? 5 : q;
		pc[q].valid = (uint8_t)(rnd(&st) & 3);
		pc[q].ns[XG_PC_BUSY] = k % 8 == 7 ? 1 : k * 600000000ull + rnd(&st) % 10000;
		pc[q].ns[XG_PC_IDLE] = q == 3 ? UINT64_MAX - k : k * 400000000ull;
	}
	if (np && k % 3 == 1)
		s->pcpu_why = sample_reason(s, "no per-pCPU idle time (test)");
	/* Seeds from 100 make samples large enough for several deflate
	 * blocks each, so block boundaries also fall inside samples. */
	unsigned ndom = seed >= 100 ? 600 : 3 + k % 5;
	for (unsigned i = 0; i < ndom; i++) {
		uint32_t id = i == 2 && k % 2 ? 40000 : i * 3;
		struct xg_dom *d = sample_add_dom(s, id);
		d->gen = i == 1 ? k / 4 : 0;
		for (int b = 0; b < 16; b++)
			d->handle[b] = (uint8_t)(i == 1 ? k / 4 + b : i * 16 + b);
		switch (i) {
		case 0: snprintf(d->name, sizeof(d->name), "Domain-0"); break;
		case 1: snprintf(d->name, sizeof(d->name), "esc\x1b[2J\x07 %u", k / 4); break;
		case 2: snprintf(d->name, sizeof(d->name), "bad\xc3(\xff\xfe utf8"); break;
		case 3: d->name[0] = 0; break;
		case 4: memset(d->name, 'x', XG_NAME_MAX - 1); d->name[XG_NAME_MAX - 1] = 0; break;
		default: snprintf(d->name, sizeof(d->name), "caf\xc3\xa9\\%u\n", i); break;
		}
		d->state = (uint32_t)(rnd(&st) % 64);
		d->guest_reported = (uint8_t)(k % 3 == 0 && i == 1);
		d->valid = rnd(&st) & ((1ull << XG_F_COUNT) - 1);
		for (int f = 0; f < XG_F_COUNT; f++) {
			uint64_t base = (uint64_t)k * (f + 1) * 1000003ull;
			d->v[f] = f == XG_F_MAXMEM ? UINT64_MAX : (k % 9 == 8 && f == 6) ? 5 : base + rnd(&st) % 999;
			if (!dom_has(d, (enum xg_field)f) && f % 3 == 0)
				dom_invalid(s, d, (enum xg_field)f, f % 2 ? "odd field" : "even\xfe field");
		}
		d->pmu_valid = rnd(&st) & 0xfff;
		for (int w = 0; w < XG_PMU_WHERE_COUNT; w++)
			for (int e = 0; e < XG_PMU_EVENT_COUNT; e++)
				d->pmu[w][e] = k * 1000ull * (w + 1) + (uint64_t)e + (rnd(&st) % 3);
		unsigned nv = i == 1 ? 4 : i % 3;
		struct xg_vcpu *v = nv ? sample_add_vcpus(s, d, nv) : NULL;
		uint64_t sum[5] = { 0 };
		for (unsigned c = 0; c < nv; c++) {
			v[c].id = c;
			v[c].online = (uint8_t)(c != 2);
			v[c].valid = (uint8_t)(rnd(&st) & 0x8f);
			for (int q = 0; q < 4; q++)
				v[c].sched_ns[q] = k * 250000000ull + rnd(&st) % 100000;
			v[c].cpu_ns = c % 2 ? v[c].sched_ns[0] : v[c].sched_ns[0] + 7;
			sum[0] += v[c].cpu_ns;
			for (int q = 0; q < 4; q++)
				sum[q + 1] += v[c].sched_ns[q];
		}
		/* Per-socket entries: their number changes from sample to
		 * sample (entries come and go), sockets out of order, counters
		 * that go backwards or sit at the extremes. */
		unsigned ns = seed >= 100 ? 0 : (i + k) % 4;   /* keep the big ones' block layout */
		struct xg_sock *ks = ns ? sample_add_socks(s, d, ns) : NULL;
		for (unsigned q = 0; q < ns; q++) {
			ks[q].socket = i % 2 ? q : 7 - q;
			ks[q].valid = (uint8_t)(rnd(&st) & 7);
			ks[q].v[XG_SOCK_L3_OCC] = rnd(&st) % (64u << 20);
			ks[q].v[XG_SOCK_MBM_TOTAL] = k % 9 == 8 ? 3 : k * 1000000007ull + rnd(&st) % 1000;
			ks[q].v[XG_SOCK_MBM_LOCAL] = q == 2 ? UINT64_MAX - k : k * 800000011ull;
		}
		/* Mostly the domain's fields are the sums (written as '='). */
		for (int e = 0; ns && (i + k) % 3 && e < XG_SOCK_EVENT_COUNT; e++) {
			uint64_t sum = 0;
			for (unsigned q = 0; q < ns; q++)
				sum += ks[q].v[e];
			d->v[rec_sock_field[e]] = sum;
		}
		/* Sums as sources fill them (written as '='), except sometimes. */
		if (nv && k % 5 != 4) {
			d->v[XG_F_CPU_NS] = sum[0];
			d->v[XG_F_RUN_NS] = sum[1];
			d->v[XG_F_WAIT_NS] = sum[2];
			d->v[XG_F_BLK_NS] = sum[3];
			d->v[XG_F_OFF_NS] = sum[4];
		}
	}
	if (seed == POOL_SEED)
		make_pool(s, k);
	if (k % 11 == 10) {
		/* Out of order, a duplicate id and a slice pointing past the end:
		 * the recorder must keep what it was given. In a pool the hosts
		 * stay in order (the recorder counts each host's domains). */
		struct xg_dom t = s->dom[0];
		s->dom[0] = s->dom[1];
		s->dom[1] = t;
		s->dom[1].host = s->dom[0].host;
		s->dom[0].host = t.host;
		struct xg_dom *d = sample_add_dom(s, s->dom[2].id);
		d->host = (uint16_t)(s->npeer ? s->npeer - 1 : 0);
		d->vcpu_first = 1;
		d->vcpu_count = 1000;
		d->v[XG_F_CPU_NS] = 77;
		d->sock_first = 1;
		d->sock_count = 1000;   /* written as no entries */
	}
}

/* d's socket entries, or none when its slice lies outside s (the recorder
 * writes such a slice as no entries). */
static uint32_t socks_of(const struct xg_sample *s, const struct xg_dom *d, const struct xg_sock **out)
{
	*out = s->sock + d->sock_first;
	if (d->sock_first > s->nsock || d->sock_count > s->nsock - d->sock_first)
		return 0;
	return d->sock_count;
}

static void assert_same_host(const struct xg_host *a, const struct xg_host *b)
{
	assert_string_equal(a->source, b->source);
	assert_string_equal(a->hypervisor, b->hypervisor);
	assert_string_equal(a->hostname, b->hostname);
	assert_string_equal(a->sched, b->sched);
	assert_string_equal(a->cache_events, b->cache_events);
	assert_true(a->mono_ns == b->mono_ns);
	assert_true(a->real_ns == b->real_ns);
	assert_true(a->pcpus == b->pcpus);
	assert_true(a->cpu_khz == b->cpu_khz);
	assert_true(a->mem_total == b->mem_total);
	assert_true(a->mem_free == b->mem_free);
	assert_true(a->self_cpu_ns == b->self_cpu_ns);
	assert_true(a->lost_records == b->lost_records);
	assert_true(a->valid == b->valid);
}

static void assert_same(const struct xg_sample *a, const struct xg_sample *b)
{
	assert_same_host(&a->host, &b->host);
	assert_int_equal(a->npeer, b->npeer);
	for (size_t i = 0; i < a->npeer; i++) {
		assert_string_equal(a->peer[i].name, b->peer[i].name);
		assert_int_equal(a->peer[i].stale, b->peer[i].stale);
		assert_int_equal(a->peer[i].why, b->peer[i].why);
		assert_same_host(&a->peer[i].host, &b->peer[i].host);
	}
	assert_int_equal(a->nreason, b->nreason);
	for (size_t i = 1; i < a->nreason; i++)
		assert_string_equal(a->reason[i], b->reason[i]);
	assert_memory_equal(a->host_why, b->host_why, sizeof(a->host_why));
	assert_int_equal(a->pcpu_why, b->pcpu_why);
	assert_int_equal(a->npcpu, b->npcpu);
	for (size_t i = 0; i < a->npcpu; i++) {
		assert_int_equal(a->pcpu[i].id, b->pcpu[i].id);
		assert_int_equal(a->pcpu[i].valid, b->pcpu[i].valid);
		assert_memory_equal(a->pcpu[i].ns, b->pcpu[i].ns, sizeof(a->pcpu[i].ns));
	}
	assert_int_equal(a->ndom, b->ndom);
	assert_int_equal(a->nvcpu, b->nvcpu);
	for (size_t i = 0; i < a->ndom; i++) {
		const struct xg_dom *x = &a->dom[i], *y = &b->dom[i];
		assert_int_equal(x->id, y->id);
		assert_int_equal(x->host, y->host);
		assert_memory_equal(x->handle, y->handle, 16);
		assert_int_equal(x->gen, y->gen);
		assert_string_equal(x->name, y->name);
		assert_int_equal(x->state, y->state);
		assert_int_equal(x->guest_reported, y->guest_reported);
		assert_true(x->valid == y->valid);
		assert_memory_equal(x->why, y->why, sizeof(x->why));
		assert_memory_equal(x->v, y->v, sizeof(x->v));
		assert_true(x->pmu_valid == y->pmu_valid);
		assert_memory_equal(x->pmu, y->pmu, sizeof(x->pmu));
		assert_int_equal(x->vcpu_first, y->vcpu_first);
		assert_int_equal(x->vcpu_count, y->vcpu_count);
		/* Socket slices by content: the reader lays them out in domain
		 * order, a source may not have. */
		const struct xg_sock *kx, *ky;
		uint32_t nx = socks_of(a, x, &kx), ny = socks_of(b, y, &ky);
		assert_int_equal(nx, ny);
		for (uint32_t q = 0; q < nx; q++) {
			assert_int_equal(kx[q].socket, ky[q].socket);
			assert_int_equal(kx[q].valid, ky[q].valid);
			assert_memory_equal(kx[q].v, ky[q].v, sizeof(kx[q].v));
		}
	}
	for (size_t i = 0; i < a->nvcpu; i++) {
		const struct xg_vcpu *x = &a->vcpu[i], *y = &b->vcpu[i];
		assert_int_equal(x->id, y->id);
		assert_int_equal(x->online, y->online);
		assert_int_equal(x->valid, y->valid);
		assert_true(x->cpu_ns == y->cpu_ns);
		assert_memory_equal(x->sched_ns, y->sched_ns, sizeof(x->sched_ns));
	}
}

/* Writes n samples; ends[i] = file size once sample i was appended. */
static void write_n(const char *path, unsigned first, unsigned n, unsigned member, uint64_t seed,
                    off_t *ends)
{
	struct xg_err err = { 0 };
	struct xg_recorder *r = recorder_open(path, &err);
	if (!r)
		fail_msg("%s", err.msg);
	recorder_set_member_samples(r, member);
	struct xg_sample sv[2];
	sample_init(&sv[0]);
	sample_init(&sv[1]);
	for (unsigned k = first; k < first + n; k++) {
		struct xg_sample *s = &sv[k & 1], *prev = k > first ? &sv[(k - 1) & 1] : NULL;
		make_sample(s, k, seed);
		assert_int_equal(recorder_append(r, prev, s, &err), 0);
		if (ends) {
			struct stat st;
			assert_int_equal(stat(path, &st), 0);
			ends[k - first] = st.st_size;
		}
	}
	sample_free(&sv[0]);
	sample_free(&sv[1]);
	assert_int_equal(recorder_close(r, &err), 0);
}

/* Reads path back; every sample must equal make_sample(first + i). Returns
 * the count, or -1 with err set. */
static long read_all(const char *path, unsigned first, uint64_t seed, unsigned *torn, struct xg_err *err)
{
	struct xg_reader *r = reader_open(path, err);
	if (!r)
		return -1;
	struct xg_sample s[2], want;
	sample_init(&s[0]);
	sample_init(&s[1]);
	sample_init(&want);
	long n = 0;
	int rc;
	while ((rc = reader_next(r, n ? &s[(n - 1) & 1] : NULL, &s[n & 1], err)) == 0) {
		make_sample(&want, first + (unsigned)n, seed);
		assert_same(&s[n & 1], &want);
		n++;
	}
	if (torn)
		*torn = reader_torn(r);
	reader_close(r);
	sample_free(&s[0]);
	sample_free(&s[1]);
	sample_free(&want);
	return rc < 0 ? -1 : n;
}

static void copy_prefix(const char *from, const char *to, off_t len)
{
	FILE *f = fopen(from, "rb"), *g = fopen(to, "wb");
	assert_non_null(f);
	assert_non_null(g);
	char buf[4096];
	while (len > 0) {
		size_t n = fread(buf, 1, len < (off_t)sizeof(buf) ? (size_t)len : sizeof(buf), f);
		assert_true(n > 0);
		fwrite(buf, 1, n, g);
		len -= (off_t)n;
	}
	fclose(f);
	fclose(g);
}

static void write_file(const char *path, const void *p, size_t n)
{
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	fwrite(p, 1, n, f);
	fclose(f);
}

static void write_gz(const char *path, const char *text)
{
	gzFile g = gzopen(path, "wb");
	assert_non_null(g);
	gzputs(g, text);
	gzclose(g);
}

static void round_trip(void **state)
{
	(void)state;
	const char *p = tmp("rt.xgrec");
	unlink(p);
	write_n(p, 0, 300, 37, 1, NULL);
	struct xg_err err = { 0 };
	unsigned torn = 9;
	long n = read_all(p, 0, 1, &torn, &err);
	if (n < 0)
		fail_msg("%s", err.msg);
	assert_int_equal(n, 300);
	assert_int_equal(torn, 0);
	/* A pool: hosts sharing ids, a stale one, beside pCPU lines. */
	p = tmp("pool.xgrec");
	unlink(p);
	write_n(p, 0, 60, 17, POOL_SEED, NULL);
	n = read_all(p, 0, POOL_SEED, &torn, &err);
	if (n < 0)
		fail_msg("%s", err.msg);
	assert_int_equal(n, 60);
}

/* The reader decodes against the caller's previous sample; handing it
 * another one is an error, not silently wrong numbers. */
static void wrong_previous_is_refused(void **state)
{
	(void)state;
	const char *p = tmp("prev.xgrec");
	unlink(p);
	write_n(p, 0, 3, 100, 5, NULL);
	struct xg_err err = { 0 };
	struct xg_reader *r = reader_open(p, &err);
	assert_non_null(r);
	struct xg_sample a, b, c;
	sample_init(&a);
	sample_init(&b);
	sample_init(&c);
	assert_int_equal(reader_next(r, NULL, &a, &err), 0);
	make_sample(&c, 7, 5);
	assert_int_equal(reader_next(r, &c, &b, &err), -1);
	assert_non_null(strstr(err.msg, "needs the sample it returned last"));
	reader_close(r);
	r = reader_open(p, &err);
	assert_int_equal(reader_next(r, NULL, &a, &err), 0);
	assert_int_equal(reader_next(r, NULL, &b, &err), -1);
	reader_close(r);
	/* The writer side has the same contract. */
	const char *q = tmp("prev-w.xgrec");
	unlink(q);
	struct xg_recorder *w = recorder_open(q, &err);
	assert_non_null(w);
	make_sample(&a, 0, 5);
	make_sample(&b, 1, 5);
	assert_int_equal(recorder_append(w, NULL, &a, &err), 0);
	assert_int_equal(recorder_append(w, NULL, &b, &err), -1);
	assert_non_null(strstr(err.msg, "needs the sample it appended last"));
	assert_int_equal(recorder_append(w, &c, &b, &err), -1);
	assert_int_equal(recorder_append(w, &a, &b, &err), 0);
	assert_int_equal(recorder_close(w, &err), 0);
	sample_free(&a);
	sample_free(&b);
	sample_free(&c);
}

static void torn_tail_every_offset(void **state)
{
	(void)state;
	const char *p = tmp("torn.xgrec"), *q = tmp("cut.xgrec");
	unlink(p);
	enum { N = 24 };
	off_t end[N];
	write_n(p, 0, N, 10, 2, end);
	struct stat st;
	stat(p, &st);
	/* The last member's trailer was written by close, after end[N-1]. */
	/* Every offset near a sample boundary and in the first header, a
	 * stride elsewhere (every offset takes a minute; the stride is 11
	 * since format 1.5's six pressure fields made the samples longer, and
	 * 1.6's five wait fields longer still). Cutting a copy
	 * from the end down saves rewriting it each time. */
	copy_prefix(p, q, st.st_size);
	unsigned tried = 0;
	for (off_t cut = st.st_size; cut >= 0; cut--) {
		bool near = cut < 700;
		for (int i = 0; i < N && !near; i++)
			near = cut > end[i] - 48 && cut < end[i] + 48;
		if (!near && cut % 11)
			continue;
		tried++;
		assert_int_equal(truncate(q, cut), 0);
		struct xg_err err = { 0 };
		unsigned torn = 0;
		long n = read_all(q, 0, 2, &torn, &err);
		if (n < 0)
			fail_msg("cut at %lld: %s", (long long)cut, err.msg);
		long done = 0;
		while (done < N && end[done] <= cut)
			done++;
		/* All samples whose write completed are back; the one being
		 * written is back only if its end line made it. */
		if (!(n == done || n == done + 1))
			fail_msg("cut at %lld: read %ld samples, %ld were complete", (long long)cut, n, done);
		assert_true(torn <= 1);
		if (done == N && torn)
			fail_msg("cut at %lld in the closing trailer: counted torn", (long long)cut);
		if (n == done + 1 && torn)
			fail_msg("cut at %lld: sample %ld read back whole yet counted torn", (long long)cut, done);
		bool rotation = done > 0 && done < N && done % 10 == 0;
		if (cut > 0 && done < N && n == done && cut > (done ? end[done - 1] : 0) && !rotation && done > 0)
			if (cut != end[done - 1] && torn != 1)
				fail_msg("cut at %lld inside sample %ld: torn not counted", (long long)cut, done);
		if (done > 0 && cut == end[done - 1])
			assert_int_equal(torn, 0);
	}
	/* every 11th offset, and each one near a boundary */
	assert_true(tried > (unsigned)st.st_size / 11 + 700);
}

/* Flipping any single byte must never produce a wrong sample: the reader
 * either returns the original samples or stops with an error. */
static void corrupt_bytes_never_silent(void **state)
{
	(void)state;
	const char *p = tmp("flip.xgrec"), *q = tmp("flipped.xgrec");
	unlink(p);
	write_n(p, 0, 6, 4, 3, NULL);
	FILE *f = fopen(p, "rb");
	static unsigned char buf[1 << 16];
	size_t n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	unsigned errors = 0;
	write_file(q, buf, n);
	int fd = open(q, O_WRONLY);
	assert_true(fd >= 0);
	for (size_t i = 0; i < n; i++) {
		unsigned char c = buf[i] ^ 0x20;
		assert_int_equal(pwrite(fd, &c, 1, (off_t)i), 1);
		struct xg_err err = { 0 };
		long got = read_all(q, 0, 3, NULL, &err);   /* asserts equality */
		if (got < 0) {
			errors++;
			assert_non_null(strstr(err.msg, q));
			assert_non_null(strstr(err.msg, ": byte "));
			assert_null(strchr(err.msg, '\n'));
		}
		assert_int_equal(pwrite(fd, &buf[i], 1, (off_t)i), 1);
	}
	close(fd);
	assert_true(errors > n / 2);
}

static void expect_open_error(const char *path, const char *want)
{
	struct xg_err err = { 0 };
	struct xg_reader *r = reader_open(path, &err);
	if (r) {
		struct xg_sample s;
		sample_init(&s);
		int rc = reader_next(r, NULL, &s, &err);
		sample_free(&s);
		reader_close(r);
		if (rc != -1)
			fail_msg("%s: no error", path);
	}
	if (!strstr(err.msg, want) || strncmp(err.msg, path, strlen(path)) || !strstr(err.msg, ": byte "))
		fail_msg("%s: message '%s' lacks '%s'", path, err.msg, want);
	/* A recorder must refuse it too, and leave it alone. */
	struct stat a, b;
	stat(path, &a);
	struct xg_recorder *rec = recorder_open(path, &err);
	assert_null(rec);
	assert_non_null(strstr(err.msg, path));
	stat(path, &b);
	assert_int_equal(a.st_size, b.st_size);
}

static void foreign_files(void **state)
{
	(void)state;
	static const unsigned char png[] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 0, 0, 0, 13,
		'I', 'H', 'D', 'R', 0, 0, 0, 1, 0, 0, 0, 1, 8, 2, 0, 0, 0 };
	write_file(tmp("x.png"), png, sizeof(png));
	expect_open_error(tmp("x.png"), "byte 0: not an xgtop recording (not gzip data)");
	const char *txt = "hello\nworld\n";
	write_file(tmp("x.txt"), txt, strlen(txt));
	expect_open_error(tmp("x.txt"), "byte 0: not an xgtop recording");
	write_gz(tmp("x.gz"), "just some gzipped text\n");
	expect_open_error(tmp("x.gz"), "not an xgtop recording");
	/* Garbage after a valid recording. */
	const char *p = tmp("trail.xgrec");
	unlink(p);
	write_n(p, 0, 3, 10, 4, NULL);
	FILE *f = fopen(p, "ab");
	fputs("trailing junk", f);
	fclose(f);
	struct xg_err err = { 0 };
	assert_int_equal(read_all(p, 0, 4, NULL, &err), -1);
	assert_non_null(strstr(err.msg, "is not gzip"));
}

static void corrupt_header(void **state)
{
	(void)state;
	write_gz(tmp("h1.xgrec"), "xgtop-recordinX\t1\t0\n");
	expect_open_error(tmp("h1.xgrec"), "not an xgtop recording");
	write_gz(tmp("h2.xgrec"), "xgtop-recording\t1\t0\tx\nfields\tcpu_ns\tvcpus\tmem_bytes\n");
	expect_open_error(tmp("h2.xgrec"), "field 2 is 'mem_bytes' where this xgtop has 'vcpus_max'");
	write_gz(tmp("h3.xgrec"), "xgtop-recording\tone\t0\n");
	expect_open_error(tmp("h3.xgrec"), "unreadable format version");
	write_gz(tmp("h4.xgrec"), "xgtop-recording\t1\t0\tx\npmu\n");
	expect_open_error(tmp("h4.xgrec"), "expected the 'fields' header line");
	/* Counts that announce far more than the file holds cost nothing. */
	write_gz(tmp("h5.xgrec"), "xgtop-recording\t1\t0\tx\nfields\npmu\n"
	         "S\t16000000\t60000000\nD\t5\t0\t000102030405060708090a0b0c0d0e0f\tx\nd\t5\nE\t0\n");
	expect_open_error(tmp("h5.xgrec"), "line 7): sample has 1 of the 16000000 domains");
}

static void future_version(void **state)
{
	(void)state;
	write_gz(tmp("v2.xgrec"), "xgtop-recording\t2\t0\txgtop 9\nfields\tcpu_ns\n");
	expect_open_error(tmp("v2.xgrec"), "line 1): recording format version 2.0 is not supported (this xgtop reads version 1.x)");
	write_gz(tmp("v0.xgrec"), "xgtop-recording\t0\t9\n");
	expect_open_error(tmp("v0.xgrec"), "version 0.9 is not supported");
}

/* A newer minor version may add columns and line types; this reader skips
 * them and reads what it knows. */
static void newer_minor_is_readable(void **state)
{
	(void)state;
	struct xg_strbuf b = { 0 };
	strbuf_puts(&b, "xgtop-recording\t1\t99\txgtop 1.99\nfields");
	for (int f = 0; f < XG_F_COUNT; f++) {
		strbuf_putc(&b, '\t');
		strbuf_puts(&b, field_name((enum xg_field)f));
	}
	strbuf_puts(&b, "\tnew_field\npmu\nfuture\theader line\n");
	size_t s0 = b.len;
	strbuf_puts(&b, "S\t1\t0\t100\nD\t5\t0\t000102030405060708090a0b0c0d0e0f\tweb\nnewtype\tx\nd\t5\t\t1\t\t\t\t\t");
	for (int f = 0; f <= XG_F_COUNT; f++)
		strbuf_puts(&b, "\t42");
	strbuf_putc(&b, '\n');
	char e[32];
	snprintf(e, sizeof(e), "E\t%08lx\n", crc32(0, (const unsigned char *)b.p + s0, (uInt)(b.len - s0)));
	strbuf_puts(&b, e);
	write_gz(tmp("minor.xgrec"), b.p);
	strbuf_free(&b);
	struct xg_err err = { 0 };
	struct xg_reader *r = reader_open(tmp("minor.xgrec"), &err);
	if (!r)
		fail_msg("%s", err.msg);
	struct xg_sample s, s2;
	sample_init(&s);
	sample_init(&s2);
	if (reader_next(r, NULL, &s, &err) != 0)
		fail_msg("%s", err.msg);
	assert_int_equal(s.ndom, 1);
	assert_string_equal(s.dom[0].name, "web");
	assert_true(s.dom[0].valid == 1);
	assert_true(s.dom[0].v[XG_F_SSID] == 42);
	assert_int_equal(s.dom[0].handle[15], 15);
	assert_true(s.host.mono_ns == 100);
	assert_int_equal(reader_next(r, &s, &s2, &err), 1);
	sample_free(&s);
	sample_free(&s2);
	reader_close(r);
}

/* A member's header of version 1.MINOR and one sample: the S line (with
 * s_tail after its mono column), the lines pre, a 'D' + 'd' for domain 5,
 * the lines given, and the E line with the right CRC. With s_tail NULL,
 * the sample's lines are pre alone (then its E line). */
static void member_header(struct xg_strbuf *b, unsigned minor, int nfields)
{
	char hdr[64];
	snprintf(hdr, sizeof(hdr), "xgtop-recording\t1\t%u\txgtop 0.0.9\nfields", minor);
	strbuf_puts(b, hdr);
	for (int f = 0; f < nfields; f++) {
		strbuf_putc(b, '\t');
		strbuf_puts(b, field_name((enum xg_field)f));
	}
	strbuf_puts(b, "\npmu\n");
}

/* The E line of the sample whose lines start at offset s0 of b. */
static void member_end(struct xg_strbuf *b, size_t s0)
{
	char e[32];
	snprintf(e, sizeof(e), "E\t%08lx\n", crc32(0, (const unsigned char *)b->p + s0, (uInt)(b->len - s0)));
	strbuf_puts(b, e);
}

static void member_sample(struct xg_strbuf *b, unsigned minor, const char *s_tail, const char *pre,
                          const char *lines)
{
	member_header(b, minor, XG_F_COUNT);
	size_t s0 = b->len;
	if (!s_tail) {   /* pre is the whole sample */
		strbuf_puts(b, pre);
	} else {
		strbuf_puts(b, "S\t1\t0\t100");
		strbuf_puts(b, s_tail);
		strbuf_putc(b, '\n');
		strbuf_puts(b, pre);
		strbuf_puts(b, "D\t5\t0\t000102030405060708090a0b0c0d0e0f\tweb\nd\t5\t\t1\t\t\t\t\t\t42\n");
		strbuf_puts(b, lines);
	}
	member_end(b, s0);
}

static void member_text(struct xg_strbuf *b, unsigned minor, const char *lines)
{
	member_sample(b, minor, "", "", lines);
}

/* Reads the one sample of the member in b, or fails with the error
 * containing want (want NULL: must read). */
static void read_member(struct xg_strbuf *b, const char *file, struct xg_sample *out, const char *want)
{
	struct xg_err err = { 0 };
	write_gz(tmp(file), b->p);
	b->len = 0;
	struct xg_reader *r = reader_open(tmp(file), &err);
	assert_non_null(r);
	int rc = reader_next(r, NULL, out, &err);
	if (!want && rc != 0)
		fail_msg("%s: %s", file, err.msg);
	if (want && (rc != -1 || !strstr(err.msg, want)))
		fail_msg("%s: '%s' lacks '%s'", file, rc == -1 ? err.msg : "(read)", want);
	reader_close(r);
}

/* Version 1.2: the 'S' line counts the 'p' lines that follow the host
 * lines, and may name a reason; older members have none. */
static void pcpu_lines(void **state)
{
	(void)state;
	struct xg_strbuf b = { 0 };
	struct xg_sample s;
	sample_init(&s);
	/* S: ... mono real pcpus khz mem mem self lost valid npcpu why */
	member_sample(&b, 2, "\t\t\t\t\t\t\t\t\t3", "R\tno idle time\np\t\t2\t\t500\np\t1\t3\t7\t9\np\t4\t1\t-1\n", "");
	read_member(&b, "p12.xgrec", &s, NULL);
	assert_int_equal(s.npcpu, 3);
	assert_int_equal(s.pcpu[0].id, 0);
	assert_int_equal(s.pcpu[0].valid, 1u << XG_PC_IDLE);
	assert_true(s.pcpu[0].ns[XG_PC_IDLE] == 500 && s.pcpu[0].ns[XG_PC_BUSY] == 0);
	assert_int_equal(s.pcpu[1].id, 1);
	assert_true(s.pcpu[1].ns[XG_PC_BUSY] == 7 && s.pcpu[1].ns[XG_PC_IDLE] == 9);
	assert_int_equal(s.pcpu[2].id, 4);
	assert_true(s.pcpu[2].ns[XG_PC_BUSY] == UINT64_MAX);
	assert_int_equal(s.pcpu_why, 0);
	member_sample(&b, 2, "\t\t\t\t\t\t\t\t\t\t1", "R\tno idle time\n", "");
	read_member(&b, "pwhy.xgrec", &s, NULL);
	assert_int_equal(s.npcpu, 0);
	assert_string_equal(s.reason[s.pcpu_why], "no idle time");
	/* A 1.1 member: the new 'S' columns are not there, so no pCPUs. */
	member_sample(&b, 1, "", "", "");
	read_member(&b, "p11.xgrec", &s, NULL);
	assert_int_equal(s.npcpu, 0);

	static const struct { unsigned minor; const char *tail, *pre, *lines, *file, *want; } bad[] = {
		{ 1, "", "p\t0\t1\t5\n", "", "p11bad.xgrec", "unknown line type 'p'" },
		{ 2, "\t\t\t\t\t\t\t\t\t1", "", "p\t0\t1\t5\n", "pafter.xgrec", "'p' line after a domain" },
		{ 2, "\t\t\t\t\t\t\t\t\t1", "p\t0\t1\t5\np\t1\n", "", "pmore.xgrec", "more pCPUs than" },
		{ 2, "\t\t\t\t\t\t\t\t\t2", "p\t0\t1\t5\n", "", "pless.xgrec", "1 of the 2 pCPUs" },
		{ 2, "\t\t\t\t\t\t\t\t\t1", "p\tx\n", "", "pbad.xgrec", "bad pCPU number" },
		{ 2, "\t\t\t\t\t\t\t\t\t1", "p\t0\t1\t5x\n", "", "ptime.xgrec", "bad time '5x'" },
		{ 2, "\t\t\t\t\t\t\t\t\t9999999999", "", "", "pcount.xgrec", "bad pCPU count" },
	};
	for (size_t i = 0; i < XG_ARRAY_LEN(bad); i++) {
		member_sample(&b, bad[i].minor, bad[i].tail, bad[i].pre, bad[i].lines);
		read_member(&b, bad[i].file, &s, bad[i].want);
	}
	strbuf_free(&b);
	sample_free(&s);
}

/* A two-host pool sample whose hosts both have domain 5, with a pCPU line
 * and host b stale. The pieces let pool_lines move and break them. */
#define POOL_S(ndom) "S\t" #ndom "\t0\t100\t\t\t\t\t\t\t\t\t1\nR\thost b: no answer\np\t0\t3\t7\t9\n"
#define POOL_PA "P\ta\t0\t0\t1\t500\t600\t4\t2400000\t1000\t10\t0\t7\tlinux\tLinux 6.1\ta\t\t\n"
#define POOL_PB "P\tb\\x09c\t1\t1\t1\t700\t800\t8\t2400000\t2000\t20\t3\t5\txen\tXen 4.17\tb\tcredit2\tLLC\n"
#define POOL_DA "D\t5\t0\t000102030405060708090a0b0c0d0e0f\tweb\nd\t5\t\t1\t\t\t\t\t\t42\n"
#define POOL_DB "D\t5\t0\t0f0e0d0c0b0a09080706050403020100\tdb\nd\t5\t\t1\t\t\t\t\t\t43\n"

/* Version 1.3: 'P' lines name a pool's hosts and say how many of the
 * domains that follow, in order, are each one's; two hosts may both have
 * a domain 5. The pool view's first builds wrote them under 1.2, so a 1.2
 * member may hold them too; a 1.1 member may not. */
static void pool_lines(void **state)
{
	(void)state;
	struct xg_strbuf b = { 0 };
	struct xg_sample s;
	sample_init(&s);
	for (unsigned minor = 2; minor <= 3; minor++) {
		member_sample(&b, minor, NULL, POOL_S(2) POOL_PA POOL_PB POOL_DA POOL_DB, NULL);
		read_member(&b, "pool.xgrec", &s, NULL);
		assert_int_equal(s.npcpu, 1);
		assert_true(s.pcpu[0].ns[XG_PC_BUSY] == 7 && s.pcpu[0].ns[XG_PC_IDLE] == 9);
		assert_int_equal(s.npeer, 2);
		assert_string_equal(s.peer[0].name, "a");
		assert_int_equal(s.peer[0].stale, 0);
		assert_true(s.peer[0].host.mono_ns == 500 && s.peer[0].host.real_ns == 600);
		assert_true(s.peer[0].host.pcpus == 4 && s.peer[0].host.mem_total == 1000);
		assert_true(s.peer[0].host.valid == 7);
		assert_string_equal(s.peer[0].host.source, "linux");
		assert_string_equal(s.peer[1].name, "b\tc");
		assert_int_equal(s.peer[1].stale, 1);
		assert_string_equal(s.reason[s.peer[1].why], "host b: no answer");
		assert_true(s.peer[1].host.lost_records == 3 && s.peer[1].host.mem_free == 20);
		assert_string_equal(s.peer[1].host.sched, "credit2");
		assert_string_equal(s.peer[1].host.cache_events, "LLC");
		assert_int_equal(s.ndom, 2);
		assert_int_equal(s.dom[0].host, 0);
		assert_string_equal(s.dom[0].name, "web");
		assert_int_equal(s.dom[1].host, 1);
		assert_int_equal(s.dom[1].id, 5);
		assert_string_equal(s.dom[1].name, "db");
		assert_true(s.dom[1].v[XG_F_CPU_NS] == 43);
	}
	static const struct { unsigned minor; const char *text, *file, *want; } bad[] = {
		{ 1, "S\t1\t0\t100\n" POOL_PA POOL_DA, "P11.xgrec", "unknown line type 'P'" },
		{ 3, POOL_S(2) POOL_PA POOL_DA POOL_PB POOL_DB, "Pafter.xgrec", "bad 'P' line (or one after the domains)" },
		{ 3, POOL_S(2) POOL_PA "D\t5\t0\t000102030405060708090a0b0c0d0e0f\tweb\n" POOL_PB,
		  "PafterD.xgrec", "bad 'P' line" },
		{ 3, POOL_S(3) POOL_PA POOL_PB POOL_DA POOL_DB "D\t6\t0\t00000000000000000000000000000000\tx\nd\t6\t\t1\n",
		  "Pmore.xgrec",
		  "more domains than the 'P' lines count" },
		{ 3, POOL_S(1) "P\ta\t2\t0\t1\t500\t600\t4\t1\t1\t1\t0\t7\tx\tx\tx\tx\tx\n" POOL_DA,
		  "Pstale.xgrec", "bad number on the 'P' line" },
		{ 3, POOL_S(1) "P\ta\t0\t0\t1\n" POOL_DA, "Pshort.xgrec", "bad 'P' line" },
	};
	for (size_t i = 0; i < XG_ARRAY_LEN(bad); i++) {
		member_sample(&b, bad[i].minor, NULL, bad[i].text, NULL);
		read_member(&b, bad[i].file, &s, bad[i].want);
	}
	strbuf_free(&b);
	sample_free(&s);
}

/* Version 1.4: the VM fields follow ssid on the 'fields' line and bit 5 of
 * the host's valid mask says the domains are VMs. A 1.3 member's 'fields'
 * line ends at ssid, so its domains have no VM figures, even where a mask
 * claims them; the KVM work's first builds wrote the 1.4 fields under 1.2. */
static void vm_fields(void **state)
{
	(void)state;
	static const struct { unsigned minor; int nfields; bool vm; } v[] = {
		{ 4, XG_F_COUNT, true }, { 2, XG_F_COUNT, true }, { 3, XG_F_SSID + 1, false },
	};
	struct xg_strbuf b = { 0 };
	struct xg_sample s;
	sample_init(&s);
	for (size_t i = 0; i < XG_ARRAY_LEN(v); i++) {
		member_header(&b, v[i].minor, v[i].nfields);
		size_t s0 = b.len;
		/* S: ... mono real pcpus khz mem mem self lost valid */
		strbuf_puts(&b, v[i].vm ? "S\t1\t0\t100\t\t\t\t\t\t\t\t20\n" : "S\t1\t0\t100\t\t\t\t\t\t\t\t3\n");
		/* domain 5: cpu_ns 42, then (1.4) emu_ns 7, vm_exits 8,
		 * halt_poll_ns 9, swap_bytes 4096; valid bits 0 and 32-35 */
		strbuf_puts(&b, "D\t5\t0\t000102030405060708090a0b0c0d0e0f\tvm\nd\t5\t\tf00000001\t\t\t\t\t\t42");
		for (int f = XG_F_CPU_NS + 1; f < XG_F_EMU_NS; f++)
			strbuf_putc(&b, '\t');
		strbuf_puts(&b, v[i].vm ? "\t7\t8\t9\t4096\n" : "\n");
		member_end(&b, s0);
		read_member(&b, "vm.xgrec", &s, NULL);
		assert_int_equal(host_has(&s.host, XG_H_VMS), v[i].vm);
		assert_int_equal(s.ndom, 1);
		const struct xg_dom *d = &s.dom[0];
		assert_true(d->v[XG_F_CPU_NS] == 42);
		assert_int_equal(d->valid, v[i].vm ? 0xf00000001ull : 1);
		assert_true(d->v[XG_F_EMU_NS] == (v[i].vm ? 7 : 0) && d->v[XG_F_VM_EXITS] == (v[i].vm ? 8 : 0));
		assert_true(d->v[XG_F_HALT_POLL_NS] == (v[i].vm ? 9 : 0) && d->v[XG_F_SWAP] == (v[i].vm ? 4096 : 0));
	}
	strbuf_free(&b);
	sample_free(&s);
}

/* Recordings written before per-socket entries (version 1.0) still replay,
 * with no socket entries, also when a newer xgtop appended to them; a 'k'
 * line is corruption in a 1.0 member and anywhere but after a 'd' line. */
static void sockets_and_old_members(void **state)
{
	(void)state;
	struct xg_strbuf b = { 0 };
	member_text(&b, 0, "");
	write_gz(tmp("old.xgrec"), b.p);
	b.len = 0;
	/* Append samples with sockets (make_sample 0.. of seed 4) after it. */
	write_n(tmp("old.xgrec"), 0, 5, 100, 4, NULL);
	struct xg_err err = { 0 };
	struct xg_reader *r = reader_open(tmp("old.xgrec"), &err);
	if (!r)
		fail_msg("%s", err.msg);
	struct xg_sample sv[2], want;
	sample_init(&sv[0]);
	sample_init(&sv[1]);
	sample_init(&want);
	assert_int_equal(reader_next(r, NULL, &sv[0], &err), 0);
	assert_int_equal(sv[0].ndom, 1);
	assert_true(sv[0].dom[0].v[XG_F_CPU_NS] == 42);
	assert_int_equal(sv[0].dom[0].sock_count, 0);
	assert_int_equal(sv[0].nsock, 0);
	size_t with_socks = 0;
	for (unsigned k = 0; k < 5; k++) {
		if (reader_next(r, &sv[k & 1], &sv[(k + 1) & 1], &err) != 0)
			fail_msg("%s", err.msg);
		make_sample(&want, k, 4);
		assert_same(&sv[(k + 1) & 1], &want);
		with_socks += sv[(k + 1) & 1].nsock;
	}
	assert_true(with_socks > 0);
	assert_int_equal(reader_next(r, &sv[1], &sv[0], &err), 1);
	reader_close(r);

	/* Version 1.1: 'k' lines give domain 5 two entries, deltas against
	 * zero in a member's first sample; '=' on the last. */
	member_text(&b, 1, "k\t\t7\t4096\t1000\t800\nk\t1\t3\t8192\t-1\t=\n");
	write_gz(tmp("k11.xgrec"), b.p);
	b.len = 0;
	r = reader_open(tmp("k11.xgrec"), &err);
	assert_non_null(r);
	if (reader_next(r, NULL, &sv[0], &err) != 0)
		fail_msg("%s", err.msg);
	const struct xg_dom *d = &sv[0].dom[0];
	assert_int_equal(d->sock_count, 2);
	const struct xg_sock *k = sample_socks(&sv[0], d);
	assert_int_equal(k[0].socket, 0);
	assert_int_equal(k[0].valid, 7);
	assert_true(k[0].v[XG_SOCK_L3_OCC] == 4096 && k[0].v[XG_SOCK_MBM_TOTAL] == 1000 &&
		    k[0].v[XG_SOCK_MBM_LOCAL] == 800);
	assert_int_equal(k[1].socket, 1);
	assert_int_equal(k[1].valid, 3);
	/* '=': the domain's mbm_local_bytes (0) minus the other entries */
	assert_true(k[1].v[XG_SOCK_MBM_TOTAL] == UINT64_MAX && k[1].v[XG_SOCK_MBM_LOCAL] == (uint64_t)-800);
	reader_close(r);

	static const struct { unsigned minor; const char *lines, *file, *want; } bad[] = {
		{ 0, "k\t0\t7\t1\n", "k10.xgrec", "unknown line type 'k'" },
		{ 1, "W\t-\nk\t0\t7\t1\n", "kpos.xgrec", "'k' line not right after a domain's 'd' line" },
		{ 1, "k\tx\n", "kbad.xgrec", "bad socket number" },
		{ 1, "k\t0\t7\t=\nk\t1\t7\t1\n", "keq.xgrec", "'=' on a 'k' line that is not its last" },
	};
	for (size_t i = 0; i < XG_ARRAY_LEN(bad); i++) {
		member_text(&b, bad[i].minor, bad[i].lines);
		write_gz(tmp(bad[i].file), b.p);
		b.len = 0;
		r = reader_open(tmp(bad[i].file), &err);
		assert_non_null(r);
		assert_int_equal(reader_next(r, NULL, &sv[0], &err), -1);
		if (!strstr(err.msg, bad[i].want))
			fail_msg("%s: '%s' lacks '%s'", bad[i].file, err.msg, bad[i].want);
		reader_close(r);
	}
	strbuf_free(&b);
	sample_free(&sv[0]);
	sample_free(&sv[1]);
	sample_free(&want);
}

static void append_and_repair(void **state)
{
	(void)state;
	const char *p = tmp("app.xgrec"), *q = tmp("app2.xgrec");
	unlink(p);
	write_n(p, 0, 10, 4, 5, NULL);
	write_n(p, 10, 10, 4, 5, NULL);
	struct xg_err err = { 0 };
	unsigned torn = 1;
	assert_int_equal(read_all(p, 0, 5, &torn, &err), 20);
	assert_int_equal(torn, 0);

	/* A writer killed in the middle of sample 9 (and in the middle of the
	 * member): appending cuts it and continues. */
	unlink(p);
	off_t end[10];
	write_n(p, 0, 10, 100, 6, end);
	for (off_t cut = end[8] + 1; cut < end[9]; cut += (end[9] - end[8]) / 5 + 1) {
		copy_prefix(p, q, cut);
		assert_int_equal(read_all(q, 0, 6, &torn, &err), 9);
		assert_int_equal(torn, 1);
		/* Recreate the lost sample 9 and go on. */
		write_n(q, 9, 6, 100, 6, NULL);
		long n = read_all(q, 0, 6, &torn, &err);
		if (n < 0)
			fail_msg("%s", err.msg);
		assert_int_equal(n, 15);
		assert_int_equal(torn, 0);
	}
	/* Many members, torn in the last one: only the last member is read
	 * before appending, and it is cut at its last complete sample. */
	unlink(p);
	off_t e2[25];
	write_n(p, 0, 25, 4, 6, e2);
	copy_prefix(p, q, e2[23] + (e2[24] - e2[23]) / 2);
	write_n(q, 24, 3, 4, 6, NULL);
	assert_int_equal(read_all(q, 0, 6, &torn, &err), 27);
	assert_int_equal(torn, 0);
	/* Corruption in the last member: appending is refused, file untouched. */
	FILE *f = fopen(p, "r+b");
	fseek(f, e2[23] + 20, SEEK_SET);
	int c = fgetc(f);
	fseek(f, e2[23] + 20, SEEK_SET);
	fputc(c ^ 0x55, f);
	fclose(f);
	struct stat before, after;
	stat(p, &before);
	assert_null(recorder_open(p, &err));
	assert_non_null(strstr(err.msg, "cannot append, "));
	assert_non_null(strstr(err.msg, p));
	stat(p, &after);
	assert_int_equal(before.st_size, after.st_size);

	/* Torn inside the very first header: start afresh. */
	copy_prefix(p, q, 12);
	assert_int_equal(read_all(q, 0, 6, &torn, &err), 0);
	write_n(q, 0, 2, 100, 6, NULL);
	assert_int_equal(read_all(q, 0, 6, &torn, &err), 2);
	assert_int_equal(torn, 0);
}

/* File offsets where inflate stops at a byte-aligned block boundary: the
 * places the reader may take as a safe point to cut. */
static size_t aligned_boundaries(const char *path, off_t *out, size_t max)
{
	FILE *f = fopen(path, "rb");
	assert_non_null(f);
	static unsigned char in[1 << 21], scratch[1 << 16];
	size_t n = fread(in, 1, sizeof(in), f), found = 0;
	fclose(f);
	z_stream z = { 0 };
	assert_int_equal(inflateInit2(&z, 15 + 16), Z_OK);
	z.next_in = in;
	z.avail_in = (uInt)n;
	for (;;) {
		z.next_out = scratch;
		z.avail_out = sizeof(scratch);
		int rc = inflate(&z, Z_BLOCK);
		if (rc != Z_OK)
			break;
		if ((z.data_type & 128) && !(z.data_type & 7) && found < max)
			out[found++] = (off_t)z.total_in;
	}
	inflateEnd(&z);
	return found;
}

/* With large samples, deflate blocks also end inside a sample, sometimes
 * on a byte boundary; the repair before appending must still cut only
 * where a sample ends. Cuts just after every such boundary. */
static void repair_large_samples(void **state)
{
	(void)state;
	const char *p = tmp("big.xgrec"), *q = tmp("big2.xgrec");
	unlink(p);
	enum { N = 6 };
	off_t end[N], bnd[256];
	write_n(p, 0, N, 100, 100, end);
	size_t nb = aligned_boundaries(p, bnd, XG_ARRAY_LEN(bnd));
	struct xg_err err = { 0 };
	unsigned torn, inside = 0;
	for (size_t i = 0; i < nb; i++) {
		unsigned done = 0;
		while (done < N && end[done] <= bnd[i])
			done++;
		if (done == 0 || done == N || end[done - 1] == bnd[i])
			continue;   /* before the first sample, or a sample's end */
		/* The sync flush's empty stored block (5 bytes) starts on a byte
		 * when the last data block happens to end on one: a cut there
		 * keeps all of the sample's text, so the sample is complete. */
		if (bnd[i] + 5 >= end[done])
			continue;
		inside++;
		static const off_t after[] = { 0, 1, 9, 60 };
		for (size_t a = 0; a < XG_ARRAY_LEN(after) && bnd[i] + after[a] < end[done]; a++) {
			copy_prefix(p, q, bnd[i] + after[a]);
			write_n(q, done, N - done, 100, 100, NULL);
			long n = read_all(q, 0, 100, &torn, &err);
			if (n != N)
				fail_msg("cut at %lld: %ld samples after repair: %s", (long long)(bnd[i] + after[a]), n,
				         n < 0 ? err.msg : "");
			assert_int_equal(torn, 0);
		}
	}
	/* The point of the test: such boundaries exist in this file. */
	assert_true(inside > 0);
}

static void empty_file(void **state)
{
	(void)state;
	const char *p = tmp("empty.xgrec");
	write_file(p, "", 0);
	struct xg_err err = { 0 };
	unsigned torn = 9;
	assert_int_equal(read_all(p, 0, 7, &torn, &err), 0);
	assert_int_equal(torn, 0);
	write_n(p, 0, 3, 100, 7, NULL);
	assert_int_equal(read_all(p, 0, 7, &torn, &err), 3);
}

static void second_recorder_is_refused(void **state)
{
	(void)state;
	const char *p = tmp("lock.xgrec");
	unlink(p);
	struct xg_err err = { 0 };
	struct xg_recorder *a = recorder_open(p, &err);
	assert_non_null(a);
	struct xg_recorder *b = recorder_open(p, &err);
	assert_null(b);
	assert_non_null(strstr(err.msg, "another process is recording"));
	recorder_close(a, &err);
}

static void write_error_stops(void **state)
{
	(void)state;
	if (access("/dev/full", W_OK) != 0)
		skip();
	struct xg_err err = { 0 };
	struct xg_recorder *r = recorder_open("/dev/full", &err);
	assert_non_null(r);
	struct xg_sample s;
	sample_init(&s);
	make_sample(&s, 0, 9);
	assert_int_equal(recorder_append(r, NULL, &s, &err), -1);
	assert_non_null(strstr(err.msg, "/dev/full: write failed, recording stopped: "));
	assert_int_equal(recorder_append(r, NULL, &s, &err), -1);
	assert_non_null(strstr(err.msg, "recording stopped after an earlier write error"));
	recorder_close(r, &err);
	sample_free(&s);
}

/* A fresh recording of n samples (gzip members of member samples each) and
 * a configuration that replays it. */
static void replay_cfg(struct xg_config *cfg, const char *name, unsigned n, unsigned member,
		       uint64_t seed)
{
	const char *p = tmp(name);
	unlink(p);
	write_n(p, 0, n, member, seed, NULL);
	config_defaults(cfg);
	cfg->replay = p;
}

static void replay_source(void **state)
{
	(void)state;
	struct xg_config cfg;
	replay_cfg(&cfg, "replay.xgrec", 12, 5, 8);
	struct xg_err err = { 0 };
	const struct xg_source_ops *ops = &source_replay_ops;
	assert_false(ops->probe());
	struct xg_source *src;
	if (ops->open(&src, &cfg, &err) < 0)
		fail_msg("%s", err.msg);
	struct xg_sample s, want, prev;
	sample_init(&s);
	sample_init(&want);
	sample_init(&prev);
	for (unsigned k = 0; k < 12; k++) {
		uint64_t gap = ops->next_gap_ns(src);
		sample_clear(&s);
		assert_int_equal(ops->collect(src, &s, &err), XG_COLLECT_OK);
		make_sample(&want, k, 8);
		assert_same(&s, &want);
		/* Sample 3 has a wall clock of 0 (clocks disagree): no gap. */
		if (k == 0 || k == 3 || k == 4)
			assert_true(gap == 0);
		else
			assert_true(gap == s.host.mono_ns - prev.host.mono_ns);
		sample_copy(&prev, &s);
	}
	assert_true(ops->next_gap_ns(src) == 0);
	sample_clear(&s);
	assert_int_equal(ops->collect(src, &s, &err), XG_COLLECT_EOF);
	ops->close(src);
	sample_free(&s);
	sample_free(&want);
	sample_free(&prev);

	cfg.replay = tmp("x.png");
	static const unsigned char png[] = { 0x89, 'P', 'N', 'G' };
	write_file(cfg.replay, png, sizeof(png));
	assert_int_equal(ops->open(&src, &cfg, &err), -1);
	assert_non_null(strstr(err.msg, "not an xgtop recording"));
}

/* Stepping back: the source reads again from the member start before the
 * sample asked for; every sample after a seek is the one written. */
static void replay_seek(void **state)
{
	(void)state;
	struct xg_config cfg;
	replay_cfg(&cfg, "seek.xgrec", 12, 5, 9);
	struct xg_err err = { 0 };
	const struct xg_source_ops *ops = &source_replay_ops;
	struct xg_source *src;
	if (ops->open(&src, &cfg, &err) < 0)
		fail_msg("%s", err.msg);
	struct xg_sample s[2], want;
	sample_init(&s[0]);
	sample_init(&s[1]);
	sample_init(&want);
	for (unsigned k = 0; k < 12; k++)
		assert_int_equal(ops->collect(src, &s[k & 1], &err), XG_COLLECT_OK);
	static const unsigned to[] = { 7, 0, 11, 5, 4, 10, 3 };
	for (size_t i = 0; i < XG_ARRAY_LEN(to); i++) {
		if (ops->seek(src, to[i], &err) < 0)
			fail_msg("%s", err.msg);
		for (unsigned k = to[i]; k < to[i] + 3 && k < 12; k++) {
			sample_clear(&s[k & 1]);
			assert_int_equal(ops->collect(src, &s[k & 1], &err), XG_COLLECT_OK);
			make_sample(&want, k, 9);
			assert_same(&s[k & 1], &want);
		}
	}
	ops->close(src);
	sample_free(&s[0]);
	sample_free(&s[1]);
	sample_free(&want);
}

/* The engine stepped back to sample k shows what an engine that played up
 * to k shows: the same rows and the same history. */
static void engine_seek_matches_play(void **state)
{
	(void)state;
	struct xg_config cfg;
	replay_cfg(&cfg, "eseek.xgrec", 14, 4, 3);
	cfg.speed = 0;
	struct xg_err err = { 0 };
	struct xg_engine a, b;
	assert_int_equal(engine_open(&a, &cfg, &err), 0);
	engine_history_on(&a, 3);
	for (int k = 0; k < 13; k++)
		assert_int_equal(engine_step(&a, &err), 0);
	for (uint64_t k = 0; k < 13; k += 5) {
		if (engine_seek(&a, k, &err) < 0)
			fail_msg("%s", err.msg);
		assert_int_equal(engine_open(&b, &cfg, &err), 0);
		engine_history_on(&b, 3);
		for (uint64_t j = 0; j <= k; j++)
			assert_int_equal(engine_step(&b, &err), 0);
		assert_int_equal(a.nsamples, b.nsamples);
		assert_int_equal(a.table.n, b.table.n);
		for (size_t i = 0; i < a.table.n; i++) {
			assert_int_equal(a.table.rows[i].valid, b.table.rows[i].valid);
			for (int c = 0; c < XG_COL_COUNT; c++)
				if (row_has(&a.table.rows[i], (enum xg_col)c))
					assert_true(a.table.rows[i].v[c] == b.table.rows[i].v[c]);
		}
		assert_int_equal(a.hist->n, b.hist->n);
		assert_int_equal(a.hist->first, b.hist->first);
		assert_int_equal(a.hist->ndom, b.hist->ndom);
		for (size_t i = 0; i < a.table.ndom_rows; i++) {
			float va[8], vb[8];
			long sa = hist_find(a.hist, &a.table.rows[i]), sb = hist_find(b.hist, &b.table.rows[i]);
			for (int k = 0; k < XG_HIST_NCOLS; k++) {
				size_t n = hist_values(a.hist, sa, k, va, 8);
				assert_int_equal(n, hist_values(b.hist, sb, k, vb, 8));
				assert_memory_equal(va, vb, n * sizeof(float));
			}
		}
		engine_close(&b);
	}
	/* Forward again from there, and to the end. */
	int rc;
	while ((rc = engine_step(&a, &err)) == 0)
		;
	assert_int_equal(rc, 1);
	assert_int_equal(a.nsamples, 14);
	engine_close(&a);
	/* A recorder in the way: refused, nothing read. */
	cfg.record = tmp("copy.xgrec");
	assert_int_equal(engine_open(&a, &cfg, &err), 0);
	assert_int_equal(engine_step(&a, &err), 0);
	assert_int_equal(engine_step(&a, &err), 0);
	assert_int_equal(engine_seek(&a, 0, &err), -1);
	assert_non_null(strstr(err.msg, "--record"));
	engine_close(&a);
}

int main(int argc, char **argv)
{
	if (argc > 1)
		cmocka_set_test_filter(argv[1]);
	if (tmpdir_make("record") < 0) {
		perror("mkdtemp");
		return 1;
	}
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(round_trip),
		cmocka_unit_test(wrong_previous_is_refused),
		cmocka_unit_test(torn_tail_every_offset),
		cmocka_unit_test(corrupt_bytes_never_silent),
		cmocka_unit_test(foreign_files),
		cmocka_unit_test(corrupt_header),
		cmocka_unit_test(future_version),
		cmocka_unit_test(newer_minor_is_readable),
		cmocka_unit_test(pcpu_lines),
		cmocka_unit_test(pool_lines),
		cmocka_unit_test(vm_fields),
		cmocka_unit_test(sockets_and_old_members),
		cmocka_unit_test(append_and_repair),
		cmocka_unit_test(repair_large_samples),
		cmocka_unit_test(empty_file),
		cmocka_unit_test(second_recorder_is_refused),
		cmocka_unit_test(write_error_stops),
		cmocka_unit_test(replay_source),
		cmocka_unit_test(replay_seek),
		cmocka_unit_test(engine_seek_matches_play),
	};
	int rc = cmocka_run_group_tests(tests, NULL, NULL);
	if (tmpdir_remove() != 0)
		rc = rc ? rc : 1;
	return rc;
}
