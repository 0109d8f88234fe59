/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A row's cells as text: what every output and the full-screen view print
 * for a column of a row, through the column table's unit. */
#ifndef XGTOP_CELL_H
#define XGTOP_CELL_H

#include "xgtop/compute/metrics.h"

/* Human text for a value (core/format.h), right-aligned by the caller.
 * `-` when not valid, `nolim` for a memory limit that is not set. */
void col_format(enum xg_col c, const struct xg_row *r, char *buf, size_t n);
/* Plain machine value (CSV/JSON): full precision in the base unit, "" when
 * not valid (JSON writes null). */
void col_format_raw(enum xg_col c, const struct xg_row *r, char *buf, size_t n);

#endif
