// SPDX-License-Identifier: GPL-2.0-or-later
/* xgtop: command line, batch loop and dispatch to the TUI. Its signal
 * flags are one of the few pieces of process-wide state, each kept where a
 * signal handler or an exit handler needs it; src/README.md lists them. */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "daemon.h"
#include "xgtop/core/settings.h"
#include "xgtop/app/report_cmd.h"
#include "xgtop/app/trace_cmd.h"
#include "xgtop/engine/engine.h"
#include "xgtop/outputs/explain.h"
#include "xgtop/outputs/output.h"
#include "xgtop/tui/tui.h"
#include "xgtop/xen/xen_agent.h"
#include "xgtop/xen/xen_version.h"

static volatile sig_atomic_t stop_signal, hup_signal;

static void on_signal(int sig)
{
	stop_signal = sig;
}

static void on_hup(int sig)
{
	(void)sig;
	hup_signal = 1;
}

static const char usage_text[] =
"Usage: xgtop [OPTION]...            live monitor (full screen, or batch with -b)\n"
"       xgtop --replay FILE [OPTION]...\n"
"       xgtop --source trace FILE [--window S] [OPTION]...\n"
"       xgtop --source remote URL[,URL...] [OPTION]...   (pool view)\n"
"       xgtop trace FILE [--cpu-hz HZ] [-o text|csv|json] [--xenalyze-compat] [--threads N]\n"
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
"      --config FILE       settings file (default: $XDG_CONFIG_HOME/xgtop/xgtoprc,\n"
"                          else ~/.config/xgtop/xgtoprc); options override it\n"
"      --no-config         neither read nor write a settings file\n"
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
"                          replay, trace, remote\n"
"      --hosts FILE        pool view: read the xgtop exporters listed in FILE\n"
"                          (one 'URL [NAME]' per line) like --source remote\n"
"                          URL,...: all their domains in one table, by HOST\n"
"      --group MODE        linux source: vm (QEMU/KVM virtual machines, plus one\n"
"                          'host' row for every other process), cgroup, process,\n"
"                          or auto (default: vm when VMs run, else cgroup/process)\n"
"      --record FILE       append every sample to FILE\n"
"      --replay FILE       play a recording back through the same views\n"
"      --speed N           replay N times faster than recorded (0 = no waiting)\n"
"      --window SECONDS    trace source: length of one step (default 1)\n"
"      --cpu-hz HZ         trace source: TSC rate (default: estimated from the trace)\n"
"\n"
"Exporter (Prometheus, OpenMetrics; see doc/exporter.md):\n"
"      --export [ADDR:]PORT  serve /metrics on ADDR (default 127.0.0.1) while the\n"
"                          full-screen view, batch mode or --daemon runs\n"
"      --daemon            run headless: no terminal, one log line per event on\n"
"                          standard error; SIGTERM/SIGINT exit, SIGHUP reopens\n"
"                          the --record file\n"
"\n"
"  -h, --help              this help\n"
"  -V, --version           version\n"
"\n"
"Columns, formulas and units: the help screen (h) and man xgtop.\n"
"\n";

enum {
	OPT_SORT = 256, OPT_REVERSE, OPT_FILTER, OPT_VMFILE, OPT_NODISK, OPT_NONET,
	OPT_NOCACHE, OPT_NOSUMCACHE, OPT_NOTRACE, OPT_SOURCE, OPT_RECORD, OPT_REPLAY,
	OPT_HOSTS, OPT_SPEED, OPT_GROUP, OPT_EVENTS, OPT_WINDOW, OPT_EXPLAIN, OPT_LIST_COLUMNS, OPT_CPU_HZ,
	OPT_CMT_ATTACH, OPT_AGENT, OPT_CONFIG, OPT_NO_CONFIG, OPT_EXPORT, OPT_DAEMON, OPT_HISTORY,
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
	{ "hosts", required_argument, NULL, OPT_HOSTS },
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
	{ "config", required_argument, NULL, OPT_CONFIG },
	{ "no-config", no_argument, NULL, OPT_NO_CONFIG },
	{ "export", required_argument, NULL, OPT_EXPORT },
	{ "daemon", no_argument, NULL, OPT_DAEMON },
	{ "history", required_argument, NULL, OPT_HISTORY },
	{ NULL, 0, NULL, 0 },
};

static int usage_error(const char *fmt, ...) XG_PRINTF(1, 2);
static int usage_error(const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "xgtop: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry 'xgtop --help' for more information.\n");
	return 2;
}

/* The option handlers below return 0 to go on, or an exit status + 1 (so
 * that 0 can mean "go on"). */
#define BAD_USAGE(...) (1 + usage_error(__VA_ARGS__))

/* An option that only switches something on, or keeps its argument. */
struct opt_field {
	int val;
	bool *flag;
	const char **text;
};

static bool set_field(const struct opt_field *fields, size_t n, int c, const char *arg)
{
	for (size_t i = 0; i < n; i++) {
		if (fields[i].val != c)
			continue;
		if (fields[i].text)
			*fields[i].text = arg;
		else
			*fields[i].flag = true;
		return true;
	}
	return false;
}

static int opt_delay(struct xg_config *cfg, const char *arg)
{
	if (!xg_parse_double(arg, &cfg->delay_s) || !view_delay_valid(cfg->delay_s))
		return BAD_USAGE("--delay '%s': give seconds from " XG_DELAY_RANGE, arg);
	cfg->delay_given = true;   /* it overrides the settings file */
	return 0;
}

static int opt_iterations(struct xg_config *cfg, const char *arg)
{
	uint64_t u;
	if (!xg_parse_u64(arg, &u) || u == 0 || u > 1000000000)
		return BAD_USAGE("--iterations '%s': give a whole number from 1", arg);
	cfg->iterations = (long)u;
	return 0;
}

/* -o and --source take the names their registries hold. */
static int opt_output(struct xg_config *cfg, const char *arg)
{
	const struct output_format *f = output_find(arg);
	char names[128];
	if (!f) {
		output_names(names, sizeof(names));
		return BAD_USAGE("--output '%s': use %s", arg, names);
	}
	cfg->output = f->id;
	return 0;
}

static int opt_source(struct xg_config *cfg, const char *arg)
{
	char names[128];
	if (strcmp(arg, "auto") && !source_lookup(arg)) {
		source_names(names, sizeof(names));
		return BAD_USAGE("--source '%s': use %s", arg, names);
	}
	cfg->source = arg;
	return 0;
}

static int opt_sort(struct xg_config *cfg, const char *arg)
{
	if (col_lookup(arg) < 0)
		return BAD_USAGE("--sort '%s': no such column (see xgtop --help, man xgtop)", arg);
	if (!view_sortable((enum xg_col)col_lookup(arg)))
		return BAD_USAGE("--sort '%s': a drawing, not a sort key", arg);
	cfg->sort = arg;
	return 0;
}

static int opt_speed(struct xg_config *cfg, const char *arg)
{
	if (!xg_parse_double(arg, &cfg->speed) || cfg->speed > 1e6)
		return BAD_USAGE("--speed '%s': give a factor >= 0 (0 = no waiting)", arg);
	return 0;
}

static int opt_group(struct xg_config *cfg, const char *arg)
{
	static const struct {
		const char *name;
		enum xg_group group;
	} groups[] = {
		{ "vm", XG_GROUP_VM }, { "cgroup", XG_GROUP_CGROUP },
		{ "process", XG_GROUP_PROCESS }, { "auto", XG_GROUP_AUTO },
	};
	for (size_t i = 0; i < XG_ARRAY_LEN(groups); i++)
		if (!strcmp(arg, groups[i].name)) {
			cfg->group = groups[i].group;
			return 0;
		}
	return BAD_USAGE("--group '%s': use vm, cgroup, process or auto", arg);
}

static int opt_window(struct xg_config *cfg, const char *arg)
{
	if (!xg_parse_double(arg, &cfg->window_s) || cfg->window_s < 1e-6)
		return BAD_USAGE("--window '%s': give seconds > 0", arg);
	return 0;
}

static int opt_cpu_hz(struct xg_config *cfg, const char *arg)
{
	if (!xg_parse_double(arg, &cfg->trace_cpu_hz) || cfg->trace_cpu_hz < 1e6)
		return BAD_USAGE("--cpu-hz '%s': give the TSC rate in Hz (e.g. 2400000000)", arg);
	return 0;
}

static int opt_history(struct xg_config *cfg, const char *arg)
{
	uint64_t u;
	if (!xg_parse_u64(arg, &u) || u > XG_HIST_MAX)
		return BAD_USAGE("--history '%s': give a number of samples from 0 to 100000", arg);
	cfg->history = (unsigned)u;
	return 0;
}

/* --export [ADDR:]PORT: checked here so that a typo is a usage error (2). */
static int opt_export(struct xg_config *cfg, const char *arg)
{
	struct xg_listen at;
	struct xg_err e;
	if (exporter_parse_listen(arg, &at, &e) < 0)
		return BAD_USAGE("--export %s", e.msg);
	cfg->export_at = arg;
	return 0;
}

/* Options whose argument must be checked. */
static const struct {
	int val;
	int (*set)(struct xg_config *cfg, const char *arg);
} value_opts[] = {
	{ 'd', opt_delay }, { 'n', opt_iterations }, { 'o', opt_output },
	{ OPT_SORT, opt_sort }, { OPT_SOURCE, opt_source }, { OPT_SPEED, opt_speed },
	{ OPT_GROUP, opt_group }, { OPT_WINDOW, opt_window }, { OPT_CPU_HZ, opt_cpu_hz },
	{ OPT_EXPORT, opt_export }, { OPT_HISTORY, opt_history },
};

/* The version, then what the binary needs of the host: the glibc whose
 * headers it was compiled with is its floor (2.17 for `make portable`'s,
 * the build host's otherwise), and the one Xen minor it supports, the one
 * its libxenctrl soname names (an ABI per minor; xen_version.h). */
static void print_version(void)
{
	printf("xgtop %s\n", XG_VERSION);
#ifdef __GLIBC__
	printf("built for glibc %d.%d or later\n", __GLIBC__, __GLIBC_MINOR__);
#endif
	/* The same soname the Xen source loads and checks against. */
	char xen[160];
	xen_ver_describe(xen_build_soname(), xen, sizeof(xen));
	puts(xen);
}

/* The rest: options that print and stop (help, version, --list-columns),
 * --explain, and what getopt could not take (a missing argument, an
 * unknown option). */
static int opt_other(int c, char **argv, bool *explain)
{
	switch (c) {
	case 'h': fputs(usage_text, stdout); tui_keys_usage(stdout); return 1 + 0;
	case 'V': print_version(); return 1 + 0;
	case OPT_LIST_COLUMNS: explain_columns(stdout); return 1 + 0;
	case OPT_EXPLAIN: *explain = true; return 0;
	case ':': return BAD_USAGE("option '%s' needs an argument", argv[optind - 1]);
	default: return BAD_USAGE("unknown option '%s'", argv[optind - 1]);
	}
}

/* The operand after the options: --source trace's FILE, --source remote's
 * URL list (--hosts alone means --source remote). */
static int take_operand(int argc, char **argv, struct xg_config *cfg)
{
	if (cfg->hosts_file && !strcmp(cfg->source, "auto"))
		cfg->source = "remote";
	bool remote = !strcmp(cfg->source, "remote");
	if (cfg->hosts_file && !remote)
		return BAD_USAGE("--hosts goes with --source remote, not --source %s", cfg->source);
	if (optind < argc) {
		if ((strcmp(cfg->source, "trace") && !remote) || optind + 1 < argc)
			return BAD_USAGE("unexpected argument '%s'", argv[optind]);
		*(remote ? &cfg->remote_urls : &cfg->trace_file) = argv[optind];
	}
	if (remote && !cfg->remote_urls && !cfg->hosts_file)
		return BAD_USAGE("%s", "--source remote needs URL[,URL...] or --hosts FILE");
	return 0;
}

/* What the options say together: the operand and the sources' needs. */
static int check_args(int argc, char **argv, struct xg_config *cfg)
{
	bool trace = !strcmp(cfg->source, "trace");
	int rc = take_operand(argc, argv, cfg);
	if (rc)
		return rc;
	if (trace && !cfg->trace_file)
		return BAD_USAGE("%s", "--source trace needs a trace FILE");
	if (!strcmp(cfg->source, "replay") && !cfg->replay)
		return BAD_USAGE("%s", "--source replay needs --replay FILE");
	if (cfg->replay && strcmp(cfg->source, "auto") && strcmp(cfg->source, "replay"))
		return BAD_USAGE("--replay cannot be combined with --source %s", cfg->source);
	if (cfg->replay && cfg->record && !strcmp(cfg->replay, cfg->record))
		return BAD_USAGE("--record '%s' is the file being replayed", cfg->record);
	return 0;
}

/* --daemon prints nothing; neither it nor --export goes with --agent or
 * --explain. */
static int check_daemon_args(const struct xg_config *cfg, bool explain)
{
	if (cfg->daemon && (cfg->batch || cfg->output != XG_OUT_TEXT || explain))
		return BAD_USAGE("%s", "--daemon prints no output: it cannot be combined with -b, -o or --explain");
	if ((cfg->export_at || cfg->daemon) && (cfg->agent || explain))
		return BAD_USAGE("%s", "--export and --daemon do not go with --agent or --explain");
	return 0;
}

/* Returns 0 to go on, or an exit status + 1. */
static int parse_args(int argc, char **argv, struct xg_config *cfg, bool *explain)
{
	const struct opt_field fields[] = {
		{ 'b', &cfg->batch, NULL }, { 'v', &cfg->vcpus, NULL },
		{ OPT_REVERSE, &cfg->reverse, NULL }, { OPT_NODISK, &cfg->nodisk, NULL },
		{ OPT_NONET, &cfg->nonet, NULL }, { OPT_NOCACHE, &cfg->nocache, NULL },
		{ OPT_NOSUMCACHE, &cfg->nosumcache, NULL }, { OPT_NOTRACE, &cfg->notrace, NULL },
		{ OPT_CMT_ATTACH, &cfg->cmt_attach, NULL }, { OPT_AGENT, &cfg->agent, NULL },
		{ OPT_DAEMON, &cfg->daemon, NULL },
		{ OPT_FILTER, NULL, &cfg->filter }, { OPT_VMFILE, NULL, &cfg->vmfile },
		{ OPT_RECORD, NULL, &cfg->record }, { OPT_REPLAY, NULL, &cfg->replay },
		{ OPT_HOSTS, NULL, &cfg->hosts_file },
		{ OPT_EVENTS, NULL, &cfg->events }, { OPT_CONFIG, NULL, &cfg->config_file },
		{ OPT_NO_CONFIG, &cfg->no_config, NULL },
	};
	int c, rc;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":d:bn:o:vhV", long_opts, NULL)) != -1) {
		if (set_field(fields, XG_ARRAY_LEN(fields), c, optarg))
			continue;
		size_t i = 0;
		while (i < XG_ARRAY_LEN(value_opts) && value_opts[i].val != c)
			i++;
		rc = i < XG_ARRAY_LEN(value_opts) ? value_opts[i].set(cfg, optarg)
						   : opt_other(c, argv, explain);
		if (rc)
			return rc;
	}
	rc = check_args(argc, argv, cfg);
	return rc ? rc : check_daemon_args(cfg, *explain);
}

/* The settings file shapes what people read: the full-screen view, text
 * output and --explain. CSV, JSON and xentop output read only a file
 * named with --config, so scripts get the same fields whatever someone
 * chose on screen. */
static void settings_begin(struct xg_settings *st, struct xg_engine *e, const struct xg_config *cfg)
{
	char path[4096];
	const char *p = cfg->config_file;
	long other = -1;
	if (!p && cfg->output == XG_OUT_TEXT && settings_default_path(path, sizeof(path)))
		p = path;
	if (p == path && geteuid() == 0 && (other = settings_foreign_owner(path, 0)) >= 0)
		p = NULL;
	settings_load(st, cfg->no_config ? NULL : p);
	settings_apply(st, &e->view, cfg);
	if (other >= 0 && !cfg->no_config)
		snprintf(e->notice, sizeof(e->notice), "settings file %.400s not used: it is on a path of "
			 "uid %ld and xgtop runs as root (--config names a file)", path, other);
	else if (st->nwarn > 1)
		snprintf(e->notice, sizeof(e->notice), "%.500s (and %u more)", st->warn, st->nwarn - 1);
	else
		snprintf(e->notice, sizeof(e->notice), "%s", st->warn);
}

/* On quit from the full-screen view: what the user changed. */
static void settings_end(struct xg_settings *st, const struct xg_engine *e)
{
	struct xg_err err = { 0 };
	if (settings_save(st, &e->view, &err) < 0)
		fprintf(stderr, "xgtop: %s\n", err.msg);
	settings_free(st);
}

/* SIGHUP ends the other modes (the terminal went away); the daemon has none
 * and reopens its recording instead (log rotation). */
static void install_signals(bool daemon)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sa.sa_handler = daemon ? on_hup : on_signal;
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
	struct output *out = output_open(e->cfg->output, stdout);
	long printed = 0;
	int rc = engine_step(e, err);
	while (rc == 0 && !stop_signal) {
		pause_ns(engine_wait_ns(e));
		if (stop_signal)
			break;
		rc = engine_step(e, err);
		if (rc != 0)
			break;
		if (output_write(out, &e->table, &e->view, err) < 0) {
			/* The reader went away (xgtop -b | head): not an error. */
			rc = err->code == EPIPE ? 1 : -1;
			break;
		}
		fflush(stdout);
		if (e->cfg->iterations > 0 && ++printed >= e->cfg->iterations)
			break;
	}
	output_close(out);
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

	install_signals(cfg.daemon);
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
	bool tui = !explain && !cfg.batch && !cfg.daemon;
	struct xg_exporter *x = app_export_open(&e, tui, &err);
	if (cfg.export_at && !x) {
		fprintf(stderr, "xgtop: %s\n", err.msg);
		engine_close(&e);
		return 1;
	}
	struct xg_settings st;
	settings_begin(&st, &e, &cfg);
	if (!tui && e.notice[0])
		fprintf(stderr, "xgtop: %s\n", e.notice);
	if (explain)
		rc = run_explain(&e, &err);
	else if (cfg.daemon)
		rc = daemon_run(&e, x, &(struct xg_signals){ &stop_signal, &hup_signal }, &err);
	else if (cfg.batch)
		rc = run_batch(&e, &err);
	else if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO))
		rc = xg_fail(&err, "the full-screen view needs a terminal; use -b for batch output");
	else
		rc = tui_run(&e, &err);
	if (tui && !rc)
		settings_end(&st, &e);
	else
		settings_free(&st);
	exporter_close(x);
	engine_close(&e);
	if (rc != 0) {
		fprintf(stderr, "xgtop: %s\n", err.msg);
		return 1;
	}
	return 0;
}
