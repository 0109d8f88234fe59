/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The HTTP side of --export: serves the last refresh's exposition from
 * libmicrohttpd's own thread. The collector (xgtop's main thread) calls
 * exporter_publish after each refresh; that renders both formats and swaps
 * the result in under a mutex held only for the pointer swap, so a scrape
 * never waits for a collection and never sees half of one. */
#ifndef XGTOP_EXPORTER_H
#define XGTOP_EXPORTER_H

#include "xgtop/model/sample.h"

/* Where to listen: --export [ADDR:]PORT. */
struct xg_listen {
	char host[256];             /* IPv4, IPv6 (without brackets) or a name */
	unsigned port;              /* 0 = any free port */
};
/* Parses [ADDR:]PORT; ADDR defaults to 127.0.0.1, an IPv6 address goes in
 * brackets. Returns -1 with err saying what is wrong. */
int exporter_parse_listen(const char *spec, struct xg_listen *out, struct xg_err *err);

/* One line (no newline) per event worth telling: the daemon's journal. */
typedef void xg_log_fn(void *ctx, const char *line);

struct xg_exporter;
/* Binds and starts serving (503 until the first publish), with TLS, users
 * and headers from web_config (--web-config FILE, NULL for none). log may
 * be NULL (the full-screen view: nothing may write to the terminal). Fails
 * with a message when this build has no libmicrohttpd or the file is bad. */
struct xg_exporter *exporter_open(const struct xg_listen *at, const char *web_config, xg_log_fn *log,
				  void *log_ctx, struct xg_err *err);
/* Reads the --web-config file again (SIGHUP) and serves with it from now
 * on, on the same socket. A bad file: -1 and err, and the old one stays.
 * Without a file: nothing, 0. */
int exporter_reload(struct xg_exporter *x, struct xg_err *err);
/* "TLS with client certificates, 2 users, 1 extra header", for the log. */
const char *exporter_describe(const struct xg_exporter *x, char *buf, size_t n);
/* Whether it serves TLS now. */
bool exporter_tls(const struct xg_exporter *x);
/* "127.0.0.1:9717", with the port actually bound. */
const char *exporter_where(const struct xg_exporter *x);
/* After a refresh: rc 0 and s the new sample; rc < 0 (the refresh failed)
 * and s the last good sample or NULL; rc > 0 (end of a replay): ignored.
 * victim: the cache verdicts of s's domains as expo_render takes them, or
 * NULL. */
void exporter_publish(struct xg_exporter *x, const struct xg_sample *s, const int8_t *victim, int rc);
/* Stops the server; scrapes in flight are cut. NULL is fine. */
void exporter_close(struct xg_exporter *x);

#endif
