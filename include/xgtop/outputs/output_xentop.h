/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `-o xentop`: one iteration laid out exactly as `xentop -b` (Xen 4.17)
 * prints it, so scripts written for xentop keep working; CPU(%) comes from
 * the metrics layer and is right on the first printed iteration. */
#ifndef XGTOP_OUTPUT_XENTOP_H
#define XGTOP_OUTPUT_XENTOP_H

#include <stdio.h>
#include "xgtop/core/metrics.h"
#include "xgtop/core/view.h"

/* Writes the header and one line per domain row that v selected, in v's
 * order (all domain rows sorted by name, as xentop does, when v is NULL).
 * With v->show_vcpus a "VCPUs(sec):" line follows each domain that has
 * per-vCPU figures. Domains without a name are left out, as xentop does.
 * Figures the sample does not have print as "-". */
int output_xentop_print(FILE *f, const struct xg_table *t, const struct xg_view *v,
			struct xg_err *err);

#endif
