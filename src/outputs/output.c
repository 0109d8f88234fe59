// SPDX-License-Identifier: GPL-2.0-or-later
/* The output registry: each format is a struct output_format defined in
 * its own file, listed here like the sources in engine/sources.c. An open
 * output keeps what must stay the same from one iteration to the next
 * (the field set, whether the CSV header went out). */
#include "xgtop/core/format.h"
#include "output_util.h"

#include <stdlib.h>
#include <string.h>

extern const struct output_format output_text_format;
extern const struct output_format output_csv_format;
extern const struct output_format output_json_format;
extern const struct output_format output_xentop_format;

static const struct output_format *const formats[] = {
	&output_text_format,
	&output_csv_format,
	&output_json_format,
	&output_xentop_format,
};

const struct output_format *output_find(const char *name)
{
	for (size_t i = 0; i < XG_ARRAY_LEN(formats); i++)
		if (!strcmp(formats[i]->name, name))
			return formats[i];
	return NULL;
}

void output_names(char *buf, size_t n)
{
	const char *names[XG_ARRAY_LEN(formats)];
	for (size_t i = 0; i < XG_ARRAY_LEN(formats); i++)
		names[i] = formats[i]->name;
	fmt_list_or(buf, n, names, XG_ARRAY_LEN(formats));
}

struct output *output_open(enum xg_output fmt, FILE *f)
{
	struct output *o = xg_calloc(1, sizeof(*o));
	for (size_t i = 0; i < XG_ARRAY_LEN(formats); i++)
		if (formats[i]->id == fmt)
			o->fmt = formats[i];
	o->f = f;
	return o;
}

int output_write(struct output *o, const struct xg_table *t, const struct xg_view *v,
		 struct xg_err *err)
{
	if (!o->fmt)
		return xg_fail(err, "unknown output format");
	if (o->iter == 0)
		output_cols_from_view(&o->cols, v);
	int rc = o->fmt->write(o, t, v, err);
	if (rc == 0)
		o->iter++;
	return rc;
}

void output_close(struct output *o)
{
	free(o);
}
