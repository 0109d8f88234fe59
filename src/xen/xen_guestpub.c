// SPDX-License-Identifier: GPL-2.0-or-later
/* Guest-published counters: the format an agent writes, the checks dom0
 * applies before believing any of it, and dom0's monotonic totals. */
#include "xgtop/xen/xen_guestpub.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

const char *const xen_gp_key[XG_GP_NKEYS] = {
	[XG_GP_K_VERSION] = "version", [XG_GP_K_EPOCH] = "epoch", [XG_GP_K_TIME] = "time_ns",
	[XG_GP_K_INTERVAL] = "interval_ms", [XG_GP_K_REF] = "llc_ref", [XG_GP_K_MISS] = "llc_miss",
	[XG_GP_K_INSTR] = "instr", [XG_GP_K_CYCLES] = "cycles", [XG_GP_K_EVENTS] = "events",
	[XG_GP_K_WHY] = "why",
};

/* A non-negative decimal of at most 20 digits in the len bytes at s (no
 * sign, spaces or other bytes); false on anything else or overflow. */
static bool gp_parse_u64(const char *s, size_t len, uint64_t *out)
{
	if (!s || !len || len > 20)
		return false;
	uint64_t v = 0;
	for (size_t i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		unsigned d = (unsigned)(s[i] - '0');
		if (v > (UINT64_MAX - d) / 10)
			return false;
		v = v * 10 + d;
	}
	*out = v;
	return true;
}

/* Printable ASCII only, bounded: the label may reach a terminal. */
static bool copy_label(char *dst, const char *s, size_t len)
{
	if (len >= XG_GP_VAL_MAX)
		return false;
	for (size_t i = 0; i < len; i++)
		if ((unsigned char)s[i] < 0x20 || (unsigned char)s[i] > 0x7e)
			return false;
	memcpy(dst, s, len);
	dst[len] = 0;
	return true;
}

const char *xen_gp_parse(struct xg_guestpub *out, const char *const val[XG_GP_NKEYS],
		     const size_t len[XG_GP_NKEYS])
{
	memset(out, 0, sizeof(*out));
	uint64_t ver;
	if (!val[XG_GP_K_VERSION] || !gp_parse_u64(val[XG_GP_K_VERSION], len[XG_GP_K_VERSION], &ver))
		return "guest agent data unreadable: data/xgtop/version missing or not a number";
	if (ver != XG_GP_VERSION)
		return "guest agent data in an unknown format (data/xgtop/version is not 1)";
	if (!gp_parse_u64(val[XG_GP_K_EPOCH], len[XG_GP_K_EPOCH], &out->epoch) ||
	    !gp_parse_u64(val[XG_GP_K_TIME], len[XG_GP_K_TIME], &out->time_ns))
		return "guest agent data rejected: data/xgtop/epoch or time_ns missing or not a number";
	out->interval_ms = 1000;
	if (val[XG_GP_K_INTERVAL] &&
	    (!gp_parse_u64(val[XG_GP_K_INTERVAL], len[XG_GP_K_INTERVAL], &out->interval_ms) ||
	     out->interval_ms < 10 || out->interval_ms > 3600000))
		return "guest agent data rejected: data/xgtop/interval_ms not a number of ms in 10..3600000";
	for (int e = 0; e < XG_PMU_EVENT_COUNT; e++) {
		int k = XG_GP_K_REF + e;
		if (!val[k])
			continue;
		if (!gp_parse_u64(val[k], len[k], &out->v[e]))
			return "guest agent data rejected: a counter in data/xgtop is not a "
			       "decimal number of at most 20 digits";
		out->have |= 1u << e;
	}
	if (!val[XG_GP_K_EVENTS] || !copy_label(out->events, val[XG_GP_K_EVENTS], len[XG_GP_K_EVENTS]))
		snprintf(out->events, sizeof(out->events), "(no readable label)");
	if (!val[XG_GP_K_WHY] || !copy_label(out->why, val[XG_GP_K_WHY], len[XG_GP_K_WHY]))
		out->why[0] = 0;
	return NULL;
}

void xen_gp_format(const struct xg_guestpub *p, char val[XG_GP_NKEYS][XG_GP_VAL_MAX])
{
	snprintf(val[XG_GP_K_VERSION], XG_GP_VAL_MAX, "%d", XG_GP_VERSION);
	snprintf(val[XG_GP_K_EPOCH], XG_GP_VAL_MAX, "%" PRIu64, p->epoch);
	snprintf(val[XG_GP_K_TIME], XG_GP_VAL_MAX, "%" PRIu64, p->time_ns);
	snprintf(val[XG_GP_K_INTERVAL], XG_GP_VAL_MAX, "%" PRIu64, p->interval_ms);
	for (int e = 0; e < XG_PMU_EVENT_COUNT; e++) {
		char *v = val[XG_GP_K_REF + e];
		if ((p->have >> e) & 1)
			snprintf(v, XG_GP_VAL_MAX, "%" PRIu64, p->v[e]);
		else
			v[0] = 0;
	}
	/* Labels are bounded and printable on the way out too. */
	size_t n = 0;
	for (const char *s = p->events; *s && n + 1 < XG_GP_VAL_MAX; s++)
		val[XG_GP_K_EVENTS][n++] = *s >= 0x20 && *s <= 0x7e ? *s : '?';
	val[XG_GP_K_EVENTS][n] = 0;
	n = 0;
	for (const char *s = p->why; *s && n + 1 < XG_GP_VAL_MAX; s++)
		val[XG_GP_K_WHY][n++] = *s >= 0x20 && *s <= 0x7e ? *s : '?';
	val[XG_GP_K_WHY][n] = 0;
}

static void baseline(struct xg_gp_state *st, const struct xg_guestpub *p, uint64_t now_ns)
{
	st->epoch = p->epoch;
	st->time_ns = p->time_ns;
	memcpy(st->last, p->v, sizeof(st->last));
	st->have = p->have;
	st->changed_ns = now_ns;
	st->interval_ms = p->interval_ms;
}

const char *xen_gp_fold(struct xg_gp_state *st, const struct xg_guestpub *p, uint64_t now_ns)
{
	if (!st->started) {
		memset(st, 0, sizeof(*st));
		st->started = true;
		baseline(st, p, now_ns);
		return NULL;
	}
	bool back = p->epoch != st->epoch || p->time_ns < st->time_ns;
	for (int e = 0; e < XG_PMU_EVENT_COUNT; e++)
		if ((p->have & st->have) >> e & 1 && p->v[e] < st->last[e])
			back = true;
	if (back) {
		baseline(st, p, now_ns);
		return XG_GP_WHY_RESET;
	}
	if (p->time_ns == st->time_ns) {
		/* Nothing new since the last refresh: fine for a while. */
		uint64_t limit = st->interval_ms * 3000000ull + 2000000000ull;
		if (now_ns > st->changed_ns && now_ns - st->changed_ns > limit)
			return XG_GP_WHY_STALE;
		return NULL;
	}
	for (int e = 0; e < XG_PMU_EVENT_COUNT; e++)
		if ((p->have & st->have) >> e & 1)
			st->total[e] += p->v[e] - st->last[e];
	/* A counter that appears starts from here; one that disappears keeps
	 * its total for when it comes back. */
	baseline(st, p, now_ns);
	return NULL;
}

void xen_gp_fill(struct xg_sample *s, struct xg_dom *d, const struct xg_gp_state *st)
{
	d->guest_reported = 1;
	for (int e = 0; e < XG_PMU_EVENT_COUNT; e++) {
		if ((st->have >> e) & 1)
			dom_set(d, XG_F_LLC_REF + e, st->total[e]);
		else
			dom_invalid(s, d, XG_F_LLC_REF + e, XG_GP_WHY_ABSENT);
	}
}
