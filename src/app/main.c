// SPDX-License-Identifier: GPL-2.0-or-later
/* xgtop: command line, batch loop and dispatch to the TUI. The only file
 * with process-wide state (the signal flag). */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "xgtop/xen/xen_agent.h"
#include "xgtop/engine/engine.h"
#include "xgtop/outputs/explain.h"
#include "xgtop/outputs/output.h"
#include "xgtop/tui/tui.h"
#include "xgtop/trace/xentrace.h"
#include "report_cmd.h"

static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
	stop_signal = sig;
}

static const char usage_text[] =
"Usage: xgtop [OPTION]...            live monitor (full screen, or batch with -b)\n"
"       xgtop --replay FILE [OPTION]...\n"
"       xgtop --source trace FILE [--window S] [OPTION]...\n"
"       xgtop trace FILE [--cpu-hz HZ] [-o text|csv|json] [--xenalyze-compat]\n"
"       xgtop report --replay FILE [--from TIME] [--to TIME] [-o text|csv|json]\n"
"       xgtop --agent [--events LIST] [-d SECONDS]   (inside a Xen guest)\n"
"\n"
"Per-domain CPU, memory, disk, network, scheduler and cache figures for Xen\n"
"(in dom0) and Linux/KVM hosts (VMs, containers, cgroups, process groups).\n"
"\n"
"Display and batch output:\n"
"  -d, --delay SECONDS     refresh interval, fractional allowed (default 1)\n"
"  -b, --batch             print to stdout instead of the full-screen view\n"
"  -n, --iterations N      stop after N printed refreshes\n"
"  -o, --output FORMAT     batch format: text, csv, json, xentop\n"
"      --sort COLUMN       sort column (key, header or alias: cpu, mem, miss ...)\n"
"      --reverse           reverse the sort order\n"
"      --filter REGEX      only domains whose name matches (extended, no case)\n"
"      --vmfile FILE       only the domains named in FILE (one name per line)\n"
"  -v, --vcpus             per-vCPU rows under each domain\n"
"      --explain           take two samples, then say for every column what it\n"
"                          counts and why any figure shows '-'\n"
"      --list-columns      print every column: header, key, unit, group, formula\n"
"      --history N         samples the full-screen view keeps for its graphs and\n"
"                          TREND column (default 300, 0 = none; fewer when the\n"
"                          domains would take more than 32 MiB)\n"
"\n"
"What to collect (each --no... also skips collecting that data):\n"
"      --nodisk            no disk columns\n"
"      --nonet             no network columns\n"
"      --nocache           no cache (PMU, CMT/MBM) columns\n"
"      --nosumcache        cache figures broken down by where they happened,\n"
"                          and per socket for CMT/MBM on Xen\n"
"      --notrace           no scheduler (RUN/WAIT/BLK/OFF) columns\n"
"      --events LIST       PMU events to count (libpfm4 or perf names)\n"
"      --cmt-attach        Xen: give each domain a CMT/MBM monitoring ID (RMID)\n"
"                          for L3-OCC and MEM-BW; detached again on exit\n"
"      --agent             run inside a Xen guest: count this guest's events\n"
"                          (--events, -d, -n apply) and publish them in its\n"
"                          xenstore data/xgtop/ for dom0's xgtop\n"
"\n"
"Sources:\n"
"      --source NAME       auto (default: xen in dom0, else linux), xen, linux,\n"
"                          replay, trace\n"
"      --group MODE        linux source: cgroup or process (default: auto)\n"
"      --record FILE       append every sample to FILE\n"
"      --replay FILE       play a recording back through the same views\n"
"      --speed N           replay N times faster than recorded (0 = no waiting)\n"
"      --window SECONDS    trace source: length of one step (default 1)\n"
"      --cpu-hz HZ         trace source: TSC rate (default: estimated from the trace)\n"
"\n"
"  -h, --help              this help\n"
"  -V, --version           version\n"
"\n"
"Columns, formulas and units: the help screen (h) and man xgtop.\n"
"\n";

enum {
	OPT_SORT = 256, OPT_REVERSE, OPT_FILTER, OPT_VMFILE, OPT_NODISK, OPT_NONET,
	OPT_NOCACHE, OPT_NOSUMCACHE, OPT_NOTRACE, OPT_SOURCE, OPT_RECORD, OPT_REPLAY,
	OPT_SPEED, OPT_GROUP, OPT_EVENTS, OPT_WINDOW, OPT_EXPLAIN, OPT_LIST_COLUMNS, OPT_CPU_HZ,
	OPT_CMT_ATTACH, OPT_AGENT, OPT_HISTORY,
};

static const struct option long_opts[] = {
	{ "delay", required_argument, NULL, 'd' },
	{ "batch", no_argument, NULL, 'b' },
	{ "iterations", required_argument, NULL, 'n' },
	{ "output", required_argument, NULL, 'o' },
	{ "vcpus", no_argument, NULL, 'v' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ "sort", required_argument, NULL, OPT_SORT },
	{ "reverse", no_argument, NULL, OPT_REVERSE },
	{ "filter", required_argument, NULL, OPT_FILTER },
	{ "vmfile", required_argument, NULL, OPT_VMFILE },
	{ "nodisk", no_argument, NULL, OPT_NODISK },
	{ "nonet", no_argument, NULL, OPT_NONET },
	{ "nocache", no_argument, NULL, OPT_NOCACHE },
	{ "nosumcache", no_argument, NULL, OPT_NOSUMCACHE },
	{ "notrace", no_argument, NULL, OPT_NOTRACE },
	{ "source", required_argument, NULL, OPT_SOURCE },
	{ "record", required_argument, NULL, OPT_RECORD },
	{ "replay", required_argument, NULL, OPT_REPLAY },
	{ "speed", required_argument, NULL, OPT_SPEED },
	{ "group", required_argument, NULL, OPT_GROUP },
	{ "events", required_argument, NULL, OPT_EVENTS },
	{ "window", required_argument, NULL, OPT_WINDOW },
	{ "explain", no_argument, NULL, OPT_EXPLAIN },
	{ "list-columns", no_argument, NULL, OPT_LIST_COLUMNS },
	{ "cpu-hz", required_argument, NULL, OPT_CPU_HZ },
	{ "cmt-attach", no_argument, NULL, OPT_CMT_ATTACH },
	{ "agent", no_argument, NULL, OPT_AGENT },
	{ "history", required_argument, NULL, OPT_HISTORY },
	{ NULL, 0, NULL, 0 },
};

static int usage_error(const char *fmt, const char *arg)
{
	fprintf(stderr, "xgtop: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\nTry 'xgtop --help' for more information.\n");
	return 2;
}

/* The options that take a number: 0, or the usage error's exit status + 1. */
static int parse_number(int c, struct xg_config *cfg)
{
	uint64_t u;
	switch (c) {
	case 'd':
		if (!xg_parse_double(optarg, &cfg->delay_s) || !view_delay_valid(cfg->delay_s))
			return 1 + usage_error("--delay '%s': give seconds from " XG_DELAY_RANGE, optarg);
		break;
	case 'n':
		if (!xg_parse_u64(optarg, &u) || u == 0 || u > 1000000000)
			return 1 + usage_error("--iterations '%s': give a whole number from 1", optarg);
		cfg->iterations = (long)u;
		break;
	case OPT_SPEED:
		if (!xg_parse_double(optarg, &cfg->speed) || cfg->speed > 1e6)
			return 1 + usage_error("--speed '%s': give a factor >= 0 (0 = no waiting)", optarg);
		break;
	case OPT_WINDOW:
		if (!xg_parse_double(optarg, &cfg->window_s) || cfg->window_s < 1e-6)
			return 1 + usage_error("--window '%s': give seconds > 0", optarg);
		break;
	case OPT_CPU_HZ:
		if (!xg_parse_double(optarg, &cfg->trace_cpu_hz) || cfg->trace_cpu_hz < 1e6)
			return 1 + usage_error("--cpu-hz '%s': give the TSC rate in Hz (e.g. 2400000000)", optarg);
		break;
	case OPT_HISTORY:
		if (!xg_parse_u64(optarg, &u) || u > XG_HIST_MAX)
			return 1 + usage_error("--history '%s': give a number of samples from 0 to 100000", optarg);
		cfg->history = (unsigned)u;
		break;
	}
	return 0;
}

/* What the options say together, once all are read. */
static int check_args(int argc, char **argv, struct xg_config *cfg)
{
	bool trace = !strcmp(cfg->source, "trace");
	if (optind < argc) {
		if (!trace || optind + 1 < argc)
			return 1 + usage_error("unexpected argument '%s'", argv[optind]);
		cfg->trace_file = argv[optind];
	}
	if (trace && !cfg->trace_file)
		return 1 + usage_error("%s", "--source trace needs a trace FILE");
	if (!strcmp(cfg->source, "replay") && !cfg->replay)
		return 1 + usage_error("%s", "--source replay needs --replay FILE");
	if (cfg->replay && strcmp(cfg->source, "auto") && strcmp(cfg->source, "replay"))
		return 1 + usage_error("--replay cannot be combined with --source %s", cfg->source);
	if (cfg->replay && cfg->record && !strcmp(cfg->replay, cfg->record))
		return 1 + usage_error("--record '%s' is the file being replayed", cfg->record);
	return 0;
}

/* Returns 0 to go on, or an exit status (+1 so that 0 can mean "go on"). */
static int parse_args(int argc, char **argv, struct xg_config *cfg, bool *explain)
{
	int c, rc;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":d:bn:o:vhV", long_opts, NULL)) != -1) {
		switch (c) {
		case 'd': case 'n': case OPT_SPEED: case OPT_WINDOW: case OPT_CPU_HZ: case OPT_HISTORY:
			if ((rc = parse_number(c, cfg)))
				return rc;
			break;
		case 'b': cfg->batch = true; break;
		case 'o':
			if (!strcmp(optarg, "text")) cfg->output = XG_OUT_TEXT;
			else if (!strcmp(optarg, "csv")) cfg->output = XG_OUT_CSV;
			else if (!strcmp(optarg, "json")) cfg->output = XG_OUT_JSON;
			else if (!strcmp(optarg, "xentop")) cfg->output = XG_OUT_XENTOP;
			else return 1 + usage_error("--output '%s': use text, csv, json or xentop", optarg);
			break;
		case 'v': cfg->vcpus = true; break;
		case 'h': fputs(usage_text, stdout); tui_keys_usage(stdout); return 1 + 0;
		case 'V': printf("xgtop %s\n", XG_VERSION); return 1 + 0;
		case OPT_SORT:
			if (col_lookup(optarg) < 0)
				return 1 + usage_error("--sort '%s': no such column (see xgtop --help, man xgtop)", optarg);
			if (!view_sortable((enum xg_col)col_lookup(optarg)))
				return 1 + usage_error("--sort '%s': a drawing, not a sort key", optarg);
			cfg->sort = optarg;
			break;
		case OPT_REVERSE: cfg->reverse = true; break;
		case OPT_FILTER: cfg->filter = optarg; break;
		case OPT_VMFILE: cfg->vmfile = optarg; break;
		case OPT_NODISK: cfg->nodisk = true; break;
		case OPT_NONET: cfg->nonet = true; break;
		case OPT_NOCACHE: cfg->nocache = true; break;
		case OPT_NOSUMCACHE: cfg->nosumcache = true; break;
		case OPT_NOTRACE: cfg->notrace = true; break;
		case OPT_SOURCE:
			if (strcmp(optarg, "auto") && strcmp(optarg, "xen") && strcmp(optarg, "linux") &&
			    strcmp(optarg, "replay") && strcmp(optarg, "trace"))
				return 1 + usage_error("--source '%s': use auto, xen, linux, replay or trace", optarg);
			cfg->source = optarg;
			break;
		case OPT_RECORD: cfg->record = optarg; break;
		case OPT_REPLAY: cfg->replay = optarg; break;
		case OPT_GROUP:
			if (!strcmp(optarg, "cgroup")) cfg->group = XG_GROUP_CGROUP;
			else if (!strcmp(optarg, "process")) cfg->group = XG_GROUP_PROCESS;
			else if (!strcmp(optarg, "auto")) cfg->group = XG_GROUP_AUTO;
			else return 1 + usage_error("--group '%s': use cgroup, process or auto", optarg);
			break;
		case OPT_EVENTS: cfg->events = optarg; break;
		case OPT_EXPLAIN: *explain = true; break;
		case OPT_CMT_ATTACH: cfg->cmt_attach = true; break;
		case OPT_AGENT: cfg->agent = true; break;
		case OPT_LIST_COLUMNS: explain_columns(stdout); return 1 + 0;
		case ':':
			return 1 + usage_error("option '%s' needs an argument", argv[optind - 1]);
		default:
			return 1 + usage_error("unknown option '%s'", argv[optind - 1]);
		}
	}
	return check_args(argc, argv, cfg);
}

static void install_signals(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}

/* Sleeps ns, returning early when a terminating signal arrives. */
static void pause_ns(uint64_t ns)
{
	struct timespec ts = { (time_t)(ns / 1000000000u), (long)(ns % 1000000000u) };
	while (!stop_signal && nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/* Batch mode: sample, wait, then print each refresh, so the first printed
 * iteration already has rates. */
static int run_batch(struct xg_engine *e, struct xg_err *err)
{
	struct xg_sink *sink = sink_open(e->cfg->output, stdout);
	long printed = 0;
	int rc = engine_step(e, err);
	while (rc == 0 && !stop_signal) {
		pause_ns(engine_wait_ns(e));
		if (stop_signal)
			break;
		rc = engine_step(e, err);
		if (rc != 0)
			break;
		if (sink_write(sink, &e->table, &e->view, err) < 0) {
			/* The reader went away (xgtop -b | head): not an error. */
			rc = err->code == EPIPE ? 1 : -1;
			break;
		}
		fflush(stdout);
		if (e->cfg->iterations > 0 && ++printed >= e->cfg->iterations)
			break;
	}
	sink_close(sink);
	if (e->eof && e->end_notice[0])
		fprintf(stderr, "xgtop: %s\n", e->end_notice);
	if (rc == 0 && fflush(stdout) == EOF && errno != EPIPE)
		rc = xg_fail_errno(err, errno, "writing to standard output");
	return rc < 0 ? -1 : 0;
}

static int run_explain(struct xg_engine *e, struct xg_err *err)
{
	int rc = engine_step(e, err);
	if (rc == 0) {
		pause_ns(engine_wait_ns(e));
		rc = engine_step(e, err);
	}
	if (rc < 0)
		return -1;
	explain_write(stdout, &e->table, &e->view);
	return 0;
}

int main(int argc, char **argv)
{
	struct xg_config cfg;
	struct xg_err err = { 0 };
	struct xg_engine e;
	bool explain = false;

	if (argc > 1 && !strcmp(argv[1], "trace"))
		return trace_main(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "report"))
		return report_main(argc - 1, argv + 1);
	config_defaults(&cfg);
	int rc = parse_args(argc, argv, &cfg, &explain);
	if (rc)
		return rc - 1;
	if (cfg.output != XG_OUT_TEXT && !cfg.batch && !explain)
		cfg.batch = true;   /* a machine format only makes sense on stdout */

	install_signals();
	if (cfg.agent) {
		if (agent_run(&cfg, &stop_signal, &err) < 0) {
			fprintf(stderr, "xgtop: %s\n", err.msg);
			return 1;
		}
		return 0;
	}
	if (engine_open(&e, &cfg, &err) < 0) {
		fprintf(stderr, "xgtop: %s\n", err.msg);
		engine_close(&e);
		return 1;
	}
	if (cfg.filter && view_set_filter(&e.view, cfg.filter, &err) < 0) {
		fprintf(stderr, "xgtop: --filter: %s\n", err.msg);
		engine_close(&e);
		return 2;
	}
	if (cfg.vmfile && view_load_vmfile(&e.view, cfg.vmfile, &err) < 0) {
		fprintf(stderr, "xgtop: %s\n", err.msg);
		engine_close(&e);
		return 1;
	}
	if (explain)
		rc = run_explain(&e, &err);
	else if (cfg.batch)
		rc = run_batch(&e, &err);
	else if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO))
		rc = xg_fail(&err, "the full-screen view needs a terminal; use -b for batch output");
	else
		rc = tui_run(&e, &err);
	engine_close(&e);
	if (rc != 0) {
		fprintf(stderr, "xgtop: %s\n", err.msg);
		return 1;
	}
	return 0;
}
