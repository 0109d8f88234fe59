// SPDX-License-Identifier: GPL-2.0-or-later
/* `xgtop report --replay FILE [--from TIME] [--to TIME] [-o FORMAT]`: per
 * domain, the mean, 95th percentile and maximum of each column over a
 * recording, from the same rows a replay shows. Two passes: the first reads
 * only the sample times (to resolve relative times and count the intervals
 * that bound what the percentile keeps), the second replays and gathers. */
#include "xgtop/app/report_cmd.h"

#include <ctype.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "xgtop/engine/engine.h"
#include "xgtop/outputs/report.h"
#include "xgtop/record/record.h"

#define NS 1000000000ull

struct report_opts {
	const char *file, *from, *to;
	enum xg_output out;
};

static void usage(FILE *f)
{
	fputs("Usage: xgtop report --replay FILE [--from TIME] [--to TIME] [-o text|csv|json]\n"
	      "Per domain, the mean (weighted by interval length), 95th percentile (nearest\n"
	      "rank) and maximum of each column over the intervals of a recording.\n"
	      "  --replay FILE   the recording (--record FILE)\n"
	      "  --from TIME     first sample to use (default: the recording's first)\n"
	      "  --to TIME       last sample to use (default: the recording's last)\n"
	      "  -o FORMAT       text (default), csv or json\n"
	      "TIME: ISO 8601 (2026-01-01, 2026-01-01T10:00, 2026-01-01 10:00:30Z,\n"
	      "      2026-01-01T10:00+02:00; without a zone, local time), or relative to the\n"
	      "      recording: +DURATION after its first sample, -DURATION before its last\n"
	      "      (DURATION: 90, 90s, 15m, 1h30m, 2d).\n", f);
}

static int bad(const char *fmt, const char *arg)
{
	fprintf(stderr, "xgtop report: ");
	fprintf(stderr, fmt, arg);
	fputs("\n", stderr);
	usage(stderr);
	return 2;
}

/* Returns -1 to go on, or the exit status. */
static int parse_args(int argc, char **argv, struct report_opts *o)
{
	static const struct option longopts[] = {
		{ "replay", required_argument, NULL, 'r' },
		{ "from", required_argument, NULL, 'f' },
		{ "to", required_argument, NULL, 't' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":o:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'r': o->file = optarg; break;
		case 'f': o->from = optarg; break;
		case 't': o->to = optarg; break;
		case 'o':
			if (!strcmp(optarg, "text")) o->out = XG_OUT_TEXT;
			else if (!strcmp(optarg, "csv")) o->out = XG_OUT_CSV;
			else if (!strcmp(optarg, "json")) o->out = XG_OUT_JSON;
			else return bad("-o '%s': use text, csv or json", optarg);
			break;
		case 'h': usage(stdout); return 0;
		case ':': return bad("option '%s' needs an argument", argv[optind - 1]);
		default: return bad("unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind < argc)
		return bad("unexpected argument '%s' (the recording goes after --replay)", argv[optind]);
	if (!o->file)
		return bad("%s", "which recording? give --replay FILE");
	return -1;
}

/* "90", "90s", "15m", "1h30m", "2d": nanoseconds. At most 1e9 s (31
 * years) in all: parts that each fit could otherwise add up past 2^64 ns
 * and wrap round to an early time. */
static bool parse_duration(const char *s, uint64_t *ns)
{
	uint64_t total = 0;
	double secs = 0;
	if (!*s)
		return false;
	while (*s) {
		char *end;
		if (!isdigit((unsigned char)*s))
			return false;
		double v = strtod(s, &end);
		uint64_t unit = 1;
		switch (*end) {
		case 'd': unit = 86400; end++; break;
		case 'h': unit = 3600; end++; break;
		case 'm': unit = 60; end++; break;
		case 's': end++; break;
		case 0: break;
		default: return false;
		}
		secs += v * (double)unit;
		if (!(secs <= 1e9))
			return false;
		total += (uint64_t)(v * (double)unit * 1e9 + 0.5);
		s = end;
	}
	*ns = total;
	return true;
}

/* The zone at s: "", "Z", "+HH:MM", "+HHMM", "+HH" (or -); seconds east. */
static bool parse_zone(const char *s, bool *given, long *east)
{
	int hh = 0, mm = 0, n = 0;
	*given = *s != 0;
	*east = 0;
	if (!*s)
		return true;
	if (!strcmp(s, "Z"))
		return true;
	if ((*s != '+' && *s != '-') || !isdigit((unsigned char)s[1]))
		return false;
	if (sscanf(s + 1, "%2d:%2d%n", &hh, &mm, &n) == 2 && !s[1 + n]) {
	} else if (sscanf(s + 1, "%2d%2d%n", &hh, &mm, &n) == 2 && !s[1 + n]) {
	} else if (sscanf(s + 1, "%2d%n", &hh, &n) == 1 && !s[1 + n]) {
		mm = 0;
	} else {
		return false;
	}
	if (hh > 14 || mm > 59)
		return false;
	*east = (*s == '-' ? -1 : 1) * (hh * 3600L + mm * 60L);
	return true;
}

/* ISO 8601: DATE, or DATE[T ]HH:MM[:SS] with an optional zone. */
static bool parse_iso(const char *s, uint64_t *ns)
{
	struct tm tm;
	int n = 0, sec = 0;
	memset(&tm, 0, sizeof(tm));
	if (sscanf(s, "%4d-%2d-%2d%n", &tm.tm_year, &tm.tm_mon, &tm.tm_mday, &n) != 3 || n != 10)
		return false;
	s += n;
	if (*s == 'T' || *s == ' ') {
		int m = 0;
		if (sscanf(s + 1, "%2d:%2d%n", &tm.tm_hour, &tm.tm_min, &m) != 2 || m != 5)
			return false;
		s += 1 + m;
		if (*s == ':' && (sscanf(s + 1, "%2d%n", &sec, &m) != 1 || m != 2))
			return false;
		s += *s == ':' ? 3 : 0;
	}
	bool zoned;
	long east;
	if (!parse_zone(s, &zoned, &east) || tm.tm_mon < 1 || tm.tm_mon > 12 || tm.tm_mday < 1 ||
	    tm.tm_mday > 31 || tm.tm_hour > 23 || tm.tm_min > 59 || sec > 60)
		return false;
	tm.tm_year -= 1900;
	tm.tm_mon -= 1;
	tm.tm_sec = sec;
	tm.tm_isdst = -1;
	time_t t = zoned ? timegm(&tm) - east : mktime(&tm);
	if (t < 0)
		return false;
	*ns = (uint64_t)t * NS;
	return true;
}

/* TIME against a recording that runs from first to last (ns). */
static bool parse_time(const char *s, uint64_t first, uint64_t last, uint64_t *ns)
{
	uint64_t d;
	if (*s == '+' && parse_duration(s + 1, &d)) {
		*ns = first + d;
		return true;
	}
	if (*s == '-' && parse_duration(s + 1, &d)) {
		*ns = last > d ? last - d : 0;
		return true;
	}
	return parse_iso(s, ns);
}

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
	while ((rc = engine_step(&e, err)) == 0) {
		uint64_t now = e.table.cur->host.real_ns;
		if (have && prev >= from && now <= to) {
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
	if ((o->from && !parse_time(o->from, times[0], times[n - 1], &from)) ||
	    (o->to && !parse_time(o->to, times[0], times[n - 1], &to))) {
		xg_fail(err, "bad TIME '%s': give ISO 8601 (2026-01-01T10:00) or +/-DURATION (-1h)",
			o->from && !parse_time(o->from, times[0], times[n - 1], &from) ? o->from : o->to);
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
	struct xg_report *rep = report_new(k);
	struct xg_report_info info = { .file = o->file };
	rc = gather(o->file, from, to, rep, &info, err);
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
	int rc = parse_args(argc, argv, &o);
	if (rc >= 0)
		return rc;
	rc = run(&o, &err);
	if (rc == -2)
		return bad("%s", err.msg);
	if (rc < 0) {
		fprintf(stderr, "xgtop report: %s\n", err.msg);
		return 1;
	}
	return 0;
}
