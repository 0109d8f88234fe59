// SPDX-License-Identifier: GPL-2.0-or-later
/* A domain's wait totals as ranked lists and interval histograms (see
 * waits.h). */
#include "xgtop/compute/waits.h"

#include <stdio.h>
#include <string.h>

size_t waits_ranked(const struct xg_sample *s, const struct xg_dom *d, bool since_start,
                    struct xg_wait_rank out[XG_WAIT_RANKS], uint64_t *whole)
{
	*whole = 0;
	const struct xg_waits *w = sample_waits(s, d);
	if (!w)
		return 0;
	const struct xg_wait_part *part = since_start ? w->top : w->last;
	uint32_t np = since_start ? w->ntop : w->nlast;
	if (np > XG_BEHIND_TOP)
		np = XG_BEHIND_TOP;
	uint64_t all = since_start ? w->total_ns : dom_has(d, XG_F_BEHIND_WAIT_NS) ? d->v[XG_F_BEHIND_WAIT_NS] : 0;
	if (!all)
		return 0;
	uint64_t named = 0;
	size_t k = 0;
	for (uint32_t i = 0; i < np; i++) {
		out[k++] = (struct xg_wait_rank){ part[i].who, false, part[i].ns, (double)part[i].ns / (double)all };
		named += part[i].ns;
	}
	if (named < all)
		out[k++] = (struct xg_wait_rank){ 0, true, all - named, (double)(all - named) / (double)all };
	*whole = all;
	return k;
}

const char *waits_culprit(const struct xg_sample *s, const struct xg_dom *d, uint32_t who, char *buf, size_t n)
{
	if (who == XG_BEHIND_IDLE)
		return "idle";
	if (who == XG_BEHIND_XEN)   /* on Linux nothing of a hypervisor runs */
		return strcmp(sample_dom_host(s, d)->source, "linux") ? "xen" : "host";
	for (size_t i = 0; i < s->ndom; i++)
		if (s->dom[i].id == who && s->dom[i].host == d->host)
			return s->dom[i].name;
	snprintf(buf, n, "dom %u", (unsigned)who);
	return buf;
}

bool waits_hist(const struct xg_sample *prev, const struct xg_sample *cur, const struct xg_dom *d,
                uint64_t out[XG_WAIT_LE_N + 1])
{
	const struct xg_waits *w = sample_waits(cur, d);
	if (!w)
		return false;
	const struct xg_waits *o = NULL;
	for (size_t i = 0; prev && i < prev->ndom && !o; i++)
		if (prev->dom[i].id == d->id && prev->dom[i].host == d->host &&
		    dom_same_dom(&prev->dom[i], d, XG_SAME_OBJECT))
			o = sample_waits(prev, &prev->dom[i]);
	for (int b = 0; b <= XG_WAIT_LE_N; b++)
		out[b] = w->bucket[b] - (o && o->bucket[b] <= w->bucket[b] ? o->bucket[b] : 0);
	return true;
}

void waits_bound_text(unsigned i, char *buf, size_t n)
{
	if (i >= XG_WAIT_LE_N) {
		snprintf(buf, n, "inf");
		return;
	}
	double ns = (double)xg_wait_le_ns[i];
	if (ns < 1e6)
		snprintf(buf, n, "%.3gus", ns / 1e3);
	else if (ns < 1e9)
		snprintf(buf, n, "%.3gms", ns / 1e6);
	else
		snprintf(buf, n, "%.3gs", ns / 1e9);
}
