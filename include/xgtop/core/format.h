/* SPDX-License-Identifier: GPL-2.0-or-later */
/* How a figure reads to a person. One set of formatters for the TUI, the
 * text output, the `W` report and --explain, so a value looks the same
 * wherever it is shown. Machine outputs (CSV, JSON) write plain numbers in
 * base units instead (col_format_raw). */
#ifndef XGTOP_FORMAT_H
#define XGTOP_FORMAT_H

#include "xgtop/core/unit.h"

#include <stddef.h>

/* A size on a summary line: "512B", "1.5K", "16.0G": steps of 1024 up
 * to E, one decimal once scaled. */
void fmt_size(char *buf, size_t n, double bytes);
/* A percentage without its sign ("42.0"): the header carries the %. */
void fmt_pct(char *buf, size_t n, double pct);
/* A duration in seconds: "120.5", whole seconds from a million on. */
void fmt_seconds(char *buf, size_t n, double s);
/* A value of unit u as a table cell shows it (u is not XG_UNIT_TEXT).
 * Sizes, counts and rates are squeezed to three significant digits at
 * most: "999", "1.5K", "15K"; bytes step by 1024 (K M G T P E), counts and
 * rates by 1000 (k M G T P E). */
void fmt_value(char *buf, size_t n, enum xg_unit u, double v);
/* Names joined for a one-line message: "a, b or c". */
void fmt_list_or(char *buf, size_t n, const char *const *names, size_t count);

#endif
