// SPDX-License-Identifier: GPL-2.0-or-later
/* The options of `xgtop trace`. Apart from trace_cmd.c so that the fuzzer
 * calls the parser trace_main() calls. */
#include "trace_args.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xgtop/core/format.h"
#include "xgtop/trace/xentrace_account.h"

static void usage(FILE *f)
{
	fprintf(f,
	        "Usage: xgtop trace FILE [--cpu-hz HZ] [-o text|csv|json] [--behind] [--xenalyze-compat]\n"
	        "                  [--threads N]\n"
	        "Per-domain and per-vCPU running, runnable, blocked, offline and lost time\n"
	        "from an xentrace file, and the run-queue latency (each wait's length:\n"
	        "P50, P99 and a histogram of log2 ns buckets) per domain.\n"
	        "  --cpu-hz HZ         TSC rate: 2.4G, 2400M, 2400000000 (default: estimated\n"
	        "                      from context-switch records when the trace has them)\n"
	        "  -o FORMAT           text (default), csv (one row per vCPU) or json\n"
	        "  --behind            who each domain and vCPU waited behind: its WAIT split by\n"
	        "                      what ran on the pCPU it ran on next (a domid, idle or\n"
	        "                      xen); CSV: domid,vcpu,behind,wait_s,share_pct\n"
	        "  --xenalyze-compat   account as xenalyze --summary does, for comparisons\n"
	        "  --threads N         decode with up to N threads, 1 to 8 (default: one\n"
	        "                      per CPU it may use, at most 8); the figures are the same\n");
}

/* -o FORMAT's names, in enum trace_out's order. */
static const char *const out_names[] = { "text", "csv", "json" };

static bool format_find(const char *name, enum trace_out *out)
{
	for (size_t i = 0; i < XG_ARRAY_LEN(out_names); i++)
		if (!strcmp(out_names[i], name)) {
			*out = (enum trace_out)i;
			return true;
		}
	return false;
}

static int parse_threads(const char *arg, unsigned *threads)
{
	char *end;
	errno = 0;
	unsigned long n = strtoul(arg, &end, 10);
	if (errno || end == arg || *end || n < 1 || n > XT_THREADS_MAX) {
		fprintf(stderr, "xgtop trace: --threads %s: expected a number from 1 to %d\n", arg,
		        XT_THREADS_MAX);
		return -1;
	}
	*threads = (unsigned)n;
	return 0;
}

int trace_parse_args(int argc, char **argv, struct trace_opts *o)
{
	char names[64];
	static const struct option longopts[] = {
		{ "cpu-hz", required_argument, NULL, 'H' },
		{ "output", required_argument, NULL, 'o' },
		{ "xenalyze-compat", no_argument, NULL, 'X' },
		{ "behind", no_argument, NULL, 'B' },
		{ "threads", required_argument, NULL, 'T' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "o:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'H':
			if (!xt_parse_hz(optarg, &o->hz)) {
				fprintf(stderr, "xgtop trace: --cpu-hz %s: expected a TSC rate such as 2.4G, 2400M or 2400000000\n",
				        optarg);
				return 2;
			}
			o->hz_given = true;
			break;
		case 'o':
			if (!format_find(optarg, &o->out)) {
				fmt_list_or(names, sizeof(names), out_names, XG_ARRAY_LEN(out_names));
				fprintf(stderr, "xgtop trace: -o %s: expected %s\n", optarg, names);
				return 2;
			}
			break;
		case 'X':
			o->compat = true;
			break;
		case 'B':
			o->behind = true;
			break;
		case 'T':
			if (parse_threads(optarg, &o->threads))
				return 2;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			fprintf(stderr, "xgtop trace: unknown option %s\n", argv[optind - 1]);
			usage(stderr);
			return 2;
		}
	}
	if (optind != argc - 1) {
		fprintf(stderr, "xgtop trace: %s\n", optind >= argc ? "which trace file?" : "one trace file only");
		usage(stderr);
		return 2;
	}
	if (o->behind && o->compat) {
		fprintf(stderr, "xgtop trace: --behind needs native accounting, not --xenalyze-compat\n");
		return 2;
	}
	o->file = argv[optind];
	return -1;
}
