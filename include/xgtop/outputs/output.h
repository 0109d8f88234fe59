/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Batch outputs: text (like top -b), CSV, JSON lines and xentop -b's
 * layout. Each is one entry of the registry in outputs/output.c; an open
 * output writes one iteration at a time to a stdio stream. */
#ifndef XGTOP_OUTPUT_H
#define XGTOP_OUTPUT_H

#include <stdio.h>
#include "xgtop/model/config.h"
#include "xgtop/view/view.h"

struct output;

/* A registry entry. write gets the open output (its stream, how many
 * iterations went before, the columns fixed at the first) and one
 * iteration: the rows v->order selected from t. */
struct output_format {
	enum xg_output id;
	const char *name;       /* what -o takes */
	int (*write)(struct output *o, const struct xg_table *t, const struct xg_view *v,
		     struct xg_err *err);
};

/* The format -o NAME names, or NULL. */
const struct output_format *output_find(const char *name);
/* The registered names for a message: "text, csv, json or xentop". */
void output_names(char *buf, size_t n);

/* Opens format fmt writing to f (not closed by the output). */
struct output *output_open(enum xg_output fmt, FILE *f);
/* Writes one iteration: the rows v->order selected from t, with the
 * columns visible under v (text/csv/json) or xentop's fixed columns. */
int output_write(struct output *o, const struct xg_table *t, const struct xg_view *v,
		 struct xg_err *err);
void output_close(struct output *o);

/* The text report behind the TUI's `W` key and --output text: a summary
 * line, the header and the rows, as on screen but unclipped, then why
 * figures are `-`. */
int output_write_report(FILE *f, const struct xg_table *t, const struct xg_view *v);

#endif
