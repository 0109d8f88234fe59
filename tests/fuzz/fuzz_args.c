// SPDX-License-Identifier: GPL-2.0-or-later
/* libFuzzer harness: the command line as main.c parses it, and the
 * --vmfile reader. The input up to the first 0xff byte is argv[1..]
 * (NUL-separated, at most 64 arguments); the rest is a --vmfile's text.
 * main.c is compiled in here (its main renamed) so the harness calls its
 * own parse_args(), static there; what the options print goes to
 * /dev/null. Checks: a command line accepted is one the rest of the
 * program can take (delay in range, a known output and source, an
 * --export address that parses); every name read from a vmfile is
 * trimmed, non-empty and no comment. */
#define main xgtop_main
#include "../../src/app/main.c"
#undef main

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

static void args(const uint8_t *p, size_t n)
{
	char *buf = fz_cstr(p, n), *argv[66] = { "xgtop" };
	int argc = 1;
	for (size_t o = 0; o < n && argc < 65; o += strlen(buf + o) + 1)
		argv[argc++] = buf + o;
	argv[argc] = NULL;
	struct xg_config cfg;
	bool explain = false;
	config_defaults(&cfg);
	optind = 0;   /* glibc: start getopt afresh */
	if (parse_args(argc, argv, &cfg, &explain) == 0)
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
