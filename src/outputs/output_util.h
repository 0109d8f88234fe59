/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the batch formats (output_{text,csv,json,xentop}.c) share: the open
 * output they are handed and small helpers (output_util.c). Private to
 * src/outputs and its unit tests. Calls go one way: the registry
 * (output.c) calls the formats, the formats call these helpers. */
#ifndef XGTOP_OUTPUT_UTIL_H
#define XGTOP_OUTPUT_UTIL_H

#include <stdio.h>
#include "xgtop/compute/metrics.h"
#include "xgtop/view/view.h"
#include "xgtop/outputs/output.h"

/* The columns a machine-readable format writes. Fixed at the first
 * iteration, so every CSV line and JSON object carries the same fields
 * even if the view changes later. */
struct output_cols {
	enum xg_col c[XG_COL_COUNT];
	size_t n;
	bool vcpus;     /* vCPU rows are written (CSV: a `vcpu` field) */
	bool socks;     /* socket rows are written (CSV: a `socket` field, JSON:
	                   a "sockets" list per domain) */
};

struct output {
	const struct output_format *fmt;
	FILE *f;
	unsigned long iter;         /* iterations written so far */
	struct output_cols cols;    /* set before the first is written */
};

void output_cols_from_view(struct output_cols *oc, const struct xg_view *v);
/* "2026-11-30T02:36:58.123Z" from wall-clock nanoseconds. */
void output_time_iso(char *buf, size_t n, uint64_t real_ns);
/* Column c of r as a finite decimal number valid in both CSV and JSON;
 * false (and buf "") when not measured. buf should hold OUTPUT_NUM_MAX. */
#define OUTPUT_NUM_MAX 400   /* %.0f of the largest double fits */
bool output_raw_number(enum xg_col c, const struct xg_row *r, char *buf, size_t n);
/* Flushes f and reports a write error (disk full, closed pipe) as err. */
int output_flush(FILE *f, struct xg_err *err);
/* Writes a domain name as one CSV field: escaped as in text (\xNN), quoted
 * when it holds a comma, quote or backslash (output_csv.c). */
void output_csv_name(FILE *f, const char *name);

#endif
