/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `xgtop trace`'s command line, for trace_cmd.c (and the argument fuzzer). */
#ifndef XGTOP_APP_TRACE_ARGS_H
#define XGTOP_APP_TRACE_ARGS_H

#include <stdbool.h>

/* -o FORMAT */
enum trace_out { TRACE_OUT_TEXT, TRACE_OUT_CSV, TRACE_OUT_JSON };

struct trace_opts {
	const char *file;
	double hz;
	bool hz_given;
	enum trace_out out;
	bool compat;
	bool behind;        /* --behind: who each domain's WAIT was behind */
	unsigned threads;   /* 0: xt_file_threads() */
};

/* Parses argv (argv[0] is "trace") into o. Returns -1 to go on, or the
 * exit status (0 after --help, 2 after a usage error said on standard
 * error). */
int trace_parse_args(int argc, char **argv, struct trace_opts *o);

#endif
