/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `xgtop report`'s command line and TIME values, for report_cmd.c (and the
 * argument fuzzer). */
#ifndef XGTOP_APP_REPORT_ARGS_H
#define XGTOP_APP_REPORT_ARGS_H

#include "xgtop/model/config.h"
#include "xgtop/compute/suspects.h"

struct report_opts {
	const char *file, *from, *to;
	enum xg_output out;
	bool out_given;
	bool contention;            /* --contention: the cache victims instead */
	struct xg_susp_cfg rule;    /* --rule SPEC */
	const char *server;         /* --source prometheus URL */
	double step;                /* --step SECONDS, 0: from the scrapes */
	const char *filter, *host_match, *cacert;
};

/* Parses argv (argv[0] is "report") into o. Returns -1 to go on, or the
 * exit status (0 after --help). */
int report_parse_args(int argc, char **argv, struct report_opts *o);
/* Says "xgtop report: " and fmt with arg on standard error, then the
 * usage; returns 2, the exit status of a usage error. */
int report_bad(const char *fmt, const char *arg);
/* TIME s against a recording that runs from first to last (ns), or against
 * now (first = last = now): xg_timearg_parse (core/timearg.h). */
bool report_parse_time(const char *s, uint64_t first, uint64_t last, uint64_t *ns);

#endif
