// SPDX-License-Identifier: GPL-2.0-or-later
/* CMT/MBM per domain: RMID bookkeeping, per-socket reads, MBM wrap
 * handling. The hypervisor calls come from a table (xen_cmt_xc.c for
 * libxenctrl, a fake in the unit tests). */
#include "xgtop/xen/xen_cmt.h"
#include "xgtop/xen/xen_rundir.h"
#include "xen_cmt_mbm.h"
#include "xen_cmt_state.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define ATTACH_RETRY_NS 10000000000ull  /* after a failed attach (no RMID free ...) */

struct xen_cmt_dom {
	struct xg_dom_ident ident;          /* first: see struct xg_carry */
	uint32_t rmid;                      /* at the last read, 0 = none */
	bool ours;                          /* we attached it: we detach it */
	bool live;
	uint64_t retry_ns;                  /* no attach attempt before this */
	char why[160];                      /* the last attach failure */
	struct xg_mbm mbm[XG_CMT_SOCK_MAX][2];
};
_Static_assert(offsetof(struct xen_cmt_dom, ident) == 0, "carried entries start with the identity");

struct xg_cmt {
	const struct xg_cmt_ops *ops;
	void *h;
	bool attach;
	char why_all[200];
	char why_ev[XG_SOCK_EVENT_COUNT][96];
	uint32_t mask, factor, total_rmid;
	uint32_t cpus[XG_CMT_SOCK_MAX];
	unsigned nsock;
	struct xg_carry doms;               /* struct xen_cmt_dom, by domid */
	/* The state file (xen_cmt_keep_state): where, what it says now, and
	 * the domains a killed run left attached, to take over or detach
	 * at the first collect. */
	char state[256];
	char *state_text;
	struct xen_cmt_left *left;
	size_t nleft;
};

/* exit() anywhere (an allocation failure, a library) skips the source's
 * close; this keeps the one handle that owns RMIDs reachable from atexit so
 * they are still detached. Process-wide state, as an exit handler needs it
 * (src/README.md lists every such piece). */
static struct xg_cmt *cmt_owner;

static void cmt_atexit(void)
{
	if (cmt_owner)
		xen_cmt_close(cmt_owner);
}

static const char *const ev_name[XG_SOCK_EVENT_COUNT] = {
	"L3 occupancy (CMT)", "MBM total", "MBM local",
};
static const enum xg_field ev_field[XG_SOCK_EVENT_COUNT] = {
	XG_F_L3_OCC, XG_F_MBM_TOTAL, XG_F_MBM_LOCAL,
};

struct xg_cmt *xen_cmt_open(const struct xg_cmt_ops *ops, void *h, bool attach, struct xg_err *err)
{
	struct xg_cmt *c = xg_calloc(1, sizeof(*c));
	c->ops = ops;
	c->h = h;
	c->attach = attach;
	carry_init(&c->doms, sizeof(struct xen_cmt_dom));
	if (ops->enabled(h) != 1) {
		ops->why_off(h, c->why_all, sizeof(c->why_all));
	} else if (ops->upscaling(h, &c->factor) || !c->factor) {
		snprintf(c->why_all, sizeof(c->why_all), "CMT: xc_psr_cmt_get_l3_upscaling_factor "
			 "failed: %s", strerror(errno));
	} else if (ops->event_mask(h, &c->mask)) {
		snprintf(c->why_all, sizeof(c->why_all), "CMT: xc_psr_cmt_get_l3_event_mask failed: %s",
			 strerror(errno));
	} else {
		int n = ops->socket_cpus(h, c->cpus, XG_CMT_SOCK_MAX);
		if (n <= 0)
			snprintf(c->why_all, sizeof(c->why_all), "CMT: cannot find a CPU per socket "
				 "(xc_cputopoinfo: %s)", n < 0 ? strerror(errno) : "no socket");
		else
			c->nsock = (unsigned)n;
		if (ops->total_rmid(h, &c->total_rmid))
			c->total_rmid = 0;
	}
	for (int e = 0; e < XG_SOCK_EVENT_COUNT; e++)
		if (!c->why_all[0] && !((c->mask >> e) & 1))
			snprintf(c->why_ev[e], sizeof(c->why_ev[e]), "%s not supported by this CPU "
				 "(Xen's L3 event mask 0x%x)", ev_name[e], c->mask);
	if (c->why_all[0] && attach) {
		xg_fail(err, "--cmt-attach: %s: nothing attached", c->why_all);
		free(c);
		return NULL;
	}
	if (attach && !cmt_owner) {
		static bool registered;   /* atexit once per process, see cmt_owner */
		if (!registered && atexit(cmt_atexit) == 0)
			registered = true;
		cmt_owner = c;
	}
	return c;
}

void xen_cmt_keep_state(struct xg_cmt *c, const char *dir)
{
	if (c->why_all[0] || !xen_rundir_make(dir))
		return;   /* no RMID can be attached, or nowhere to say so */
	snprintf(c->state, sizeof(c->state), "%s/cmt.%ld.state", dir, (long)getpid());
	xen_cmts_claim(dir, &c->left, &c->nleft);
}

static void detach_failed(uint32_t id)
{
	fprintf(stderr, "xgtop: could not detach CMT from domain %u: %s (run: xl psr-cmt-detach %u)\n",
		id, strerror(errno), id);
}

/* A domain a killed run attached, if d is still that domain and has an
 * RMID: ours now, to keep with --cmt-attach (and detach at exit), else
 * detached at once. */
static void adopt(struct xg_cmt *c, const struct xg_dom *d, struct xen_cmt_dom *cd)
{
	for (size_t i = 0; i < c->nleft; i++) {
		uint32_t rmid = 0;
		if (c->left[i].id != d->id || memcmp(c->left[i].handle, d->handle, sizeof(d->handle)) ||
		    c->ops->get_rmid(c->h, d->id, &rmid) || !rmid)
			continue;
		if (c->attach)
			cd->ours = true;
		else if (c->ops->detach(c->h, d->id))
			detach_failed(d->id);
		return;
	}
}

/* The state file says which domains have an RMID of ours now. */
static void save_state(struct xg_cmt *c)
{
	struct xen_cmt_left *v = xg_calloc(c->doms.n + 1, sizeof(*v));
	size_t n = 0;
	for (size_t i = 0; i < c->doms.n; i++) {
		const struct xen_cmt_dom *cd = carry_at(&c->doms, i);
		if (!cd->ours)
			continue;
		v[n].id = cd->ident.id;
		memcpy(v[n++].handle, cd->ident.handle, sizeof(v->handle));
	}
	xen_cmts_write(c->state, v, n, &c->state_text);
	free(v);
}

/* Gives d an RMID when allowed; returns its RMID (0 = none) and sets why
 * when there is none. */
static uint32_t ensure_rmid(struct xg_cmt *c, struct xen_cmt_dom *cd, uint32_t rmid, uint64_t now_ns,
			    const char **why)
{
	if (rmid) {
		cd->why[0] = 0;
		return rmid;
	}
	/* Someone else (xl psr-cmt-detach) took it away: not ours any more. */
	cd->ours = false;
	if (!c->attach) {
		*why = "not monitored: the domain has no CMT RMID (xgtop --cmt-attach, or "
		       "xl psr-cmt-attach DOMID)";
		return 0;
	}
	if (now_ns < cd->retry_ns) {
		*why = cd->why;
		return 0;
	}
	if (c->ops->attach(c->h, cd->ident.id)) {
		int e = errno;
		if (e == EOVERFLOW)
			snprintf(cd->why, sizeof(cd->why), "no free RMID: xc_psr_cmt_attach: %s (Xen has "
				 "%u; psr=cmt,rmid_max:N or detach others)", strerror(e), c->total_rmid);
		else
			snprintf(cd->why, sizeof(cd->why), "xc_psr_cmt_attach failed: %s", strerror(e));
		cd->retry_ns = now_ns + ATTACH_RETRY_NS;
		*why = cd->why;
		return 0;
	}
	cd->ours = true;
	int rc = c->ops->get_rmid(c->h, cd->ident.id, &rmid);
	if (rc || !rmid) {
		snprintf(cd->why, sizeof(cd->why), "attached, but xc_psr_cmt_get_domain_rmid "
			 "%s", rc ? strerror(errno) : "still says RMID 0");
		*why = cd->why;
		return 0;
	}
	cd->why[0] = 0;
	return rmid;
}

static void read_dom(struct xg_cmt *c, struct xg_sample *s, struct xg_dom *d, struct xen_cmt_dom *cd,
		     uint64_t now_ns)
{
	uint32_t rmid = 0;
	const char *why = NULL;
	char buf[160];
	if (c->ops->get_rmid(c->h, d->id, &rmid)) {
		snprintf(buf, sizeof(buf), "xc_psr_cmt_get_domain_rmid failed: %s", strerror(errno));
		why = buf;
	} else {
		rmid = ensure_rmid(c, cd, rmid, now_ns, &why);
	}
	/* Another RMID, other counters: new baselines, same totals. */
	bool rebased = false;
	if (rmid != cd->rmid) {
		for (unsigned k = 0; k < XG_CMT_SOCK_MAX; k++)
			cd->mbm[k][0].width = cd->mbm[k][1].width = 0;
		rebased = cd->rmid && rmid;
	}
	cd->rmid = rmid;
	if (!rmid) {
		for (int e = 0; e < XG_SOCK_EVENT_COUNT; e++)
			dom_invalid(s, d, ev_field[e], why);
		return;
	}
	struct xg_sock *ks = sample_add_socks(s, d, c->nsock);
	for (unsigned k = 0; k < c->nsock; k++)
		ks[k].socket = k;
	for (int e = 0; e < XG_SOCK_EVENT_COUNT; e++) {
		if (c->why_ev[e][0]) {
			dom_invalid(s, d, ev_field[e], c->why_ev[e]);
			continue;
		}
		uint64_t sum = 0;
		const char *bad = NULL;
		for (unsigned k = 0; k < c->nsock; k++) {
			uint64_t raw = 0;
			errno = 0;
			if (c->ops->get_data(c->h, rmid, c->cpus[k], (enum xg_sock_event)e, &raw)) {
				if (errno)
					snprintf(buf, sizeof(buf), "%s: xc_psr_cmt_get_data failed on socket "
						 "%u: %s", ev_name[e], k, strerror(errno));
				else
					snprintf(buf, sizeof(buf), "%s: the counter of socket %u reports "
						 "Error/Unavailable (no data for this RMID yet)", ev_name[e], k);
				bad = buf;
				continue;
			}
			uint64_t v;
			if (e == XG_SOCK_L3_OCC) {
				v = raw * c->factor;
			} else {
				struct xg_mbm *m = &cd->mbm[k][e - 1];
				enum xg_mbm_rc rc = xen_cmt_mbm_advance(m, raw, now_ns);
				if (rc == XG_MBM_GAP)
					bad = XG_CMT_WHY_GAP;
				else if (rc == XG_MBM_RESET || rebased)
					bad = XG_CMT_WHY_RESET;
				v = m->total * c->factor;
			}
			sum += v;
			sock_set(&ks[k], (enum xg_sock_event)e, v);
		}
		/* A partial sum would read as a real figure. */
		if (bad) {
			for (unsigned k = 0; k < c->nsock; k++)
				sock_invalid(&ks[k], (enum xg_sock_event)e);
			dom_invalid(s, d, ev_field[e], bad);
		} else {
			dom_set(d, ev_field[e], sum);
		}
	}
}

void xen_cmt_collect(struct xg_cmt *c, struct xg_sample *s, uint64_t now_ns)
{
	if (c->why_all[0]) {
		for (int e = 0; e < XG_SOCK_EVENT_COUNT; e++)
			sample_invalid_all(s, ev_field[e], c->why_all);
		return;
	}
	carry_begin(&c->doms, s->ndom);
	for (size_t i = 0; i < s->ndom; i++) {
		struct xg_dom *d = &s->dom[i];
		if (i && d->id <= s->dom[i - 1].id)
			continue;   /* sources list each domain once, in id order */
		/* A domid reused by another domain is a fresh entry (Xen freed
		 * the old domain's RMID with it); a renamed domain keeps its
		 * entry, so the RMID we attached is still ours to detach, and
		 * not attached twice. */
		struct xen_cmt_dom *cd = carry_take(&c->doms, d, XG_SAME_OBJECT);
		if (c->nleft)
			adopt(c, d, cd);
		read_dom(c, s, d, cd, now_ns);
	}
	/* Entries left behind belong to domains that are gone: Xen released
	 * their RMIDs when it destroyed them, nothing to detach. So did a
	 * killed run's domains not seen now. */
	carry_end(&c->doms);
	c->nleft = 0;
	if (c->state[0])
		save_state(c);
}

int xen_cmt_close(struct xg_cmt *c)
{
	if (!c)
		return 0;
	int failed = 0;
	for (size_t i = 0; i < c->doms.n; i++) {
		struct xen_cmt_dom *cd = carry_at(&c->doms, i);
		if (!cd->ours)
			continue;
		cd->ours = false;
		/* ESRCH: the domain went away since the last refresh, and its
		 * RMID with it. */
		if (c->ops->detach(c->h, cd->ident.id) && errno != ESRCH) {
			detach_failed(cd->ident.id);
			failed++;
		}
	}
	/* A detach that failed stays written down: the next start tries it. */
	if (c->state[0] && !failed)
		xen_cmts_write(c->state, NULL, 0, &c->state_text);
	if (cmt_owner == c)
		cmt_owner = NULL;
	carry_free(&c->doms);
	free(c->state_text);
	free(c->left);
	free(c);
	return failed;
}
