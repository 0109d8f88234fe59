/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `xgtop report`: per domain, the mean, 95th percentile and maximum of each
 * column over the intervals of a recording. The caller hands over the rows
 * of each interval it wants (the same rows a replay shows), then writes
 * the summary as text, CSV or JSON. */
#ifndef XGTOP_REPORT_H
#define XGTOP_REPORT_H

#include <stdio.h>

#include "xgtop/model/config.h"
#include "xgtop/compute/metrics.h"

/* The percentile the report gives (nearest rank). */
#define XG_REPORT_PCT 95.0

struct xg_report;

/* What the summary covers, for its header. */
struct xg_report_info {
	const char *file;           /* the recording, or the server's URL */
	uint64_t from_ns, to_ns;    /* wall clock of the first and last sample used */
	uint64_t intervals;
	double step_s;              /* a server's summary: the interval it was asked for, else 0 */
};

/* At most max_intervals calls of report_add will follow: that sizes what
 * the percentile keeps (the largest 5 %). */
struct xg_report *report_new(uint64_t max_intervals);
/* One interval: the domain rows of t, computed between a sample taken at
 * wall-clock start_ns and t's current one. */
void report_add(struct xg_report *r, const struct xg_table *t, uint64_t start_ns);
/* A figure a server computed (xgtop report --source prometheus): column
 * col of domain name (id) of host, over n intervals of the period; NaN for
 * one it did not give. The report then has a HOST column, and its P95 is
 * the server's (interpolated). */
void report_put(struct xg_report *r, const char *host, const char *name, uint32_t id, enum xg_col col,
		uint64_t n, double mean, double p95, double max, uint64_t from_ns, uint64_t to_ns);
/* Writes the summary in fmt (text, csv or json). */
int report_write(struct xg_report *r, FILE *f, enum xg_output fmt, const struct xg_report_info *info,
		 struct xg_err *err);
void report_free(struct xg_report *r);

#endif
