// SPDX-License-Identifier: GPL-2.0-or-later
/* The options of `xgtop report` and its TIME formats (ISO 8601, or a
 * duration from either end of the recording). Apart from report_cmd.c so
 * that the fuzzer calls the parsers report_main() calls. */
#include "report_args.h"

#include <ctype.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define NS 1000000000ull

static void usage(FILE *f)
{
	fputs("Usage: xgtop report --replay FILE [--from TIME] [--to TIME] [-o text|csv|json]\n"
	      "       xgtop report --contention --replay FILE [--from TIME] [--to TIME] [--rule SPEC]\n"
	      "Per domain, the mean (weighted by interval length), 95th percentile (nearest\n"
	      "rank) and maximum of each column over the intervals of a recording.\n"
	      "  --replay FILE   the recording (--record FILE)\n"
	      "  --contention    instead: the cache victims (CPI above its own baseline in 3\n"
	      "                  of the last 5 windows) and their same-socket suspects, by\n"
	      "                  the correlation of their LLC misses with the victim's CPI\n"
	      "  --rule SPEC     --contention's rule, as the settings key contention:\n"
	      "                  window=1 sigma=2 hits=3/5 baseline=20 min_rise=10 min_r=0.5\n"
	      "  --from TIME     first sample to use (default: the recording's first)\n"
	      "  --to TIME       last sample to use (default: the recording's last)\n"
	      "  -o FORMAT       text (default), csv or json\n"
	      "TIME: ISO 8601 (2026-01-01, 2026-01-01T10:00, 2026-01-01 10:00:30Z,\n"
	      "      2026-01-01T10:00+02:00; without a zone, local time), or relative to the\n"
	      "      recording: +DURATION after its first sample, -DURATION before its last\n"
	      "      (DURATION: 90, 90s, 15m, 1h30m, 2d).\n", f);
}

int report_bad(const char *fmt, const char *arg)
{
	fprintf(stderr, "xgtop report: ");
	fprintf(stderr, fmt, arg);
	fputs("\n", stderr);
	usage(stderr);
	return 2;
}

int report_parse_args(int argc, char **argv, struct report_opts *o)
{
	static const struct option longopts[] = {
		{ "replay", required_argument, NULL, 'r' },
		{ "from", required_argument, NULL, 'f' },
		{ "to", required_argument, NULL, 't' },
		{ "output", required_argument, NULL, 'o' },
		{ "contention", no_argument, NULL, 'c' },
		{ "rule", required_argument, NULL, 'R' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;
	bool rule = false;
	susp_cfg_defaults(&o->rule);
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":o:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'r': o->file = optarg; break;
		case 'f': o->from = optarg; break;
		case 't': o->to = optarg; break;
		case 'c': o->contention = true; break;
		case 'R': {
			struct xg_err err = { 0 };
			if (susp_cfg_parse(&o->rule, optarg, &err) < 0) {
				fprintf(stderr, "xgtop report: --rule '%s': %s\n", optarg, err.msg);
				return 2;
			}
			rule = true;
			break;
		}
		case 'o':
			o->out_given = true;
			if (!strcmp(optarg, "text")) o->out = XG_OUT_TEXT;
			else if (!strcmp(optarg, "csv")) o->out = XG_OUT_CSV;
			else if (!strcmp(optarg, "json")) o->out = XG_OUT_JSON;
			else return report_bad("-o '%s': use text, csv or json", optarg);
			break;
		case 'h': usage(stdout); return 0;
		case ':': return report_bad("option '%s' needs an argument", argv[optind - 1]);
		default: return report_bad("unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind < argc)
		return report_bad("unexpected argument '%s' (the recording goes after --replay)", argv[optind]);
	if (!o->file)
		return report_bad("%s", "which recording? give --replay FILE");
	if (o->contention && o->out_given && o->out != XG_OUT_TEXT)
		return report_bad("%s", "--contention writes text only (no -o csv or json)");
	if (rule && !o->contention)
		return report_bad("%s", "--rule goes with --contention");
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

bool report_parse_time(const char *s, uint64_t first, uint64_t last, uint64_t *ns)
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
