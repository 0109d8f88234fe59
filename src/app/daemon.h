/* SPDX-License-Identifier: GPL-2.0-or-later */
/* --export wiring and --daemon, the headless mode for systemd. */
#ifndef XGTOP_APP_DAEMON_H
#define XGTOP_APP_DAEMON_H

#include <signal.h>

#include "xgtop/engine/engine.h"
#include "xgtop/exporter/exporter.h"

/* Opens the exporter the configuration asks for (NULL and no error when it
 * asks for none) and has the engine publish to it after every refresh.
 * quiet: the full-screen view, where nothing may write to the terminal;
 * otherwise the listening address and the server's complaints go to
 * standard error, one line each. */
struct xg_exporter *app_export_open(struct xg_engine *e, bool quiet, struct xg_err *err);

/* The signals main.c's handlers note. */
struct xg_signals {
	volatile sig_atomic_t *stop;    /* SIGINT, SIGTERM: the signal number */
	volatile sig_atomic_t *hup;     /* SIGHUP: reopen the recording, reread --web-config */
};

/* Refreshes until a stop signal, -n refreshes or the end of a replay,
 * logging one line per event on standard error (a failed refresh too: the
 * daemon goes on). err is scratch space for the refreshes. Returns 0. */
int daemon_run(struct xg_engine *e, struct xg_exporter *x, const struct xg_signals *sig,
	       struct xg_err *err);

#endif
