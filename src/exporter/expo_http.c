// SPDX-License-Identifier: GPL-2.0-or-later
/* --export: libmicrohttpd serves the last refresh from its own thread.
 *
 * A snapshot is the last refresh rendered in both formats, each held by a
 * libmicrohttpd response that owns its text. The collector builds a new
 * snapshot outside any lock and swaps the pointer under the mutex; a scrape
 * takes a reference under the same mutex, queues the response (which
 * libmicrohttpd reference-counts on its own until the bytes are sent) and
 * drops its reference. A scrape therefore never waits for a collection and
 * never sees half of one, and the last holder frees an old snapshot. */
#include "xgtop/exporter/exporter.h"
#include "xgtop/exporter/render.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef HAVE_MHD
#include "xgtop/core/dynlib.h"
#include <microhttpd.h>
#include <netdb.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

/* Bounds on what a client can hold: see doc/exporter.md. */
#define EXPO_CONNECTIONS 64
#define EXPO_PER_CLIENT 16
#ifdef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
/* tests/fuzz/fuzz_exporter drops its connections without waiting for
 * libmicrohttpd to notice, which it sometimes does only at the timeout. */
#define EXPO_IDLE_S 1
#else
#define EXPO_IDLE_S 10
#endif
#define EXPO_HEADER_BYTES (16 * 1024)

struct snap {
	atomic_uint ref;
	struct MHD_Response *resp[XG_EXPO_FMT_COUNT];
};

#ifndef MHD_SO
#define MHD_SO "libmicrohttpd.so"
#endif

/* libmicrohttpd is loaded when the exporter starts, not linked: it brings
 * GnuTLS and half a dozen more libraries that every other start of xgtop
 * would load for nothing. */
#define MHD_API(F) \
	F(MHD_start_daemon) F(MHD_stop_daemon) F(MHD_get_daemon_info) F(MHD_queue_response) \
	F(MHD_lookup_connection_value) F(MHD_create_response_from_buffer) \
	F(MHD_create_response_from_buffer_with_free_callback) F(MHD_add_response_header) \
	F(MHD_destroy_response)
struct mhd_api {
	void *so;
#define MHD_SLOT(fn) __typeof__(fn) *fn;
	MHD_API(MHD_SLOT)
#undef MHD_SLOT
};
#define MHD_FN(fn) XG_DL_FN(struct mhd_api, fn)
static const struct xg_dl_fn mhd_fns[] = { MHD_API(MHD_FN) };

/* The fixed answers, created once and queued to any number of connections. */
enum { R_PAGE, R_NOT_FOUND, R_METHOD, R_NOT_READY, R_COUNT };

struct xg_exporter {
	struct mhd_api m;
	struct MHD_Daemon *mhd;
	pthread_mutex_t lock;           /* only for taking or swapping cur */
	struct snap *cur;
	struct MHD_Response *fixed[R_COUNT];
	struct xg_expo_stats st;        /* collector thread only */
	pthread_mutex_t log_lock;       /* the rest: the server's messages, see mhd_log */
	xg_log_fn *log;
	void *log_ctx;
	uint64_t log_window;
	unsigned log_count, log_dropped;
	char where[300];
};

static void snap_put(const struct xg_exporter *x, struct snap *s)
{
	if (!s || atomic_fetch_sub(&s->ref, 1) != 1)
		return;
	for (int f = 0; f < XG_EXPO_FMT_COUNT; f++)
		if (s->resp[f])
			x->m.MHD_destroy_response(s->resp[f]);
	free(s);
}

static struct snap *snap_get(struct xg_exporter *x)
{
	pthread_mutex_lock(&x->lock);
	struct snap *s = x->cur;
	if (s)
		atomic_fetch_add(&s->ref, 1);
	pthread_mutex_unlock(&x->lock);
	return s;
}

static void logf_(struct xg_exporter *x, const char *fmt, ...) XG_PRINTF(2, 3);
static void logf_(struct xg_exporter *x, const char *fmt, ...)
{
	if (!x->log)
		return;
	char line[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	x->log(x->log_ctx, line);
}

/* Any client can make the server complain (a bad request, a refused
 * connection): at most this many lines a minute reach the log. */
#define EXPO_LOG_PER_MIN 10

static bool log_allowed(struct xg_exporter *x)
{
	uint64_t now = xg_now_mono_ns();
	if (!x->log_window || now - x->log_window >= 60 * 1000000000ull) {
		if (x->log_dropped)
			logf_(x, "exporter: %u more messages in the last minute not logged", x->log_dropped);
		x->log_window = now;
		x->log_count = x->log_dropped = 0;
	}
	if (x->log_count < EXPO_LOG_PER_MIN) {
		x->log_count++;
		return true;
	}
	x->log_dropped++;
	return false;
}

/* libmicrohttpd's own messages, one line each, in the daemon's log only.
 * Called from the server's thread, and from the main one while starting,
 * when x->log is still NULL: a failure to start has its own message. */
static void mhd_log(void *cls, const char *fmt, va_list ap)
{
	struct xg_exporter *x = cls;
	pthread_mutex_lock(&x->log_lock);
	if (x->log && log_allowed(x)) {
		char line[512];
		vsnprintf(line, sizeof(line), fmt, ap);
		line[strcspn(line, "\n")] = 0;
		logf_(x, "exporter: %s", line);
	}
	pthread_mutex_unlock(&x->log_lock);
}

static enum MHD_Result answer_metrics(struct xg_exporter *x, struct MHD_Connection *conn)
{
	struct snap *s = snap_get(x);
	if (!s)
		return x->m.MHD_queue_response(conn, MHD_HTTP_SERVICE_UNAVAILABLE, x->fixed[R_NOT_READY]);
	const char *accept = x->m.MHD_lookup_connection_value(conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_ACCEPT);
	enum MHD_Result rc = x->m.MHD_queue_response(conn, MHD_HTTP_OK, s->resp[expo_negotiate(accept)]);
	snap_put(x, s);
	return rc;
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *conn, const char *url,
				  const char *method, const char *version, const char *upload,
				  size_t *upload_size, void **con_cls)
{
	struct xg_exporter *x = cls;
	(void)version, (void)upload, (void)con_cls;
	/* Answer at once, body or not: nothing here reads one. */
	*upload_size = 0;
	if (strcmp(method, MHD_HTTP_METHOD_GET) && strcmp(method, MHD_HTTP_METHOD_HEAD))
		return x->m.MHD_queue_response(conn, MHD_HTTP_METHOD_NOT_ALLOWED, x->fixed[R_METHOD]);
	if (!strcmp(url, "/metrics"))
		return answer_metrics(x, conn);
	if (!strcmp(url, "/"))
		return x->m.MHD_queue_response(conn, MHD_HTTP_OK, x->fixed[R_PAGE]);
	return x->m.MHD_queue_response(conn, MHD_HTTP_NOT_FOUND, x->fixed[R_NOT_FOUND]);
}

/* Out of memory is fatal, as for every allocation (xg_malloc). */
static struct MHD_Response *typed(const struct xg_exporter *x, struct MHD_Response *r, size_t n,
                                   const char *type)
{
	if (!r) {
		fprintf(stderr, "xgtop: out of memory allocating an HTTP response of %zu bytes\n", n);
		exit(1);
	}
	x->m.MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
	return r;
}

static struct MHD_Response *text_response(const struct xg_exporter *x, const char *body,
                                          const char *type)
{
	size_t n = strlen(body);
	return typed(x, x->m.MHD_create_response_from_buffer(n, (void *)body, MHD_RESPMEM_PERSISTENT),
		     n, type);
}

static void make_fixed(struct xg_exporter *x)
{
	static const char page[] =
		"<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>xgtop exporter</title></head>\n"
		"<body><h1>xgtop exporter</h1><p><a href=\"/metrics\">Metrics</a></p></body></html>\n";
	const char *plain = "text/plain; charset=utf-8";
	x->fixed[R_PAGE] = text_response(x, page, "text/html; charset=utf-8");
	x->fixed[R_NOT_FOUND] = text_response(x, "not found: this exporter serves /metrics\n", plain);
	x->fixed[R_METHOD] = text_response(x, "method not allowed: use GET or HEAD\n", plain);
	x->m.MHD_add_response_header(x->fixed[R_METHOD], MHD_HTTP_HEADER_ALLOW, "GET, HEAD");
	x->fixed[R_NOT_READY] = text_response(x, "no refresh yet\n", plain);
	x->m.MHD_add_response_header(x->fixed[R_NOT_READY], MHD_HTTP_HEADER_RETRY_AFTER, "1");
}

static void update_stats(struct xg_expo_stats *st, const struct xg_sample *s, int rc)
{
	st->self_cpu_ns = xg_self_cpu_ns();
	st->up[XG_CL_SOURCE] = rc == 0;
	if (rc < 0) {
		st->errors[XG_CL_SOURCE]++;
		return;
	}
	st->refreshes++;
	for (int cl = XG_CL_SOURCE + 1; cl < XG_CL_COUNT; cl++) {
		uint64_t mask = collector_fields((enum xg_collector)cl);
		bool up = false;
		for (size_t i = 0; i < s->ndom && !up; i++)
			up = (s->dom[i].valid & mask) != 0;
		if (st->up[cl] && !up)
			st->errors[cl]++;
		st->up[cl] = up;
	}
}

void exporter_publish(struct xg_exporter *x, const struct xg_sample *s, int rc)
{
	if (!x || rc > 0)
		return;
	update_stats(&x->st, s, rc);
	if (!s)
		return;
	struct snap *n = xg_calloc(1, sizeof(*n));
	atomic_init(&n->ref, 1);
	for (int f = 0; f < XG_EXPO_FMT_COUNT; f++) {
		struct xg_strbuf b = { 0 };
		expo_render(&b, (enum xg_expo_fmt)f, s, &x->st);
		/* The response owns the text from here and frees it with the response. */
		n->resp[f] = typed(x, x->m.MHD_create_response_from_buffer_with_free_callback(b.len, b.p, free),
				   b.len, xg_expo_content_type[f]);
	}
	pthread_mutex_lock(&x->lock);
	struct snap *old = x->cur;
	x->cur = n;
	pthread_mutex_unlock(&x->lock);
	snap_put(x, old);
}

/* The first address of at->host, with at->port. */
static int resolve(const struct xg_listen *at, struct sockaddr_storage *sa, struct xg_err *err)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM }, *ai;
	int rc = getaddrinfo(at->host, NULL, &hints, &ai);
	if (rc)
		return xg_fail(err, "--export: address '%s': %s", at->host, gai_strerror(rc));
	memset(sa, 0, sizeof(*sa));
	memcpy(sa, ai->ai_addr, ai->ai_addrlen);
	freeaddrinfo(ai);
	if (sa->ss_family == AF_INET6)
		((struct sockaddr_in6 *)sa)->sin6_port = htons((uint16_t)at->port);
	else
		((struct sockaddr_in *)sa)->sin_port = htons((uint16_t)at->port);
	return 0;
}

static struct MHD_Daemon *start(struct xg_exporter *x, struct sockaddr_storage *sa)
{
	unsigned flags = MHD_USE_AUTO_INTERNAL_THREAD | MHD_USE_ERROR_LOG;
	if (sa->ss_family == AF_INET6)
		flags |= MHD_USE_IPv6;
	/* The server thread inherits this mask: signals stay with the main
	 * thread, whose sleeps they must interrupt. */
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	struct MHD_Daemon *d = x->m.MHD_start_daemon(flags, 0, NULL, NULL, on_request, x,
		MHD_OPTION_EXTERNAL_LOGGER, mhd_log, x,
		MHD_OPTION_SOCK_ADDR, (struct sockaddr *)sa,
		MHD_OPTION_CONNECTION_LIMIT, (unsigned)EXPO_CONNECTIONS,
		MHD_OPTION_PER_IP_CONNECTION_LIMIT, (unsigned)EXPO_PER_CLIENT,
		MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)EXPO_IDLE_S,
		MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)EXPO_HEADER_BYTES,
		MHD_OPTION_END);
	int e = errno;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	errno = e;
	return d;
}

struct xg_exporter *exporter_open(const struct xg_listen *at, xg_log_fn *log, void *log_ctx,
				  struct xg_err *err)
{
	struct sockaddr_storage sa;
	if (resolve(at, &sa, err) < 0)
		return NULL;
	char host[INET6_ADDRSTRLEN] = "?";
	getnameinfo((struct sockaddr *)&sa, sizeof(sa), host, sizeof(host), NULL, 0, NI_NUMERICHOST);
	struct xg_exporter *x = xg_calloc(1, sizeof(*x));
	struct xg_err e = { 0 };
	x->m.so = xg_dl_load(MHD_SO, "libmicrohttpd", mhd_fns, XG_ARRAY_LEN(mhd_fns), &x->m, &e);
	if (!x->m.so) {
		xg_fail(err, "--export: %s", e.msg);
		free(x);
		return NULL;
	}
	pthread_mutex_init(&x->lock, NULL);
	pthread_mutex_init(&x->log_lock, NULL);
	make_fixed(x);
	errno = 0;
	x->mhd = start(x, &sa);
	pthread_mutex_lock(&x->log_lock);
	x->log_ctx = log_ctx;
	x->log = log;
	pthread_mutex_unlock(&x->log_lock);
	if (!x->mhd) {
		xg_fail_errno(err, errno ? errno : EADDRNOTAVAIL, "--export: cannot listen on %s port %u",
			      host, at->port);
		exporter_close(x);
		return NULL;
	}
	const union MHD_DaemonInfo *info = x->m.MHD_get_daemon_info(x->mhd, MHD_DAEMON_INFO_BIND_PORT);
	snprintf(x->where, sizeof(x->where), sa.ss_family == AF_INET6 ? "[%s]:%u" : "%s:%u", host,
		 info ? info->port : at->port);
	return x;
}

const char *exporter_where(const struct xg_exporter *x)
{
	return x ? x->where : "";
}

void exporter_close(struct xg_exporter *x)
{
	if (!x)
		return;
	if (x->mhd)
		x->m.MHD_stop_daemon(x->mhd);
	snap_put(x, x->cur);
	for (int i = 0; i < R_COUNT; i++)
		if (x->fixed[i])
			x->m.MHD_destroy_response(x->fixed[i]);
	pthread_mutex_destroy(&x->lock);
	pthread_mutex_destroy(&x->log_lock);
	xg_dl_close(x->m.so);
	free(x);
}

#else /* no libmicrohttpd */

struct xg_exporter *exporter_open(const struct xg_listen *at, xg_log_fn *log, void *log_ctx,
				  struct xg_err *err)
{
	(void)at, (void)log, (void)log_ctx;
	xg_fail(err, "--export: this xgtop was built without libmicrohttpd (install libmicrohttpd-dev "
		"and rebuild)");
	return NULL;
}

const char *exporter_where(const struct xg_exporter *x)
{
	(void)x;
	return "";
}

void exporter_publish(struct xg_exporter *x, const struct xg_sample *s, int rc)
{
	(void)x, (void)s, (void)rc;
}

void exporter_close(struct xg_exporter *x)
{
	(void)x;
}

#endif
