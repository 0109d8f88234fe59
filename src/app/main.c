// SPDX-License-Identifier: GPL-2.0-or-later
/* xgtop: dispatch to a subcommand, the batch loop, the TUI or the daemon
 * (the options are main_args.c's). Its signal flags are one of the few
 * pieces of process-wide state, each kept where a signal handler or an exit
 * handler needs it; src/README.md lists them. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "daemon.h"
#include "main_args.h"
#include "xgtop/settings/settings.h"
#include "xgtop/app/report_cmd.h"
#include "xgtop/app/trace_cmd.h"
#include "xgtop/engine/engine.h"
#include "xgtop/outputs/explain.h"
#include "xgtop/outputs/output.h"
#include "xgtop/tui/tui.h"
#include "xgtop/xen/xen_agent.h"

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
	engine_suspects_on(e);   /* VICTIM, where the source counts instructions */
	int rc = engine_step(e, err);
	while (rc == 0 && !stop_signal) {
		pause_ns(engine_wait_ns(e));
		if (stop_signal)
			break;
		rc = engine_step(e, err);
		if (rc != 0)
			break;
		/* The formats fix their fields at the first write: VICTIM is one
		 * of them when the source counts instructions then (not a pool's:
		 * its hosts share no cache). */
		if (!printed && (e->table.dom_valid & (1ull << XG_F_INSTR)) && !e->table.cur->npeer)
			e->view.contention_live = true;
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
	engine_suspects_on(e);   /* for the triage's cache part: it says how far it got */
	int rc = engine_step(e, err);
	if (rc == 0) {
		pause_ns(engine_wait_ns(e));
		rc = engine_step(e, err);
	}
	if (rc < 0)
		return -1;
	explain_write(stdout, &e->table, &e->view);
	explain_triage(stdout, &e->table, &e->view, e->susp);
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
	int rc = app_parse_args(argc, argv, &cfg, &explain);
	if (rc)
		return rc - 1;
	if (cfg.output != XG_OUT_TEXT && !cfg.batch && !explain)
		cfg.batch = true;   /* a machine format only makes sense on stdout */

	install_signals(cfg.daemon);
	if (cfg.agent) {
		if (xen_agent_run(&cfg, &stop_signal, &err) < 0) {
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
