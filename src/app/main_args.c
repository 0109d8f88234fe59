// SPDX-License-Identifier: GPL-2.0-or-later
/* xgtop's options (not the subcommands'): --help's text, the option table,
 * a check of each option's argument, and of what the options say
 * together. Apart from main.c so that the fuzzer calls the parser main()
 * calls. */
#include "main_args.h"

#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "xgtop/core/timearg.h"
#include "xgtop/model/columns.h"
#include "xgtop/compute/history.h"
#include "xgtop/model/source.h"
#include "xgtop/view/view.h"
#include "xgtop/exporter/exporter.h"
#include "xgtop/outputs/explain.h"
#include "xgtop/outputs/output.h"
#include "xgtop/tui/tui.h"
#include "xgtop/xen/xen_version.h"

static const char usage_text[] =
"Usage: xgtop [OPTION]...            live monitor (full screen, or batch with -b)\n"
"       xgtop --replay FILE [OPTION]...\n"
"       xgtop --source trace FILE [--window S] [OPTION]...\n"
"       xgtop --source remote URL[,URL...] [OPTION]...   (pool view)\n"
"       xgtop trace FILE [--cpu-hz HZ] [-o text|csv|json] [--xenalyze-compat] [--threads N]\n"
"       xgtop report --replay FILE [--from TIME] [--to TIME] [-o text|csv|json]\n"
"       xgtop report --contention --replay FILE [--rule SPEC]   (cache victims)\n"
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
"      --stable-order on|off  full-screen view: a row passes its neighbour only\n"
"                          when they differ by more than 10 % (and a floor per\n"
"                          unit; man xgtop); default on. Batch output and -o\n"
"                          formats always keep the exact order\n"
"      --theme NAME        full-screen colours: default, light, mono, safe, or\n"
"                          a file in $XDG_CONFIG_HOME/xgtop/themes/ (man xgtop)\n"
"\n"
"What to collect (each --no... also skips collecting that data):\n"
"      --nodisk            no disk columns\n"
"      --nonet             no network columns\n"
"      --nocache           no cache (PMU, CMT/MBM) columns\n"
"      --nosumcache        cache figures broken down by where they happened,\n"
"                          and per socket for CMT/MBM on Xen\n"
"      --notrace           no scheduler (RUN/WAIT/BLK/OFF; also BEHIND,\n"
"                          WAIT-P50/P99: whom the waits were behind, and how\n"
"                          long they were; on Linux no BPF program) columns\n"
"      --events LIST       PMU events to count (libpfm4 or perf names)\n"
"      --cmt-attach        Xen: give each domain a CMT/MBM monitoring ID (RMID)\n"
"                          for L3-OCC and MEM-BW; detached again on exit\n"
"      --agent             run inside a Xen guest: count this guest's events\n"
"                          (--events, -d, -n apply) and publish them in its\n"
"                          xenstore data/xgtop/ for dom0's xgtop\n"
"\n"
"Sources:\n"
"      --source NAME       auto (default: xen in dom0, else linux), xen, linux,\n"
"                          replay, trace, remote, prometheus\n"
"      --source prometheus URL  every domain of every host that a Prometheus or\n"
"                          VictoriaMetrics server at URL holds from xgtop\n"
"                          exporters, rates computed by the server (doc/pool.md);\n"
"                          --hosts FILE instead of URL for its credentials\n"
"      --host-match REGEX  Prometheus source: only the hosts whose instance label\n"
"                          matches REGEX (asked of the server, like --filter)\n"
"      --at TIME           Prometheus source: the fleet as of TIME, not now:\n"
"                          2026-12-06T10:00:00Z (RFC 3339), Unix seconds, or\n"
"                          before now (-15m, -2h, -1d); Left/Right move it, L\n"
"                          returns to live\n"
"      --hosts FILE        pool view: read the xgtop exporters listed in FILE\n"
"                          (one 'URL [NAME] [KEY=VALUE...]' per line: TLS files\n"
"                          and credentials, see doc/pool.md) like --source remote\n"
"                          URL,...: all their domains in one table, by HOST\n"
"      --cacert FILE       pool view: the CA (PEM) of https:// hosts whose hosts\n"
"                          file line gives no ca_file (default: the system's)\n"
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
"      --web-config FILE   TLS, basic-auth users (bcrypt) and headers for --export,\n"
"                          in the Prometheus exporter-toolkit's format; --daemon\n"
"                          reads it again on SIGHUP. An empty FILE: none\n"
"      --daemon            run headless: no terminal, one log line per event on\n"
"                          standard error; SIGTERM/SIGINT exit, SIGHUP reopens\n"
"                          the --record file and rereads --web-config\n"
"\n"
"  -h, --help              this help\n"
"  -V, --version           version\n"
"\n"
"Columns, formulas and units: the help screen (h) and man xgtop. The fourth\n"
"header line (triage) says what stands out now (--explain: its numbers); the\n"
"VICTIM column flags cache victims (man xgtop: CACHE CONTENTION; batch keys\n"
"victim and victim_windows where the source counts instructions).\n"
"\n";

enum {
	OPT_SORT = 256, OPT_REVERSE, OPT_FILTER, OPT_VMFILE, OPT_NODISK, OPT_NONET,
	OPT_NOCACHE, OPT_NOSUMCACHE, OPT_NOTRACE, OPT_SOURCE, OPT_RECORD, OPT_REPLAY,
	OPT_HOSTS, OPT_HOST_MATCH, OPT_SPEED, OPT_GROUP, OPT_EVENTS, OPT_WINDOW, OPT_EXPLAIN, OPT_LIST_COLUMNS, OPT_CPU_HZ,
	OPT_CMT_ATTACH, OPT_AGENT, OPT_CONFIG, OPT_NO_CONFIG, OPT_EXPORT, OPT_DAEMON, OPT_HISTORY,
	OPT_STABLE_ORDER, OPT_THEME, OPT_WEB_CONFIG, OPT_CACERT, OPT_AT,
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
	{ "host-match", required_argument, NULL, OPT_HOST_MATCH },
	{ "at", required_argument, NULL, OPT_AT },
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
	{ "web-config", required_argument, NULL, OPT_WEB_CONFIG },
	{ "cacert", required_argument, NULL, OPT_CACERT },
	{ "daemon", no_argument, NULL, OPT_DAEMON },
	{ "history", required_argument, NULL, OPT_HISTORY },
	{ "stable-order", required_argument, NULL, OPT_STABLE_ORDER },
	{ "theme", required_argument, NULL, OPT_THEME },
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

static int opt_stable_order(struct xg_config *cfg, const char *arg)
{
	if (strcmp(arg, "on") && strcmp(arg, "off"))
		return BAD_USAGE("--stable-order '%s': give on or off", arg);
	cfg->stable_order = !strcmp(arg, "on");
	return 0;
}

static int opt_theme(struct xg_config *cfg, const char *arg)
{
	if (!view_theme_name_ok(arg))
		return BAD_USAGE("--theme '%s': give a theme name (default, light, mono, safe, or a file's "
				 "in $XDG_CONFIG_HOME/xgtop/themes)", arg);
	cfg->theme = arg;
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

/* --web-config FILE: read when the exporter starts, where a bad file is
 * refused with its line. Empty is none, so that a service unit can pass a
 * variable its defaults file may leave empty. */
static int opt_web_config(struct xg_config *cfg, const char *arg)
{
	cfg->web_config = *arg ? arg : NULL;
	return 0;
}

/* --cacert FILE: checked for reading when the pool view opens it. */
static int opt_cacert(struct xg_config *cfg, const char *arg)
{
	if (!*arg)
		return BAD_USAGE("%s", "--cacert needs a file name");
	cfg->cacert = arg;
	return 0;
}

/* --at TIME: checked against now, so that a typo is a usage error. */
static int opt_at(struct xg_config *cfg, const char *arg)
{
	uint64_t now = xg_now_real_ns(), ns;
	if (!xg_timearg_parse(arg, now, now, &ns) || !ns || ns > now + 1000000000ull)
		return BAD_USAGE("--at '%s': give a past time: %s", arg, XG_TIMEARG_FORMS);
	cfg->at = (double)ns / 1e9;
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
	{ OPT_STABLE_ORDER, opt_stable_order }, { OPT_THEME, opt_theme },
	{ OPT_WEB_CONFIG, opt_web_config }, { OPT_CACERT, opt_cacert }, { OPT_AT, opt_at },
};

/* The version, then what the binary needs of the host: the glibc whose
 * headers it was compiled with is its floor (2.17 for `make portable`'s,
 * the build host's otherwise), and the one Xen minor it supports, the one
 * its libxenctrl soname names (an ABI per minor; xen_version.h). */
static void print_version(void)
{
	printf("xgtop %s\n", XG_VERSION);
	printf("what changed in it: NEWS.md, section %s\n", XG_VERSION);
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
	bool prom = !strcmp(cfg->source, "prometheus");
	bool remote = !strcmp(cfg->source, "remote") || prom;
	if (cfg->hosts_file && !remote)
		return BAD_USAGE("--hosts goes with --source remote or prometheus, not --source %s", cfg->source);
	if (cfg->host_match && !prom)
		return BAD_USAGE("%s", "--host-match goes with --source prometheus URL");
	if (cfg->at && !prom)
		return BAD_USAGE("--at goes with --source prometheus URL, not --source %s (a recording "
				 "steps back with Left in --replay)", cfg->source);
	/* Its counters are the server's rates kept to 1/1000 of a unit (the
	 * peer's counter_scale), which neither a recording nor an exporter
	 * carries; and the server holds that history already. */
	if (prom && (cfg->record || cfg->export_at || cfg->daemon))
		return BAD_USAGE("%s", "--source prometheus cannot be recorded or exported: the server keeps "
				 "the history (record or export each host's own xgtop)");
	if (prom && optind >= argc && !cfg->hosts_file)
		return BAD_USAGE("%s", "--source prometheus needs the server's URL (http://HOST:9090) or --hosts FILE");
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
	if (cfg->web_config && !cfg->export_at)
		return BAD_USAGE("%s", "--web-config is for --export: give both");
	if (cfg->cacert && !cfg->hosts_file && !cfg->remote_urls)
		return BAD_USAGE("%s", "--cacert is for the pool view (--hosts FILE or --source remote URL,...)");
	return 0;
}

int app_parse_args(int argc, char **argv, struct xg_config *cfg, bool *explain)
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
		{ OPT_HOSTS, NULL, &cfg->hosts_file }, { OPT_HOST_MATCH, NULL, &cfg->host_match },
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
