// SPDX-License-Identifier: GPL-2.0-or-later
/* dom0's reader of guest-published counters: /local/domain/<id>/data/xgtop/
 * for every domain, once per refresh. A domain without an agent costs one
 * xenstore read (time_ns); with one, each key once, bracketed by time_ns
 * read before and after: the agent rewrites time_ns in every transaction,
 * so equal values mean the keys in between belong to one publication.
 * What a guest can make dom0 do is bounded: at most XEN_GPR_ATTEMPTS brackets
 * of XG_GP_NKEYS + 1 reads, each answer cut to XG_GP_VAL_MAX bytes (the
 * client reads at most xenstore's 4 KiB payload into its own buffer), and
 * only these keys: thousands of others under data/ cost nothing. */
#ifdef HAVE_XEN

#include "xgtop/xen/xen_guestpub.h"
#include "xgtop/xen/xen_xsclient.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define XEN_GPR_ATTEMPTS 3

struct xen_gp_dom {
	struct xg_dom_ident ident;   /* first: see struct xg_carry */
	struct xg_gp_state st;
	char events[XG_GP_VAL_MAX];
};
_Static_assert(offsetof(struct xen_gp_dom, ident) == 0, "carried entries start with the identity");

struct xg_gpreader {
	struct xsc *xs;
	struct xg_carry doms;        /* struct xen_gp_dom of domains with an agent */
	struct xen_gpr_stats st;
};

struct xg_gpreader *xen_gpr_open(struct xsc *xs)
{
	struct xg_gpreader *r = xg_calloc(1, sizeof(*r));
	r->xs = xs;
	carry_init(&r->doms, sizeof(struct xen_gp_dom));
	return r;
}

void xen_gpr_close(struct xg_gpreader *r)
{
	if (!r)
		return;
	carry_free(&r->doms);
	free(r);
}

void xen_gpr_stats(const struct xg_gpreader *r, struct xen_gpr_stats *st)
{
	*st = r->st;
}

/* One key's value (cut to XG_GP_VAL_MAX: longer is never valid). */
struct xen_gp_val {
	char b[XG_GP_VAL_MAX + 1];
	size_t len;
	enum xen_xs_rc rc;
};

static enum xen_xs_rc read_key(struct xg_gpreader *r, uint32_t domid, int k, struct xen_gp_val *v)
{
	char path[96];
	snprintf(path, sizeof(path), "/local/domain/%u/" XG_GP_DIR "/%s", domid, xen_gp_key[k]);
	v->rc = xen_xs_read(r->xs, path, v->b, sizeof(v->b), &v->len);
	return v->rc;
}

/* One bracket: time_ns, every other key, time_ns again. 0: *p filled (or
 * *why says why the publication is rejected), 1: no agent, 2: time_ns
 * changed meanwhile, -1: xenstore failed. */
static int read_once(struct xg_gpreader *r, uint32_t domid, struct xg_guestpub *p, const char **why)
{
	struct xen_gp_val val[XG_GP_NKEYS], t2;
	enum xen_xs_rc rc = read_key(r, domid, XG_GP_K_TIME, &val[XG_GP_K_TIME]);
	if (rc != XEN_XS_OK)
		return rc == XEN_XS_ABSENT ? 1 : -1;
	for (int k = 0; k < XG_GP_NKEYS; k++)
		if (k != XG_GP_K_TIME && read_key(r, domid, k, &val[k]) == XEN_XS_FAIL)
			return -1;
	if (read_key(r, domid, XG_GP_K_TIME, &t2) == XEN_XS_FAIL)
		return -1;
	if (t2.rc != XEN_XS_OK || t2.len != val[XG_GP_K_TIME].len ||
	    memcmp(t2.b, val[XG_GP_K_TIME].b, t2.len))
		return 2;
	const char *v[XG_GP_NKEYS];
	size_t len[XG_GP_NKEYS];
	for (int k = 0; k < XG_GP_NKEYS; k++) {
		v[k] = val[k].rc == XEN_XS_OK ? val[k].b : NULL;
		len[k] = val[k].len;
	}
	*why = xen_gp_parse(p, v, len);
	return 0;
}

/* 0 with p filled, 1 when the domain has no agent, -1 with *why (the
 * guest's data was rejected), -2 with *why (xenstore failed). */
static int read_pub(struct xg_gpreader *r, uint32_t domid, struct xg_guestpub *p, const char **why)
{
	for (int attempt = 0; attempt < XEN_GPR_ATTEMPTS; attempt++) {
		int rc = read_once(r, domid, p, why);
		if (rc == -1) {
			*why = xen_xs_why(r->xs);
			return -2;
		}
		if (rc == 1)
			return 1;
		if (rc == 0)
			return *why ? -1 : 0;
	}
	*why = "guest agent data changed during every read (writing too fast?)";
	return -1;
}

/* The figures of d, once its publication is read (rc of read_pub): true
 * when they are filled, false when `-` with the reason. */
static bool fill_dom(struct xg_sample *s, struct xg_dom *d, struct xen_gp_dom *g, int rc,
		     const struct xg_guestpub *p, const char *why, uint64_t now_ns)
{
	if (rc == 0)
		why = xen_gp_fold(&g->st, p, now_ns);
	if (why) {
		d->guest_reported = rc != -2 || g->st.started;
		for (int e = 0; e < XG_PMU_EVENT_COUNT; e++)
			dom_invalid(s, d, XG_F_LLC_REF + e, why);
		return false;
	}
	xen_gp_fill(s, d, &g->st);
	snprintf(g->events, sizeof(g->events), "%s", p->events);
	return true;
}

void xen_gpr_collect(struct xg_gpreader *r, struct xg_sample *s, uint64_t now_ns)
{
	carry_begin(&r->doms, s->ndom);
	size_t nrep = 0;
	const char *label = NULL;
	bool mixed = false;
	for (size_t i = 0; i < s->ndom; i++) {
		struct xg_dom *d = &s->dom[i];
		struct xg_guestpub p;
		const char *why = NULL;
		struct xen_xs_stats a, b;
		xen_xs_stats(r->xs, &a);
		int rc = read_pub(r, d->id, &p, &why);
		xen_xs_stats(r->xs, &b);
		if (b.requests - a.requests > r->st.max_dom_reqs)
			r->st.max_dom_reqs = b.requests - a.requests;
		if (b.bytes - a.bytes > r->st.max_dom_bytes)
			r->st.max_dom_bytes = b.bytes - a.bytes;
		if (rc == 1) {
			for (int e = 0; e < XG_PMU_EVENT_COUNT; e++)
				dom_invalid(s, d, XG_F_LLC_REF + e, XG_GP_WHY_NOAGENT);
			continue;
		}
		/* Domains with an agent keep state across refreshes, and so does
		 * every domain while xenstore fails (whether it has an agent is
		 * unknown then). A domid reused by another domain starts
		 * afresh; a renamed domain runs the same agent, whose totals
		 * carry on. */
		struct xen_gp_dom *g = carry_take(&r->doms, d, XG_SAME_OBJECT);
		if (!fill_dom(s, d, g, rc, &p, why, now_ns))
			continue;
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
