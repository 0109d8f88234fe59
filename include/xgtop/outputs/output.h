/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Batch outputs: text (like top -b), CSV, JSON lines and xentop -b's
 * layout. A sink writes one iteration at a time to a stdio stream. */
#ifndef XGTOP_SINK_H
#define XGTOP_SINK_H

#include <stdio.h>
#include "xgtop/core/config.h"
#include "xgtop/core/view.h"

struct xg_sink;

/* Creates a sink for format fmt writing to f (not closed by the sink). */
struct xg_sink *sink_open(enum xg_output fmt, FILE *f);
/* Writes one iteration: the rows v->order selected from t, with the
 * columns visible under v (text/csv/json) or xentop's fixed columns. */
int sink_write(struct xg_sink *s, const struct xg_table *t, const struct xg_view *v,
	       struct xg_err *err);
void sink_close(struct xg_sink *s);

/* The text report behind the TUI's `W` key and --output text: a summary
 * line, the header and the rows, as on screen but unclipped. */
int sink_write_report(FILE *f, const struct xg_table *t, const struct xg_view *v);

#endif
