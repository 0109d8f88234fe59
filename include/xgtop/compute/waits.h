/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A domain's wait totals (struct xg_waits) as a reader wants them: whom
 * it waited behind, ranked, with seconds and shares, in the last interval
 * or since the source began; and the wait lengths per bucket in the
 * interval. For the detail pane, --explain and xgtop report. */
#ifndef XGTOP_COMPUTE_WAITS_H
#define XGTOP_COMPUTE_WAITS_H

#include "xgtop/model/sample.h"

/* One entry of a ranked list; other = true for the rest. */
struct xg_wait_rank {
	uint32_t who;
	bool other;
	uint64_t ns;
	double share;              /* of the whole, 0..1 */
};
#define XG_WAIT_RANKS (XG_BEHIND_TOP + 1)

/* d's culprits, biggest first, then "other" when the named ones do not
 * make up the whole; since_start: the running totals, else the last
 * interval's parts of XG_F_BEHIND_WAIT_NS. Returns how many entries (0:
 * nothing measured or no wait: *whole is then 0). */
size_t waits_ranked(const struct xg_sample *s, const struct xg_dom *d, bool since_start,
                    struct xg_wait_rank out[XG_WAIT_RANKS], uint64_t *whole);
/* A culprit's name: the domain's in s (raw bytes), "idle", "xen" ("host"
 * when d's host is a Linux one), or "dom N" (in buf) when it is not in s. */
const char *waits_culprit(const struct xg_sample *s, const struct xg_dom *d, uint32_t who, char *buf, size_t n);
/* The waits per length bucket between d's entry in prev (the same domain,
 * else none: then since the start) and in cur; false when cur has none. */
bool waits_hist(const struct xg_sample *prev, const struct xg_sample *cur, const struct xg_dom *d,
                uint64_t out[XG_WAIT_LE_N + 1]);
/* Bucket i's upper bound as text ("8.2us", "1.05ms", "1.07s"; "inf" for
 * the last). */
void waits_bound_text(unsigned i, char *buf, size_t n);

#endif
