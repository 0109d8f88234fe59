/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Shared between the batch sinks (sink*.c) and their unit tests; not part
 * of the public interface. */
#ifndef XGTOP_SINK_INT_H
#define XGTOP_SINK_INT_H

#include <stdio.h>
#include "xgtop/core/metrics.h"
#include "xgtop/core/view.h"

/* The columns a machine-readable sink writes. Fixed at the first
 * iteration, so every CSV line and JSON object carries the same fields
 * even if the view changes later. */
struct sink_cols {
	enum xg_col c[XG_COL_COUNT];
	size_t n;
	bool vcpus;     /* vCPU rows are written (CSV: a `vcpu` field) */
	bool socks;     /* socket rows are written (CSV: a `socket` field, JSON:
	                   a "sockets" list per domain) */
};

void sink_cols_from_view(struct sink_cols *sc, const struct xg_view *v);
/* "2026-11-30T02:36:58.123Z" from wall-clock nanoseconds. */
void sink_time_iso(char *buf, size_t n, uint64_t real_ns);
/* Column c of r as a finite decimal number valid in both CSV and JSON;
 * false (and buf "") when not measured. buf should hold SINK_NUM_MAX. */
#define SINK_NUM_MAX 400   /* %.0f of the largest double fits */
bool sink_raw_number(enum xg_col c, const struct xg_row *r, char *buf, size_t n);
/* Flushes f and reports a write error (disk full, closed pipe) as err. */
int sink_flush(FILE *f, struct xg_err *err);

int sink_text_write(FILE *f, const struct xg_table *t, const struct xg_view *v, bool first,
		    struct xg_err *err);
int sink_csv_write(FILE *f, const struct sink_cols *sc, bool header, const struct xg_table *t,
		   const struct xg_view *v, struct xg_err *err);
int sink_json_write(FILE *f, const struct sink_cols *sc, const struct xg_table *t,
		    const struct xg_view *v, struct xg_err *err);
/* Writes a domain name as one CSV field: escaped as in text (\xNN), quoted
 * when it holds a comma, quote or backslash. */
void sink_csv_name(FILE *f, const char *name);
/* Writes s as a JSON string (with quotes): control characters as \u00XX,
 * bytes that are not UTF-8 as U+FFFD, so the result is always valid. */
void sink_json_string(FILE *f, const char *s);

#endif
