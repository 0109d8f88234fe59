// SPDX-License-Identifier: GPL-2.0-or-later
/* libFuzzer harness: what a guest writes under its xenstore data/xgtop/
 * (the --agent publication) as dom0 reads it, refresh after refresh. The
 * input is publications separated by 0xff bytes; each is a byte of dom0
 * time step (in 10 ms), two bytes whose low 7 bits say which keys are
 * present, then the present keys' values separated by '\n', each handed
 * over unterminated as xenstore does. Checks: a rejection has a reason; an accepted publication
 * written back by the agent's formatter reads back the same; dom0's totals
 * come out valid or with a reason. */
#include "fuzz.h"

#include "xgtop/xen/xen_guestpub.h"

static void parse_one(const uint8_t *p, size_t n, struct xg_guestpub *out, const char **why)
{
	const char *val[XG_GP_NKEYS] = { 0 };
	size_t len[XG_GP_NKEYS] = { 0 };
	char *copy[XG_GP_NKEYS] = { 0 };
	unsigned mask = n >= 2 ? (p[0] & 0x7fu) | (p[1] & 0x7fu) << 7 : 0;
	struct fz f = { p + (n >= 2 ? 2 : n), n >= 2 ? n - 2 : 0 };
	for (int k = 0; k < XG_GP_NKEYS; k++) {
		const uint8_t *v;
		if (!(mask >> k & 1) || !fz_next(&f, '\n', &v, &len[k]))
			continue;
		val[k] = copy[k] = fz_dup(v, len[k]);
	}
	*why = xen_gp_parse(out, val, len);
	for (int k = 0; k < XG_GP_NKEYS; k++)
		free(copy[k]);
}

/* The agent's own writer and dom0's reader agree on anything accepted. */
static void round_trip(const struct xg_guestpub *p)
{
	char text[XG_GP_NKEYS][XG_GP_VAL_MAX];
	const char *val[XG_GP_NKEYS];
	size_t len[XG_GP_NKEYS];
	xen_gp_format(p, text);
	for (int k = 0; k < XG_GP_NKEYS; k++) {
		len[k] = strlen(text[k]);
		/* "" is a counter the agent removes; labels are written as they are */
		val[k] = len[k] || k >= XG_GP_K_EVENTS ? text[k] : NULL;
	}
	struct xg_guestpub q;
	if (xen_gp_parse(&q, val, len))
		abort();
	if (q.epoch != p->epoch || q.time_ns != p->time_ns || q.interval_ms != p->interval_ms ||
	    q.have != p->have || strcmp(q.events, p->events) || strcmp(q.why, p->why))
		abort();
	for (int e = 0; e < XG_PMU_EVENT_COUNT; e++)
		if ((p->have >> e & 1) && q.v[e] != p->v[e])
			abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct xg_gp_state st = { 0 };
	struct xg_sample s;
	sample_init(&s);
	struct fz f = { data, size };
	const uint8_t *pub;
	size_t n;
	uint64_t now = 1000000000;
	while (fz_next(&f, 0xff, &pub, &n)) {
		struct xg_guestpub p;
		const char *why;
		if (n)
			now += (uint64_t)pub[0] * 10000000;
		parse_one(n ? pub + 1 : pub, n ? n - 1 : 0, &p, &why);
		if (why && !*why)
			abort();
		if (why)
			continue;
		round_trip(&p);
		why = xen_gp_fold(&st, &p, now);
		sample_clear(&s);
		struct xg_dom *d = sample_add_dom(&s, 7);
		if (why) {
			if (!*why)
				abort();
			continue;
		}
		xen_gp_fill(&s, d, &st);
		for (int e = 0; e < XG_PMU_EVENT_COUNT; e++)
			if (!dom_has(d, XG_F_LLC_REF + e) && !dom_why(&s, d, XG_F_LLC_REF + e))
				abort();
	}
	sample_free(&s);
	return 0;
}
