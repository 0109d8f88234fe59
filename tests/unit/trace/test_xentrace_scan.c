// SPDX-License-Identifier: GPL-2.0-or-later
/* The decoder's fast file scan (sched_only: batches, chunks scanned ahead
 * two at a time) must deliver exactly what the plain record-by-record path
 * delivers, keep the same per-pCPU counters, and stop exactly where a
 * consumer stops it, however the input is split into feeds. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "xgtop/trace/xentrace_account.h"
#include "xt_tbuf.h"
#include "../tmpdir.h"

static void rec(struct tbuf *b, uint32_t ev, int tsc_on, uint64_t tsc, unsigned n, uint32_t seed)
{
	recw(b, ev, tsc_on, tsc, n, seed, NULL);
}

static uint32_t rnd(uint32_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

/* Chunks for pCPUs 0-3 (mostly alternating, sometimes the same pCPU twice
 * in a row), each a mix of HVM-like noise, runstate changes, INFPREV,
 * records without TSC and the odd TSC going backwards; one chunk holds
 * more wanted records than a scan ahead keeps. */
static void build_seed(struct tbuf *b, uint32_t s)
{
	uint64_t tsc[4] = { 1000, 2000, 3000, 4000 };
	memset(b, 0, sizeof(*b));
	for (int c = 0; c < 60; c++) {
		uint32_t cpu = (uint32_t)c % 4;
		if (c % 7 == 6)
			cpu = ((uint32_t)c - 1) % 4;
		chunk(b, cpu);
		/* Chunk starts test the state carried over from the pCPU's
		 * previous chunk: a TSC older than its last one, a wanted
		 * record that inherits its TSC. */
		uint32_t r0 = rnd(&s);
		if (r0 % 3 == 0)
			tsc[cpu] -= 3000;
		if (r0 & 8)
			rec(b, XT_RUNSTATE_CHANGE | 1u << 8, 0, 0, 1, r0);
		int nrec = c == 9 ? 3000 : (int)(rnd(&s) % 400);
		for (int i = 0; i < nrec; i++) {
			uint32_t r = rnd(&s), ev;
			tsc[cpu] += r % 1000;
			if (r % 97 == 0)
				tsc[cpu] -= 5000;   /* TSC goes back */
			switch (c == 9 ? 0 : r % 9) {
			case 0: case 1:
				ev = XT_RUNSTATE_CHANGE | (r >> 8 & 3) << 8 | (r >> 10 & 3) << 4;
				break;
			case 2: ev = XT_CONTINUE_RUNNING; break;
			case 3: ev = XT_SWITCH_INFPREV; break;
			case 4: ev = 0x0002800fu; break;
			default: ev = 0x00081000u | (r >> 12 & 0xfff); break;
			}
			rec(b, ev, r % 11 != 0, tsc[cpu], (r >> 4) % 8, r);
		}
		if (c == 20)
			rec(b, XT_LOST_RECORDS, 1, tsc[cpu], 4, 7);
		/* A run of d5v1 long enough for the TSC-rate estimate. */
		uint32_t rs = 5u << 16 | 1, prev[3] = { 5, 1, 2000000 };
		recw(b, XT_RUNSTATE_CHANGE | 1u << 8, 1, tsc[cpu] += 10, 1, 0, &rs);
		recw(b, XT_SWITCH_INFPREV, 1, tsc[cpu] += 4800000, 3, 0, prev);
		chunk_end(b);
	}
}

static void build(struct tbuf *b)
{
	build_seed(b, 12345);
}

struct got {
	struct xt_rec *r;
	size_t n, cap;
	uint64_t stop_at;   /* stop at the record at this offset (0: never) */
};

static int collect(void *ctx, const struct xt_rec *r)
{
	struct got *g = ctx;
	if (g->n == g->cap) {
		g->cap = g->cap ? 2 * g->cap : 1024;
		g->r = realloc(g->r, g->cap * sizeof(*g->r));
		assert_non_null(g->r);
	}
	g->r[g->n++] = *r;
	return g->stop_at && r->offset == g->stop_at;
}

/* Unfiltered reference: keeps only what the filter would let through. */
static int collect_wanted(void *ctx, const struct xt_rec *r)
{
	if (!xt_sched_wanted(r->event, true))
		return 0;
	return collect(ctx, r);
}

struct run {
	struct xt_decoder d;
	struct got g;
	int rc;
};

static void run_decode(struct run *x, const struct tbuf *b, bool filter, size_t piece, uint64_t stop_at)
{
	struct xg_err err;
	memset(x, 0, sizeof(*x));
	x->g.stop_at = stop_at;
	xt_decoder_init(&x->d, filter ? collect : collect_wanted, &x->g);
	x->d.sched_only = filter;
	x->d.want_infprev = true;
	for (size_t o = 0; o < b->n && !x->rc; o += piece)
		x->rc = xt_decode_feed(&x->d, b->b + o, b->n - o < piece ? b->n - o : piece, &err);
	if (!x->rc)
		x->rc = xt_decode_finish(&x->d, &err);
}

static void same(const struct run *a, const struct run *b)
{
	assert_int_equal(a->rc, b->rc);
	assert_int_equal(a->g.n, b->g.n);
	for (size_t i = 0; i < a->g.n; i++) {
		const struct xt_rec *x = &a->g.r[i], *y = &b->g.r[i];
		assert_int_equal(x->event, y->event);
		assert_int_equal(x->offset, y->offset);
		assert_int_equal(x->pcpu, y->pcpu);
		assert_int_equal(x->tsc, y->tsc);
		assert_int_equal(x->has_tsc, y->has_tsc);
		assert_int_equal(x->nwords, y->nwords);
		assert_memory_equal(x->d, y->d, 4u * x->nwords);
	}
	assert_int_equal(a->d.records, b->d.records);
	assert_int_equal(a->d.chunks, b->d.chunks);
	assert_int_equal(a->d.npcpu, b->d.npcpu);
	assert_int_equal(a->d.failed, b->d.failed);
	assert_int_equal(a->d.fail_offset, b->d.fail_offset);
	for (size_t p = 0; p < a->d.npcpu; p++) {
		const struct xt_pcpu_info *x = &a->d.pcpu[p], *y = &b->d.pcpu[p];
		assert_int_equal(x->records, y->records);
		assert_int_equal(x->tsc_backwards, y->tsc_backwards);
		assert_int_equal(x->first_tsc, y->first_tsc);
		assert_int_equal(x->last_tsc, y->last_tsc);
		assert_int_equal(x->has_tsc, y->has_tsc);
	}
}

static void done(struct run *x)
{
	xt_decoder_free(&x->d);
	free(x->g.r);
}

static void fast_scan_matches_plain_path(void **state)
{
	(void)state;
	struct tbuf b;
	build(&b);
	struct run ref, fast;
	run_decode(&ref, &b, false, b.n, 0);
	assert_int_equal(ref.rc, 0);
	assert_true(ref.g.n > 4000);
	static const size_t pieces[] = { 1, 7, 40, 1000, 4096, 65536, 1 << 30 };
	for (size_t i = 0; i < sizeof(pieces) / sizeof(pieces[0]); i++) {
		run_decode(&fast, &b, true, pieces[i], 0);
		same(&ref, &fast);
		done(&fast);
	}
	done(&ref);
	free(b.b);
	/* More shapes of chunk sequences, whole-buffer feeds. */
	for (uint32_t seed = 1; seed <= 40; seed++) {
		build_seed(&b, seed * 7919);
		run_decode(&ref, &b, false, b.n, 0);
		run_decode(&fast, &b, true, b.n, 0);
		same(&ref, &fast);
		done(&ref);
		done(&fast);
		free(b.b);
	}
}

static void consumer_stop_is_exact(void **state)
{
	(void)state;
	struct tbuf b;
	build(&b);
	struct run all, ref, fast;
	run_decode(&all, &b, false, b.n, 0);
	/* Stop at many wanted records: first ones, inside batches, inside
	 * chunks scanned ahead, the last one. */
	for (size_t i = 0; i < all.g.n; i += (i < 200 ? 1 : 97)) {
		uint64_t at = all.g.r[i].offset;
		run_decode(&ref, &b, false, b.n, at);
		run_decode(&fast, &b, true, b.n, at);
		assert_int_equal(fast.rc, -1);
		assert_int_equal(fast.d.fail_offset, at);
		same(&ref, &fast);
		done(&ref);
		done(&fast);
	}
	done(&all);
	free(b.b);
}

static void corrupt_chunk_after_scan_ahead(void **state)
{
	(void)state;
	struct tbuf b;
	build(&b);
	/* Shorten a chunk's window by 4 bytes so its last record overruns:
	 * decoding must fail there with everything before it delivered, even
	 * though the chunk may have been scanned ahead with the one before. */
	size_t off = 0;
	for (int c = 0; c < 12; c++) {
		uint32_t win;
		memcpy(&win, b.b + off + 8, 4);
		if (c == 11) {
			win -= 4;
			memcpy(b.b + off + 8, &win, 4);
			break;
		}
		off += 12 + win;
	}
	struct run ref, fast;
	run_decode(&ref, &b, false, b.n, 0);
	assert_int_equal(ref.rc, -1);
	run_decode(&fast, &b, true, b.n, 0);
	same(&ref, &fast);
	done(&ref);
	done(&fast);
	free(b.b);
}

/* Same as xt_events_add, but not it: the decoder then takes its general
 * per-record path instead of the batch hand-over. */
static int events_add_slow(void *ctx, const struct xt_rec *r)
{
	return xt_events_add(ctx, r);
}

static void load_events(struct xt_events *ev, const struct tbuf *b, xt_rec_fn fn, size_t piece)
{
	struct xt_decoder d;
	struct xg_err err;
	xt_events_init(ev);
	xt_decoder_init(&d, fn, ev);
	d.sched_only = true;
	d.want_infprev = true;
	for (size_t o = 0; o < b->n; o += piece)
		assert_int_equal(xt_decode_feed(&d, b->b + o, b->n - o < piece ? b->n - o : piece, &err), 0);
	assert_int_equal(xt_decode_finish(&d, &err), 0);
	xt_decoder_free(&d);
}

static void same_events(struct xt_events *a, struct xt_events *b)
{
	assert_int_equal(a->nq, b->nq);
	for (size_t p = 0; p < a->nq; p++) {
		const struct xt_evq *x = &a->q[p], *y = &b->q[p];
		assert_int_equal(x->n, y->n);
		if (x->n)
			assert_memory_equal(x->ev, y->ev, x->n * sizeof(*x->ev));
		assert_int_equal(x->has_first, y->has_first);
		assert_int_equal(x->first_tsc, y->first_tsc);
		assert_int_equal(x->last_tsc, y->last_tsc);
	}
	assert_int_equal(a->has_tsc, b->has_tsc);
	assert_int_equal(a->first_tsc, b->first_tsc);
	assert_int_equal(a->last_tsc, b->last_tsc);
	assert_int_equal(a->sched_records, b->sched_records);
	assert_int_equal(a->short_records, b->short_records);
	assert_int_equal(a->lost_records, b->lost_records);
	assert_int_equal(a->lost_events, b->lost_events);
	/* The samples come in another order; the estimate is their median. */
	size_t na, nb;
	double ha = xt_events_estimate_hz(a, &na), hb = xt_events_estimate_hz(b, &nb);
	assert_int_equal(na, nb);
	assert_true(ha == hb);
}

static void events_fast_path_matches(void **state)
{
	(void)state;
	struct tbuf b;
	build(&b);
	struct xt_events slow, fast;
	load_events(&slow, &b, events_add_slow, b.n);
	load_events(&fast, &b, xt_events_add, b.n);
	assert_true(slow.sched_records > 1000);
	assert_true(slow.nhz > 0);
	assert_int_equal(slow.nhz, fast.nhz);
	assert_memory_equal(slow.hz_samples, fast.hz_samples, slow.nhz * sizeof(double));
	same_events(&slow, &fast);
	xt_events_free(&slow);
	xt_events_free(&fast);
	free(b.b);
}

/* Random per-pCPU queues (TSC ties, TSCs going back, empty queues). */
static void random_queues(struct xt_events *e, size_t nq, uint32_t *seed)
{
	xt_events_init(e);
	e->q = calloc(nq, sizeof(*e->q));
	assert_non_null(e->q);
	e->nq = e->qcap = nq;
	for (size_t p = 0; p < nq; p++) {
		struct xt_evq *q = &e->q[p];
		q->n = q->cap = rnd(seed) % 5 == 0 ? 0 : rnd(seed) % 200;
		q->ev = calloc(q->cap ? q->cap : 1, sizeof(*q->ev));
		assert_non_null(q->ev);
		uint64_t t = 1000 + rnd(seed) % 50;
		for (size_t i = 0; i < q->n; i++) {
			uint32_t r = rnd(seed);
			t = r % 13 == 0 ? t - r % 7 : t + r % 4;   /* ties and steps back */
			q->ev[i].tsc = t;
			q->ev[i].pcpu = (uint16_t)p;
			q->ev[i].dom = (uint16_t)i;
		}
	}
}

/* The merged order by definition: take the earliest head by (tsc, pCPU). */
static size_t reference_merge(const struct xt_events *e, struct xt_ev *out)
{
	size_t *head = calloc(e->nq, sizeof(*head)), n = 0;
	assert_non_null(head);
	for (;;) {
		size_t best = e->nq;
		for (size_t p = 0; p < e->nq; p++)
			if (head[p] < e->q[p].n &&
			    (best == e->nq || e->q[p].ev[head[p]].tsc < e->q[best].ev[head[best]].tsc))
				best = p;
		if (best == e->nq)
			break;
		out[n++] = e->q[best].ev[head[best]++];
	}
	free(head);
	return n;
}

/* Where a drain's events go. */
struct drained {
	struct xt_ev *ev;
	size_t n;
};

static void keep_ev(void *ctx, const struct xt_ev *ev)
{
	struct drained *d = ctx;
	d->ev[d->n++] = *ev;
}

static void merge_order_is_exact(void **state)
{
	(void)state;
	uint32_t seed = 99;
	for (int round = 0; round < 60; round++) {
		size_t nq = 1 + (size_t)round % 37;
		struct xt_events e;
		random_queues(&e, nq, &seed);
		struct xt_ev ref[40 * 200], got[40 * 200];
		size_t n = reference_merge(&e, ref), k = 0, len;
		if (round % 3 == 0) {
			/* A whole file's: every event at once. */
			struct xt_ev *all = xt_events_merge_all(&e, &k);
			memcpy(got, all, k * sizeof(*all));
			free(all);
		} else if (round % 3 == 1) {
			struct xt_merge m;
			const struct xt_ev *run;
			xt_merge_init(&m, &e);
			while ((len = xt_merge_run(&m, &run))) {
				memcpy(&got[k], run, len * sizeof(*run));
				k += len;
			}
			xt_merge_free(&m);
		} else {
			/* Live style: up to a rising time, several drains. */
			struct drained dr = { got, 0 };
			for (uint64_t upto = 0; dr.n < n && upto < 100000; upto += rnd(&seed) % 300)
				xt_events_drain(&e, upto, keep_ev, &dr);
			k = dr.n;
		}
		assert_int_equal(k, n);
		for (size_t i = 0; i < n; i++) {
			assert_int_equal(got[i].tsc, ref[i].tsc);
			assert_int_equal(got[i].pcpu, ref[i].pcpu);
			assert_int_equal(got[i].dom, ref[i].dom);
		}
		xt_events_free(&e);
	}
}

/* vCPUs are found again by (domid, vcpu) id, before and after sorting,
 * including ids beyond the 16 bits records carry. */
static void vcpu_index_finds_any_id(void **state)
{
	(void)state;
	static const uint32_t doms[] = { 0, 7, 32767, 32768, 65535, 70000, 0xffffffffu };
	struct xt_acct a;
	xt_acct_init(&a, XT_NATIVE);
	for (int round = 0; round < 2; round++) {
		for (size_t i = 0; i < sizeof(doms) / sizeof(doms[0]); i++)
			for (uint32_t v = 0; v < 300; v += 37) {
				size_t k = xt_acct_vcpu(&a, doms[i], v);
				assert_int_equal(a.v[k].dom, doms[i]);
				assert_int_equal(a.v[k].vcpu, v);
				assert_int_equal(xt_acct_vcpu(&a, doms[i], v), k);
			}
		assert_int_equal(a.nv, 7 * 9);   /* nothing created twice */
		xt_acct_sort(&a);
	}
	xt_acct_free(&a);
}

/* ---- files decoded by several threads ------------------------------- */

static void same_decoder(const struct xt_decoder *a, const struct xt_decoder *b)
{
	assert_int_equal(a->records, b->records);
	assert_int_equal(a->chunks, b->chunks);
	assert_int_equal(a->offset, b->offset);
	assert_int_equal(a->npcpu, b->npcpu);
	for (size_t p = 0; p < a->npcpu; p++)
		assert_memory_equal(&a->pcpu[p], &b->pcpu[p], sizeof(a->pcpu[p]));
}

/* The file b decoded by `threads` threads equals it decoded by one. */
static void load_like_one(const struct tbuf *b, unsigned threads, bool estimate)
{
	const char *path = tmp("trace.bin");
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(b->b, 1, b->n, f), b->n);
	fclose(f);
	struct xt_file one, many;
	struct xg_err err;
	assert_int_equal(xt_file_load(&one, path, estimate, 1, &err), 0);
	assert_int_equal(xt_file_load(&many, path, estimate, threads, &err), 0);
	assert_int_equal(one.partial, many.partial);
	assert_string_equal(one.err.msg, many.err.msg);
	assert_int_equal(one.size, many.size);
	same_decoder(&one.dec, &many.dec);
	same_events(&one.ev, &many.ev);
	xt_file_free(&one);
	xt_file_free(&many);
}

static void threads_decode_like_one(void **state)
{
	(void)state;
	struct tbuf b;
	for (uint32_t seed = 1; seed <= 24; seed++) {
		build_seed(&b, seed * 104729);
		load_like_one(&b, 2 + seed % 4, seed % 2);
		free(b.b);
	}
}

/* A damaged file is decoded by one thread, as ever: same figures before
 * the fault, same message. */
static void threads_fall_back_on_faults(void **state)
{
	(void)state;
	struct tbuf b;
	for (int fault = 0; fault < 4; fault++) {
		build(&b);
		uint32_t win, junk = 0x12345678;
		memcpy(&win, b.b + 8, 4);
		size_t second = 12 + win;   /* the second chunk's header */
		if (fault == 0) {           /* its last record overruns the chunk */
			memcpy(&win, b.b + second + 8, 4);
			win -= 4;
			memcpy(b.b + second + 8, &win, 4);
		} else if (fault == 1) {    /* the file ends inside a record */
			b.n -= 6;
		} else if (fault == 2) {    /* not a chunk header */
			memcpy(b.b + second, &junk, 4);
		} else {                    /* the last chunk lacks its end */
			b.n -= 40;
		}
		for (unsigned threads = 2; threads <= 4; threads++)
			load_like_one(&b, threads, true);
		free(b.b);
	}
}

/* pCPUs beyond the owner table go to thread p % n; joined, the shares
 * are the whole file. */
static void shares_join_into_whole(void **state)
{
	(void)state;
	struct tbuf b;
	build(&b);
	struct xt_events whole, part[3];
	struct xt_decoder dw, dp[3];
	struct xg_err err;
	static const uint8_t owner[] = { 2, 0 };   /* pCPUs 0 and 1; 2 and 3 by p % 3 */
	struct xt_share sh[3];
	for (unsigned k = 0; k < 4; k++) {
		struct xt_decoder *d = k < 3 ? &dp[k] : &dw;
		struct xt_events *e = k < 3 ? &part[k] : &whole;
		xt_events_init(e);
		xt_decoder_init(d, xt_events_add, e);
		d->sched_only = d->want_infprev = true;
		if (k < 3) {
			sh[k] = (struct xt_share){ owner, 2, k, 3 };
			d->share = &sh[k];
		}
		for (size_t o = 0; o < b.n; o += 999)
			assert_int_equal(xt_decode_feed(d, b.b + o, b.n - o < 999 ? b.n - o : 999, &err), 0);
		assert_int_equal(xt_decode_finish(d, &err), 0);
	}
	for (unsigned k = 1; k < 3; k++) {
		xt_decoder_absorb(&dp[0], &dp[k]);
		xt_events_absorb(&part[0], &part[k], &sh[k]);
	}
	dp[0].share = NULL;
	same_events(&whole, &part[0]);
	same_decoder(&dw, &dp[0]);
	for (unsigned k = 0; k < 3; k++) {
		xt_decoder_free(&dp[k]);
		xt_events_free(&part[k]);
	}
	xt_decoder_free(&dw);
	xt_events_free(&whole);
	free(b.b);
}

static int setup_dir(void **state)
{
	(void)state;
	return tmpdir_make("xtscan");
}

static int remove_dir(void **state)
{
	(void)state;
	return tmpdir_remove();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(fast_scan_matches_plain_path),
		cmocka_unit_test(consumer_stop_is_exact),
		cmocka_unit_test(corrupt_chunk_after_scan_ahead),
		cmocka_unit_test(events_fast_path_matches),
		cmocka_unit_test(vcpu_index_finds_any_id),
		cmocka_unit_test(merge_order_is_exact),
		cmocka_unit_test(threads_decode_like_one),
		cmocka_unit_test(threads_fall_back_on_faults),
		cmocka_unit_test(shares_join_into_whole),
	};
	return cmocka_run_group_tests(tests, setup_dir, remove_dir);
}
