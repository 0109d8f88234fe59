// SPDX-License-Identifier: GPL-2.0-or-later
/* Keeps the records runstate accounting needs (runstate changes, continue
 * running, lost records), one queue per pCPU, and merges the queues in TSC
 * order: a vCPU's records come from several pCPUs (it is woken on one and
 * runs on another), and xentrace writes each pCPU's records in chunks.
 * Also the TSC rate: estimated from INFPREV records, given, converted. */
#include "xgtop/trace/xentrace.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void xt_events_init(struct xt_events *e)
{
	memset(e, 0, sizeof(*e));
}

void xt_events_free(struct xt_events *e)
{
	for (size_t i = 0; i < e->nq; i++)
		free(e->q[i].ev);
	free(e->q);
	free(e->hz_samples);
	free(e->cur);
	memset(e, 0, sizeof(*e));
}

static struct xt_evq *queue(struct xt_events *e, uint32_t p)
{
	if (p >= e->nq) {
		xg_grow(&e->q, &e->qcap, (size_t)p + 1, sizeof(*e->q));
		memset(e->q + e->nq, 0, (p + 1 - e->nq) * sizeof(*e->q));
		e->nq = (size_t)p + 1;
	}
	return &e->q[p];
}

static inline void push(struct xt_evq *q, const struct xt_ev *ev)
{
	if (__builtin_expect(q->n == q->cap, 0))
		xg_grow(&q->ev, &q->cap, q->n + 1, sizeof(*q->ev));
	q->ev[q->n++] = *ev;
}

static void hz_sample(struct xt_events *e, const struct xt_rec *r)
{
	uint32_t dom, unit, runtime;
	bool has_unit = r->nwords >= 3;
	if (r->nwords < 2 || r->pcpu >= e->ncur || !e->cur[r->pcpu].valid)
		return;
	/* Xen 4.8 added the unit id: {dom, unit, runtime}; before: {dom, runtime}. */
	dom = r->d[0];
	unit = has_unit ? r->d[1] : 0;
	runtime = has_unit ? r->d[2] : r->d[1];
	if (dom != e->cur[r->pcpu].dom || (has_unit && unit != e->cur[r->pcpu].vcpu))
		return;
	/* Short runs make the fixed skew between the two clocks dominate. */
	if (runtime < 1000000 || r->tsc <= e->cur[r->pcpu].tsc)
		return;
	double hz = (double)(r->tsc - e->cur[r->pcpu].tsc) * 1e9 / runtime;
	xg_grow(&e->hz_samples, &e->hz_cap, e->nhz + 1, sizeof(double));
	e->hz_samples[e->nhz++] = hz;
}

static inline uint32_t rd32(const uint8_t *p)
{
	uint32_t v;
	memcpy(&v, p, 4);
	return v;
}

static inline struct xt_evq *queue_of(struct xt_events *e, uint32_t p)
{
	return __builtin_expect(p < e->nq, 1) ? &e->q[p] : queue(e, p);
}

static inline void note_tsc(struct xt_events *e, struct xt_evq *q, uint64_t tsc)
{
	if (!e->has_tsc || tsc < e->first_tsc)
		e->first_tsc = tsc;
	if (!e->has_tsc || tsc > e->last_tsc)
		e->last_tsc = tsc;
	e->has_tsc = true;
	if (!q->has_first) {
		q->first_tsc = tsc;
		q->has_first = true;
	}
	q->last_tsc = tsc;
}

static inline bool is_runstate(uint32_t event)
{
	uint32_t lo = event & 0x0ffff00fu;
	return lo == XT_RUNSTATE_CHANGE || lo == XT_CONTINUE_RUNNING;
}

/* A runstate change or "continue running" record of pCPU pcpu; d0 is its
 * first extra word (when nwords >= 1). */
static inline __attribute__((always_inline)) void add_runstate(struct xt_events *e, struct xt_evq *q, uint32_t pcpu,
                                uint32_t event, unsigned nwords, uint64_t tsc, uint32_t d0)
{
	uint32_t lo = event & 0x0ffff00fu;
	uint32_t oldst = (event >> 8) & 0xf, newst = (event >> 4) & 0xf;
	struct xt_ev ev = { .tsc = tsc, .pcpu = (uint16_t)pcpu };
	e->sched_records++;
	/* {vcpu:16, dom:16} in the first word; Xen builds with perf
	 * counters appended two u64s, which we ignore. */
	if (nwords < 1 || (lo == XT_RUNSTATE_CHANGE && (oldst > XT_OFFLINE || newst > XT_OFFLINE))) {
		e->short_records++;
		return;
	}
	ev.vcpu = d0 & 0xffff;
	ev.dom = d0 >> 16;
	if (lo == XT_CONTINUE_RUNNING) {
		ev.kind = XT_EV_CONTINUE;
		ev.old_new = xt_old_new(XT_RUNNING, XT_RUNNING);
		newst = XT_RUNNING;
	} else {
		ev.kind = XT_EV_CHANGE;
		ev.old_new = xt_old_new(oldst, newst);
	}
	/* Who runs where matters only to the TSC-rate estimate; without it
	 * this data-dependent branch is skipped altogether. */
	if (!e->no_hz && newst == XT_RUNNING) {
		if (pcpu >= e->ncur) {
			size_t cap = e->ncur;
			xg_grow(&e->cur, &cap, (size_t)pcpu + 1, sizeof(*e->cur));
			memset(e->cur + e->ncur, 0, (cap - e->ncur) * sizeof(*e->cur));
			e->ncur = cap;
		}
		if (lo == XT_RUNSTATE_CHANGE || !e->cur[pcpu].valid ||
		    e->cur[pcpu].dom != ev.dom || e->cur[pcpu].vcpu != ev.vcpu) {
			e->cur[pcpu].dom = ev.dom;
			e->cur[pcpu].vcpu = ev.vcpu;
			e->cur[pcpu].tsc = tsc;
			e->cur[pcpu].valid = true;
		}
	}
	push(q, &ev);
}

/* Any other record: lost records, INFPREV (the TSC-rate estimate). */
static void add_other(struct xt_events *e, struct xt_evq *q, const struct xt_rec *r)
{
	struct xt_ev ev = { .tsc = r->tsc, .pcpu = (uint16_t)r->pcpu };
	if (r->event == XT_LOST_RECORDS) {
		uint64_t first = r->tsc;
		uint32_t count = r->nwords >= 1 ? r->d[0] : 0;
		uint16_t did = 0xffff, vid = 0xffff;   /* unknown in short layouts */
		if (r->nwords >= 4) {
			did = r->d[1] & 0xffff;
			vid = r->d[1] >> 16;
			first = (uint64_t)r->d[2] | (uint64_t)r->d[3] << 32;
			if (first > r->tsc || !r->has_tsc)
				first = r->tsc;
		}
		e->lost_records += count;
		e->lost_events++;
		ev.old_new = r->nwords >= 4;
		ev.kind = XT_EV_LOST_START;
		ev.tsc = first;
		ev.dom = (uint16_t)(count >> 16);
		ev.vcpu = (uint16_t)count;
		push(q, &ev);
		ev.kind = XT_EV_LOST_END;
		ev.tsc = r->tsc;
		ev.dom = did;
		ev.vcpu = vid;
		push(q, &ev);
		return;
	}
	if (r->event == XT_SWITCH_INFPREV && r->has_tsc)
		hz_sample(e, r);
}

int xt_events_add(void *ctx, const struct xt_rec *r)
{
	struct xt_events *e = ctx;
	struct xt_evq *q = queue_of(e, r->pcpu);
	if (r->has_tsc)
		note_tsc(e, q, r->tsc);
	if (is_runstate(r->event))
		add_runstate(e, q, r->pcpu, r->event, r->nwords, r->tsc, r->d[0]);
	else
		add_other(e, q, r);
	return 0;
}

void xt_events_add_wanted(struct xt_events *e, uint32_t pcpu, const struct xt_wanted *w, size_t k)
{
	if (!k)
		return;
	struct xt_evq *q = queue_of(e, pcpu);
	for (size_t j = 0; j < k; j++) {
		const uint8_t *p = w[j].p;
		uint32_t hdr = rd32(p);
		uint32_t event = hdr & 0x0fffffffu;
		unsigned nwords = (hdr >> 28) & 7;
		bool has_tsc = hdr >> 31;
		const uint8_t *d = p + (has_tsc ? 12 : 4);
		if (has_tsc)
			note_tsc(e, q, w[j].tsc);
		if (is_runstate(event)) {
			add_runstate(e, q, pcpu, event, nwords, w[j].tsc, nwords ? rd32(d) : 0);
		} else {
			struct xt_rec r = { .event = event, .nwords = (uint8_t)nwords, .has_tsc = has_tsc,
			                    .tsc = w[j].tsc, .pcpu = pcpu };
			memcpy(r.d, d, 4u * nwords);
			add_other(e, q, &r);
		}
	}
}

/* Widens the trace's TSC span to [first, last]. */
static void widen(struct xt_events *e, uint64_t first, uint64_t last)
{
	if (!e->has_tsc || first < e->first_tsc)
		e->first_tsc = first;
	if (!e->has_tsc || last > e->last_tsc)
		e->last_tsc = last;
	e->has_tsc = true;
}

void xt_events_absorb(struct xt_events *e, struct xt_events *from, const struct xt_share *share)
{
	for (size_t p = 0; p < from->nq; p++) {
		if (!xt_share_has(share, (uint32_t)p))
			continue;
		struct xt_evq *q = queue(e, (uint32_t)p);
		free(q->ev);
		*q = from->q[p];
		memset(&from->q[p], 0, sizeof(from->q[p]));
	}
	if (from->has_tsc)
		widen(e, from->first_tsc, from->last_tsc);
	e->lost_records += from->lost_records;
	e->lost_events += from->lost_events;
	e->sched_records += from->sched_records;
	e->short_records += from->short_records;
	/* The estimate is a median: the samples' order does not matter. */
	xg_grow(&e->hz_samples, &e->hz_cap, e->nhz + from->nhz, sizeof(double));
	if (from->nhz)
		memcpy(e->hz_samples + e->nhz, from->hz_samples, from->nhz * sizeof(double));
	e->nhz += from->nhz;
}

void xt_events_span(struct xt_events *e, uint32_t p, uint64_t first, uint64_t last)
{
	struct xt_evq *q = queue(e, p);
	if (!q->has_first || first < q->first_tsc)
		q->first_tsc = first;
	if (!q->has_first || last > q->last_tsc)
		q->last_tsc = last;
	q->has_first = true;
	widen(e, first, last);
}

void xt_events_close(struct xt_events *e)
{
	for (size_t p = 0; p < e->nq; p++) {
		struct xt_evq *q = &e->q[p];
		if (!q->has_first)
			continue;
		/* The pCPU's data ends at its last TSC, whatever the record. */
		uint64_t last = q->last_tsc;
		struct xt_ev ev = { .tsc = last, .pcpu = (uint16_t)p, .kind = XT_EV_PCPU_END };
		push(q, &ev);
	}
}

/* A loser tree over the pCPU queues: leaf p holds queue p's head key
 * (tsc, p), or a key above all others when the queue is empty; each inner
 * node keeps the leaf that lost the match there. Taking the earliest head
 * and replaying its leaf costs one comparison per level, done with
 * selects: which queue wins is a coin toss the CPU would mispredict. The
 * runner-up, which bounds a run from one queue, is the least of the
 * losers on the winner's path. */
static inline bool key_less(const struct xt_mh *x, const struct xt_mh *y)
{
	return (x->tsc < y->tsc) | ((x->tsc == y->tsc) & (x->q < y->q));
}

static const struct xt_mh no_key = { UINT64_MAX, UINT32_MAX };

/* Plays leaf p up to the root. */
static inline void replay(struct xt_merge *m, uint32_t p)
{
	uint32_t cur = p;
	for (size_t node = (m->nleaf + p) / 2; node; node /= 2) {
		uint32_t other = m->lt[node];
		bool swap = key_less(&m->h[other], &m->h[cur]);
		m->lt[node] = swap ? cur : other;
		cur = swap ? other : cur;
	}
	m->win = cur;
}

/* Queue p's head key after its events before index k were taken. */
static inline void set_head(struct xt_merge *m, uint32_t p, size_t k)
{
	struct xt_evq *q = &m->e->q[p];
	if (k >= q->n) {
		q->head = q->n = 0;   /* the memory stays: a run is still valid */
		m->h[p] = no_key;
	} else {
		q->head = k;
		m->h[p].tsc = q->ev[k].tsc;
	}
}

void xt_merge_init(struct xt_merge *m, struct xt_events *e)
{
	memset(m, 0, sizeof(*m));
	m->e = e;
	m->nleaf = 1;
	while (m->nleaf < e->nq)
		m->nleaf *= 2;
	m->h = xg_malloc(m->nleaf * sizeof(*m->h));
	m->lt = xg_malloc(m->nleaf * sizeof(*m->lt));
	for (size_t p = 0; p < m->nleaf; p++) {
		m->h[p] = no_key;
		if (p < e->nq && e->q[p].head < e->q[p].n) {
			m->h[p].tsc = e->q[p].ev[e->q[p].head].tsc;
			m->h[p].q = (uint32_t)p;
		}
	}
	/* Build bottom-up: each inner node's winner goes up, its loser stays. */
	uint32_t *win = xg_malloc(2 * m->nleaf * sizeof(*win));
	for (size_t p = 0; p < m->nleaf; p++)
		win[m->nleaf + p] = (uint32_t)p;
	for (size_t node = m->nleaf - 1; node >= 1; node--) {
		uint32_t a = win[2 * node], b = win[2 * node + 1];
		bool b_wins = key_less(&m->h[b], &m->h[a]);
		win[node] = b_wins ? b : a;
		m->lt[node] = b_wins ? a : b;
	}
	m->win = m->nleaf > 1 ? win[1] : 0;
	free(win);
}

/* Takes the next event in merged order when its tsc <= upto. */
static bool merge_next_upto(struct xt_merge *m, uint64_t upto, struct xt_ev *out)
{
	uint32_t w = m->win;
	if (m->h[w].q == UINT32_MAX || m->h[w].tsc > upto)
		return false;
	struct xt_evq *q = &m->e->q[w];
	*out = q->ev[q->head];
	set_head(m, w, q->head + 1);
	replay(m, w);
	return true;
}

static bool merge_next(struct xt_merge *m, struct xt_ev *out)
{
	return merge_next_upto(m, UINT64_MAX, out);
}

size_t xt_merge_run(struct xt_merge *m, const struct xt_ev **run)
{
	uint32_t w = m->win;
	if (m->h[w].q == UINT32_MAX)
		return 0;
	/* The runner-up: the least loser on the winner's path. */
	struct xt_mh b = no_key;
	for (size_t node = (m->nleaf + w) / 2; node; node /= 2) {
		const struct xt_mh *x = &m->h[m->lt[node]];
		b = key_less(x, &b) ? *x : b;
	}
	struct xt_evq *q = &m->e->q[w];
	size_t i = q->head, k = i + 1;
	while (k < q->n && (q->ev[k].tsc < b.tsc || (q->ev[k].tsc == b.tsc && w < b.q)))
		k++;
	*run = &q->ev[i];
	/* Each queue is read front to back, but eight or more of them in
	 * turn, from memory written long before: fetch this one's next
	 * events while the caller works on the run. */
	__builtin_prefetch(&q->ev[k + 32]);
	set_head(m, w, k);
	replay(m, w);
	return k - i;
}

void xt_merge_free(struct xt_merge *m)
{
	free(m->h);
	free(m->lt);
	m->h = NULL;
	m->lt = NULL;
	m->nleaf = 0;
}

struct xt_ev *xt_events_merge_all(struct xt_events *e, size_t *n)
{
	size_t total = 0, k = 0;
	for (size_t p = 0; p < e->nq; p++)
		total += e->q[p].n - e->q[p].head;
	struct xt_ev *out = xg_malloc((total ? total : 1) * sizeof(*out));
	struct xt_merge m;
	xt_merge_init(&m, e);
	while (k < total && merge_next(&m, &out[k]))
		k++;
	xt_merge_free(&m);
	*n = k;
	return out;
}

size_t xt_events_drain(struct xt_events *e, uint64_t upto,
                       void (*fn)(void *ctx, const struct xt_ev *ev), void *ctx)
{
	struct xt_merge m;
	struct xt_ev ev;
	size_t n = 0;
	xt_merge_init(&m, e);
	while (merge_next_upto(&m, upto, &ev)) {
		fn(ctx, &ev);
		n++;
	}
	xt_merge_free(&m);
	/* Keep what is left at the front so the queues do not creep. */
	for (size_t p = 0; p < e->nq; p++) {
		struct xt_evq *q = &e->q[p];
		if (q->head) {
			memmove(q->ev, q->ev + q->head, (q->n - q->head) * sizeof(*q->ev));
			q->n -= q->head;
			q->head = 0;
		}
	}
	return n;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

double xt_events_estimate_hz(struct xt_events *e, size_t *nsamples)
{
	*nsamples = e->nhz;
	if (e->nhz < 16)
		return 0;
	qsort(e->hz_samples, e->nhz, sizeof(double), cmp_double);
	/* Rounded to 0.1 MHz: the estimate is not better than that, and every
	 * user of it then converts cycles identically. */
	return (double)(uint64_t)(e->hz_samples[e->nhz / 2] / 1e5 + 0.5) * 1e5;
}

uint64_t xt_cyc_to_ns(uint64_t cyc, double hz)
{
	if (hz <= 0)
		return 0;
	/* Integral Hz (the usual case) converts exactly. */
	if (hz == floor(hz) && hz < 1.8e19) {
		unsigned __int128 n = (unsigned __int128)cyc * 1000000000u + (uint64_t)hz / 2;
		return (uint64_t)(n / (uint64_t)hz);
	}
	return (uint64_t)llroundl((long double)cyc * 1e9L / hz);
}

bool xt_parse_hz(const char *s, double *hz)
{
	char *end;
	if (!s || !*s)
		return false;
	double v = strtod(s, &end);
	if (end == s || !isfinite(v) || v <= 0)
		return false;
	switch (*end) {
	case 0: break;
	case 'G': case 'g': v *= 1e9; end++; break;
	case 'M': case 'm': v *= 1e6; end++; break;
	case 'K': case 'k': v *= 1e3; end++; break;
	default: return false;
	}
	if (*end && strcmp(end, "Hz") && strcmp(end, "hz"))
		return false;
	/* Below 1 MHz is surely a unit mistake (a TSC runs at GHz). */
	if (v < 1e6 || v > 1e11)
		return false;
	*hz = floor(v + 0.5);
	return true;
}
