// SPDX-License-Identifier: GPL-2.0-or-later
/* The host's domains' CPU and runstate seconds as counters of the
 * exporter's own (xgtop_host_domains_cpu_seconds_total and
 * xgtop_host_domains_runstate_seconds_total): a server asked for the
 * summary line's totals reads one series a host (and runstate) where it
 * would take delta() of every domain's series and sum them. */
#include "xgtop/exporter/render.h"

#include <stdlib.h>
#include <string.h>

/* A domain of the last sample stepped, and its counters then. */
struct expo_tot_dom {
	struct xg_dom_ident ident;
	uint16_t host;                  /* the pool view's peer: (host, id) is its key */
	uint8_t valid;                  /* bit k: v[k] measured */
	uint64_t v[XG_EXPO_TOT_COUNT];
};

/* The field that figure k sums. */
static enum xg_field tot_field(int k)
{
	return k ? sched_field((enum xg_runstate)(k - 1)) : XG_F_CPU_NS;
}

static int cmp_key(const void *a, const void *b)
{
	const struct expo_tot_dom *x = a, *y = b;
	if (x->host != y->host)
		return x->host < y->host ? -1 : 1;
	return x->ident.id < y->ident.id ? -1 : x->ident.id > y->ident.id;
}

void expo_totals_step(struct xg_expo_totals *t, const struct xg_sample *s)
{
	struct expo_tot_dom *now = xg_calloc(s->ndom + 1, sizeof(*now));
	t->measured = 0;
	for (size_t i = 0; i < s->ndom; i++) {
		const struct xg_dom *d = &s->dom[i];
		struct expo_tot_dom *e = &now[i];
		e->ident = dom_ident(d);
		e->host = d->host;
		for (int k = 0; k < XG_EXPO_TOT_COUNT; k++)
			if (dom_has(d, tot_field(k))) {
				e->v[k] = d->v[tot_field(k)];
				e->valid |= (uint8_t)(1u << k);
			}
		t->measured |= e->valid;
		/* A rename keeps the object and its CPU time (XG_SAME_OBJECT);
		 * a restart under the same id starts again from its own 0. */
		const struct expo_tot_dom *was = t->ndom ? bsearch(e, t->dom, t->ndom, sizeof(*e), cmp_key) : NULL;
		if (!was || !dom_same(&was->ident, d, XG_SAME_OBJECT))
			continue;
		for (int k = 0; k < XG_EXPO_TOT_COUNT; k++)
			if ((e->valid & was->valid) >> k & 1 && e->v[k] >= was->v[k])
				t->ns[k] += e->v[k] - was->v[k];
	}
	qsort(now, s->ndom, sizeof(*now), cmp_key);
	free(t->dom);
	t->dom = now;
	t->ndom = s->ndom;
}

void expo_totals_free(struct xg_expo_totals *t)
{
	free(t->dom);
	memset(t, 0, sizeof(*t));
}
