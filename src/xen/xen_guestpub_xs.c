// SPDX-License-Identifier: GPL-2.0-or-later
/* dom0's reader of guest-published counters: /local/domain/<id>/data/xgtop/
 * for every domain, once per refresh. A domain without an agent costs one
 * xenstore read (time_ns); with one, each key once, bracketed by time_ns
 * read before and after: the agent rewrites time_ns in every transaction,
 * so equal values mean the keys in between belong to one publication. */
#ifdef HAVE_XEN

#include "xgtop/xen/xen_guestpub.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xen_api.h"

struct gp_dom {
	struct xg_dom_ident ident;   /* first: see struct xg_carry */
	struct xg_gp_state st;
	char events[XG_GP_VAL_MAX];
};
_Static_assert(offsetof(struct gp_dom, ident) == 0, "carried entries start with the identity");

struct xg_gpreader {
	const struct xen_api *x;
	struct xg_carry doms;        /* struct gp_dom of domains with an agent */
};

struct xg_gpreader *gpr_open(const struct xen_api *x)
{
	struct xg_gpreader *r = xg_calloc(1, sizeof(*r));
	r->x = x;
	carry_init(&r->doms, sizeof(struct gp_dom));
	return r;
}

void gpr_close(struct xg_gpreader *r)
{
	if (!r)
		return;
	carry_free(&r->doms);
	free(r);
}

static char *read_key(struct xg_gpreader *r, uint32_t domid, int k, size_t *len)
{
	char path[96];
	unsigned l = 0;
	snprintf(path, sizeof(path), "/local/domain/%u/" XG_GP_DIR "/%s", domid, xg_gp_key[k]);
	char *v = r->x->xs_read(r->x->xsh, XBT_NULL, path, &l);
	*len = l;
	return v;
}

/* 0 with p filled, 1 when the domain has no agent, -1 with *why. */
static int read_pub(struct xg_gpreader *r, uint32_t domid, struct xg_guestpub *p, const char **why)
{
	for (int attempt = 0; attempt < 3; attempt++) {
		size_t len[XG_GP_NKEYS] = { 0 }, tlen = 0;
		char *val[XG_GP_NKEYS] = { 0 };
		val[XG_GP_K_TIME] = read_key(r, domid, XG_GP_K_TIME, &len[XG_GP_K_TIME]);
		if (!val[XG_GP_K_TIME])
			return 1;
		for (int k = 0; k < XG_GP_NKEYS; k++)
			if (k != XG_GP_K_TIME)
				val[k] = read_key(r, domid, k, &len[k]);
		char *t2 = read_key(r, domid, XG_GP_K_TIME, &tlen);
		bool same = t2 && tlen == len[XG_GP_K_TIME] && !memcmp(t2, val[XG_GP_K_TIME], tlen);
		*why = same ? gp_parse(p, (const char *const *)val, len) : NULL;
		free(t2);
		for (int k = 0; k < XG_GP_NKEYS; k++)
			free(val[k]);
		if (same)
			return *why ? -1 : 0;
	}
	*why = "guest agent data changed during every read (writing too fast?)";
	return -1;
}

void gpr_collect(struct xg_gpreader *r, struct xg_sample *s, uint64_t now_ns)
{
	carry_begin(&r->doms, s->ndom);
	size_t nrep = 0;
	const char *label = NULL;
	bool mixed = false;
	for (size_t i = 0; i < s->ndom; i++) {
		struct xg_dom *d = &s->dom[i];
		struct xg_guestpub p;
		const char *why = NULL;
		int rc = read_pub(r, d->id, &p, &why);
		if (rc == 1) {
			for (int e = 0; e < XG_PMU_EVENT_COUNT; e++)
				dom_invalid(s, d, XG_F_LLC_REF + e, XG_GP_WHY_NOAGENT);
			continue;
		}
		/* Only domains with an agent keep state across refreshes. A
		 * domid reused by another domain starts afresh; a renamed
		 * domain runs the same agent, whose totals carry on. */
		struct gp_dom *g = carry_take(&r->doms, d, XG_SAME_OBJECT);
		if (rc == 0)
			why = gp_fold(&g->st, &p, now_ns);
		if (why) {
			d->guest_reported = 1;
			for (int e = 0; e < XG_PMU_EVENT_COUNT; e++)
				dom_invalid(s, d, XG_F_LLC_REF + e, why);
			continue;
		}
		gp_fill(s, d, &g->st);
		snprintf(g->events, sizeof(g->events), "%s", p.events);
		if (!label)
			label = g->events;
		else if (strcmp(label, g->events))
			mixed = true;
		nrep++;
	}
	carry_end(&r->doms);
	if (nrep && mixed)
		snprintf(s->host.cache_events, sizeof(s->host.cache_events),
			 "guest-reported by xgtop --agent (events differ per guest)");
	else if (nrep)
		snprintf(s->host.cache_events, sizeof(s->host.cache_events),
			 "guest-reported by xgtop --agent: %.60s", label);
}

#endif /* HAVE_XEN */
