// SPDX-License-Identifier: GPL-2.0-or-later
/* Cache suspects (see suspects.h): windows of CPI and cache pressure per
 * domain, the CPI2 rule, and the correlation that ranks the neighbours. */
#include "xgtop/compute/suspects.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One domain's windows, in a slot of the pool that stays its own while
 * the domain does (metrics' baseline says it is the same domain: no
 * copying from refresh to refresh). The arrays are rings on the global
 * window count: window w of every domain sits at w % nwin, so that window k
 * of one domain is window k of every other. */
struct entry {
	uint64_t stamp;              /* the last refresh that kept it */
	uint8_t metric, press;       /* what the windows hold (enum xg_susp_*) */
	float cpi[XG_SUSP_MAXWIN];   /* oldest first; NaN: not measured */
	float prs[XG_SUSP_MAXWIN];
	/* the open window */
	double dcyc, dins, dmiss, dmbm, dt;
	bool ins_ok, cyc_ok, miss_ok, mbm_ok;
	unsigned nref;
	/* where its memory traffic went: the home socket */
	double sock[XG_SUSP_SOCKETS];
};

void susp_cfg_defaults(struct xg_susp_cfg *c)
{
	*c = (struct xg_susp_cfg){ .window = 1, .recent = 5, .hits = 3, .baseline = 20, .sigma = 2,
				   .min_rise = 10, .min_r = 0.5 };
}

int susp_cfg_check(const struct xg_susp_cfg *c, struct xg_err *err)
{
	if (c->window < 1 || c->window > 3600)
		return xg_fail(err, "the window is 1 to 3600 refreshes");
	if (c->recent < 1 || c->hits < 1 || c->hits > c->recent)
		return xg_fail(err, "give HITS/OF with 1 <= HITS <= OF");
	if (c->baseline < XG_SUSP_MIN_BASE || c->baseline + c->recent > XG_SUSP_MAXWIN)
		return xg_fail(err, "the baseline is %d to %u windows (baseline + OF <= %d)", XG_SUSP_MIN_BASE,
			       c->recent < XG_SUSP_MAXWIN ? XG_SUSP_MAXWIN - c->recent : 0, XG_SUSP_MAXWIN);
	if (!(c->sigma >= 0 && c->sigma <= 100) || !(c->min_rise >= 0 && c->min_rise <= 1000))
		return xg_fail(err, "sigma is 0 to 100, the least rise 0 to 1000 %%");
	if (!(c->min_r >= -1 && c->min_r <= 1))
		return xg_fail(err, "the least correlation is -1 to 1");
	return 0;
}

int susp_cfg_parse(struct xg_susp_cfg *c, const char *text, struct xg_err *err)
{
	struct xg_susp_cfg n = *c;
	const char *p = text;
	while (*(p += strspn(p, " \t"))) {
		size_t len = strcspn(p, " \t");
		char part[64], *eq, *end;
		if (len >= sizeof(part))
			return xg_fail(err, "'%.20s...': too long", p);
		memcpy(part, p, len);
		part[len] = 0;
		p += len;
		eq = strchr(part, '=');
		if (!eq || !eq[1])
			return xg_fail(err, "'%s': give KEY=VALUE (window, sigma, hits, baseline, min_rise, min_r)", part);
		*eq++ = 0;
		double v = strtod(eq, &end);
		bool num = end != eq && !*end && isfinite(v);
		bool whole = num && v >= 0 && v <= 1e6 && v == floor(v);
		if (!strcmp(part, "window") && whole) {
			n.window = (unsigned)v;
		} else if (!strcmp(part, "baseline") && whole) {
			n.baseline = (unsigned)v;
		} else if (!strcmp(part, "sigma") && num) {
			n.sigma = v;
		} else if (!strcmp(part, "min_rise") && num) {
			n.min_rise = v;
		} else if (!strcmp(part, "min_r") && num) {
			n.min_r = v;
		} else if (!strcmp(part, "hits")) {
			unsigned long h, of;
			char *e2;
			h = strtoul(eq, &end, 10);
			if (end == eq || *end != '/' || !isdigit((unsigned char)end[1]))
				return xg_fail(err, "hits=%s: give HITS/OF, e.g. 3/5", eq);
			of = strtoul(end + 1, &e2, 10);
			if (*e2 || h > 64 || of > 64)
				return xg_fail(err, "hits=%s: give HITS/OF, e.g. 3/5", eq);
			n.hits = (unsigned)h;
			n.recent = (unsigned)of;
		} else {
			return xg_fail(err, "'%s=%s': unknown key or bad number", part, eq);
		}
	}
	if (susp_cfg_check(&n, err) < 0)
		return -1;
	*c = n;
	return 0;
}

void susp_cfg_format(const struct xg_susp_cfg *c, char *buf, size_t n)
{
	snprintf(buf, n, "window=%u sigma=%g hits=%u/%u baseline=%u min_rise=%g min_r=%g", c->window, c->sigma,
		 c->hits, c->recent, c->baseline, c->min_rise, c->min_r);
}

double susp_pearson(const float *x, const float *y, size_t n)
{
	double sx = 0, sy = 0;
	size_t m = 0;
	for (size_t i = 0; i < n; i++)
		if (isfinite(x[i]) && isfinite(y[i])) {
			sx += x[i];
			sy += y[i];
			m++;
		}
	if (m < 3)
		return NAN;
	double mx = sx / (double)m, my = sy / (double)m, sxy = 0, sxx = 0, syy = 0;
	for (size_t i = 0; i < n; i++)
		if (isfinite(x[i]) && isfinite(y[i])) {
			double a = x[i] - mx, b = y[i] - my;
			sxy += a * b;
			sxx += a * a;
			syy += b * b;
		}
	if (!(sxx > 0) || !(syy > 0))
		return NAN;
	double r = sxy / sqrt(sxx * syy);
	return r > 1 ? 1 : r < -1 ? -1 : r;
}

size_t susp_mean_sd(const float *x, size_t n, double *mean, double *sd)
{
	double s = 0, ss = 0;
	size_t m = 0;
	for (size_t i = 0; i < n; i++)
		if (isfinite(x[i])) {
			s += x[i];
			m++;
		}
	*mean = m ? s / (double)m : NAN;
	for (size_t i = 0; i < n; i++)
		if (isfinite(x[i]))
			ss += (x[i] - *mean) * (x[i] - *mean);
	*sd = m ? sqrt(ss / (double)m) : NAN;
	return m;
}

double susp_threshold(const struct xg_susp_cfg *c, double mean, double sd)
{
	double a = mean + c->sigma * sd, b = mean * (1 + c->min_rise / 100);
	return a > b ? a : b;
}

int susp_outliers(const struct xg_susp_cfg *c, const float *w, size_t n, double *mean, double *sd,
		  unsigned *mask)
{
	*mask = 0;
	if (n < c->recent + XG_SUSP_MIN_BASE)
		return -1;
	size_t end = n - c->recent, start = end > c->baseline ? end - c->baseline : 0;
	if (susp_mean_sd(w + start, end - start, mean, sd) < XG_SUSP_MIN_BASE)
		return -1;
	double thr = susp_threshold(c, *mean, *sd);
	int hits = 0;
	for (unsigned i = 0; i < c->recent; i++)
		if (isfinite(w[end + i]) && w[end + i] > thr) {
			hits++;
			*mask |= 1u << i;
		}
	return hits;
}

const char *susp_metric_name(enum xg_susp_metric m)
{
	return m == XG_SUSP_CPI ? "CPI" : m == XG_SUSP_MPI ? "misses/instruction" : "-";
}

const char *susp_press_name(enum xg_susp_press p)
{
	return p == XG_SUSP_MISS ? "LLC misses/s" : p == XG_SUSP_MBM ? "MEM-BW" : "-";
}

void suspects_init(struct xg_suspects *s, const struct xg_susp_cfg *cfg)
{
	memset(s, 0, sizeof(*s));
	s->cfg = *cfg;
	s->nwin = cfg->baseline + cfg->recent;
	if (s->nwin > XG_SUSP_MAXWIN)
		s->nwin = XG_SUSP_MAXWIN;
}

void suspects_free(struct xg_suspects *s)
{
	free(s->slots);
	free(s->freed);
	free(s->map);
	free(s->map_next);
	free(s->res);
	memset(s, 0, sizeof(*s));
}

void suspects_clear(struct xg_suspects *s)
{
	struct xg_susp_cfg c = s->cfg;
	suspects_free(s);
	suspects_init(s, &c);
}

/* delta of field f between the domain's two samples, false when either
 * lacks it or it went backwards. */
static bool delta(const struct xg_dom *c, const struct xg_dom *p, enum xg_field f, double *d)
{
	if (!p || !dom_has(c, f) || !dom_has(p, f) || c->v[f] < p->v[f])
		return false;
	*d = (double)(c->v[f] - p->v[f]);
	return true;
}

static const struct xg_sock *find_sock(const struct xg_sample *s, const struct xg_dom *d, uint32_t k)
{
	const struct xg_sock *ks = sample_socks(s, d);
	for (uint32_t i = 0; i < d->sock_count; i++)
		if (ks[i].socket == k)
			return &ks[i];
	return NULL;
}

/* Where the domain's memory traffic went this interval: MBM bytes per
 * socket, else the L3 it occupies there. */
static void add_sockets(struct entry *e, const struct xg_table *t, const struct xg_dom *c, const struct xg_dom *p)
{
	const struct xg_sock *kc = sample_socks(t->cur, c);
	for (uint32_t i = 0; i < c->sock_count; i++) {
		if (kc[i].socket >= XG_SUSP_SOCKETS)
			continue;
		const struct xg_sock *kp = p ? find_sock(t->prev, p, kc[i].socket) : NULL;
		if (kp && sock_has(&kc[i], XG_SOCK_MBM_TOTAL) && sock_has(kp, XG_SOCK_MBM_TOTAL) &&
		    kc[i].v[XG_SOCK_MBM_TOTAL] >= kp->v[XG_SOCK_MBM_TOTAL])
			e->sock[kc[i].socket] += (double)(kc[i].v[XG_SOCK_MBM_TOTAL] - kp->v[XG_SOCK_MBM_TOTAL]);
		else if (sock_has(&kc[i], XG_SOCK_L3_OCC))
			e->sock[kc[i].socket] += (double)kc[i].v[XG_SOCK_L3_OCC];
	}
}

/* The interval into the open window. */
static void add_interval(struct entry *e, const struct xg_table *t, const struct xg_row *r)
{
	const struct xg_dom *c = &t->cur->dom[r->dom_index];
	const struct xg_dom *p = r->base_index == XG_NO_BASE || !t->prev ? NULL : &t->prev->dom[r->base_index];
	double dt = t->sum.interval_s, cyc, ins, miss, mbm;
	if (!p || !(dt > 0))
		return;
	if (!e->nref++) {
		e->ins_ok = e->cyc_ok = e->miss_ok = e->mbm_ok = true;
		e->dcyc = e->dins = e->dmiss = e->dmbm = e->dt = 0;
	}
	e->ins_ok &= delta(c, p, XG_F_INSTR, &ins);
	e->cyc_ok &= e->ins_ok && delta(c, p, XG_F_CYCLES, &cyc);
	e->miss_ok &= delta(c, p, XG_F_LLC_MISS, &miss);
	e->mbm_ok &= delta(c, p, XG_F_MBM_TOTAL, &mbm);
	if (e->cyc_ok)
		e->dcyc += cyc;
	if (e->ins_ok)
		e->dins += ins;
	if (e->miss_ok)
		e->dmiss += miss;
	if (e->mbm_ok)
		e->dmbm += mbm;
	e->dt += dt;
	add_sockets(e, t, c, p);
}

/* Closes the open window: its CPI and pressure go to ring place at. */
static void close_window(struct entry *e, unsigned n, unsigned at)
{
	float cpi = NAN, prs = NAN;
	enum xg_susp_metric m = XG_SUSP_NONE;
	enum xg_susp_press pm = XG_SUSP_PNONE;
	if (e->nref && e->ins_ok && e->dins > 0) {
		if (e->cyc_ok) {
			m = XG_SUSP_CPI;
			cpi = (float)(e->dcyc / e->dins);
		} else if (e->miss_ok) {
			m = XG_SUSP_MPI;
			cpi = (float)(e->dmiss / e->dins);
		}
	}
	if (e->nref && e->dt > 0) {
		if (e->miss_ok) {
			pm = XG_SUSP_MISS;
			prs = (float)(e->dmiss / e->dt);
		} else if (e->mbm_ok) {
			pm = XG_SUSP_MBM;
			prs = (float)(e->dmbm / e->dt);
		}
	}
	/* A window that measures something else than those before it starts
	 * the domain's windows again: a CPI is not compared with an MPI. */
	if ((m && e->metric && m != e->metric) || (pm && e->press && pm != e->press))
		for (unsigned i = 0; i < n; i++)
			e->cpi[i] = e->prs[i] = NAN;
	if (m)
		e->metric = (uint8_t)m;
	if (pm)
		e->press = (uint8_t)pm;
	e->cpi[at] = cpi;
	e->prs[at] = prs;
	e->nref = 0;
}

static int home_socket(const struct entry *e)
{
	double sum = 0, best = 0;
	int at = -1;
	for (int k = 0; k < XG_SUSP_SOCKETS; k++) {
		sum += e->sock[k];
		if (e->sock[k] > best) {
			best = e->sock[k];
			at = k;
		}
	}
	return sum > 0 && best > sum / 2 ? at : -1;
}

static int by_suspicion(const void *a, const void *b)
{
	const struct xg_suspect *x = a, *y = b;
	if (x->flagged != y->flagged)
		return x->flagged ? -1 : 1;
	double rx = isfinite(x->r) ? x->r : -2, ry = isfinite(y->r) ? y->r : -2;
	if (rx != ry)
		return rx > ry ? -1 : 1;
	return (x->dom > y->dom) - (x->dom < y->dom);
}

static unsigned popcount(unsigned m)
{
	unsigned k = 0;
	for (; m; m &= m - 1)
		k++;
	return k;
}

static struct entry *slot_of(const struct xg_suspects *s, size_t dom)
{
	return &((struct entry *)s->slots)[s->map[dom]];
}

/* A ring as its windows oldest first, into out[0..nwin). */
static void unroll(const struct xg_suspects *s, const float *ring, float *out)
{
	unsigned n = s->nwin, at = (unsigned)(s->wins % n);
	memcpy(out, ring + at, (n - at) * sizeof(*out));
	memcpy(out + (n - at), ring, at * sizeof(*out));
}

/* The neighbours of victim v, ranked. */
static void rank_suspects(struct xg_suspects *s, size_t v, unsigned vmask, const float *vcpi)
{
	struct xg_susp_dom *d = &s->res[v];
	struct xg_suspect all[64];
	float prs[XG_SUSP_MAXWIN];
	size_t n = 0;
	for (size_t j = 0; j < s->nres; j++) {
		const struct entry *ej = slot_of(s, j);
		if (j == v || !ej->press)
			continue;
		int sj = s->res[j].socket;
		if (d->socket >= 0 && sj >= 0 && sj != d->socket)
			continue;   /* another socket: another cache */
		struct xg_suspect x = { .dom = (uint32_t)j, .sock_unknown = d->socket < 0 || sj < 0 };
		double pm, psd;
		unsigned pmask;
		unroll(s, ej->prs, prs);
		x.r = susp_pearson(prs, vcpi, s->nwin);
		if (susp_outliers(&s->cfg, prs, s->nwin, &pm, &psd, &pmask) < 0)
			pmask = 0;
		x.together = popcount(vmask & pmask);
		x.flagged = isfinite(x.r) && x.r >= s->cfg.min_r && x.together >= s->cfg.hits;
		/* keep the best 64 seen: enough to pick the top few from */
		if (n < XG_ARRAY_LEN(all)) {
			all[n++] = x;
		} else {
			qsort(all, n, sizeof(*all), by_suspicion);
			if (by_suspicion(&x, &all[n - 1]) < 0)
				all[n - 1] = x;
		}
	}
	qsort(all, n, sizeof(*all), by_suspicion);
	d->nsusp = n < XG_SUSP_TOP ? (unsigned)n : XG_SUSP_TOP;
	memcpy(d->susp, all, d->nsusp * sizeof(*all));
}

/* susp_outliers on a ring as it lies, in one pass over its baseline (what
 * every domain costs each refresh); *have: measured baseline windows. */
static int ring_outliers(const struct xg_suspects *s, const float *ring, double *mean, double *sd,
			 unsigned *mask, unsigned *have)
{
	unsigned n = s->nwin, r = s->cfg.recent, at = (unsigned)(s->wins % n), m = 0;
	double sum = 0, sq = 0;
	*mask = 0;
	for (unsigned k = 0, p = at; k < n - r; k++, p = p + 1 == n ? 0 : p + 1) {
		double x = ring[p];
		if (isfinite(x)) {
			sum += x;
			sq += x * x;
			m++;
		}
	}
	*have = m;
	if (m < XG_SUSP_MIN_BASE)
		return -1;
	*mean = sum / m;
	double var = sq / m - *mean * *mean;
	*sd = var > 0 ? sqrt(var) : 0;
	double thr = susp_threshold(&s->cfg, *mean, *sd);
	int hits = 0;
	for (unsigned i = 0, p = (at + n - r) % n; i < r; i++, p = p + 1 == n ? 0 : p + 1)
		if (isfinite(ring[p]) && ring[p] > thr) {
			hits++;
			*mask |= 1u << i;
		}
	return hits;
}

static void judge(struct xg_suspects *s, const struct xg_table *t)
{
	float cpi[XG_SUSP_MAXWIN];
	s->nvictims = 0;
	for (size_t i = 0; i < s->nres; i++)   /* every socket first: the suspects read them */
		s->res[i].socket = home_socket(slot_of(s, i));
	for (size_t i = 0; i < s->nres; i++) {
		const struct entry *e = slot_of(s, i);
		struct xg_susp_dom *d = &s->res[i];
		d->metric = e->metric;
		d->press = e->press;
		d->victim = false;
		d->nsusp = 0;
		d->need = 0;
		d->why = 0;
		d->hits = -1;
		d->mean = d->sd = d->thr = NAN;
		d->now = e->cpi[(s->wins + s->nwin - 1) % s->nwin];
		if (t->cur->npeer) {
			d->why = XG_WHY_SUSP_POOL;
			continue;
		}
		if (!e->metric) {
			d->why = XG_WHY_SUSP_NOCPI;
			continue;
		}
		unsigned mask, have;
		d->hits = ring_outliers(s, e->cpi, &d->mean, &d->sd, &mask, &have);
		if (d->hits < 0) {
			d->need = (unsigned)(XG_SUSP_MIN_BASE - (have < XG_SUSP_MIN_BASE ? have : XG_SUSP_MIN_BASE));
			d->why = XG_WHY_SUSP_LEARN;
			continue;
		}
		d->thr = susp_threshold(&s->cfg, d->mean, d->sd);
		d->victim = (unsigned)d->hits >= s->cfg.hits;
		s->nvictims += d->victim;
		if (d->victim) {
			unroll(s, e->cpi, cpi);
			rank_suspects(s, i, mask, cpi);
		}
	}
}

/* A fresh slot: every window not measured. */
static uint32_t new_slot(struct xg_suspects *s)
{
	uint32_t k;
	if (s->nfreed) {
		k = s->freed[--s->nfreed];
	} else {
		xg_grow(&s->slots, &s->slots_cap, s->nslots + 1, sizeof(struct entry));
		k = (uint32_t)s->nslots++;
	}
	struct entry *e = &((struct entry *)s->slots)[k];
	memset(e, 0, sizeof(*e));
	for (unsigned w = 0; w < XG_SUSP_MAXWIN; w++)
		e->cpi[w] = e->prs[w] = NAN;
	return k;
}

void suspects_update(struct xg_suspects *s, const struct xg_table *t)
{
	const struct xg_sample *cur = t->cur;
	/* The slots follow the domains by metrics' baseline: the same domain
	 * in the sample before, which must be the one we saw last. */
	bool follow = t->prev && t->prev == s->cur;
	size_t n = t->ndom_rows;
	s->stamp++;
	xg_grow(&s->map_next, &s->map_next_cap, n ? n : 1, sizeof(*s->map_next));
	for (size_t i = 0; i < n; i++) {
		const struct xg_row *r = &t->rows[i];
		bool keep = follow && r->base_index != XG_NO_BASE && r->base_index < s->nmap;
		uint32_t k = keep ? s->map[r->base_index] : new_slot(s);
		struct entry *e = &((struct entry *)s->slots)[k];
		e->stamp = s->stamp;
		s->map_next[r->dom_index] = k;
		if (!cur->npeer)   /* a pool is not judged */
			add_interval(e, t, r);
	}
	for (size_t i = 0; i < s->nmap; i++) {   /* the domains that left */
		struct entry *e = &((struct entry *)s->slots)[s->map[i]];
		if (e->stamp != s->stamp && e->stamp) {
			e->stamp = 0;
			xg_grow(&s->freed, &s->freed_cap, s->nfreed + 1, sizeof(*s->freed));
			s->freed[s->nfreed++] = s->map[i];
		}
	}
	uint32_t *m = s->map;
	size_t mc = s->map_cap;
	s->map = s->map_next;
	s->map_cap = s->map_next_cap;
	s->map_next = m;
	s->map_next_cap = mc;
	s->nmap = n;
	if (t->prev && t->sum.interval_s > 0 && ++s->ticks >= s->cfg.window) {
		s->ticks = 0;
		unsigned at = (unsigned)(s->wins % s->nwin);
		for (size_t i = 0; i < n; i++)
			close_window(slot_of(s, i), s->nwin, at);
		s->wins++;
	}
	s->nres = n;
	xg_grow(&s->res, &s->res_cap, n ? n : 1, sizeof(*s->res));
	s->cur = cur;
	judge(s, t);
}

const struct xg_susp_dom *suspects_of(const struct xg_suspects *s, size_t i)
{
	return i < s->nres ? &s->res[i] : NULL;
}

void suspects_mark_rows(const struct xg_suspects *s, struct xg_table *t)
{
	for (size_t i = 0; i < t->ndom_rows; i++) {
		struct xg_row *r = &t->rows[i];
		const struct xg_susp_dom *d = s->cur == t->cur ? suspects_of(s, r->dom_index) : NULL;
		r->victim = 0;
		r->victim_of = (uint8_t)s->cfg.recent;
		if (!d || d->hits < 0) {
			r->valid &= ~(1ull << XG_COL_VICTIM);
			r->why[XG_COL_VICTIM] = d ? d->why : XG_WHY_SUSP_LEARN;
			continue;
		}
		r->valid |= 1ull << XG_COL_VICTIM;
		r->v[XG_COL_VICTIM] = d->hits;
		r->victim = d->victim;
	}
}
