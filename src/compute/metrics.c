// SPDX-License-Identifier: GPL-2.0-or-later
/* Rates between two samples, computed in one place. A domain's baseline is
 * the same domain in the previous sample: dom_same() with XG_SAME_ROW (same
 * id, handle, generation and name). Anything else (new domain, id reused,
 * rename, counter going backwards) starts a new baseline and shows `-` for
 * one interval instead of a negative or absurd rate. */
#include "xgtop/compute/metrics.h"
#include "metrics_prefetch.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const mwhy_text[XG_WHY_COUNT - XG_WHY_FIRST] = {
	[XG_WHY_FIRST - XG_WHY_FIRST] = "first sample of this domain: a rate needs two samples",
	[XG_WHY_RESET - XG_WHY_FIRST] = "counter reset (domain restarted, id reused or counter wrapped): new baseline",
	[XG_WHY_NOREFS - XG_WHY_FIRST] = "no LLC references in the interval: the ratio is undefined",
	[XG_WHY_NOINSTR - XG_WHY_FIRST] = "no instructions counted in the interval: MPKI is undefined",
	[XG_WHY_NOTIME - XG_WHY_FIRST] = "zero-length interval between samples",
	[XG_WHY_NOTOTAL - XG_WHY_FIRST] = "host memory total unknown",
	[XG_WHY_NOLIMIT - XG_WHY_FIRST] = "no memory limit set",
	[XG_WHY_DOMONLY - XG_WHY_FIRST] = "measured per domain only, not per vCPU",
	[XG_WHY_NOBREAKDOWN - XG_WHY_FIRST] = "breakdown not counted: start xgtop with --nosumcache to count it",
	[XG_WHY_SOCKFIRST - XG_WHY_FIRST] = "first sample of this socket's counter: a rate needs two samples",
	[XG_WHY_SOCKNONE - XG_WHY_FIRST] = "not measured on this socket",
	[XG_WHY_NOPCPU - XG_WHY_FIRST] = "no per-pCPU times in this sample (the source or the recording has none)",
	[XG_WHY_PCPUFIRST - XG_WHY_FIRST] = "first sample of this pCPU's times: a rate needs two samples",
	[XG_WHY_NOWAIT - XG_WHY_FIRST] = "no wait ended in the interval",
	[XG_WHY_SUSP_LEARN - XG_WHY_FIRST] = "learning its CPI baseline: too few windows yet (contention.* in man xgtop)",
	[XG_WHY_SUSP_NOCPI - XG_WHY_FIRST] = "neither cycles nor LLC misses per instruction counted: no CPI to judge",
	[XG_WHY_SUSP_POOL - XG_WHY_FIRST] = "pool view: hosts share no cache, so no neighbours to judge",
	[XG_WHY_SUSP_OFF - XG_WHY_FIRST] = "judged by the full-screen view and xgtop report --contention only",
};

void table_free(struct xg_table *t)
{
	free(t->rows);
	free(t->pcpu);
	memset(t, 0, sizeof(*t));
}

const char *table_why_text(const struct xg_table *t, uint8_t w)
{
	if (w >= XG_WHY_FIRST && w < XG_WHY_COUNT)
		return mwhy_text[w - XG_WHY_FIRST];
	if (w && t->cur && w < t->cur->nreason)
		return t->cur->reason[w];
	return NULL;
}

const char *row_why(const struct xg_table *t, const struct xg_row *r, enum xg_col c)
{
	return row_has(r, c) ? NULL : table_why_text(t, r->why[c]);
}

bool row_col_applies(const struct xg_row *r, enum xg_col c)
{
	if (!r->sock_row)
		return true;
	return c == XG_COL_ID || c == XG_COL_NAME || c == XG_COL_L3_OCC || c == XG_COL_MEM_BW;
}

const char *row_behind_name(const struct xg_row *r, char *buf, size_t n)
{
	if (r->behind_name)
		return r->behind_name;
	if (r->behind_id == XG_BEHIND_IDLE)
		return "idle";
	if (r->behind_id == XG_BEHIND_XEN)
		return "xen";
	snprintf(buf, n, "dom %u", (unsigned)r->behind_id);
	return buf;
}

bool row_label(const struct xg_row *r, char *buf, size_t n)
{
	if (r->sock_row)
		snprintf(buf, n, "  socket %u", (unsigned)r->socket);
	else if (r->vcpu >= 0)
		snprintf(buf, n, "  vCPU %d", (int)r->vcpu);
	else
		return false;
	return true;
}

/* The host's waiting share, summed over the domains as they are filled. */
struct wait_sum {
	double wait_ns, total_ns;
};

/* Everything a row computation needs about one domain's two samples. */
struct pair {
	const struct xg_sample *cs, *ps;
	const struct xg_dom *c, *p;   /* p NULL: no baseline */
	uint8_t nobase;               /* reason when p is NULL */
	double dt_s;
	uint64_t both;                /* fields valid in c and p, and dt_s > 0 */
	struct wait_sum *ws;
};

/* The row functions run 30 times per domain and refresh: inlined, they
 * cost a third less (10,000 domains). */
#if defined(__GNUC__)
#define ROW_FN static inline __attribute__((always_inline))
#else
#define ROW_FN static inline
#endif

#define COL(c) (1ull << (c))

/* A row being filled: values and reasons go into the row, the valid bits
 * into `valid`, which stays in a register. Kept in the row, each bit cost a
 * load and a store, and each store (a 64-bit integer, as the samples'
 * counters are) made the compiler read the counters again. */
struct fill {
	struct xg_row *r;
	uint64_t valid;
};

ROW_FN void set(struct fill *f, enum xg_col c, double v)
{
	f->r->v[c] = v;
	f->valid |= COL(c);
}

ROW_FN void unset(struct fill *f, enum xg_col c, uint8_t why)
{
	f->valid &= ~COL(c);
	f->r->why[c] = why;
}

/* The formulas, shared by the general path and its usual case
 * (fill_usual): the same operations in the same order, so the same
 * figures to the last bit. */
ROW_FN double rate_value(double scale, double delta, double dt_s)
{
	return scale * delta / dt_s;
}

ROW_FN double share_value(double d, double total)
{
	return 100.0 * d / total;
}

ROW_FN double hit_value(double dref, double dmiss)
{
	return 100.0 * (1.0 - dmiss / dref);
}

ROW_FN double mpki_value(double dmiss, double dinstr)
{
	return 1000.0 * dmiss / dinstr;
}

/* The reason a field of the current sample is invalid, as a row reason. */
static uint8_t field_why(const struct pair *pr, enum xg_field f)
{
	uint8_t w = pr->c->why[f] ? pr->c->why[f] : pr->cs->host_why[f];
	return w;
}

/* Why the delta of counter f cannot be had (the slow path of delta). */
static bool no_delta(const struct pair *pr, enum xg_field f, uint8_t *why)
{
	if (!dom_has(pr->c, f)) {
		*why = field_why(pr, f);
		return false;
	}
	if (!pr->p) {
		*why = pr->nobase;
		return false;
	}
	if (!dom_has(pr->p, f)) {
		*why = XG_WHY_FIRST;
		return false;
	}
	if (pr->c->v[f] < pr->p->v[f]) {
		*why = XG_WHY_RESET;
		return false;
	}
	*why = XG_WHY_NOTIME;
	return false;
}

/* Delta of counter f; false (with *why set) when it cannot be had. */
ROW_FN bool delta(const struct pair *pr, enum xg_field f, double *out, uint8_t *why)
{
	if (((pr->both >> f) & 1) && pr->c->v[f] >= pr->p->v[f]) {
		*out = (double)(pr->c->v[f] - pr->p->v[f]);
		return true;
	}
	return no_delta(pr, f, why);
}

ROW_FN void gauge(struct fill *r, const struct pair *pr, enum xg_col c, enum xg_field f)
{
	if (dom_has(pr->c, f))
		set(r, c, (double)pr->c->v[f]);
	else
		unset(r, c, field_why(pr, f));
}

/* 100 * (1 - dmiss/dref), from any two counter deltas. */
ROW_FN void hit_ratio(struct fill *r, enum xg_col c, bool ok, double dref, double dmiss, uint8_t why)
{
	if (!ok)
		unset(r, c, why);
	else if (dref <= 0)
		unset(r, c, XG_WHY_NOREFS);
	else
		set(r, c, hit_value(dref, dmiss));
}

#define SCHED_COLS (COL(XG_COL_RUN) | COL(XG_COL_WAIT) | COL(XG_COL_BLK) | COL(XG_COL_OFF))

/* RUN/WAIT/BLK/OFF of r from the runstates' deltas; returns their valid
 * bits (a domain's and a vCPU's rows share it). */
static uint64_t fill_sched(struct xg_row *row, const double d[XG_RS_COUNT], const bool ok[XG_RS_COUNT],
			   const uint8_t why[XG_RS_COUNT])
{
	static const enum xg_col cols[XG_RS_COUNT] = {
		[XG_RS_RUNNING] = XG_COL_RUN, [XG_RS_RUNNABLE] = XG_COL_WAIT,
		[XG_RS_BLOCKED] = XG_COL_BLK, [XG_RS_OFFLINE] = XG_COL_OFF,
	};
	struct fill f = { row, 0 }, *r = &f;
	double total = 0;
	for (int i = 0; i < XG_RS_COUNT; i++)
		if (ok[i])
			total += d[i];
	for (int i = 0; i < XG_RS_COUNT; i++) {
		if (!ok[i])
			unset(r, cols[i], why[i]);
		else if (total <= 0)
			unset(r, cols[i], XG_WHY_NOTIME);
		else
			set(r, cols[i], share_value(d[i], total));
	}
	/* Running, waiting and blocked are only meaningful together. */
	enum xg_runstate miss = !ok[XG_RS_RUNNING] ? XG_RS_RUNNING :
				!ok[XG_RS_RUNNABLE] ? XG_RS_RUNNABLE : XG_RS_BLOCKED;
	if (!ok[miss])
		for (int i = 0; i < XG_RS_COUNT; i++)
			if (ok[i])
				unset(r, cols[i], why[miss]);
	return f.valid;
}

/* The cache miss rate and hit ratio of one place the events happened;
 * returns their valid bits. */
static uint64_t fill_pmu_where(struct xg_row *row, const struct pair *pr, enum xg_pmu_where w,
			       enum xg_col miss_col, enum xg_col hit_col)
{
	const struct xg_dom *c = pr->c, *p = pr->p;
	struct fill f = { row, 0 }, *r = &f;
	uint8_t why = dom_has(c, XG_F_LLC_MISS) ? XG_WHY_NOBREAKDOWN : field_why(pr, XG_F_LLC_MISS);
	bool have = dom_has_pmu(c, w, XG_PMU_REF) && dom_has_pmu(c, w, XG_PMU_MISS);
	bool ok = have && p && dom_has_pmu(p, w, XG_PMU_REF) && dom_has_pmu(p, w, XG_PMU_MISS) &&
		  pr->dt_s > 0;
	if (have && !ok)
		why = p ? XG_WHY_FIRST : pr->nobase;
	if (ok && (c->pmu[w][XG_PMU_REF] < p->pmu[w][XG_PMU_REF] ||
		   c->pmu[w][XG_PMU_MISS] < p->pmu[w][XG_PMU_MISS])) {
		ok = false;
		why = XG_WHY_RESET;
	}
	double dref = ok ? (double)(c->pmu[w][XG_PMU_REF] - p->pmu[w][XG_PMU_REF]) : 0;
	double dmiss = ok ? (double)(c->pmu[w][XG_PMU_MISS] - p->pmu[w][XG_PMU_MISS]) : 0;
	if (ok)
		set(r, miss_col, dmiss / pr->dt_s);
	else
		unset(r, miss_col, why);
	hit_ratio(r, hit_col, ok, dref, dmiss, why);
	return f.valid;
}

/* RUN/WAIT/BLK/OFF % of a domain, and its part of the host's waiting
 * share: domains whose split is complete (running, waiting and blocked). */
static uint64_t fill_dom_sched(struct xg_row *r, const struct pair *pr)
{
	double sd[XG_RS_COUNT] = { 0 };
	bool sok[XG_RS_COUNT];
	uint8_t swhy[XG_RS_COUNT] = { 0 };
	for (int i = 0; i < XG_RS_COUNT; i++)
		sok[i] = delta(pr, sched_field(i), &sd[i], &swhy[i]);
	uint64_t valid;
	/* The usual case inline: all four measured over some time (summed
	 * in fill_sched's order, so the figures are the same). */
	double total = sd[0] + sd[1] + sd[2] + sd[3];
	if (sok[0] && sok[1] && sok[2] && sok[3] && total > 0) {
		r->v[XG_COL_RUN] = share_value(sd[XG_RS_RUNNING], total);
		r->v[XG_COL_WAIT] = share_value(sd[XG_RS_RUNNABLE], total);
		r->v[XG_COL_BLK] = share_value(sd[XG_RS_BLOCKED], total);
		r->v[XG_COL_OFF] = share_value(sd[XG_RS_OFFLINE], total);
		valid = SCHED_COLS;
	} else {
		valid = fill_sched(r, sd, sok, swhy);
	}
	if (!pr->ws || !sok[XG_RS_RUNNING] || !sok[XG_RS_RUNNABLE] || !sok[XG_RS_BLOCKED])
		return valid;
	pr->ws->wait_ns += sd[XG_RS_RUNNABLE];
	for (int i = 0; i < XG_RS_COUNT; i++)
		pr->ws->total_ns += sok[i] ? sd[i] : 0;
	return valid;
}

/* xentop's letters d s b c p r, '-' where clear: three flags at a time. */
static void state_letters(uint32_t st, char out[8])
{
	static const char lo[8][4] = { "---", "d--", "-s-", "ds-", "--b", "d-b", "-sb", "dsb" };
	static const char hi[8][4] = { "---", "c--", "-p-", "cp-", "--r", "c-r", "-pr", "cpr" };
	memcpy(out, lo[st & 7], 3);
	memcpy(out + 3, hi[(st >> 3) & 7], 4);
}

#define WAITS_COLS (COL(XG_COL_BEHIND) | COL(XG_COL_BEHIND_PCT) | COL(XG_COL_WAIT_P50) | \
		    COL(XG_COL_WAIT_P99))

/* The culprit's domain in the current sample (same host), or NULL. */
static const struct xg_dom *behind_dom(const struct pair *pr, uint32_t id)
{
	const struct xg_sample *s = pr->cs;
	for (size_t lo = 0, hi = s->ndom; lo < hi;) {
		size_t mid = lo + (hi - lo) / 2;
		const struct xg_dom *d = &s->dom[mid];
		if (d->host == pr->c->host && d->id == id)
			return d;
		if (d->host < pr->c->host || (d->host == pr->c->host && d->id < id))
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* BEHIND, BEHIND%, WAIT-P50, WAIT-P99: gauges of the source's interval. */
static void fill_waits(struct fill *r, const struct pair *pr, uint64_t cols)
{
	const struct xg_dom *c = pr->c;
	if (cols & (COL(XG_COL_BEHIND) | COL(XG_COL_BEHIND_PCT))) {
		static const enum xg_field need[] = { XG_F_BEHIND_WAIT_NS, XG_F_BEHIND_NS, XG_F_BEHIND_ID };
		uint8_t why = 0;
		bool ok = true;
		for (size_t i = 0; i < XG_ARRAY_LEN(need) && ok; i++)
			if (!dom_has(c, need[i])) {
				why = field_why(pr, need[i]);
				ok = false;
			}
		if (ok && !c->v[XG_F_BEHIND_WAIT_NS]) {
			why = XG_WHY_NOWAIT;
			ok = false;
		}
		if (!ok) {
			unset(r, XG_COL_BEHIND, why);
			unset(r, XG_COL_BEHIND_PCT, why);
		} else {
			double pct = share_value((double)c->v[XG_F_BEHIND_NS], (double)c->v[XG_F_BEHIND_WAIT_NS]);
			uint32_t id = (uint32_t)c->v[XG_F_BEHIND_ID];
			const struct xg_dom *b = id == XG_BEHIND_IDLE || id == XG_BEHIND_XEN ? NULL : behind_dom(pr, id);
			r->r->behind_id = id;
			r->r->behind_name = b ? b->name : NULL;
			/* on Linux nothing of a hypervisor runs: the culprit no
			 * domain holds is the host (its kernel, a process gone) */
			if (id == XG_BEHIND_XEN && !strcmp(sample_dom_host(pr->cs, c)->source, "linux"))
				r->r->behind_name = "host";
			set(r, XG_COL_BEHIND, pct);
			set(r, XG_COL_BEHIND_PCT, pct);
		}
	}
	static const struct { enum xg_col c; enum xg_field f; } lat[] = {
		{ XG_COL_WAIT_P50, XG_F_WAIT_P50_NS }, { XG_COL_WAIT_P99, XG_F_WAIT_P99_NS },
	};
	for (size_t i = 0; i < XG_ARRAY_LEN(lat); i++) {
		if (!(cols & COL(lat[i].c)))
			continue;
		if (dom_has(c, lat[i].f))
			set(r, lat[i].c, (double)c->v[lat[i].f] / 1e6);
		else
			unset(r, lat[i].c, field_why(pr, lat[i].f));
	}
}

/* CPU(s), VCPU, MEM, MEM%, MAXMEM, L3-OCC, SWAP, and the waits' gauges:
 * the sample's own values. */
ROW_FN void fill_gauges(struct fill *r, const struct pair *pr, uint64_t cols)
{
	const struct xg_dom *c = pr->c;
	if (cols & COL(XG_COL_CPU_S)) {
		if (dom_has(c, XG_F_CPU_NS)) {
			uint32_t k = c->host < pr->cs->npeer ? pr->cs->peer[c->host].counter_scale : 0;
			set(r, XG_COL_CPU_S, (double)c->v[XG_F_CPU_NS] / 1e9 / (k ? k : 1));
		}
		else
			unset(r, XG_COL_CPU_S, field_why(pr, XG_F_CPU_NS));
	}
	if (cols & COL(XG_COL_VCPU))
		gauge(r, pr, XG_COL_VCPU, XG_F_VCPUS);
	if (cols & COL(XG_COL_MEM))
		gauge(r, pr, XG_COL_MEM, XG_F_MEM);
	if (cols & COL(XG_COL_MEM_PCT)) {
		const struct xg_host *h = sample_dom_host(pr->cs, c);
		if (!dom_has(c, XG_F_MEM))
			unset(r, XG_COL_MEM_PCT, field_why(pr, XG_F_MEM));
		else if (!host_has(h, XG_H_MEM) || !h->mem_total)
			unset(r, XG_COL_MEM_PCT, XG_WHY_NOTOTAL);
		else
			set(r, XG_COL_MEM_PCT, 100.0 * (double)c->v[XG_F_MEM] / (double)h->mem_total);
	}
	if (cols & COL(XG_COL_MAXMEM)) {
		if (dom_has(c, XG_F_MAXMEM) && c->v[XG_F_MAXMEM] == UINT64_MAX)
			unset(r, XG_COL_MAXMEM, XG_WHY_NOLIMIT);
		else
			gauge(r, pr, XG_COL_MAXMEM, XG_F_MAXMEM);
	}
	if (cols & COL(XG_COL_L3_OCC))
		gauge(r, pr, XG_COL_L3_OCC, XG_F_L3_OCC);
	if (cols & COL(XG_COL_SWAP))
		gauge(r, pr, XG_COL_SWAP, XG_F_SWAP);
	if (cols & WAITS_COLS)
		fill_waits(r, pr, cols);
}

/* What the rates read, in locals: the reasons, stored as bytes, could
 * otherwise alias all of it, and each store made the compiler read the
 * pair again. */
struct rates {
	const uint64_t *cv, *pv;
	uint64_t both;
	double dt;
};

ROW_FN void rate_of(struct fill *r, const struct rates *x, const struct pair *pr, uint64_t cols,
		    enum xg_col c, enum xg_field f, double scale)
{
	if (!(cols & COL(c)))
		return;
	uint64_t a = x->cv[f], b = x->pv[f];
	uint8_t why;
	if (((x->both >> f) & 1) && a >= b)
		set(r, c, rate_value(scale, (double)(a - b), x->dt));
	else if (!no_delta(pr, f, &why))
		unset(r, c, why);
}

/* The columns that are one counter's rate (scale * delta / dt). */
ROW_FN void fill_rates(struct fill *r, const struct pair *pr, uint64_t cols)
{
	const struct rates x = { pr->c->v, pr->p ? pr->p->v : pr->c->v, pr->both, pr->dt_s };
	rate_of(r, &x, pr, cols, XG_COL_CPU_PCT, XG_F_CPU_NS, 100.0 / 1e9);
	rate_of(r, &x, pr, cols, XG_COL_NET_RX, XG_F_NET_RX_BYTES, 1.0);
	rate_of(r, &x, pr, cols, XG_COL_NET_TX, XG_F_NET_TX_BYTES, 1.0);
	rate_of(r, &x, pr, cols, XG_COL_NET_RXP, XG_F_NET_RX_PKTS, 1.0);
	rate_of(r, &x, pr, cols, XG_COL_NET_TXP, XG_F_NET_TX_PKTS, 1.0);
	rate_of(r, &x, pr, cols, XG_COL_DISK_RD, XG_F_DISK_RD_OPS, 1.0);
	rate_of(r, &x, pr, cols, XG_COL_DISK_WR, XG_F_DISK_WR_OPS, 1.0);
	rate_of(r, &x, pr, cols, XG_COL_DISK_RDB, XG_F_DISK_RD_BYTES, 1.0);
	rate_of(r, &x, pr, cols, XG_COL_DISK_WRB, XG_F_DISK_WR_BYTES, 1.0);
	rate_of(r, &x, pr, cols, XG_COL_LLC_REF, XG_F_LLC_REF, 1.0);
	rate_of(r, &x, pr, cols, XG_COL_LLC_MISS, XG_F_LLC_MISS, 1.0);
	rate_of(r, &x, pr, cols, XG_COL_MEM_BW, XG_F_MBM_TOTAL, 1.0);
	rate_of(r, &x, pr, cols, XG_COL_EMU, XG_F_EMU_NS, 100.0 / 1e9);
	rate_of(r, &x, pr, cols, XG_COL_EXITS, XG_F_VM_EXITS, 1.0);
	rate_of(r, &x, pr, cols, XG_COL_POLL, XG_F_HALT_POLL_NS, 100.0 / 1e9);
	rate_of(r, &x, pr, cols, XG_COL_CPU_PSI, XG_F_PSI_CPU_SOME, 100.0 / 1e9);
	rate_of(r, &x, pr, cols, XG_COL_MEM_PSI, XG_F_PSI_MEM_SOME, 100.0 / 1e9);
	rate_of(r, &x, pr, cols, XG_COL_IO_PSI, XG_F_PSI_IO_SOME, 100.0 / 1e9);
	rate_of(r, &x, pr, cols, XG_COL_CPU_PSI_FULL, XG_F_PSI_CPU_FULL, 100.0 / 1e9);
	rate_of(r, &x, pr, cols, XG_COL_MEM_PSI_FULL, XG_F_PSI_MEM_FULL, 100.0 / 1e9);
	rate_of(r, &x, pr, cols, XG_COL_IO_PSI_FULL, XG_F_PSI_IO_FULL, 100.0 / 1e9);
}

/* HIT% and MPKI from the summed LLC counters. */
ROW_FN void fill_cache(struct fill *r, const struct pair *pr, uint64_t cols)
{
	double d = 0, dref = 0, dmiss = 0;
	uint8_t why = 0;
	bool ok = delta(pr, XG_F_LLC_REF, &dref, &why);
	ok = ok && delta(pr, XG_F_LLC_MISS, &dmiss, &why);
	if (cols & COL(XG_COL_HIT))
		hit_ratio(r, XG_COL_HIT, ok, dref, dmiss, why);
	if (!(cols & COL(XG_COL_MPKI)))
		return;
	if (!ok)
		unset(r, XG_COL_MPKI, why);
	else if (!delta(pr, XG_F_INSTR, &d, &why))
		unset(r, XG_COL_MPKI, why);
	else if (d <= 0)
		unset(r, XG_COL_MPKI, XG_WHY_NOINSTR);
	else
		set(r, XG_COL_MPKI, mpki_value(dmiss, d));
}

/* The columns a domain row computes from its samples (not HOST, NAME and
 * STATE, which it points at or copies, nor TREND, a drawing). */
#define DOM_COLS ((COL(XG_COL_COUNT) - 1) & ~(COL(XG_COL_HOST) | COL(XG_COL_NAME) | \
					    COL(XG_COL_STATE) | COL(XG_COL_TREND) | COL(XG_COL_VICTIM)))
/* The ones the summary adds up: computed whatever a table defers. */
#define SUM_COLS (COL(XG_COL_ID) | COL(XG_COL_CPU_PCT) | SCHED_COLS)
#define CACHE_COLS (COL(XG_COL_HIT) | COL(XG_COL_MPKI))
#define PMU_COLS(miss, hit) (COL(miss) | COL(hit))
#define BD_COLS (PMU_COLS(XG_COL_MISS_GU, XG_COL_HIT_GU) | PMU_COLS(XG_COL_MISS_GK, XG_COL_HIT_GK) | \
		 PMU_COLS(XG_COL_MISS_H, XG_COL_HIT_H))

#define F(f) (1ull << (f))
/* The counters the history's columns read (with CPU% and the runstates,
 * which the summary reads): the rates first, each with its column and
 * scale, then those that give shares and ratios. Their usual case has a
 * path of its own. */
enum { USUAL_RATES = 12 };
static const struct {
	enum xg_field f;
	enum xg_col c;
	double scale;
} usual[] = {
	{ XG_F_CPU_NS, XG_COL_CPU_PCT, 100.0 / 1e9 },
	{ XG_F_NET_RX_BYTES, XG_COL_NET_RX, 1.0 }, { XG_F_NET_TX_BYTES, XG_COL_NET_TX, 1.0 },
	{ XG_F_NET_RX_PKTS, XG_COL_NET_RXP, 1.0 }, { XG_F_NET_TX_PKTS, XG_COL_NET_TXP, 1.0 },
	{ XG_F_DISK_RD_OPS, XG_COL_DISK_RD, 1.0 }, { XG_F_DISK_WR_OPS, XG_COL_DISK_WR, 1.0 },
	{ XG_F_DISK_RD_BYTES, XG_COL_DISK_RDB, 1.0 }, { XG_F_DISK_WR_BYTES, XG_COL_DISK_WRB, 1.0 },
	{ XG_F_LLC_REF, XG_COL_LLC_REF, 1.0 }, { XG_F_LLC_MISS, XG_COL_LLC_MISS, 1.0 },
	{ XG_F_MBM_TOTAL, XG_COL_MEM_BW, 1.0 },
	/* from here on no rate: d[] is indexed by these positions */
	{ XG_F_RUN_NS, XG_COL_RUN, 0 }, { XG_F_WAIT_NS, XG_COL_WAIT, 0 }, { XG_F_BLK_NS, XG_COL_BLK, 0 },
	{ XG_F_OFF_NS, XG_COL_OFF, 0 }, { XG_F_INSTR, XG_COL_MPKI, 0 },
};
enum { U_REF = 9, U_MISS = 10, U_RUN = USUAL_RATES, U_INSTR = USUAL_RATES + XG_RS_COUNT, U_N };
_Static_assert(XG_ARRAY_LEN(usual) == U_N, "usual[] and its positions agree");
#define USUAL_FIELDS (F(XG_F_CPU_NS) | F(XG_F_MEM) | F(XG_F_NET_RX_BYTES) | F(XG_F_NET_TX_BYTES) | \
		      F(XG_F_NET_RX_PKTS) | F(XG_F_NET_TX_PKTS) | F(XG_F_DISK_RD_OPS) | F(XG_F_DISK_WR_OPS) | \
		      F(XG_F_DISK_RD_BYTES) | F(XG_F_DISK_WR_BYTES) | F(XG_F_RUN_NS) | F(XG_F_WAIT_NS) | \
		      F(XG_F_BLK_NS) | F(XG_F_OFF_NS) | F(XG_F_LLC_REF) | F(XG_F_LLC_MISS) | F(XG_F_INSTR) | \
		      F(XG_F_L3_OCC) | F(XG_F_MBM_TOTAL))
#define USUAL_COLS (COL(XG_COL_CPU_PCT) | COL(XG_COL_MEM) | COL(XG_COL_NET_RX) | COL(XG_COL_NET_TX) | \
		    COL(XG_COL_NET_RXP) | COL(XG_COL_NET_TXP) | COL(XG_COL_DISK_RD) | COL(XG_COL_DISK_WR) | \
		    COL(XG_COL_DISK_RDB) | COL(XG_COL_DISK_WRB) | SCHED_COLS | COL(XG_COL_LLC_REF) | \
		    COL(XG_COL_LLC_MISS) | CACHE_COLS | COL(XG_COL_L3_OCC) | COL(XG_COL_MEM_BW))

/* The usual case of those columns, which the full-screen view computes for
 * every domain: every field they read measured in both samples, no counter
 * gone backwards, some vCPU time, references and instructions in the
 * interval. Then none has a reason to give, and one pass computes them
 * with the general path's formulas. False (nothing written) otherwise. */
static bool fill_usual(struct fill *r, const struct pair *pr)
{
	if ((pr->both & USUAL_FIELDS) != USUAL_FIELDS)
		return false;
	const uint64_t *c = pr->c->v, *p = pr->p->v;
	double d[U_N];
	uint64_t any = 0;
	/* One pass, unrolled. A counter that went backwards leaves a
	 * difference of 2^63 or more: the top bit of any then sends the
	 * domain to the general path (which also takes the impossible rise by
	 * 2^63 in one interval). Below it the signed conversion gives the
	 * unsigned one's value, without its test. */
#if defined(__GNUC__)
#pragma GCC unroll 17
#endif
	for (int k = 0; k < U_N; k++) {
		uint64_t x = c[usual[k].f] - p[usual[k].f];
		any |= x;
		d[k] = (double)(int64_t)x;
	}
	const double *sd = d + U_RUN;
	double total = sd[0] + sd[1] + sd[2] + sd[3];
	if ((any >> 63) || !(total > 0) || !(d[U_REF] > 0) || !(d[U_INSTR] > 0))
		return false;
	double *v = r->r->v, dt = pr->dt_s;
#if defined(__GNUC__)
#pragma GCC unroll 12
#endif
	for (int k = 0; k < USUAL_RATES; k++)
		v[usual[k].c] = rate_value(usual[k].scale, d[k], dt);
	for (int i = 0; i < XG_RS_COUNT; i++)
		v[XG_COL_RUN + i] = share_value(sd[i], total);
	v[XG_COL_HIT] = hit_value(d[U_REF], d[U_MISS]);
	v[XG_COL_MPKI] = mpki_value(d[U_MISS], d[U_INSTR]);
	v[XG_COL_MEM] = (double)c[XG_F_MEM];
	v[XG_COL_L3_OCC] = (double)c[XG_F_L3_OCC];
	r->valid |= USUAL_COLS;
	if (pr->ws) {   /* as fill_dom_sched adds them */
		pr->ws->wait_ns += sd[XG_RS_RUNNABLE];
		for (int i = 0; i < XG_RS_COUNT; i++)
			pr->ws->total_ns += sd[i];
	}
	return true;
}

/* Computes the columns of cols (and the others computed with them) into
 * the row; returns which it computed. */
static uint64_t fill_dom_row(struct fill *r, const struct pair *pr, uint64_t cols)
{
	static const struct {
		enum xg_pmu_where w;
		enum xg_col miss, hit;
	} bd[] = {
		{ XG_PMU_GUEST_USER, XG_COL_MISS_GU, XG_COL_HIT_GU },
		{ XG_PMU_GUEST_KERNEL, XG_COL_MISS_GK, XG_COL_HIT_GK },
		{ XG_PMU_HOST, XG_COL_MISS_H, XG_COL_HIT_H },
	};
	cols &= DOM_COLS;
	uint64_t rest = cols;
	if ((cols & USUAL_COLS) == USUAL_COLS && fill_usual(r, pr))
		rest &= ~USUAL_COLS;
	if (rest & COL(XG_COL_ID))
		set(r, XG_COL_ID, pr->c->id);
	if (!(rest & ~COL(XG_COL_ID)))
		return cols;   /* the usual case covered the rest */
	fill_rates(r, pr, rest);
	fill_gauges(r, pr, rest);
	if (rest & SCHED_COLS) {
		cols |= SCHED_COLS;
		r->valid = (r->valid & ~SCHED_COLS) | fill_dom_sched(r->r, pr);
	}
	if (rest & CACHE_COLS)
		fill_cache(r, pr, rest);
	for (size_t i = 0; i < XG_ARRAY_LEN(bd) && (rest & BD_COLS); i++) {
		uint64_t m = PMU_COLS(bd[i].miss, bd[i].hit);
		if (!(rest & m))
			continue;
		cols |= m;
		r->valid = (r->valid & ~m) | fill_pmu_where(r->r, pr, bd[i].w, bd[i].miss, bd[i].hit);
	}
	return cols;
}

static const struct xg_vcpu *find_vcpu(const struct xg_sample *s, const struct xg_dom *d, uint32_t id)
{
	const struct xg_vcpu *v = sample_vcpus(s, d);
	/* vCPU ids are usually dense and in order: try the slot first. */
	if (id < d->vcpu_count && v[id].id == id)
		return &v[id];
	for (uint32_t i = 0; i < d->vcpu_count; i++)
		if (v[i].id == id)
			return &v[i];
	return NULL;
}

static void fill_vcpu_row(struct xg_row *row, const struct pair *pr, const struct xg_vcpu *vc)
{
	const struct xg_vcpu *vp = pr->p ? find_vcpu(pr->ps, pr->p, vc->id) : NULL;
	struct fill f = { row, 0 }, *r = &f;
	for (int c = 0; c < XG_COL_COUNT; c++)
		row->why[c] = XG_WHY_DOMONLY;
	set(r, XG_COL_ID, pr->c->id);
	snprintf(row->state, sizeof(row->state), "%s", vc->online ? "online" : "off");
	uint8_t nob = pr->p ? XG_WHY_FIRST : pr->nobase;
	if (vcpu_has_cpu(vc)) {
		/* A source's scaled counters (the Prometheus source's), as the domain's. */
		uint32_t k = pr->c->host < pr->cs->npeer ? pr->cs->peer[pr->c->host].counter_scale : 0;
		set(r, XG_COL_CPU_S, (double)vc->cpu_ns / 1e9 / (k ? k : 1));
		if (vp && vcpu_has_cpu(vp) && vc->cpu_ns >= vp->cpu_ns && pr->dt_s > 0)
			set(r, XG_COL_CPU_PCT, 100.0 * (double)(vc->cpu_ns - vp->cpu_ns) / 1e9 / pr->dt_s);
		else
			unset(r, XG_COL_CPU_PCT, vp && vc->cpu_ns < vp->cpu_ns ? XG_WHY_RESET : nob);
	}
	double sd[XG_RS_COUNT] = { 0 };
	bool sok[XG_RS_COUNT];
	uint8_t swhy[XG_RS_COUNT];
	for (int i = 0; i < XG_RS_COUNT; i++) {
		sok[i] = false;
		swhy[i] = field_why(pr, sched_field(i));
		if (!vcpu_has_sched(vc, i))
			continue;
		if (!vp || !vcpu_has_sched(vp, i)) {
			swhy[i] = nob;
		} else if (vc->sched_ns[i] < vp->sched_ns[i]) {
			swhy[i] = XG_WHY_RESET;
		} else {
			sd[i] = (double)(vc->sched_ns[i] - vp->sched_ns[i]);
			sok[i] = true;
		}
	}
	row->valid = (f.valid & ~SCHED_COLS) | fill_sched(row, sd, sok, swhy);
}

static const struct xg_sock *find_sock(const struct xg_sample *s, const struct xg_dom *d, uint32_t socket)
{
	const struct xg_sock *k = sample_socks(s, d);
	if (socket < d->sock_count && k[socket].socket == socket)
		return &k[socket];
	for (uint32_t i = 0; i < d->sock_count; i++)
		if (k[i].socket == socket)
			return &k[i];
	return NULL;
}

/* Why a socket's value of event e is not there: the domain's reason for
 * the summed field when it has one (the source invalidates the sum with
 * every socket), else this socket alone was not measured. */
static uint8_t sock_why(const struct pair *pr, enum xg_field f)
{
	uint8_t w = dom_has(pr->c, f) ? 0 : field_why(pr, f);
	return w ? w : XG_WHY_SOCKNONE;
}

/* L3-OCC and MEM-BW of one socket; the baseline is the same socket of the
 * domain's baseline, so a socket entry that is new or came back starts
 * one, and a counter that went backwards starts another. */
static void fill_sock_row(struct xg_row *row, const struct pair *pr, const struct xg_sock *kc)
{
	const struct xg_sock *kp = pr->p ? find_sock(pr->ps, pr->p, kc->socket) : NULL;
	struct fill f = { row, 0 }, *r = &f;
	memset(row->why, 0, sizeof(row->why));
	row->state[0] = 0;
	set(r, XG_COL_ID, pr->c->id);
	if (sock_has(kc, XG_SOCK_L3_OCC))
		set(r, XG_COL_L3_OCC, (double)kc->v[XG_SOCK_L3_OCC]);
	else
		unset(r, XG_COL_L3_OCC, sock_why(pr, XG_F_L3_OCC));
	if (!sock_has(kc, XG_SOCK_MBM_TOTAL))
		unset(r, XG_COL_MEM_BW, sock_why(pr, XG_F_MBM_TOTAL));
	else if (!pr->p)
		unset(r, XG_COL_MEM_BW, pr->nobase);
	else if (!kp || !sock_has(kp, XG_SOCK_MBM_TOTAL))
		unset(r, XG_COL_MEM_BW, XG_WHY_SOCKFIRST);
	else if (kc->v[XG_SOCK_MBM_TOTAL] < kp->v[XG_SOCK_MBM_TOTAL])
		unset(r, XG_COL_MEM_BW, XG_WHY_RESET);
	else if (pr->dt_s <= 0)
		unset(r, XG_COL_MEM_BW, XG_WHY_NOTIME);
	else
		set(r, XG_COL_MEM_BW, (double)(kc->v[XG_SOCK_MBM_TOTAL] - kp->v[XG_SOCK_MBM_TOTAL]) / pr->dt_s);
	row->valid = f.valid;
}

/* Same domain as in the previous sample? Otherwise the reason why not.
 * Both samples are sorted by (host, id), so *cursor walks prev once per refresh
 * instead of a search per domain. */
static const struct xg_dom *baseline(const struct xg_sample *prev, size_t *cursor,
				     const struct xg_dom *c, uint8_t *why)
{
	const struct xg_dom *p = NULL;
	if (prev) {
		while (*cursor < prev->ndom && dom_order(&prev->dom[*cursor], c) < 0)
			(*cursor)++;
		if (*cursor < prev->ndom && !dom_order(&prev->dom[*cursor], c))
			p = &prev->dom[*cursor];
	}
	if (!p) {
		*why = XG_WHY_FIRST;
		return NULL;
	}
	if (!dom_same_dom(p, c, XG_SAME_ROW)) {
		*why = XG_WHY_RESET;
		return NULL;
	}
	return p;
}

/* A pool host's domains: the interval is that host's, between the samples
 * its two answers came from; a host that did not answer this time has no
 * rates, for the reason it gives. */
static void pool_pair(struct pair *pr)
{
	const struct xg_peer *pc = &pr->cs->peer[pr->c->host];
	const struct xg_host *hp = pr->ps && pr->c->host < pr->ps->npeer ? &pr->ps->peer[pr->c->host].host : NULL;
	if (pc->stale) {
		pr->p = NULL;
		pr->nobase = pc->why;
		return;
	}
	pr->dt_s = hp && pc->host.mono_ns > hp->mono_ns ? (double)(pc->host.mono_ns - hp->mono_ns) / 1e9 : 0;
}

static void count_state(struct xg_summary *s, uint32_t st)
{
	/* xentop's priority when a domain has several flags. */
	if (st & XG_ST_RUNNING) s->nrunning++;
	else if (st & XG_ST_BLOCKED) s->nblocked++;
	else if (st & XG_ST_PAUSED) s->npaused++;
	else if (st & XG_ST_SHUTDOWN) s->nshutdown++;
	else if (st & XG_ST_CRASHED) s->ncrashed++;
	else if (st & XG_ST_DYING) s->ndying++;
}

/* The source's own totals over every domain, where it gave them (it did
 * not send every domain's figures). */
static void use_totals(struct xg_summary *s, const struct xg_totals *t)
{
	if (t->cpu)
		s->cpu_pct_total = t->cpu_pct;
	if (t->wait)
		s->wait_pct = t->wait_pct;
	if (t->states) {
		s->nrunning = t->nstate[0];
		s->nblocked = t->nstate[1];
		s->npaused = t->nstate[2];
		s->nshutdown = t->nstate[3];
		s->ncrashed = t->nstate[4];
		s->ndying = t->nstate[5];
	}
}

static struct xg_row *sub_row(struct xg_table *out, const struct pair *pr, size_t dom_index)
{
	struct xg_row *r = &out->rows[out->n++];
	r->id = pr->c->id;
	r->vcpu = -1;
	r->sock_row = 0;
	r->socket = 0;
	r->dom_index = (uint32_t)dom_index;
	r->base_index = XG_NO_BASE;
	r->nobase = 0;
	r->todo = 0;
	r->name = pr->c->name;
	r->host = out->rows[dom_index].host;
	r->host_stale = out->rows[dom_index].host_stale;
	r->child_first = r->child_count = 0;
	r->guest_reported = 0;
	out->rows[dom_index].child_count++;
	return r;
}

/* The entry for pCPU id in s: the one at index i when the ids line up (the
 * usual case: both samples list the same pCPUs in order), else a search. */
static const struct xg_pcpu *find_pcpu(const struct xg_sample *s, size_t i, uint32_t id)
{
	if (!s)
		return NULL;
	if (i < s->npcpu && s->pcpu[i].id == id)
		return &s->pcpu[i];
	for (size_t k = 0; k < s->npcpu; k++)
		if (s->pcpu[k].id == id)
			return &s->pcpu[k];
	return NULL;
}

/* A pCPU's busy share between p (NULL: none) and c. With both times it is
 * delta(busy) / (delta(busy) + delta(idle)), which needs no clock of ours
 * (Linux counts in ticks, at instants of its own); with one of them, the
 * other is what the interval dt_s leaves. */
static void pcpu_load(struct xg_pcpu_load *o, const struct xg_pcpu *c, const struct xg_pcpu *p,
		      double dt_s, uint8_t why_none)
{
	double d[XG_PC_COUNT] = { 0, 0 };
	bool ok[XG_PC_COUNT], reset = false;
	o->id = c->id;
	o->valid = false;
	o->busy_pct = 0;
	for (int t = 0; t < XG_PC_COUNT; t++) {
		ok[t] = pcpu_has(c, t) && p && pcpu_has(p, t);
		if (ok[t] && c->ns[t] < p->ns[t])
			reset = true;
		else if (ok[t])
			d[t] = (double)(c->ns[t] - p->ns[t]);
	}
	if (!c->valid)
		o->why = why_none;
	else if (reset)
		o->why = XG_WHY_RESET;
	else if (!ok[XG_PC_BUSY] && !ok[XG_PC_IDLE])
		o->why = XG_WHY_PCPUFIRST;
	if (!c->valid || reset || (!ok[XG_PC_BUSY] && !ok[XG_PC_IDLE]))
		return;
	double total = ok[XG_PC_BUSY] && ok[XG_PC_IDLE] ? d[XG_PC_BUSY] + d[XG_PC_IDLE] : dt_s * 1e9;
	if (total <= 0) {
		o->why = XG_WHY_NOTIME;
		return;
	}
	double busy = 100.0 * (ok[XG_PC_BUSY] ? d[XG_PC_BUSY] : total - d[XG_PC_IDLE]) / total;
	o->busy_pct = busy < 0 ? 0 : busy > 100 ? 100 : busy;
	o->valid = true;
}

static void metrics_pcpus(const struct xg_sample *prev, const struct xg_sample *cur, double dt_s,
			  struct xg_table *out)
{
	uint8_t why_none = cur->pcpu_why ? cur->pcpu_why : XG_WHY_NOPCPU;
	xg_grow(&out->pcpu, &out->pcpu_cap, cur->npcpu ? cur->npcpu : 1, sizeof(*out->pcpu));
	out->npcpu = cur->npcpu;
	out->pcpu_why = cur->npcpu ? 0 : why_none;
	for (size_t i = 0; i < cur->npcpu; i++) {
		const struct xg_pcpu *c = &cur->pcpu[i];
		pcpu_load(&out->pcpu[i], c, find_pcpu(prev, i, c->id), dt_s, why_none);
	}
}

/* The pair domain row r of t was computed from, again: its sample, its
 * baseline (none when it had none) and the interval. */
static struct pair row_pair(const struct xg_table *t, const struct xg_row *r)
{
	const struct xg_sample *cur = t->cur, *prev = t->prev;
	struct pair pr = { .cs = cur, .ps = prev, .c = &cur->dom[r->dom_index], .dt_s = t->sum.interval_s,
			   .nobase = r->nobase };
	pr.p = r->base_index == XG_NO_BASE ? NULL : &prev->dom[r->base_index];
	if (pr.c->host < cur->npeer)
		pool_pair(&pr);
	pr.both = pr.p && pr.dt_s > 0 ? pr.c->valid & pr.p->valid : 0;
	return pr;
}

/* Domain row i of out: who it is, its baseline, and the columns the table
 * does not defer (those the summary adds up always). */
static void dom_row(struct xg_table *out, size_t i, size_t *cursor, double dt, struct wait_sum *ws)
{
	const struct xg_sample *cur = out->cur, *prev = out->prev;
	struct xg_row *r = &out->rows[i];
	struct pair pr = { .cs = cur, .ps = prev, .c = &cur->dom[i], .dt_s = dt, .ws = ws };
	pr.p = baseline(prev, cursor, pr.c, &pr.nobase);
	if (pr.c->host < cur->npeer)
		pool_pair(&pr);
	pr.both = pr.p && pr.dt_s > 0 ? pr.c->valid & pr.p->valid : 0;
	r->base_index = pr.p ? (uint32_t)(pr.p - prev->dom) : XG_NO_BASE;
	r->nobase = pr.nobase;
	r->id = pr.c->id;
	r->host = pr.c->host < cur->npeer ? cur->peer[pr.c->host].name : NULL;
	r->host_stale = r->host && cur->peer[pr.c->host].stale;
	r->vcpu = -1;
	r->sock_row = 0;
	r->socket = 0;
	r->dom_index = (uint32_t)i;
	r->name = pr.c->name;
	r->guest_reported = pr.c->guest_reported;
	r->victim = 0;   /* until compute/suspects.c judges it */
	r->victim_of = 0;
	r->why[XG_COL_VICTIM] = out->rows_victim_why;
	state_letters(pr.c->state, r->state);
	struct fill f = { r, 0 };
	r->todo = DOM_COLS & ~fill_dom_row(&f, &pr, DOM_COLS & (~out->defer | SUM_COLS));
	r->valid = f.valid;
	r->child_first = (uint32_t)out->n;
	r->child_count = 0;
}

void metrics_compute_rows(const struct xg_sample *prev, const struct xg_sample *cur, unsigned rows,
			  struct xg_table *out)
{
	double dt = prev && cur->host.mono_ns > prev->host.mono_ns
			    ? (double)(cur->host.mono_ns - prev->host.mono_ns) / 1e9 : 0;
	size_t need = cur->ndom + (rows & XG_ROWS_VCPUS ? cur->nvcpu : 0) +
		      (rows & XG_ROWS_SOCKETS ? cur->nsock : 0);
	xg_grow(&out->rows, &out->cap, need, sizeof(*out->rows));
	out->cur = cur;
	out->prev = prev;
	out->n = cur->ndom;
	out->ndom_rows = cur->ndom;
	out->row_kinds = rows & (XG_ROWS_VCPUS | XG_ROWS_SOCKETS);
	memset(&out->sum, 0, sizeof(out->sum));
	out->sum.interval_s = dt;
	out->sum.self_cpu_ms = -1;
	out->sum.ndom = (unsigned)cur->ndom;

	size_t cursor = 0;
	struct wait_sum ws = { 0, 0 };
	uint64_t any = 0;
	out->rows_victim_why = out->victim_why ? out->victim_why : XG_WHY_SUSP_OFF;
	for (size_t i = 0; i < cur->ndom; i++) {
		if (i + PREFETCH_AHEAD < cur->ndom) {
			prefetch_dom(&cur->dom[i + PREFETCH_AHEAD]);
			if (prev && cursor + PREFETCH_AHEAD < prev->ndom)
				prefetch_dom(&prev->dom[cursor + PREFETCH_AHEAD]);
		}
		/* Domain rows stay at 0..ndom-1; sub-rows go after them. */
		dom_row(out, i, &cursor, dt, &ws);
		const struct xg_row *r = &out->rows[i];
		const struct xg_dom *c = &cur->dom[i];
		any |= c->valid;
		if (row_has(r, XG_COL_CPU_PCT))
			out->sum.cpu_pct_total += r->v[XG_COL_CPU_PCT];
		count_state(&out->sum, c->state);
		if (!(rows & (XG_ROWS_SOCKETS | XG_ROWS_VCPUS)))
			continue;
		struct pair pr = row_pair(out, r);
		if (rows & XG_ROWS_SOCKETS) {
			const struct xg_sock *kc = sample_socks(cur, c);
			for (uint32_t k = 0; k < c->sock_count; k++) {
				struct xg_row *sr = sub_row(out, &pr, i);
				sr->sock_row = 1;
				sr->socket = kc[k].socket;
				fill_sock_row(sr, &pr, &kc[k]);
			}
		}
		if (rows & XG_ROWS_VCPUS) {
			const struct xg_vcpu *vc = sample_vcpus(cur, c);
			for (uint32_t k = 0; k < c->vcpu_count; k++) {
				struct xg_row *vr = sub_row(out, &pr, i);
				vr->vcpu = (int32_t)vc[k].id;
				fill_vcpu_row(vr, &pr, &vc[k]);
			}
		}
	}
	out->dom_valid = any;
	out->sum.wait_pct = ws.total_ns > 0 ? 100.0 * ws.wait_ns / ws.total_ns : -1;
	use_totals(&out->sum, &cur->totals);
	metrics_pcpus(prev, cur, dt, out);
}

/* Computes the deferred columns of cols in domain row i. */
static void fill_later(struct xg_table *t, size_t i, uint64_t cols)
{
	struct xg_row *r = &t->rows[i];
	if (!(r->todo & cols))
		return;
	struct pair pr = row_pair(t, r);
	struct fill f = { r, r->valid };
	r->todo &= ~fill_dom_row(&f, &pr, r->todo & cols);
	r->valid = f.valid;
}

void table_fill_row(struct xg_table *t, size_t i)
{
	if (i < t->ndom_rows)
		fill_later(t, i, DOM_COLS);
}

void table_fill_cols(struct xg_table *t, uint64_t cols)
{
	for (size_t i = 0; i < t->ndom_rows; i++)
		fill_later(t, i, cols);
}

void table_fill(struct xg_table *t)
{
	table_fill_cols(t, DOM_COLS);
}
