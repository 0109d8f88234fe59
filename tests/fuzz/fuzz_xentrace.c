// SPDX-License-Identifier: GPL-2.0-or-later
/* libFuzzer harness: the xentrace decoder (file mode fed in pieces of a
 * size the input chooses, its fast scan fed the whole input, whole files
 * read by one thread and by two, and live raw mode), the event merger and
 * both accountings (native with wait attribution: its parts must add up
 * to each WAIT) run on arbitrary bytes. Any crash, leak, sanitizer report
 * or broken invariant is a bug. */
#include "fuzz.h"

#include "xgtop/trace/xentrace_account.h"

static void account(struct xt_events *ev, enum xt_mode mode)
{
	size_t n;
	struct xt_acct a;
	xt_events_close(ev);
	struct xt_ev *all = xt_events_merge_all(ev, &n);
	xt_acct_init(&a, mode);
	/* Native: with wait attribution and histograms (`trace --behind`). */
	xt_acct_behind(&a, true, true, 2.4e9);
	xt_acct_start(&a, ev->first_tsc);
	for (size_t p = 0; p < ev->nq; p++)
		if (ev->q[p].has_first)
			xt_acct_pcpu_first(&a, (uint32_t)p, ev->q[p].first_tsc);
	if (mode == XT_NATIVE)
		xt_acct_seed_from(&a, all, n, ev->first_tsc);
	/* (On bad input the TSC may go back within a pCPU: the accounting
	 * must cope, which the sum check below holds it to.) */
	for (size_t i = 0; i < n; i++)
		xt_acct_event(&a, &all[i]);
	xt_acct_finish(&a, ev->last_tsc);
	if (mode == XT_NATIVE && ev->has_tsc)
		for (size_t i = 0; i < a.nv; i++) {
			unsigned __int128 sum = 0;
			for (int s = 0; s < XT_NSTATES; s++)
				sum += a.v[i].cyc[s];
			/* No vCPU can be accounted more time than the trace spans. */
			if (sum > (unsigned __int128)(ev->last_tsc - ev->first_tsc))
				abort();
			/* The parts of a WAIT add up to it, exactly. */
			uint64_t parts = 0;
			for (uint32_t k = 0; k < a.v[i].nby; k++)
				parts += a.v[i].by[k].cyc;
			if (a.v[i].dom != XT_IDLE_DOMID && parts != a.v[i].cyc[XT_RUNNABLE])
				abort();
		}
	xt_acct_sort(&a);
	xt_acct_free(&a);
	free(all);
}

/* The file decoder's fast scan (sched_only: batches, chunks scanned
 * ahead) must give exactly what the plain per-record path gives. */
static void same_as_fast_scan(const struct xt_decoder *d0, const struct xt_events *e0,
                              const uint8_t *data, size_t size, bool infprev)
{
	struct xt_events ev;
	struct xt_decoder d;
	struct xg_err err;
	xt_events_init(&ev);
	xt_decoder_init(&d, xt_events_add, &ev);
	d.sched_only = true;
	d.want_infprev = infprev;
	if (!xt_decode_feed(&d, data, size, &err))
		xt_decode_finish(&d, &err);
	if (d.records != d0->records || d.chunks != d0->chunks || d.failed != d0->failed ||
	    d.fail_offset != d0->fail_offset || d.npcpu != d0->npcpu)
		abort();
	for (size_t p = 0; p < d.npcpu; p++)
		if (memcmp(&d.pcpu[p], &d0->pcpu[p], sizeof(d.pcpu[p])))
			abort();
	for (size_t p = 0; p < ev.nq && p < e0->nq; p++)
		if (ev.q[p].n != e0->q[p].n ||
		    (ev.q[p].n && memcmp(ev.q[p].ev, e0->q[p].ev, ev.q[p].n * sizeof(struct xt_ev))))
			abort();
	if (ev.sched_records != e0->sched_records || ev.lost_records != e0->lost_records ||
	    (infprev && ev.nhz != e0->nhz))
		abort();
	xt_decoder_free(&d);
	xt_events_free(&ev);
}

/* `xgtop trace` reads a file with up to one thread per core, each taking
 * the chunks of some pCPUs: the result must be the one thread's. */
static void same_with_threads(const uint8_t *data, size_t size)
{
	char path[32];
	struct xt_file one, two;
	struct xg_err err;
	if (!fz_file(path, data, size))
		return;
	int r1 = xt_file_load(&one, path, true, 1, &err), r2 = xt_file_load(&two, path, true, 2, &err);
	unlink(path);
	if (r1 != r2)
		abort();
	if (r1 == 0) {
		if (one.partial != two.partial || strcmp(one.err.msg, two.err.msg) ||
		    one.dec.records != two.dec.records || one.ev.sched_records != two.ev.sched_records ||
		    one.ev.lost_records != two.ev.lost_records || one.ev.nhz != two.ev.nhz ||
		    one.ev.has_tsc != two.ev.has_tsc ||
		    (one.ev.has_tsc && (one.ev.first_tsc != two.ev.first_tsc || one.ev.last_tsc != two.ev.last_tsc)))
			abort();
		for (size_t p = 0; p < one.ev.nq || p < two.ev.nq; p++) {
			size_t n1 = p < one.ev.nq ? one.ev.q[p].n : 0, n2 = p < two.ev.nq ? two.ev.q[p].n : 0;
			if (n1 != n2 || (n1 && memcmp(one.ev.q[p].ev, two.ev.q[p].ev, n1 * sizeof(struct xt_ev))))
				abort();
		}
	}
	xt_file_free(&one);
	xt_file_free(&two);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct xt_events ev;
	struct xt_decoder d;
	struct xg_err err;
	if (size < 1)
		return 0;
	size_t piece = (size_t)data[0] % 64 + 1;
	data++;
	size--;
	xt_events_init(&ev);
	xt_decoder_init(&d, xt_events_add, &ev);
	for (size_t o = 0; o < size; o += piece)
		if (xt_decode_feed(&d, data + o, size - o < piece ? size - o : piece, &err))
			break;
	if (!d.failed)
		xt_decode_finish(&d, &err);
	if (d.failed && d.fail_offset > size)
		abort();   /* an error must point inside the input */
	same_as_fast_scan(&d, &ev, data, size, piece & 2);
	same_with_threads(data, size);
	account(&ev, (piece & 1) ? XT_COMPAT : XT_NATIVE);
	xt_decoder_free(&d);
	xt_events_free(&ev);
	/* Live mode: the same bytes as one pCPU's buffer. */
	xt_events_init(&ev);
	xt_decoder_init(&d, xt_events_add, &ev);
	xt_decode_raw(&d, piece % 4, data, size, &err);
	account(&ev, XT_NATIVE);
	xt_decoder_free(&d);
	xt_events_free(&ev);
	return 0;
}
