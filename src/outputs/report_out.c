// SPDX-License-Identifier: GPL-2.0-or-later
/* Writing the report: text (aligned, figures scaled as on screen), CSV
 * (one line per domain and column, base units) and JSON (one object). A
 * column never measured for a domain shows `-` (empty, null) and why. */
#include "output_util.h"
#include "xgtop/compute/cell.h"
#include "report_data.h"
#include "xgtop/outputs/json.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Domains by pool host and id, then by when they were first seen (an id
 * reused). */
static int by_id(const void *a, const void *b)
{
	const struct rep_dom *x = *(const struct rep_dom *const *)a, *y = *(const struct rep_dom *const *)b;
	if (x->host != y->host)
		return x->host < y->host ? -1 : 1;
	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	return (x->from_ns > y->from_ns) - (x->from_ns < y->from_ns);
}

/* Column c's formatting for any value: scaled (text) or plain (CSV/JSON);
 * "" for NaN. */
static void fmt(enum xg_col c, double x, bool raw, char *buf, size_t n)
{
	struct xg_row r;
	memset(&r, 0, sizeof(r));
	r.vcpu = -1;
	buf[0] = 0;
	if (isnan(x))
		return;
	r.v[c] = x;
	r.valid = 1ull << c;
	if (raw)
		output_raw_number(c, &r, buf, n);
	else
		col_format(c, &r, buf, n);
}

/* A column's mean, percentile and maximum as text. */
struct figs {
	char mean[OUTPUT_NUM_MAX], pct[OUTPUT_NUM_MAX], max[OUTPUT_NUM_MAX];
};

static void figures(enum xg_col c, struct rep_col *k, bool raw, struct figs *out)
{
	fmt(c, rep_mean(k), raw, out->mean, sizeof(out->mean));
	fmt(c, rep_pct(k), raw, out->pct, sizeof(out->pct));
	fmt(c, k->n ? k->max : NAN, raw, out->max, sizeof(out->max));
}

static void local_time(uint64_t ns, char *buf, size_t n)
{
	time_t s = (time_t)(ns / 1000000000ull);
	struct tm tm;
	if (!localtime_r(&s, &tm) || !strftime(buf, n, "%Y-%m-%d %H:%M:%S %Z", &tm))
		snprintf(buf, n, "?");
}

static int name_width(const struct xg_report *r)
{
	int w = 4;
	char esc[4 * XG_NAME_MAX + 8];
	for (size_t i = 0; i < r->ndom; i++) {
		int l = (int)strlen(xg_escape_name(esc, sizeof(esc), r->dom[i]->name));
		w = l > w ? l : w;
	}
	return w > 40 ? 40 : w;
}

static int by_ns_desc(const void *a, const void *b)
{
	const struct rep_behind *x = a, *y = b;
	if (x->ns != y->ns)
		return x->ns < y->ns ? 1 : -1;
	return (x->who > y->who) - (x->who < y->who);
}

/* A culprit's name: the last domain the report saw with that id on the
 * same host, idle, xen (host on Linux, where no hypervisor runs), or
 * "dom N". */
static const char *culprit_name(const struct xg_report *r, const struct rep_dom *e, uint32_t who,
                                char *buf, size_t n)
{
	if (who == XG_BEHIND_IDLE)
		return "idle";
	if (who == XG_BEHIND_XEN)
		return e->by_linux ? "host" : "xen";
	for (size_t i = r->ndom; i-- > 0;)
		if (r->dom[i]->id == who && r->dom[i]->host == e->host)
			return r->dom[i]->name;
	snprintf(buf, n, "dom %u", (unsigned)who);
	return buf;
}

/* e's culprits, biggest first: the first XG_BEHIND_TOP named, the rest
 * (with the part of no named culprit) as other; returns how many named. */
static size_t behind_ranked(struct rep_dom *e, struct rep_behind top[XG_BEHIND_TOP], uint64_t *other)
{
	qsort(e->by, e->nby, sizeof(*e->by), by_ns_desc);
	size_t n = 0;
	*other = e->by_other;
	for (uint32_t i = 0; i < e->nby; i++) {
		if (n < XG_BEHIND_TOP && e->by[i].ns)
			top[n++] = e->by[i];
		else
			*other += e->by[i].ns;
	}
	return n;
}

static int host_width(const struct xg_report *r)
{
	int w = 4;
	for (size_t i = 0; i < r->nhosts; i++) {
		int l = (int)strlen(r->hosts[i]);
		w = l > w ? l : w;
	}
	return w > 40 ? 40 : w;
}

/* "HOST " before the id, when the figures came from several hosts. */
static void text_host(FILE *f, const struct xg_report *r, const struct rep_dom *e)
{
	if (r->nhosts)
		fprintf(f, "%-*.*s ", host_width(r), host_width(r), r->hosts[e->host]);
}

/* "BEHIND over 0.580 s of WAIT: sched-06 40.0 % 0.232 s, ..., other ..." */
static void text_behind(FILE *f, struct xg_report *r, struct rep_dom *e, int nw)
{
	if (!e->by_seen)
		return;
	char esc[4 * XG_NAME_MAX + 8], buf[32];
	struct rep_behind top[XG_BEHIND_TOP];
	uint64_t other;
	size_t n = behind_ranked(e, top, &other);
	xg_escape_name(esc, sizeof(esc), e->name);
	text_host(f, r, e);
	fprintf(f, "%6u %-*.*s %-10s over %.3f s of WAIT:", e->id, nw, nw, esc, "BEHIND", (double)e->by_wait / 1e9);
	if (!e->by_wait) {
		fputs(" no wait ended\n", f);
		return;
	}
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%s %s %.1f %% %.3f s", i ? "," : "",
			xg_escape_name(esc, sizeof(esc), culprit_name(r, e, top[i].who, buf, sizeof(buf))),
			100.0 * (double)top[i].ns / (double)e->by_wait, (double)top[i].ns / 1e9);
	if (other)
		fprintf(f, "%s other %.1f %% %.3f s", n ? "," : "", 100.0 * (double)other / (double)e->by_wait,
			(double)other / 1e9);
	fputc('\n', f);
}

static void json_behind(FILE *f, struct xg_report *r, struct rep_dom *e)
{
	if (!e->by_seen)
		return;
	struct rep_behind top[XG_BEHIND_TOP];
	uint64_t other;
	size_t n = behind_ranked(e, top, &other);
	char buf[32];
	fprintf(f, ",\"behind\":{\"wait_s\":%.9f,\"parts\":[", (double)e->by_wait / 1e9);
	for (size_t i = 0; i <= n; i++) {
		if (i == n && !other)
			break;
		uint64_t ns = i < n ? top[i].ns : other;
		fputs(i ? ",{\"behind\":" : "{\"behind\":", f);
		json_write_string(f, i < n ? culprit_name(r, e, top[i].who, buf, sizeof(buf)) : "other");
		fprintf(f, ",\"wait_s\":%.9f,\"share_pct\":%.3f}", (double)ns / 1e9,
			e->by_wait ? 100.0 * (double)ns / (double)e->by_wait : 0.0);
	}
	fputs("]}", f);
}

static void text_col(FILE *f, struct xg_report *r, struct rep_dom *e, enum xg_col c, int nw)
{
	struct rep_col *k = &e->col[c];
	char esc[4 * XG_NAME_MAX + 8];
	struct figs fg;
	xg_escape_name(esc, sizeof(esc), e->name);
	text_host(f, r, e);
	fprintf(f, "%6u %-*.*s %-10s %8llu", e->id, nw, nw, esc, xg_columns[c].header,
		(unsigned long long)k->n);
	if (!k->n) {
		fprintf(f, " %10s %10s %10s  not measured%s%s\n", "-", "-", "-", k->why ? ": " : "",
			k->why ? r->why[k->why] : "");
		return;
	}
	figures(c, k, false, &fg);
	fprintf(f, " %10s %10s %10s\n", fg.mean, fg.pct, fg.max);
}

static void write_text(FILE *f, struct xg_report *r, const struct xg_report_info *in)
{
	char a[64], b[64];
	int nw = name_width(r);
	local_time(in->from_ns, a, sizeof(a));
	local_time(in->to_ns, b, sizeof(b));
	fprintf(f, "xgtop report  %s  %s .. %s  %llu intervals", in->file, a, b,
		(unsigned long long)in->intervals);
	if (in->step_s > 0)
		fprintf(f, " of %.0f s", in->step_s);
	fputc('\n', f);
	if (in->step_s > 0)
		fprintf(f, "Per host, domain and column over the intervals it was measured in (N), computed "
			"by the server: MEAN, P95 the interpolated 95th percentile, MAX.\n\n");
	else
		fprintf(f, "Per domain and column over the intervals it was measured in (N): MEAN weighted "
			"by interval length, P95 the nearest-rank 95th percentile, MAX.\n\n");
	if (r->nhosts)
		fprintf(f, "%-*s ", host_width(r), "HOST");
	fprintf(f, "%6s %-*s %-10s %8s %10s %10s %10s\n", "ID", nw, "NAME", "COLUMN", "N", "MEAN", "P95",
		"MAX");
	for (size_t i = 0; i < r->ndom; i++) {
		for (int c = 0; c < XG_COL_COUNT; c++)
			if (rep_col_reported(r, (enum xg_col)c))
				text_col(f, r, r->dom[i], (enum xg_col)c, nw);
		text_behind(f, r, r->dom[i], nw);
	}
}

static void write_csv(FILE *f, struct xg_report *r)
{
	char from[40], to[40];
	struct figs fg;
	fputs(r->nhosts ? "host,id,name,from,to,column,intervals,mean,p95,max,why\n"
			: "id,name,from,to,column,intervals,mean,p95,max,why\n", f);
	for (size_t i = 0; i < r->ndom; i++) {
		struct rep_dom *e = r->dom[i];
		output_time_iso(from, sizeof(from), e->from_ns);
		output_time_iso(to, sizeof(to), e->to_ns);
		for (int c = 0; c < XG_COL_COUNT; c++) {
			struct rep_col *k = &e->col[c];
			if (!rep_col_reported(r, (enum xg_col)c))
				continue;
			figures((enum xg_col)c, k, true, &fg);
			if (r->nhosts) {
				output_csv_name(f, r->hosts[e->host]);
				fputc(',', f);
			}
			fprintf(f, "%u,", e->id);
			output_csv_name(f, e->name);
			fprintf(f, ",%s,%s,%s,%llu,%s,%s,%s,", from, to, xg_columns[c].key,
				(unsigned long long)k->n, fg.mean, fg.pct, fg.max);
			if (!k->n && k->why)
				output_csv_name(f, r->why[k->why]);
			fputc('\n', f);
		}
	}
}

static void json_num(FILE *f, const char *key, const char *num)
{
	fprintf(f, ",\"%s\":%s", key, num[0] ? num : "null");
}

static void json_dom(FILE *f, struct xg_report *r, struct rep_dom *e)
{
	char t[40];
	struct figs fg;
	fputc('{', f);
	if (r->nhosts) {
		fputs("\"host\":", f);
		json_write_string(f, r->hosts[e->host]);
		fputc(',', f);
	}
	fprintf(f, "\"id\":%u,\"gen\":%u,\"name\":", e->id, e->gen);
	json_write_string(f, e->name);
	output_time_iso(t, sizeof(t), e->from_ns);
	fprintf(f, ",\"from\":\"%s\"", t);
	output_time_iso(t, sizeof(t), e->to_ns);
	fprintf(f, ",\"to\":\"%s\",\"intervals\":%llu,\"columns\":{", t, (unsigned long long)e->intervals);
	bool first = true;
	for (int c = 0; c < XG_COL_COUNT; c++) {
		struct rep_col *k = &e->col[c];
		if (!rep_col_reported(r, (enum xg_col)c))
			continue;
		figures((enum xg_col)c, k, true, &fg);
		fprintf(f, "%s\"%s\":{\"intervals\":%llu", first ? "" : ",", xg_columns[c].key,
			(unsigned long long)k->n);
		json_num(f, "mean", fg.mean);
		json_num(f, "p95", fg.pct);
		json_num(f, "max", fg.max);
		if (!k->n && k->why) {
			fputs(",\"why\":", f);
			json_write_string(f, r->why[k->why]);
		}
		fputc('}', f);
		first = false;
	}
	fputc('}', f);
	json_behind(f, r, e);
	fputc('}', f);
}

static void write_json(FILE *f, struct xg_report *r, const struct xg_report_info *in)
{
	char a[40], b[40];
	output_time_iso(a, sizeof(a), in->from_ns);
	output_time_iso(b, sizeof(b), in->to_ns);
	fputs("{\"file\":", f);
	json_write_string(f, in->file);
	fprintf(f, ",\"from\":\"%s\",\"to\":\"%s\",\"intervals\":%llu,\"percentile\":95,", a, b,
		(unsigned long long)in->intervals);
	if (in->step_s > 0)
		fprintf(f, "\"step_s\":%.0f,\"computed_by\":\"server\",\"percentile_method\":\"interpolated\","
			"\"mean\":\"of equal intervals\",\"domains\":[", in->step_s);
	else
		fputs("\"percentile_method\":\"nearest-rank\",\"mean\":\"weighted by interval length\","
		      "\"domains\":[", f);
	for (size_t i = 0; i < r->ndom; i++) {
		if (i)
			fputc(',', f);
		json_dom(f, r, r->dom[i]);
	}
	fputs("]}\n", f);
}

int report_write(struct xg_report *r, FILE *f, enum xg_output fmt_, const struct xg_report_info *info,
		 struct xg_err *err)
{
	qsort(r->dom, r->ndom, sizeof(*r->dom), by_id);
	if (fmt_ == XG_OUT_CSV)
		write_csv(f, r);
	else if (fmt_ == XG_OUT_JSON)
		write_json(f, r, info);
	else
		write_text(f, r, info);
	return output_flush(f, err);
}
