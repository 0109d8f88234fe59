// SPDX-License-Identifier: GPL-2.0-or-later
/* libFuzzer harness: the command line as main() parses it (and, when its
 * first argument is "report" or "trace", as that subcommand parses it,
 * report's TIME values included), and the --vmfile reader. The input up
 * to the first 0xff byte is argv[1..] (NUL-separated, at most 64
 * arguments); the rest is a --vmfile's text. The parsers are the ones the
 * program calls (main_args.h, report_args.h and trace_args.h in src/app);
 * what the options print goes to /dev/null. Checks: a command line
 * accepted is one the rest of the program can take (delay in range, a
 * known output and source, an --export address that parses); a relative
 * TIME lands on the side of the recording's end it counts from; every name
 * read from a vmfile is trimmed, non-empty and no comment. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../src/app/main_args.h"
#include "../../src/app/report_args.h"
#include "../../src/app/trace_args.h"
#include "xgtop/model/columns.h"
#include "xgtop/model/source.h"
#include "xgtop/view/view.h"
#include "xgtop/exporter/exporter.h"

#include "fuzz.h"

static void check_accepted(const struct xg_config *cfg)
{
	struct xg_listen at;
	struct xg_err err;
	if (cfg->delay_given && !view_delay_valid(cfg->delay_s))
		abort();
	if (cfg->iterations == 0 || cfg->iterations < -1 || (unsigned)cfg->output > XG_OUT_XENTOP)
		abort();
	if (strcmp(cfg->source, "auto") && !source_lookup(cfg->source))
		abort();
	if (cfg->sort && col_lookup(cfg->sort) < 0)
		abort();
	if (cfg->export_at && exporter_parse_listen(cfg->export_at, &at, &err) < 0)
		abort();
}

/* A recording from 2026-01-01T00:00Z, an hour long. */
#define NS 1000000000ull
#define REC_FIRST (1767225600ull * NS)
#define REC_LAST (REC_FIRST + 3600 * NS)

static void report_args(int argc, char **argv)
{
	struct report_opts o = { .out = XG_OUT_TEXT };
	uint64_t t;
	if (report_parse_args(argc, argv, &o) != -1)
		return;
	/* A recording or a server, never both; a server's period has a
	 * start, and its interval is within --step's range. */
	if (!o.file == !o.server || (unsigned)o.out > XG_OUT_XENTOP)
		abort();
	if (o.server && (!o.from || o.contention || (o.step && !(o.step >= 1 && o.step <= 86400))))
		abort();
	const char *times[] = { o.from, o.to };
	for (int i = 0; i < 2; i++) {
		if (!times[i] || !report_parse_time(times[i], REC_FIRST, REC_LAST, &t))
			continue;
		if ((times[i][0] == '+' && t < REC_FIRST) || (times[i][0] == '-' && t > REC_LAST))
			abort();
	}
}

static void trace_args(int argc, char **argv)
{
	struct trace_opts o = { .out = TRACE_OUT_TEXT };
	if (trace_parse_args(argc, argv, &o) != -1)
		return;
	if (!o.file || (unsigned)o.out > TRACE_OUT_JSON || (o.hz_given && !(o.hz > 0)))
		abort();
}

static void args(const uint8_t *p, size_t n)
{
	char *buf = fz_cstr(p, n), *argv[66] = { "xgtop" };
	int argc = 1;
	for (size_t o = 0; o < n && argc < 65; o += strlen(buf + o) + 1)
		argv[argc++] = buf + o;
	argv[argc] = NULL;
	if (argc > 1 && (!strcmp(argv[1], "report") || !strcmp(argv[1], "trace"))) {
		/* The subcommands start getopt at optind 1, which keeps glibc's
		 * place in the last input's arguments: forget it first. */
		optind = 0;
		(void)getopt(1, (char *[]){ "xgtop", NULL }, "");
		(argv[1][0] == 'r' ? report_args : trace_args)(argc - 1, argv + 1);
		free(buf);
		return;
	}
	struct xg_config cfg;
	bool explain = false;
	config_defaults(&cfg);
	optind = 0;   /* glibc: start getopt afresh */
	if (app_parse_args(argc, argv, &cfg, &explain) == 0)
		check_accepted(&cfg);
	free(buf);
}

static void vmfile(const uint8_t *p, size_t n)
{
	char path[32];
	struct xg_config cfg;
	struct xg_view v;
	struct xg_err err;
	if (!fz_file(path, p, n))
		return;
	config_defaults(&cfg);
	view_init(&v, &cfg);
	if (view_load_vmfile(&v, path, &err) == 0 && !v.nvmnames)
		abort();
	for (size_t i = 0; i < v.nvmnames; i++) {
		const char *s = v.vmnames[i];
		size_t l = strlen(s);
		if (!l || s[0] == '#' || strchr(" \t", s[0]) || strchr(" \t", s[l - 1]) || strpbrk(s, "\r\n"))
			abort();
	}
	view_free(&v);
	unlink(path);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *null;
	if (!null) {
		null = fopen("/dev/null", "w");
		stdout = stderr = null;
	}
	const uint8_t *split = memchr(data, 0xff, size);
	size_t n = split ? (size_t)(split - data) : size;
	args(data, n);
	if (split)
		vmfile(split + 1, size - n - 1);
	return 0;
}
