// SPDX-License-Identifier: GPL-2.0-or-later
/* Which sample fields each column is computed from (see metrics.h): what
 * a source that computes remotely must send for a column to have its
 * figure. tests/unit/compute/test_metrics.c checks it against the
 * formulas: a column keeps its figure without any other field. */
#include "xgtop/compute/metrics.h"
#include "xgtop/model/metric_defs.h"

#define F(f) (1ull << (f))

uint64_t col_fields(enum xg_col c)
{
	switch (c) {
	case XG_COL_RUN:
	case XG_COL_WAIT:
	case XG_COL_BLK:
	case XG_COL_OFF:
		return collector_fields(XG_CL_SCHED);   /* each a share of the four */
	case XG_COL_HIT:
		return F(XG_F_LLC_REF) | F(XG_F_LLC_MISS);
	case XG_COL_MPKI:   /* as HIT%, and per instruction */
		return F(XG_F_LLC_REF) | F(XG_F_LLC_MISS) | F(XG_F_INSTR);
	case XG_COL_BEHIND:
	case XG_COL_BEHIND_PCT:
		return F(XG_F_BEHIND_WAIT_NS) | F(XG_F_BEHIND_NS) | F(XG_F_BEHIND_ID);
	case XG_COL_VICTIM:   /* the CPI rule's windows (compute/suspects.c) */
		return F(XG_F_INSTR) | F(XG_F_CYCLES) | F(XG_F_LLC_MISS) | F(XG_F_MBM_TOTAL);
	default:
		break;
	}
	const struct xg_metric *m = xg_columns[c].metric;
	if (m && m >= xg_field_metric && m < xg_field_metric + XG_F_COUNT)
		return F(m - xg_field_metric);
	return 0;
}
