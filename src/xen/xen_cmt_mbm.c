// SPDX-License-Identifier: GPL-2.0-or-later
/* MBM counter continuity: one raw read at a time into a monotonic total. */
#include "xen_cmt_mbm.h"

enum xg_mbm_rc xen_cmt_mbm_advance(struct xg_mbm *m, uint64_t raw, uint64_t now_ns)
{
	if (!m->width) {
		m->width = raw >> XG_MBM_WIDTH ? XG_MBM_WIDTH_WIDE : XG_MBM_WIDTH;
		m->last = raw;
		m->last_ns = now_ns;
		return XG_MBM_OK;   /* a baseline; the total carries on */
	}
	/* A value beyond 24 bits shows the counter is wider: no wrap soon. */
	if (raw >> XG_MBM_WIDTH)
		m->width = XG_MBM_WIDTH_WIDE;
	enum xg_mbm_rc rc = XG_MBM_OK;
	uint64_t gap = now_ns > m->last_ns ? now_ns - m->last_ns : 0;
	if (m->width == XG_MBM_WIDTH && gap > XG_MBM_MAX_GAP_NS) {
		rc = XG_MBM_GAP;
	} else if (raw >= m->last) {
		m->total += raw - m->last;
	} else if (m->width == XG_MBM_WIDTH) {
		m->total += raw + (1ull << XG_MBM_WIDTH) - m->last;
	} else {
		rc = XG_MBM_RESET;
	}
	m->last = raw;
	m->last_ns = now_ns;
	return rc;
}
