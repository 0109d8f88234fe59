// SPDX-License-Identifier: GPL-2.0-or-later
/* The options of `xgtop report` (its TIME formats are core/timearg.c's).
 * Apart from report_cmd.c so
 * that the fuzzer calls the parsers report_main() calls. */
#include "report_args.h"
#include "xgtop/core/timearg.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *f)
{
	fputs("Usage: xgtop report --replay FILE [--from TIME] [--to TIME] [-o text|csv|json]\n"
	      "       xgtop report --source prometheus URL --from TIME [--to TIME] [--step SECONDS]\n"
	      "                    [--filter REGEX] [--host-match REGEX] [--cacert FILE] [-o FORMAT]\n"
	      "       xgtop report --contention --replay FILE [--from TIME] [--to TIME] [--rule SPEC]\n"
	      "Per domain, the mean (weighted by interval length), 95th percentile (nearest\n"
	      "rank) and maximum of each column over the intervals of a recording.\n"
	      "  --replay FILE   the recording (--record FILE)\n"
	      "  --source prometheus URL  instead: a period the server holds of xgtop\n"
	      "                  exporters, per HOST and domain; the server computes each\n"
	      "                  figure (mean, interpolated 95th percentile and maximum of\n"
	      "                  the per-interval rate the live view shows)\n"
	      "  --step SECONDS  with --source: the interval (default: 3 scrapes of the\n"
	      "                  slowest host, at least 2 s)\n"
	      "  --filter REGEX, --host-match REGEX, --cacert FILE: as for the live view\n"
	      "  --contention    instead: the cache victims (CPI above its own baseline in 3\n"
	      "                  of the last 5 windows) and their same-socket suspects, by\n"
	      "                  the correlation of their LLC misses with the victim's CPI\n"
	      "  --rule SPEC     --contention's rule, as the settings key contention:\n"
	      "                  window=1 sigma=2 hits=3/5 baseline=20 min_rise=10 min_r=0.5\n"
	      "  --from TIME     first sample to use (default: the recording's first;\n"
	      "                  with --source, required)\n"
	      "  --to TIME       last sample to use (default: the recording's last; with\n"
	      "                  --source, now)\n"
	      "  -o FORMAT       text (default), csv or json\n"
	      "TIME: ISO 8601 / RFC 3339 (2026-01-01, 2026-01-01T10:00, 2026-01-01 10:00:30Z,\n"
	      "      2026-01-01T10:00:00.5+02:00; without a zone, local time), Unix seconds\n"
	      "      (1767261600), now, or relative: +DURATION after the recording's first\n"
	      "      sample, -DURATION before its last (with --source: before now)\n"
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
		{ "source", required_argument, NULL, 's' },
		{ "step", required_argument, NULL, 'S' },
		{ "filter", required_argument, NULL, 'F' },
		{ "host-match", required_argument, NULL, 'H' },
		{ "cacert", required_argument, NULL, 'C' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;
	bool rule = false, prom = false;
	susp_cfg_defaults(&o->rule);
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":o:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'r': o->file = optarg; break;
		case 'f': o->from = optarg; break;
		case 't': o->to = optarg; break;
		case 'c': o->contention = true; break;
		case 's':
			if (strcmp(optarg, "prometheus"))
				return report_bad("--source '%s': a report reads a recording (--replay) or "
						  "--source prometheus URL", optarg);
			prom = true;
			break;
		case 'S': {
			char *end;
			o->step = strtod(optarg, &end);
			if (*end || end == optarg || !(o->step >= 1 && o->step <= 86400))
				return report_bad("--step '%s': give seconds, 1 to 86400", optarg);
			break;
		}
		case 'F': o->filter = optarg; break;
		case 'H': o->host_match = optarg; break;
		case 'C': o->cacert = optarg; break;
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
	if (prom && optind >= argc)
		return report_bad("%s", "--source prometheus needs the server's URL (http://HOST:9090)");
	if (prom)
		o->server = argv[optind++];
	if (optind < argc)
		return report_bad("unexpected argument '%s' (the recording goes after --replay)", argv[optind]);
	if (o->file && o->server)
		return report_bad("%s", "--replay or --source prometheus URL, not both");
	if (!o->file && !o->server)
		return report_bad("%s", "which recording? give --replay FILE (or --source prometheus URL)");
	if (!o->server && (o->step || o->filter || o->host_match || o->cacert))
		return report_bad("%s", "--step, --filter, --host-match and --cacert go with --source prometheus");
	if (o->server && o->contention)
		return report_bad("%s", "--contention reads a recording (--replay FILE)");
	if (o->server && !o->from)
		return report_bad("%s", "which period? give --from TIME (and --to TIME, default now)");
	if (o->contention && o->out_given && o->out != XG_OUT_TEXT)
		return report_bad("%s", "--contention writes text only (no -o csv or json)");
	if (rule && !o->contention)
		return report_bad("%s", "--rule goes with --contention");
	return -1;
}

bool report_parse_time(const char *s, uint64_t first, uint64_t last, uint64_t *ns)
{
	return xg_timearg_parse(s, first, last, ns);
}
