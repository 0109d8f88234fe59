// SPDX-License-Identifier: GPL-2.0-or-later
/* Cache suspects (see suspects.h): windows of CPI and cache pressure per
 * domain, the CPI2 rule, and the correlation that ranks the neighbours. */
#include "xgtop/compute/suspects.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One domain's windows, carried between refreshes (an xg_carry entry).
 * Every domain's arrays end at the same window, the last one closed, so
 * that window k of one domain is window k of every other. */
struct entry {
	struct xg_dom_ident ident;
	bool init;                   /* arrays set to NaN */
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
	carry_init(&s->carry, sizeof(struct entry));
}

void suspects_free(struct xg_suspects *s)
{
	carry_free(&s->carry);
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

static void shift(float *a, unsigned n, float v)
{
	memmove(a, a + 1, (n - 1) * sizeof(*a));
	a[n - 1] = v;
}

/* Closes the open window: its CPI and pressure go at the end. */
static void close_window(struct entry *e, unsigned n)
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
	shift(e->cpi, n, cpi);
	shift(e->prs, n, prs);
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

/* The neighbours of victim v, ranked; masks[j] and ok[j] are each domain's
 * outlier windows of its pressure. */
static void rank_suspects(struct xg_suspects *s, size_t v, const unsigned *vmask, const unsigned *pmask)
{
	const struct entry *ev = carry_at(&s->carry, v);
	struct xg_susp_dom *d = &s->res[v];
	struct xg_suspect all[64];
	size_t n = 0;
	for (size_t j = 0; j < s->nres; j++) {
		const struct entry *ej = carry_at(&s->carry, j);
		if (j == v || !ej->press)
			continue;
		int sj = s->res[j].socket;
		if (d->socket >= 0 && sj >= 0 && sj != d->socket)
			continue;   /* another socket: another cache */
		struct xg_suspect x = { .dom = (uint32_t)j, .sock_unknown = d->socket < 0 || sj < 0 };
		x.r = susp_pearson(ej->prs, ev->cpi, s->nwin);
		x.together = popcount(vmask[v] & pmask[j]);
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

static void judge(struct xg_suspects *s, const struct xg_table *t)
{
	size_t n = s->nres;
	unsigned *vmask = xg_calloc(n ? n : 1, sizeof(*vmask)), *pmask = xg_calloc(n ? n : 1, sizeof(*pmask));
	s->nvictims = 0;
	for (size_t i = 0; i < n; i++) {
		const struct entry *e = carry_at(&s->carry, i);
		struct xg_susp_dom *d = &s->res[i];
		memset(d, 0, sizeof(*d));
		d->socket = home_socket(e);
		d->metric = e->metric;
		d->press = e->press;
		d->now = e->cpi[s->nwin - 1];
		double pm, psd;
		if (susp_outliers(&s->cfg, e->prs, s->nwin, &pm, &psd, &pmask[i]) < 0)
			pmask[i] = 0;
		if (t->cur->npeer) {
			d->why = XG_WHY_SUSP_POOL;
			d->hits = -1;
			continue;
		}
		if (!e->metric) {
			d->why = XG_WHY_SUSP_NOCPI;
			d->hits = -1;
			continue;
		}
		d->hits = susp_outliers(&s->cfg, e->cpi, s->nwin, &d->mean, &d->sd, &vmask[i]);
		if (d->hits < 0) {
			size_t have = 0;
			for (unsigned k = 0; k + s->cfg.recent < s->nwin; k++)
				have += isfinite(e->cpi[k]);
			d->need = (unsigned)(XG_SUSP_MIN_BASE - (have < XG_SUSP_MIN_BASE ? have : XG_SUSP_MIN_BASE));
			d->why = XG_WHY_SUSP_LEARN;
			continue;
		}
		d->thr = susp_threshold(&s->cfg, d->mean, d->sd);
		d->victim = (unsigned)d->hits >= s->cfg.hits;
		s->nvictims += d->victim;
	}
	for (size_t i = 0; i < n; i++)
		if (s->res[i].victim)
			rank_suspects(s, i, vmask, pmask);
	free(vmask);
	free(pmask);
}

void suspects_update(struct xg_suspects *s, const struct xg_table *t)
{
	const struct xg_sample *cur = t->cur;
	carry_begin(&s->carry, cur->ndom);
	bool sorted = !cur->npeer;   /* the carry walks ids in order: one host's */
	for (size_t i = 0; i < t->ndom_rows; i++) {
		const struct xg_row *r = &t->rows[i];
		struct entry *e = carry_take(&s->carry, &cur->dom[r->dom_index], XG_SAME_OBJECT);
		if (!e->init) {
			for (unsigned k = 0; k < XG_SUSP_MAXWIN; k++)
				e->cpi[k] = e->prs[k] = NAN;
			e->init = true;
		}
		if (sorted)
			add_interval(e, t, r);
	}
	carry_end(&s->carry);
	if (t->prev && t->sum.interval_s > 0 && ++s->ticks >= s->cfg.window) {
		s->ticks = 0;
		for (size_t i = 0; i < s->carry.n; i++)
			close_window(carry_at(&s->carry, i), s->nwin);
	}
	s->nres = s->carry.n;
	xg_grow(&s->res, &s->res_cap, s->nres ? s->nres : 1, sizeof(*s->res));
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
