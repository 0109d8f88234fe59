// SPDX-License-Identifier: GPL-2.0-or-later
/* `xgtop report --replay FILE [--from TIME] [--to TIME] [-o FORMAT]`: per
 * domain, the mean, 95th percentile and maximum of each column over a
 * recording, from the same rows a replay shows. Two passes: the first reads
 * only the sample times (to resolve relative times and count the intervals
 * that bound what the percentile keeps), the second replays and gathers. */
#include "xgtop/app/report_cmd.h"
#include "report_args.h"
#include "report_prom.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "xgtop/engine/engine.h"
#include "xgtop/outputs/contention.h"
#include "xgtop/outputs/report.h"
#include "xgtop/record/record.h"

#define NS 1000000000ull

/* The first pass: every sample's wall-clock time. */
static int scan_times(const char *path, uint64_t **times, size_t *n, struct xg_err *err)
{
	struct xg_reader *rd = reader_open(path, err);
	struct xg_sample s[2];
	size_t cap = 0;
	int rc;
	if (!rd)
		return -1;
	sample_init(&s[0]);
	sample_init(&s[1]);
	*n = 0;
	while ((rc = reader_next(rd, *n ? &s[(*n - 1) & 1] : NULL, &s[*n & 1], err)) == 0) {
		xg_grow(times, &cap, *n + 1, sizeof(**times));
		(*times)[*n] = s[*n & 1].host.real_ns;
		(*n)++;
	}
	reader_close(rd);
	sample_free(&s[0]);
	sample_free(&s[1]);
	return rc < 0 ? -1 : 0;
}

/* Intervals between consecutive samples both within [from, to]. */
static uint64_t count_intervals(const uint64_t *t, size_t n, uint64_t from, uint64_t to)
{
	uint64_t k = 0;
	for (size_t i = 1; i < n; i++)
		k += t[i - 1] >= from && t[i] <= to;
	return k;
}

/* The second pass: replays the recording and hands every interval within
 * [from, to] to the report. */
static int gather(const char *path, uint64_t from, uint64_t to, struct xg_report *rep,
		  struct xg_contention *cnt, const struct xg_susp_cfg *rule,
		  struct xg_report_info *info, struct xg_err *err)
{
	struct xg_config cfg;
	struct xg_engine e;
	uint64_t prev = 0;
	bool have = false;
	int rc;
	config_defaults(&cfg);
	cfg.replay = path;
	cfg.speed = 0;
	if (engine_open(&e, &cfg, err) < 0) {
		engine_close(&e);
		return -1;
	}
	if (cnt) {
		e.view.susp = *rule;
		engine_suspects_on(&e);
	}
	while ((rc = engine_step(&e, err)) == 0) {
		uint64_t now = e.table.cur->host.real_ns;
		if (have && prev >= from && now <= to) {
			if (cnt)
				contention_add(cnt, &e.table, e.susp, now);
			else
				report_add(rep, &e.table, prev);
			if (!info->intervals++)
				info->from_ns = prev;
			info->to_ns = now;
		}
		prev = now;
		have = true;
	}
	engine_close(&e);
	return rc < 0 ? -1 : 0;
}

static int run(const struct report_opts *o, struct xg_err *err)
{
	uint64_t *times = NULL, from = 0, to = UINT64_MAX;
	size_t n = 0;
	int rc = -1;
	if (scan_times(o->file, &times, &n, err) < 0)
		goto out;
	if (n < 2) {
		xg_fail(err, "%s: %zu sample%s: a report needs two at least", o->file, n, n == 1 ? "" : "s");
		goto out;
	}
	if ((o->from && !report_parse_time(o->from, times[0], times[n - 1], &from)) ||
	    (o->to && !report_parse_time(o->to, times[0], times[n - 1], &to))) {
		xg_fail(err, "bad TIME '%s': give ISO 8601 (2026-01-01T10:00), Unix seconds or +/-DURATION (-1h)",
			o->from && !report_parse_time(o->from, times[0], times[n - 1], &from) ? o->from : o->to);
		rc = -2;
		goto out;
	}
	uint64_t k = count_intervals(times, n, from, to);
	if (!k) {
		char a[40], b[40];
		time_t s0 = (time_t)(times[0] / NS), s1 = (time_t)(times[n - 1] / NS);
		strftime(a, sizeof(a), "%Y-%m-%dT%H:%M:%S%z", localtime(&s0));
		strftime(b, sizeof(b), "%Y-%m-%dT%H:%M:%S%z", localtime(&s1));
		xg_fail(err, "no interval of %s lies between --from and --to (it runs from %s to %s)",
			o->file, a, b);
		goto out;
	}
	struct xg_report_info info = { .file = o->file };
	if (o->contention) {
		struct xg_contention *cnt = contention_new();
		rc = gather(o->file, from, to, NULL, cnt, &o->rule, &info, err);
		if (rc == 0)
			contention_write(cnt, stdout, &o->rule, &info);
		contention_free(cnt);
		goto out;
	}
	struct xg_report *rep = report_new(k);
	rc = gather(o->file, from, to, rep, NULL, NULL, &info, err);
	if (rc == 0)
		rc = report_write(rep, stdout, o->out, &info, err);
	report_free(rep);
out:
	free(times);
	return rc;
}

int report_main(int argc, char **argv)
{
	struct report_opts o = { .out = XG_OUT_TEXT };
	struct xg_err err = { 0 };
	int rc = report_parse_args(argc, argv, &o);
	if (rc >= 0)
		return rc;
	rc = o.server ? report_prom(&o, &err) : run(&o, &err);
	if (rc == -2)
		return report_bad("%s", err.msg);
	if (rc < 0) {
		fprintf(stderr, "xgtop report: %s\n", err.msg);
		return 1;
	}
	return 0;
}
