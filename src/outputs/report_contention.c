// SPDX-License-Identifier: GPL-2.0-or-later
/* `xgtop report --contention`: gathers each victim's refreshes and its last
 * verdict from the replayed refreshes, then writes them as text. */
#include "xgtop/outputs/contention.h"
#include "xgtop/core/format.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct cnt_susp {
	char name[XG_NAME_MAX];
	uint32_t id;
	unsigned flagged;           /* refreshes it was a flagged suspect */
};

struct cnt_victim {
	char name[XG_NAME_MAX];
	uint32_t id;
	unsigned refreshes;         /* refreshes it was a victim */
	uint64_t first_ns, last_ns;
	struct xg_susp_dom last;    /* its verdict at the last of them */
	char last_names[XG_SUSP_TOP][XG_NAME_MAX];
	uint32_t last_ids[XG_SUSP_TOP];
	struct xg_suspect last_susp[XG_SUSP_TOP];   /* last.susp's, kept */
	struct cnt_susp *susp;
	size_t nsusp, susp_cap;
};

struct xg_contention {
	struct cnt_victim *v;
	size_t n, cap;
	unsigned refreshes, judged; /* refreshes seen; of them, with some verdict */
};

struct xg_contention *contention_new(void)
{
	return xg_calloc(1, sizeof(struct xg_contention));
}

void contention_free(struct xg_contention *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->n; i++)
		free(c->v[i].susp);
	free(c->v);
	free(c);
}

static struct cnt_victim *victim_of(struct xg_contention *c, const struct xg_dom *d)
{
	for (size_t i = 0; i < c->n; i++)
		if (c->v[i].id == d->id && dom_names_equal(c->v[i].name, d->name))
			return &c->v[i];
	xg_grow(&c->v, &c->cap, c->n + 1, sizeof(*c->v));
	struct cnt_victim *v = &c->v[c->n++];
	memset(v, 0, sizeof(*v));
	memcpy(v->name, d->name, sizeof(v->name));
	v->id = d->id;
	return v;
}

static void count_suspect(struct cnt_victim *v, const struct xg_dom *d)
{
	for (size_t i = 0; i < v->nsusp; i++)
		if (v->susp[i].id == d->id && dom_names_equal(v->susp[i].name, d->name)) {
			v->susp[i].flagged++;
			return;
		}
	xg_grow(&v->susp, &v->susp_cap, v->nsusp + 1, sizeof(*v->susp));
	struct cnt_susp *s = &v->susp[v->nsusp++];
	memcpy(s->name, d->name, sizeof(s->name));
	s->id = d->id;
	s->flagged = 1;
}

void contention_add(struct xg_contention *c, const struct xg_table *t, const struct xg_suspects *s,
		    uint64_t now_ns)
{
	bool any = false;
	c->refreshes++;
	if (s->cur != t->cur)
		return;
	for (size_t i = 0; i < s->nres; i++) {
		const struct xg_susp_dom *d = &s->res[i];
		any |= d->hits >= 0;
		if (!d->victim)
			continue;
		d = suspects_of(s, i);   /* its suspects ranked */
		struct cnt_victim *v = victim_of(c, &t->cur->dom[i]);
		if (!v->refreshes++)
			v->first_ns = now_ns;
		v->last_ns = now_ns;
		v->last = *d;
		v->last.susp = NULL;   /* the suspects' own array changes with every update */
		memcpy(v->last_susp, d->susp, d->nsusp * sizeof(*d->susp));
		for (unsigned k = 0; k < d->nsusp; k++) {
			const struct xg_dom *sd = &t->cur->dom[d->susp[k].dom];
			memcpy(v->last_names[k], sd->name, XG_NAME_MAX);
			v->last_ids[k] = sd->id;
			if (d->susp[k].flagged)
				count_suspect(v, sd);
		}
	}
	c->judged += any;
}

static void put_time(FILE *f, uint64_t ns)
{
	char b[40];
	time_t t = (time_t)(ns / 1000000000ull);
	strftime(b, sizeof(b), "%Y-%m-%dT%H:%M:%S%z", localtime(&t));
	fputs(b, f);
}

static unsigned flagged_count(const struct cnt_victim *v, uint32_t id, const char *name)
{
	for (size_t i = 0; i < v->nsusp; i++)
		if (v->susp[i].id == id && dom_names_equal(v->susp[i].name, name))
			return v->susp[i].flagged;
	return 0;
}

static void write_victim(FILE *f, const struct cnt_victim *v, const struct xg_susp_cfg *cfg)
{
	char e[4 * XG_NAME_MAX + 8];
	const struct xg_susp_dom *d = &v->last;
	fprintf(f, "VICTIM %s (id %u): %u refresh%s, ", xg_escape_name(e, sizeof(e), v->name), (unsigned)v->id,
		v->refreshes, v->refreshes == 1 ? "" : "es");
	put_time(f, v->first_ns);
	fputs(" to ", f);
	put_time(f, v->last_ns);
	fputc('\n', f);
	fprintf(f, "  last: %s %.3f, baseline mean %.3f sd %.3f, threshold %.3f, above it in %d of the last %u windows\n",
		susp_metric_name(d->metric), d->now, d->mean, d->sd, d->thr, d->hits, cfg->recent);
	if (d->socket >= 0)
		fprintf(f, "  socket %d: neighbours on it, by r of their %s with its %s:\n", d->socket,
			susp_press_name(d->press ? d->press : XG_SUSP_MISS), susp_metric_name(d->metric));
	else
		fprintf(f, "  socket unknown (no per-socket MBM/CMT figures): every neighbour is a candidate, by r:\n");
	if (!d->nsusp)
		fprintf(f, "  no neighbour with cache counters\n");
	for (unsigned k = 0; k < d->nsusp; k++) {
		const struct xg_suspect *x = &v->last_susp[k];
		char r[16];
		if (isfinite(x->r))
			snprintf(r, sizeof(r), "%.2f", x->r);
		else
			snprintf(r, sizeof(r), "-");
		fprintf(f, "  %-8s %s (id %u): r=%s, high in %u of its %d outlier windows%s%s; flagged in %u refresh%s\n",
			x->flagged ? "SUSPECT" : "-", xg_escape_name(e, sizeof(e), v->last_names[k]),
			(unsigned)v->last_ids[k], r, x->together, d->hits, x->sock_unknown ? ", socket unknown" : "",
			x->flagged ? "" : (x->together < cfg->hits ? " (too few windows)" : " (r too low)"),
			flagged_count(v, v->last_ids[k], v->last_names[k]),
			flagged_count(v, v->last_ids[k], v->last_names[k]) == 1 ? "" : "es");
	}
}

void contention_write(const struct xg_contention *c, FILE *f, const struct xg_susp_cfg *cfg,
		      const struct xg_report_info *info)
{
	char rule[160];
	susp_cfg_format(cfg, rule, sizeof(rule));
	fprintf(f, "Cache contention in %s: %llu intervals from ", info->file, (unsigned long long)info->intervals);
	put_time(f, info->from_ns);
	fputs(" to ", f);
	put_time(f, info->to_ns);
	fprintf(f, "\nRule: %s (a victim: CPI above max(mean + %g sd, mean x %g) of its baseline in %u of the "
		"last %u windows; a suspect: a same-socket neighbour with r >= %g whose cache pressure was "
		"above its own baseline in %u of those windows)\n\n", rule, cfg->sigma, 1 + cfg->min_rise / 100,
		cfg->hits, cfg->recent, cfg->min_r, cfg->hits);
	if (!c->judged) {
		fprintf(f, "no verdict: no domain had %u windows of CPI (cycles and instructions, or LLC misses and "
			"instructions) to judge\n", cfg->baseline < XG_SUSP_MIN_BASE ? XG_SUSP_MIN_BASE
			: XG_SUSP_MIN_BASE + cfg->recent);
		return;
	}
	if (!c->n)
		fprintf(f, "no cache victim: no domain's CPI rose above its baseline in %u of %u windows\n", cfg->hits,
			cfg->recent);
	for (size_t i = 0; i < c->n; i++) {
		if (i)
			fputc('\n', f);
		write_victim(f, &c->v[i], cfg);
	}
}
