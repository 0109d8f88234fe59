/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What a figure measures, which says how it reads (core/format.h) and how
 * the column table (model/columns.h) describes it. */
#ifndef XGTOP_UNIT_H
#define XGTOP_UNIT_H

enum xg_unit {
	XG_UNIT_NONE,    /* a count or an id */
	XG_UNIT_TEXT,    /* NAME, STATE */
	XG_UNIT_PCT,     /* percent */
	XG_UNIT_SEC,     /* seconds */
	XG_UNIT_BYTES,   /* bytes */
	XG_UNIT_BPS,     /* bytes per second */
	XG_UNIT_PER_S,   /* events per second */
	XG_UNIT_RATIO,   /* a plain ratio (MPKI) */
	XG_UNIT_MS,      /* milliseconds (WAIT-P50), shown as a ratio is */
};

#endif
