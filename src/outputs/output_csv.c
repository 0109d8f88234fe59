// SPDX-License-Identifier: GPL-2.0-or-later
/* CSV output (RFC 4180 fields, LF line ends): one header line with the
 * columns' stable keys, then one line per row and iteration with plain
 * numbers in base units; an empty field is a figure not measured. */
#include "output_util.h"

#include <string.h>

#define NAME_MAX_ESC (4 * XG_NAME_MAX + 8)

/* Names pass through xg_escape_name first: control bytes and invalid
 * UTF-8 become \xNN (and a backslash \\), so every record is one line of
 * valid UTF-8. A field with a comma, quote or backslash is quoted, which
 * also tells a reader that the name was escaped. */
void output_csv_name(FILE *f, const char *name)
{
	char esc[NAME_MAX_ESC];
	xg_escape_name(esc, sizeof(esc), name ? name : "");
	size_t n = strlen(esc);
	bool quote = strpbrk(esc, ",\"\\") || (n && (esc[0] == ' ' || esc[n - 1] == ' '));
	if (!quote) {
		fputs(esc, f);
		return;
	}
	fputc('"', f);
	for (const char *p = esc; *p; p++) {
		if (*p == '"')
			fputc('"', f);
		fputc(*p, f);
	}
	fputc('"', f);
}

static bool has_id(const struct output_cols *oc)
{
	for (size_t k = 0; k < oc->n; k++)
		if (oc->c[k] == XG_COL_ID)
			return true;
	return false;
}

/* The sub-row fields (`vcpu`, `socket`) follow `id`, or lead when there
 * is no id column; each is empty except in rows of its kind. */
static void put_sub_keys(FILE *f, const struct output_cols *oc)
{
	if (oc->vcpus)
		fputs(",vcpu", f);
	if (oc->socks)
		fputs(",socket", f);
}

static void put_header(FILE *f, const struct output_cols *oc)
{
	fputs("time,interval_s", f);
	if (!has_id(oc))
		put_sub_keys(f, oc);
	for (size_t k = 0; k < oc->n; k++) {
		fprintf(f, ",%s", xg_columns[oc->c[k]].key);
		if (oc->c[k] == XG_COL_ID)
			put_sub_keys(f, oc);
		if (oc->c[k] == XG_COL_VICTIM)
			fputs(",victim_windows", f);
	}
	fputc('\n', f);
}

static void put_sub(FILE *f, const struct output_cols *oc, const struct xg_row *r)
{
	if (oc->vcpus) {
		fputc(',', f);
		if (r->vcpu >= 0)
			fprintf(f, "%d", (int)r->vcpu);
	}
	if (oc->socks) {
		fputc(',', f);
		if (r->sock_row)
			fprintf(f, "%u", (unsigned)r->socket);
	}
}

static void put_row(FILE *f, const struct output_cols *oc, const char *prefix,
		    const struct xg_row *r)
{
	char buf[OUTPUT_NUM_MAX];

	fputs(prefix, f);
	if (!has_id(oc))
		put_sub(f, oc, r);
	for (size_t k = 0; k < oc->n; k++) {
		enum xg_col c = oc->c[k];
		fputc(',', f);
		switch (c) {
		case XG_COL_ID:
			fprintf(f, "%u", (unsigned)r->id);
			put_sub(f, oc, r);
			break;
		case XG_COL_NAME:
			output_csv_name(f, r->name);
			break;
		case XG_COL_HOST:   /* host names are plain (remote_url.c checks) */
			output_csv_name(f, r->host);
			if (r->host_stale)
				fputc('?', f);
			break;
		case XG_COL_STATE:
			fwrite(r->state, 1, strnlen(r->state, sizeof(r->state)), f);
			break;
		case XG_COL_BEHIND:
			if (row_has(r, c))
				output_csv_name(f, row_behind_name(r, buf, sizeof(buf)));
			break;
		case XG_COL_VICTIM:   /* the flag, then the outlier windows */
			if (output_raw_number(c, r, buf, sizeof(buf)))
				fprintf(f, "%s,%.0f", buf, r->v[c]);
			else
				fputc(',', f);
			break;
		default:
			if (output_raw_number(c, r, buf, sizeof(buf)))
				fputs(buf, f);
			break;
		}
	}
	fputc('\n', f);
}

static int csv_write(struct output *o, const struct xg_table *t, const struct xg_view *v,
		     struct xg_err *err)
{
	const struct output_cols *oc = &o->cols;
	FILE *f = o->f;
	char when[40] = "", prefix[96];

	if (o->iter == 0)
		put_header(f, oc);
	if (t->cur)
		output_time_iso(when, sizeof(when), t->cur->host.real_ns);
	if (t->sum.interval_s > 0)
		snprintf(prefix, sizeof(prefix), "%s,%.6f", when, t->sum.interval_s);
	else
		snprintf(prefix, sizeof(prefix), "%s,", when);
	for (size_t i = 0; i < v->norder; i++) {
		const struct xg_row *r = &t->rows[v->order[i]];
		if ((r->vcpu >= 0 && !oc->vcpus) || (r->sock_row && !oc->socks))
			continue;
		put_row(f, oc, prefix, r);
	}
	return output_flush(f, err);
}

const struct output_format output_csv_format = { XG_OUT_CSV, "csv", csv_write };
