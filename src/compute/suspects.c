// SPDX-License-Identifier: GPL-2.0-or-later
/* Cache suspects (see suspects.h): windows of CPI and cache pressure per
 * domain, the CPI2 rule, and the correlation that ranks the neighbours. */
#include "xgtop/compute/suspects.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The windows of every domain, as arrays by slot (a struct of arrays: a
 * refresh walks a few of them for every domain, the rings only where a
 * window closes). A slot stays its domain's while the domain does (metrics'
 * baseline says it is the same domain: no copying from refresh to refresh).
 * The rings are on the global window count: window w of every domain sits
 * at w % nwin, so that window k of one domain is window k of every other.
 * A ring place holds its slot's window only from the slot's first measured
 * window on (born): places of earlier windows are not measured (NaN), and
 * a fresh slot costs no clearing of its rings. */
struct xg_susp_slots {
	size_t n, cap;
	uint32_t *freed;             /* slots of domains that left */
	size_t nfreed, freed_cap;
	uint64_t *stamp;             /* the last refresh that kept it */
	uint64_t *born;              /* its first measured window (LIVE) */
	uint8_t *flags;              /* LIVE, SOCK */
	uint8_t *metric, *press;     /* what the windows hold (enum xg_susp_*) */
	int8_t *home;                /* home socket, -1 unknown */
	uint8_t *nsock;              /* sock[0..nsock) hold what it added (SOCK) */
	uint8_t *ok;                 /* the open window: figures every interval of it had (OK_*) */
	uint32_t *nref;              /* the open window: refreshes in it */
	struct acc {                 /* the open window: sums of its intervals */
		double cyc, ins, miss, mbm, dt;
	} *acc;
	struct base {                /* the baseline windows' running sums */
		double sum, sq;
		uint32_t n;          /* measured windows among them */
	} *base;
	float (*cpi)[XG_SUSP_MAXWIN];   /* NaN: not measured */
	float (*prs)[XG_SUSP_MAXWIN];
	double (*sock)[XG_SUSP_SOCKETS];   /* where its memory traffic went (SOCK) */
};

/* What every domain costs to write each refresh (suspects.h). */
_Static_assert(sizeof(struct xg_susp_dom) == 64, "a verdict is 64 bytes");

/* Slot flags: a window measured something (the rings hold its windows from
 * born on); a per-socket figure was added (sock holds them). */
enum { LIVE = 1, SOCK = 2 };
/* Figures of the open window. */
enum { OK_INS = 1, OK_CYC = 2, OK_MISS = 4, OK_MBM = 8, OK_ALL = 15 };
/* The counters a domain's windows come from: without any of them and
 * without per-socket figures an interval measures nothing. */
#define COUNTERS                                                                                           \
	((1ull << XG_F_INSTR) | (1ull << XG_F_CYCLES) | (1ull << XG_F_LLC_MISS) | (1ull << XG_F_MBM_TOTAL))

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
	s->slots = xg_calloc(1, sizeof(*s->slots));
}

void suspects_free(struct xg_suspects *s)
{
	struct xg_susp_slots *w = s->slots;
	if (w) {
		free(w->freed);
		free(w->stamp);
		free(w->born);
		free(w->flags);
		free(w->metric);
		free(w->press);
		free(w->home);
		free(w->nsock);
		free(w->ok);
		free(w->nref);
		free(w->acc);
		free(w->base);
		free(w->cpi);
		free(w->prs);
		free(w->sock);
		free(w);
	}
	free(s->map);
	free(s->map_next);
	free(s->res);
	free(s->victims);
	free(s->susp);
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
	if (!dom_has(c, f) || !dom_has(p, f) || c->v[f] < p->v[f])
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

/* The socket that took more than half of what sock[0..n) holds (the rest
 * hold nothing), or -1. */
static int home_socket(const double *sock, int n)
{
	double sum = 0, best = 0;
	int at = -1;
	for (int k = 0; k < n; k++) {
		sum += sock[k];
		if (sock[k] > best) {
			best = sock[k];
			at = k;
		}
	}
	return sum > 0 && best > sum / 2 ? at : -1;
}

/* Where the domain's memory traffic went this interval (MBM bytes per
 * socket, else the L3 it occupies there), and its home socket since. */
static void add_sockets(struct xg_susp_slots *w, uint32_t k, const struct xg_table *t, const struct xg_dom *c,
			const struct xg_dom *p)
{
	double *sock = w->sock[k];
	if (!(w->flags[k] & SOCK)) {
		memset(sock, 0, sizeof(w->sock[k]));
		w->flags[k] |= SOCK;
		w->nsock[k] = 0;
	}
	unsigned hi = w->nsock[k];
	const struct xg_sock *kc = sample_socks(t->cur, c);
	for (uint32_t i = 0; i < c->sock_count; i++) {
		if (kc[i].socket >= XG_SUSP_SOCKETS)
			continue;
		if (kc[i].socket >= hi)
			hi = kc[i].socket + 1;
		const struct xg_sock *kp = find_sock(t->prev, p, kc[i].socket);
		if (kp && sock_has(&kc[i], XG_SOCK_MBM_TOTAL) && sock_has(kp, XG_SOCK_MBM_TOTAL) &&
		    kc[i].v[XG_SOCK_MBM_TOTAL] >= kp->v[XG_SOCK_MBM_TOTAL])
			sock[kc[i].socket] += (double)(kc[i].v[XG_SOCK_MBM_TOTAL] - kp->v[XG_SOCK_MBM_TOTAL]);
		else if (sock_has(&kc[i], XG_SOCK_L3_OCC))
			sock[kc[i].socket] += (double)kc[i].v[XG_SOCK_L3_OCC];
	}
	w->nsock[k] = (uint8_t)hi;
	w->home[k] = (int8_t)home_socket(sock, (int)hi);
}

/* The interval into slot k's open window. A domain without counters (no
 * PMU access, the common case without the agent) costs one test. */
static void add_interval(struct xg_susp_slots *w, uint32_t k, const struct xg_table *t, const struct xg_row *r)
{
	const struct xg_dom *c = &t->cur->dom[r->dom_index];
	double dt = t->sum.interval_s, cyc = 0, ins = 0, miss = 0, mbm = 0;
	if (r->base_index == XG_NO_BASE || !t->prev || !(dt > 0))
		return;
	const struct xg_dom *p = &t->prev->dom[r->base_index];
	uint32_t first = !w->nref[k]++;
	if (!(c->valid & COUNTERS) && (!t->cur->nsock || !c->sock_count)) {
		w->ok[k] = 0;   /* the window measures nothing */
		return;
	}
	struct acc *a = &w->acc[k];
	unsigned ok = w->ok[k];
	if (first) {
		ok = OK_ALL;
		*a = (struct acc){ 0 };
	}
	if ((ok & OK_INS) && !delta(c, p, XG_F_INSTR, &ins))
		ok &= ~(unsigned)OK_INS;
	if ((ok & OK_CYC) && (!(ok & OK_INS) || !delta(c, p, XG_F_CYCLES, &cyc)))
		ok &= ~(unsigned)OK_CYC;
	if ((ok & OK_MISS) && !delta(c, p, XG_F_LLC_MISS, &miss))
		ok &= ~(unsigned)OK_MISS;
	if ((ok & OK_MBM) && !delta(c, p, XG_F_MBM_TOTAL, &mbm))
		ok &= ~(unsigned)OK_MBM;
	if (ok & OK_CYC)
		a->cyc += cyc;
	if (ok & OK_INS)
		a->ins += ins;
	if (ok & OK_MISS)
		a->miss += miss;
	if (ok & OK_MBM)
		a->mbm += mbm;
	a->dt += dt;
	w->ok[k] = (uint8_t)ok;
	if (c->sock_count)
		add_sockets(w, k, t, c, p);
}

/* The baseline's sums of slot k taken again from its ring, oldest first
 * (the running sums without their rounding), once wins windows closed. */
static void base_sums(const struct xg_suspects *s, uint32_t k, uint64_t wins)
{
	struct xg_susp_slots *w = s->slots;
	unsigned n = s->nwin, r = s->cfg.recent, at = (unsigned)(wins % n);
	struct base b = { 0 };
	for (unsigned j = 0, p = at; j < n - r; j++, p = p + 1 == n ? 0 : p + 1) {
		double x = w->cpi[k][p];
		if (wins + j >= n + w->born[k] && isfinite(x)) {   /* window wins - n + j, its own */
			b.sum += x;
			b.sq += x * x;
			b.n++;
		}
	}
	w->base[k] = b;
}

/* Closes slot k's open window as window number win (ring place win % nwin):
 * its CPI and pressure into the rings, and the baseline moves on one
 * window: the oldest leaves it, the oldest of the recent ones joins it. */
static void close_window(struct xg_suspects *s, uint32_t k, uint64_t win)
{
	struct xg_susp_slots *w = s->slots;
	unsigned n = s->nwin, at = (unsigned)(win % n), ok = w->ok[k];
	const struct acc *a = &w->acc[k];
	float cpi = NAN, prs = NAN;
	enum xg_susp_metric m = XG_SUSP_NONE;
	enum xg_susp_press pm = XG_SUSP_PNONE;
	bool any = w->nref[k] && ok;
	w->nref[k] = 0;
	if (!any && !(w->flags[k] & LIVE))
		return;   /* never measured: its windows stay so */
	if (any && (ok & OK_INS) && a->ins > 0) {
		if (ok & OK_CYC) {
			m = XG_SUSP_CPI;
			cpi = (float)(a->cyc / a->ins);
		} else if (ok & OK_MISS) {
			m = XG_SUSP_MPI;
			cpi = (float)(a->miss / a->ins);
		}
	}
	if (any && a->dt > 0) {
		if (ok & OK_MISS) {
			pm = XG_SUSP_MISS;
			prs = (float)(a->miss / a->dt);
		} else if (ok & OK_MBM) {
			pm = XG_SUSP_MBM;
			prs = (float)(a->mbm / a->dt);
		}
	}
	if (!(w->flags[k] & LIVE) && !m && !pm)
		return;   /* nothing measured yet */
	/* A window that measures something else than those before it starts
	 * the domain's windows again: a CPI is not compared with an MPI. */
	bool again = !(w->flags[k] & LIVE) || (m && w->metric[k] && m != w->metric[k]) ||
		     (pm && w->press[k] && pm != w->press[k]);
	if (m)
		w->metric[k] = (uint8_t)m;
	if (pm)
		w->press[k] = (uint8_t)pm;
	struct base *b = &w->base[k];
	if (again) {
		s->nlive += !(w->flags[k] & LIVE);
		w->flags[k] |= LIVE;
		w->born[k] = win;
		*b = (struct base){ 0 };
	} else if (win >= n + w->born[k] && isfinite(w->cpi[k][at])) {   /* window win - n leaves */
		double x = w->cpi[k][at];
		b->sum -= x;
		b->sq -= x * x;
		b->n--;
	}
	w->cpi[k][at] = cpi;
	w->prs[k][at] = prs;
	uint64_t in = win - s->cfg.recent;   /* joins the baseline */
	if (win >= s->cfg.recent && in >= w->born[k]) {
		double x = w->cpi[k][in % n];
		if (isfinite(x)) {
			b->sum += x;
			b->sq += x * x;
			b->n++;
		}
	}
}

static int by_suspicion(const struct xg_suspect *x, const struct xg_suspect *y)
{
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

/* Slot k's ring as its windows oldest first, into out[0..nwin); windows
 * before its first are not measured. */
static void unroll(const struct xg_suspects *s, uint32_t k, const float *ring, float *out)
{
	const struct xg_susp_slots *w = s->slots;
	unsigned n = s->nwin, at = (unsigned)(s->wins % n);
	for (unsigned j = 0, p = at; j < n; j++, p = p + 1 == n ? 0 : p + 1)
		out[j] = (w->flags[k] & LIVE) && s->wins + j >= n + w->born[k] ? ring[p] : NAN;
}

/* The neighbours of victim v, ranked: the first XG_SUSP_TOP of them in
 * by_suspicion's order, kept in place as they come. s is const to its
 * readers: what this writes (the verdict's ranking) is s->res's, a cache
 * of the last update that suspects_of fills once. */
static void rank_suspects(const struct xg_suspects *s, size_t v)
{
	const struct xg_susp_slots *w = s->slots;
	struct xg_susp_dom *d = &s->res[v];
	float prs[XG_SUSP_MAXWIN], vcpi[XG_SUSP_MAXWIN];
	unsigned n = 0, vmask = d->outliers;
	unroll(s, s->map[v], w->cpi[s->map[v]], vcpi);
	for (size_t j = 0; j < s->nres; j++) {
		uint32_t kj = s->map[j];
		if (j == v || !w->press[kj])
			continue;
		int sj = w->flags[kj] & SOCK ? w->home[kj] : -1;
		if (d->socket >= 0 && sj >= 0 && sj != d->socket)
			continue;   /* another socket: another cache */
		struct xg_suspect x = { .dom = (uint32_t)j, .sock_unknown = d->socket < 0 || sj < 0 };
		double pm, psd;
		unsigned pmask;
		unroll(s, kj, w->prs[kj], prs);
		x.r = susp_pearson(prs, vcpi, s->nwin);
		if (susp_outliers(&s->cfg, prs, s->nwin, &pm, &psd, &pmask) < 0)
			pmask = 0;
		x.together = popcount(vmask & pmask);
		x.flagged = isfinite(x.r) && x.r >= s->cfg.min_r && x.together >= s->cfg.hits;
		if (n == XG_SUSP_TOP && by_suspicion(&x, &d->susp[n - 1]) >= 0)
			continue;
		unsigned at = n < XG_SUSP_TOP ? n++ : n - 1;
		for (; at && by_suspicion(&x, &d->susp[at - 1]) < 0; at--)
			d->susp[at] = d->susp[at - 1];
		d->susp[at] = x;
	}
	d->nsusp = n;
	d->ranked = true;
}

/* Every domain's verdict from its baseline's sums and its recent windows. */
static void judge(struct xg_suspects *s)
{
	const struct xg_susp_slots *w = s->slots;
	unsigned n = s->nwin, r = s->cfg.recent, last = (unsigned)((s->wins + n - 1) % n);
	unsigned first = (unsigned)((s->wins + n - r) % n);
	s->nvictims = s->njudged = s->nlearning = 0;
	for (size_t i = 0; i < s->nres; i++) {
		uint32_t k = s->map[i];
		struct xg_susp_dom *d = &s->res[i];
		d->metric = w->metric[k];
		d->press = w->press[k];
		d->socket = w->flags[k] & SOCK ? w->home[k] : -1;
		d->victim = false;
		d->nsusp = 0;
		d->susp = NULL;
		d->ranked = false;
		d->outliers = 0;
		d->need = 0;
		d->why = 0;
		d->hits = -1;
		d->mean = d->sd = d->thr = NAN;
		d->now = w->flags[k] & LIVE ? w->cpi[k][last] : NAN;
		if (!d->metric) {
			d->why = XG_WHY_SUSP_NOCPI;
			continue;
		}
		const struct base *b = &w->base[k];
		if (b->n < XG_SUSP_MIN_BASE) {
			d->need = XG_SUSP_MIN_BASE - b->n;
			d->why = XG_WHY_SUSP_LEARN;
			s->nlearning++;
			continue;
		}
		d->mean = b->sum / b->n;
		double var = b->sq / b->n - d->mean * d->mean;
		d->sd = var > 0 ? sqrt(var) : 0;
		d->thr = susp_threshold(&s->cfg, d->mean, d->sd);
		/* the baseline has measured windows: the recent ones are its own */
		const float *ring = w->cpi[k];
		unsigned mask = 0;
		int hits = 0;
		for (unsigned j = 0, p = first; j < r; j++, p = p + 1 == n ? 0 : p + 1)
			if (isfinite(ring[p]) && ring[p] > d->thr) {
				hits++;
				mask |= 1u << j;
			}
		d->hits = hits;
		d->outliers = mask;
		s->njudged++;
		if ((unsigned)hits < s->cfg.hits)
			continue;
		d->victim = true;   /* its suspects when asked for (suspects_of) */
		d->susp = s->susp[s->nvictims];
		s->victims[s->nvictims++] = (uint32_t)i;
	}
}

/* The slot arrays for at least need slots. */
static void grow_slots(struct xg_susp_slots *w, size_t need)
{
	if (need <= w->cap)
		return;
	size_t c;
#define GROW(a) (c = w->cap, xg_grow(&w->a, &c, need, sizeof(*w->a)))
	GROW(stamp);
	GROW(born);
	GROW(flags);
	GROW(metric);
	GROW(press);
	GROW(home);
	GROW(nsock);
	GROW(ok);
	GROW(nref);
	GROW(acc);
	GROW(base);
	GROW(cpi);
	GROW(prs);
	GROW(sock);
#undef GROW
	w->cap = c;
}

/* A fresh slot: nothing measured (its rings hold nothing of its own). */
static uint32_t new_slot(struct xg_susp_slots *w)
{
	uint32_t k;
	if (w->nfreed) {
		k = w->freed[--w->nfreed];
	} else {
		grow_slots(w, w->n + 1);
		k = (uint32_t)w->n++;
	}
	w->stamp[k] = 0;
	w->flags[k] = 0;
	w->metric[k] = w->press[k] = 0;
	w->home[k] = -1;
	w->ok[k] = 0;
	w->nref[k] = 0;
	return k;
}

/* Domains fetched ahead of the one at hand. */
#define AHEAD 12

/* Every domain of t gets the same verdict, why, in O(1): no domain can be
 * judged. The slots are all let go (none holds a measured window), so that
 * domains with counters later start from fresh slots. */
static void blank(struct xg_suspects *s, const struct xg_table *t, enum xg_mwhy why)
{
	struct xg_susp_slots *w = s->slots;
	w->n = w->nfreed = 0;
	s->nlive = s->nmap = s->nres = 0;
	s->nvictims = s->njudged = s->nlearning = 0;
	s->nblank = t->ndom_rows;
	s->blank = (struct xg_susp_dom){ .why = (uint8_t)why, .hits = -1, .socket = -1, .now = NAN, .mean = NAN,
					 .sd = NAN, .thr = NAN };
	s->cur = t->cur;
	s->stamp++;
	if (t->prev && t->sum.interval_s > 0 && ++s->ticks >= s->cfg.window) {
		s->ticks = 0;
		s->wins++;
	}
}

void suspects_update(struct xg_suspects *s, const struct xg_table *t)
{
	struct xg_susp_slots *w = s->slots;
	const struct xg_sample *cur = t->cur;
	/* A host-level test first: a pool is not judged, and without counters
	 * anywhere (no PMU access, Xen without the agent) nothing is measured. */
	if (cur->npeer) {
		blank(s, t, XG_WHY_SUSP_POOL);
		return;
	}
	if (!(t->dom_valid & COUNTERS) && !cur->nsock && !s->nlive) {
		blank(s, t, XG_WHY_SUSP_NOCPI);
		return;
	}
	s->nblank = 0;
	/* The slots follow the domains by metrics' baseline: the same domain
	 * in the sample before, which must be the one we saw last. */
	bool follow = t->prev && t->prev == s->cur;
	size_t n = t->ndom_rows;
	s->stamp++;
	xg_grow(&s->map_next, &s->map_next_cap, n ? n : 1, sizeof(*s->map_next));
	for (size_t i = 0; i < n; i++) {
		const struct xg_row *r = &t->rows[i];
		if (i + AHEAD < n)   /* the domain's counter bits: metrics read them long ago */
			__builtin_prefetch(&cur->dom[t->rows[i + AHEAD].dom_index].valid);
		bool keep = follow && r->base_index != XG_NO_BASE && r->base_index < s->nmap;
		uint32_t k = keep ? s->map[r->base_index] : new_slot(w);
		w->stamp[k] = s->stamp;
		s->map_next[r->dom_index] = k;
		add_interval(w, k, t, r);
	}
	xg_grow(&w->freed, &w->freed_cap, w->nfreed + s->nmap + 1, sizeof(*w->freed));
	for (size_t i = 0; i < s->nmap; i++) {   /* the domains that left */
		uint32_t k = s->map[i];
		if (w->stamp[k] != s->stamp && w->stamp[k]) {
			w->stamp[k] = 0;
			s->nlive -= (w->flags[k] & LIVE) != 0;
			w->flags[k] = 0;
			w->freed[w->nfreed++] = k;
		}
	}
	xg_swap_arrays(&s->map, &s->map_cap, &s->map_next, &s->map_next_cap);
	s->nmap = n;
	if (t->prev && t->sum.interval_s > 0 && ++s->ticks >= s->cfg.window) {
		s->ticks = 0;
		/* Each slot's sums are taken again from its ring once in nwin
		 * windows (slots in turn), so rounding cannot build up. */
		unsigned again = (unsigned)(s->wins % s->nwin);
		for (size_t i = 0; i < n; i++) {
			close_window(s, s->map[i], s->wins);
			if (s->map[i] % s->nwin == again && (w->flags[s->map[i]] & LIVE))
				base_sums(s, s->map[i], s->wins + 1);
		}
		s->wins++;
	}
	s->nres = n;
	xg_grow(&s->res, &s->res_cap, n ? n : 1, sizeof(*s->res));
	xg_grow(&s->victims, &s->victims_cap, n ? n : 1, sizeof(*s->victims));
	xg_grow(&s->susp, &s->susp_cap, n ? n : 1, sizeof(*s->susp));
	s->cur = cur;
	judge(s);
}

/* The verdict of domain index i, its suspects as they are. */
static const struct xg_susp_dom *verdict(const struct xg_suspects *s, size_t i)
{
	return i < s->nres ? &s->res[i] : i < s->nblank ? &s->blank : NULL;
}

const struct xg_susp_dom *suspects_of(const struct xg_suspects *s, size_t i)
{
	if (i < s->nres && s->res[i].victim && !s->res[i].ranked)
		rank_suspects(s, i);
	return verdict(s, i);
}

void suspects_flags(const struct xg_suspects *s, const struct xg_sample *cur, int8_t *out)
{
	for (size_t i = 0; i < cur->ndom; i++) {
		const struct xg_susp_dom *d = s->cur == cur ? verdict(s, i) : NULL;
		out[i] = (int8_t)(!d || d->hits < 0 ? -1 : d->victim);
	}
}

void suspects_mark_rows(const struct xg_suspects *s, struct xg_table *t)
{
	bool same = s->cur == t->cur;
	if (same && s->nblank) {   /* the rows start with that reason: nothing to write */
		t->victim_why = s->blank.why;
		if (t->rows_victim_why == s->blank.why)
			return;
	} else {
		t->victim_why = 0;
	}
	for (size_t i = 0; i < t->ndom_rows; i++) {
		struct xg_row *r = &t->rows[i];
		const struct xg_susp_dom *d = same ? verdict(s, r->dom_index) : NULL;
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
