/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `xgtop report --contention`: the cache victims of a recording (the CPI2
 * rule of compute/suspects.h), when each was one, and its suspects at the
 * last refresh it was. */
#ifndef XGTOP_CONTENTION_H
#define XGTOP_CONTENTION_H

#include <stdio.h>

#include "xgtop/compute/suspects.h"
#include "xgtop/outputs/report.h"

struct xg_contention;

struct xg_contention *contention_new(void);
/* One refresh: the verdicts s gave on t's domains, at wall clock now_ns. */
void contention_add(struct xg_contention *c, const struct xg_table *t, const struct xg_suspects *s,
		    uint64_t now_ns);
/* The victims, as text. */
void contention_write(const struct xg_contention *c, FILE *f, const struct xg_susp_cfg *cfg,
		      const struct xg_report_info *info);
void contention_free(struct xg_contention *c);

#endif
