// SPDX-License-Identifier: GPL-2.0-or-later
/* --daemon: refresh on a fixed schedule with no terminal, tell the journal
 * one line per event (start, failures and recovery, SIGHUP, exit), and
 * leave through the same engine_close as every other mode, so trace buffers
 * and CMT monitoring IDs are released on SIGTERM too. */
#include "daemon.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

static void log_line(void *ctx, const char *line)
{
	(void)ctx;
	fprintf(stderr, "xgtop: %s\n", line);
}

static void logf_(const char *fmt, ...) XG_PRINTF(1, 2);
static void logf_(const char *fmt, ...)
{
	char line[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	log_line(NULL, line);
}

/* The cache verdicts of the sample published last (the daemon has one
 * engine; grown once to the number of domains). */
static int8_t *victim;
static size_t victim_cap;

static void publish(void *ctx, const struct xg_engine *e, int rc)
{
	const struct xg_sample *s = e->nsamples ? &e->sample[e->cur] : NULL;
	const int8_t *v = NULL;
	if (s && e->susp) {
		xg_grow(&victim, &victim_cap, s->ndom ? s->ndom : 1, sizeof(*victim));
		suspects_flags(e->susp, s, victim);
		v = victim;
	}
	exporter_publish(ctx, s, v, rc);
}

struct xg_exporter *app_export_open(struct xg_engine *e, bool quiet, struct xg_err *err)
{
	struct xg_listen at;
	if (!e->cfg->export_at)
		return NULL;
	if (exporter_parse_listen(e->cfg->export_at, &at, err) < 0)
		return NULL;
	struct xg_exporter *x = exporter_open(&at, e->cfg->web_config, quiet ? NULL : log_line, NULL, err);
	if (!x)
		return NULL;
	char how[160];
	if (!quiet && e->cfg->web_config)
		logf_("web configuration %s: %s", e->cfg->web_config, exporter_describe(x, how, sizeof(how)));
	if (!quiet)
		logf_("exporter listening on %s://%s/metrics", exporter_tls(x) ? "https" : "http",
		      exporter_where(x));
	e->on_refresh = publish;
	e->on_refresh_ctx = x;
	engine_suspects_on(e);   /* xgtop_domain_cache_victim */
	return x;
}

/* Sleeps until the monotonic deadline or a signal. */
static void wait_until(uint64_t deadline, const struct xg_signals *sig)
{
	struct timespec ts = { (time_t)(deadline / 1000000000u), (long)(deadline % 1000000000u) };
	while (!*sig->stop && !*sig->hup &&
	       clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

/* A failing refresh is logged when it starts failing or fails differently,
 * and once more when it works again: not once a second. */
struct failures {
	unsigned count;
	char last[sizeof(((struct xg_err *)0)->msg)];
};

static void note(struct failures *f, int rc, const struct xg_err *err)
{
	if (rc < 0) {
		if (!f->count || strcmp(f->last, err->msg))
			logf_("refresh failed: %s", err->msg);
		snprintf(f->last, sizeof(f->last), "%s", err->msg);
		f->count++;
	} else if (f->count) {
		logf_("refresh works again after %u failed", f->count);
		f->count = 0;
	}
}

static void reopen(struct xg_engine *e, struct xg_exporter *x)
{
	struct xg_err err = { 0 };
	char how[160];
	if (e->cfg->web_config) {
		if (exporter_reload(x, &err) < 0)
			logf_("SIGHUP: %s (the previous web configuration stays)", err.msg);
		else
			logf_("SIGHUP: reread %s: %s", e->cfg->web_config, exporter_describe(x, how, sizeof(how)));
	}
	if (!e->cfg->record) {
		if (!e->cfg->web_config)
			logf_("SIGHUP: no --record file to reopen");
	} else if (engine_reopen_record(e, &err) < 0)
		logf_("SIGHUP: %s%s", err.msg, e->rec ? "" : " (not recording until the next SIGHUP)");
	else
		logf_("SIGHUP: reopened %s", e->cfg->record);
}

int daemon_run(struct xg_engine *e, struct xg_exporter *x, const struct xg_signals *sig,
	       struct xg_err *err)
{
	const struct xg_config *cfg = e->cfg;
	char pace[64];
	if (cfg->replay || cfg->trace_file)
		snprintf(pace, sizeof(pace), "at %g times the recorded pace", cfg->speed);
	else
		snprintf(pace, sizeof(pace), "every %g s", e->view.delay_s);
	logf_("started: source %s, %s%s%s%s", e->ops->name, pace, x ? ", exporting on " : "",
	      x ? exporter_where(x) : "", cfg->record ? ", recording" : "");
	struct failures fails = { 0 };
	long done = 0;
	uint64_t deadline = xg_now_mono_ns();
	while (!*sig->stop) {
		int rc = engine_step(e, err);
		if (rc > 0) {
			logf_("end of the recording%s%s: exiting", e->end_notice[0] ? ": " : "", e->end_notice);
			return 0;
		}
		note(&fails, rc, err);
		if (cfg->iterations > 0 && ++done >= cfg->iterations) {
			logf_("%ld refreshes done: exiting", done);
			return 0;
		}
		/* Refreshes stay on a fixed grid, so that one late refresh (a
		 * busy host) is caught up and the interval holds on average; a
		 * lag of more than an interval (a suspended host) starts a new
		 * grid instead of a burst. A SIGHUP is handled at once and the
		 * wait goes on. */
		uint64_t gap = engine_wait_ns(e), now = xg_now_mono_ns();
		deadline += gap;
		if (deadline + gap < now)
			deadline = now;
		for (wait_until(deadline, sig); *sig->hup; wait_until(deadline, sig)) {
			*sig->hup = 0;
			reopen(e, x);
		}
	}
	logf_("exiting on %s", strsignal((int)*sig->stop));
	return 0;
}
