/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Everything the command line says, parsed once in main.c and read-only
 * afterwards. */
#ifndef XGTOP_CONFIG_H
#define XGTOP_CONFIG_H

#include "xgtop/core/common.h"

/* --history: samples the full-screen view keeps by default, and at most. */
#define XG_HIST_DEFAULT 300
#define XG_HIST_MAX 100000

enum xg_output { XG_OUT_TEXT, XG_OUT_CSV, XG_OUT_JSON, XG_OUT_XENTOP };
enum xg_group { XG_GROUP_AUTO, XG_GROUP_CGROUP, XG_GROUP_PROCESS, XG_GROUP_VM };

struct xg_config {
	double delay_s;             /* -d, default 1.0 */
	bool delay_given;           /* -d was given (it overrides the settings file) */
	const char *config_file;    /* --config FILE, NULL = the default path */
	bool no_config;             /* --no-config: no settings file read or written */
	bool batch;                 /* -b */
	long iterations;            /* -n, -1 = forever */
	enum xg_output output;      /* -o */
	const char *sort;           /* --sort column name, NULL = default */
	bool reverse;               /* --reverse */
	const char *filter;         /* --filter REGEX */
	const char *vmfile;         /* --vmfile FILE */
	bool nodisk, nonet, nocache, nosumcache, notrace;
	const char *source;         /* --source auto|xen|linux|replay|trace */
	const char *record;         /* --record FILE */
	const char *replay;         /* --replay FILE */
	double speed;               /* --speed N for replay, default 1 */
	enum xg_group group;        /* --group */
	const char *events;         /* --events LIST (PMU) */
	const char *trace_file;     /* --source trace FILE */
	double window_s;            /* --window S for trace stepping */
	double trace_cpu_hz;        /* --cpu-hz HZ for --source trace, 0 = estimate */
	bool vcpus;                 /* -v / show per-vCPU rows at start */
	bool cmt_attach;            /* --cmt-attach: give domains a CMT RMID (Xen) */
	bool agent;                 /* --agent: publish this guest's counters */
	const char *export_at;      /* --export [ADDR:]PORT, NULL = no exporter */
	const char *web_config;     /* --web-config FILE: TLS, users, headers; NULL = none */
	bool daemon;                /* --daemon: headless, log lines on stderr */
	const char *remote_urls;    /* --source remote URL[,URL...] */
	const char *hosts_file;     /* --hosts FILE: URLs of a pool, one per line */
	const char *host_match;     /* --host-match REGEX: the Prometheus source's instances */
	double at;                  /* --at TIME: the Prometheus source's view time, Unix s; 0 = live */
	const char *cacert;         /* --cacert FILE: CA of https hosts without ca_file */
	unsigned history;           /* --history N: samples the TUI keeps, 0 = none */
	int stable_order;           /* --stable-order: 1 on, 0 off, -1 not given (on) */
	const char *theme;          /* --theme NAME, NULL = not given */
};

void config_defaults(struct xg_config *c);

#endif
