// SPDX-License-Identifier: GPL-2.0-or-later
/* --export: libmicrohttpd serves the last refresh from its own thread.
 *
 * A snapshot is the last refresh rendered in both formats, each held by a
 * libmicrohttpd response that owns its text. The collector builds a new
 * snapshot outside any lock and swaps the pointer under the mutex; a scrape
 * takes a reference under the same mutex, queues the response (which
 * libmicrohttpd reference-counts on its own until the bytes are sent) and
 * drops its reference. A scrape therefore never waits for a collection and
 * never sees half of one, and the last holder frees an old snapshot.
 *
 * --web-config (webcfg.c) gives TLS, users and headers. A server is one
 * libmicrohttpd daemon with one configuration, both immutable; a reload
 * (SIGHUP) starts a new server on the old one's listening socket and then
 * stops the old one, so no connection is refused in between and nothing a
 * request reads changes under it. */
#include "xgtop/exporter/exporter.h"
#include "xgtop/exporter/render.h"
#include "xgtop/exporter/webcfg.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef HAVE_MHD
#include "expo_serve.h"
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
	/* The gzip bodies, made at the first scrape that asks for one. */
	pthread_mutex_t gz_lock;
	struct MHD_Response *gz[XG_EXPO_FMT_COUNT];
	const char *text[XG_EXPO_FMT_COUNT];   /* owned by resp[] */
	size_t len[XG_EXPO_FMT_COUNT];
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
	F(MHD_destroy_response) F(MHD_quiesce_daemon) F(MHD_is_feature_supported) \
	F(MHD_basic_auth_get_username_password) F(MHD_queue_basic_auth_fail_response) F(MHD_free) \
	F(MHD_get_connection_info)
struct mhd_api {
	void *so;
#define MHD_SLOT(fn) __typeof__(fn) *fn;
	MHD_API(MHD_SLOT)
#undef MHD_SLOT
};
#define MHD_FN(fn) XG_DL_FN(struct mhd_api, fn)
static const struct xg_dl_fn mhd_fns[] = { MHD_API(MHD_FN) };

/* GnuTLS, for a client certificate's check: already loaded by
 * libmicrohttpd when TLS is on. */
#ifdef HAVE_GNUTLS
#include <gnutls/gnutls.h>
#ifndef GNUTLS_SO
#define GNUTLS_SO "libgnutls.so.30"
#endif
#define TLS_API(F) F(gnutls_certificate_verify_peers2) F(gnutls_certificate_get_peers)
struct tls_api {
	void *so;
#define TLS_SLOT(fn) __typeof__(fn) *fn;
	TLS_API(TLS_SLOT)
#undef TLS_SLOT
};
#define TLS_FN(fn) XG_DL_FN(struct tls_api, fn)
static const struct xg_dl_fn tls_fns[] = { TLS_API(TLS_FN) };
#else
struct tls_api {
	void *so;
};
#endif

/* The fixed answers, created once per server and queued to any number of
 * connections. */
enum { R_PAGE, R_NOT_FOUND, R_METHOD, R_NOT_READY, R_UNAUTHORIZED, R_NO_CERT, R_COUNT };

struct xg_exporter;
/* One libmicrohttpd daemon and the configuration it serves with. */
struct server {
	struct xg_exporter *x;
	struct MHD_Daemon *mhd;
	struct xg_webcfg cfg;
	struct expo_auth *auth;         /* NULL: no users, no password asked */
	struct MHD_Response *fixed[R_COUNT];
};

struct xg_exporter {
	struct mhd_api m;
	struct tls_api t;
	struct server *srv;             /* main thread only */
	const char *web_config;         /* --web-config FILE or NULL */
	struct sockaddr_storage sa;
	pthread_mutex_t lock;           /* only for taking or swapping cur */
	struct snap *cur;
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
	for (int f = 0; f < XG_EXPO_FMT_COUNT; f++) {
		if (s->resp[f])
			x->m.MHD_destroy_response(s->resp[f]);
		if (s->gz[f])
			x->m.MHD_destroy_response(s->gz[f]);
	}
	pthread_mutex_destroy(&s->gz_lock);
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

static struct MHD_Response *typed(const struct xg_exporter *x, struct MHD_Response *r, size_t n,
                                   const char *type);

/* The gzip response of format f, made once per snapshot; NULL if zlib
 * failed (the scraper then gets the plain body). */
static struct MHD_Response *gzipped(struct server *v, struct snap *s, enum xg_expo_fmt f)
{
	struct xg_exporter *x = v->x;
	pthread_mutex_lock(&s->gz_lock);
	if (!s->gz[f]) {
		size_t n;
		char *z = expo_gzip(s->text[f], s->len[f], &n);
		if (z) {
			s->gz[f] = typed(x, x->m.MHD_create_response_from_buffer_with_free_callback(n, z, free),
					 n, xg_expo_content_type[f]);
			x->m.MHD_add_response_header(s->gz[f], MHD_HTTP_HEADER_CONTENT_ENCODING, "gzip");
			x->m.MHD_add_response_header(s->gz[f], MHD_HTTP_HEADER_VARY, "Accept-Encoding");
			for (size_t i = 0; i < v->cfg.nheaders; i++)
				x->m.MHD_add_response_header(s->gz[f], v->cfg.headers[i].name,
							     v->cfg.headers[i].value);
		}
	}
	struct MHD_Response *r = s->gz[f];
	pthread_mutex_unlock(&s->gz_lock);
	return r;
}

static enum MHD_Result answer_metrics(struct server *v, struct MHD_Connection *conn)
{
	struct xg_exporter *x = v->x;
	struct snap *s = snap_get(x);
	if (!s)
		return x->m.MHD_queue_response(conn, MHD_HTTP_SERVICE_UNAVAILABLE, v->fixed[R_NOT_READY]);
	const char *accept = x->m.MHD_lookup_connection_value(conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_ACCEPT);
	const char *enc = x->m.MHD_lookup_connection_value(conn, MHD_HEADER_KIND,
							    MHD_HTTP_HEADER_ACCEPT_ENCODING);
	enum xg_expo_fmt f = expo_negotiate(accept);
	struct MHD_Response *r = expo_wants_gzip(enc) ? gzipped(v, s, f) : NULL;
	enum MHD_Result rc = x->m.MHD_queue_response(conn, MHD_HTTP_OK, r ? r : s->resp[f]);
	snap_put(x, s);
	return rc;
}

#ifdef HAVE_GNUTLS
/* A client certificate, when the configuration asks for one: present
 * (RequireAndVerifyClientCert) and signed by client_ca_file. */
static bool client_cert_ok(struct server *v, struct MHD_Connection *conn)
{
	struct xg_exporter *x = v->x;
	if (v->cfg.client_auth == XG_CLIENT_NONE)
		return true;
	const union MHD_ConnectionInfo *ci =
		x->m.MHD_get_connection_info(conn, MHD_CONNECTION_INFO_GNUTLS_SESSION);
	if (!ci || !ci->tls_session)
		return false;
	gnutls_session_t ss = (gnutls_session_t)ci->tls_session;
	unsigned n = 0;
	if (!x->t.gnutls_certificate_get_peers(ss, &n) || !n)
		return v->cfg.client_auth == XG_CLIENT_VERIFY_IF_GIVEN;
	unsigned status = 1;
	return x->t.gnutls_certificate_verify_peers2(ss, &status) == 0 && status == 0;
}
#else
static bool client_cert_ok(struct server *v, struct MHD_Connection *conn)
{
	(void)conn;
	return v->cfg.client_auth == XG_CLIENT_NONE;
}
#endif

/* basic_auth_users: true when there are none or the request names one with
 * its password. */
static bool authorized(struct server *v, struct MHD_Connection *conn)
{
	struct xg_exporter *x = v->x;
	if (!v->auth)
		return true;
	char *pass = NULL;
	char *user = x->m.MHD_basic_auth_get_username_password(conn, &pass);
	bool ok = user && pass && expo_auth_check(v->auth, user, pass);
	if (pass) {
		expo_wipe(pass, strlen(pass));
		x->m.MHD_free(pass);
	}
	if (user)
		x->m.MHD_free(user);
	return ok;
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *conn, const char *url,
				  const char *method, const char *version, const char *upload,
				  size_t *upload_size, void **con_cls)
{
	struct server *v = cls;
	struct xg_exporter *x = v->x;
	(void)version, (void)upload;
	/* A GET or HEAD is answered at the second call, once libmicrohttpd
	 * has the whole request: an answer queued at the first (with only the
	 * header read) makes it close the connection after the answer, and
	 * then every TLS scrape would pay a handshake. Anything else is
	 * answered at once, body or not: nothing here reads one. */
	static const char seen = 1;
	bool bodiless = !strcmp(method, MHD_HTTP_METHOD_GET) || !strcmp(method, MHD_HTTP_METHOD_HEAD);
	if (bodiless && !*con_cls) {
		*con_cls = (void *)&seen;
		return MHD_YES;
	}
	*upload_size = 0;
	if (!client_cert_ok(v, conn))
		return x->m.MHD_queue_response(conn, MHD_HTTP_FORBIDDEN, v->fixed[R_NO_CERT]);
	if (!authorized(v, conn))
		return x->m.MHD_queue_basic_auth_fail_response(conn, "xgtop", v->fixed[R_UNAUTHORIZED]);
	if (strcmp(method, MHD_HTTP_METHOD_GET) && strcmp(method, MHD_HTTP_METHOD_HEAD))
		return x->m.MHD_queue_response(conn, MHD_HTTP_METHOD_NOT_ALLOWED, v->fixed[R_METHOD]);
	if (!strcmp(url, "/metrics"))
		return answer_metrics(v, conn);
	if (!strcmp(url, "/"))
		return x->m.MHD_queue_response(conn, MHD_HTTP_OK, v->fixed[R_PAGE]);
	return x->m.MHD_queue_response(conn, MHD_HTTP_NOT_FOUND, v->fixed[R_NOT_FOUND]);
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

static struct MHD_Response *text_response(const struct server *v, const char *body,
                                          const char *type)
{
	const struct xg_exporter *x = v->x;
	size_t n = strlen(body);
	struct MHD_Response *r = typed(x, x->m.MHD_create_response_from_buffer(n, (void *)body,
									      MHD_RESPMEM_PERSISTENT), n, type);
	for (size_t i = 0; i < v->cfg.nheaders; i++)
		x->m.MHD_add_response_header(r, v->cfg.headers[i].name, v->cfg.headers[i].value);
	return r;
}

static void make_fixed(struct server *v)
{
	static const char page[] =
		"<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>xgtop exporter</title></head>\n"
		"<body><h1>xgtop exporter</h1><p><a href=\"/metrics\">Metrics</a></p></body></html>\n";
	const char *plain = "text/plain; charset=utf-8";
	const struct xg_exporter *x = v->x;
	v->fixed[R_PAGE] = text_response(v, page, "text/html; charset=utf-8");
	v->fixed[R_NOT_FOUND] = text_response(v, "not found: this exporter serves /metrics\n", plain);
	v->fixed[R_METHOD] = text_response(v, "method not allowed: use GET or HEAD\n", plain);
	x->m.MHD_add_response_header(v->fixed[R_METHOD], MHD_HTTP_HEADER_ALLOW, "GET, HEAD");
	v->fixed[R_NOT_READY] = text_response(v, "no refresh yet\n", plain);
	x->m.MHD_add_response_header(v->fixed[R_NOT_READY], MHD_HTTP_HEADER_RETRY_AFTER, "1");
	v->fixed[R_UNAUTHORIZED] = text_response(v, "unauthorized: this exporter wants a user and "
						 "password (basic auth)\n", plain);
	v->fixed[R_NO_CERT] = text_response(v, "forbidden: this exporter wants a client certificate "
					    "signed by its client CA\n", plain);
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
	expo_totals_step(&st->totals, s);
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

void exporter_publish(struct xg_exporter *x, const struct xg_sample *s, const int8_t *victim, int rc)
{
	if (!x || rc > 0)
		return;
	update_stats(&x->st, s, rc);
	if (!s)
		return;
	struct snap *n = xg_calloc(1, sizeof(*n));
	atomic_init(&n->ref, 1);
	pthread_mutex_init(&n->gz_lock, NULL);
	const struct xg_webcfg *c = &x->srv->cfg;     /* the main thread's, as reloads are */
	for (int f = 0; f < XG_EXPO_FMT_COUNT; f++) {
		struct xg_strbuf b = { 0 };
		expo_render(&b, (enum xg_expo_fmt)f, s, victim, &x->st);
		/* The response owns the text from here and frees it with the response. */
		n->resp[f] = typed(x, x->m.MHD_create_response_from_buffer_with_free_callback(b.len, b.p, free),
				   b.len, xg_expo_content_type[f]);
		n->text[f] = b.p;
		n->len[f] = b.len;
		x->m.MHD_add_response_header(n->resp[f], MHD_HTTP_HEADER_VARY, "Accept-Encoding");
		for (size_t i = 0; i < c->nheaders; i++)
			x->m.MHD_add_response_header(n->resp[f], c->headers[i].name, c->headers[i].value);
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

/* Starts v's daemon, on the socket fd when it is one (a reload) or bound
 * to x->sa. errno tells why when it returns false. */
static bool start(struct server *v, int fd)
{
	struct xg_exporter *x = v->x;
	/* ITC: a reload's quiesce needs it. */
	unsigned flags = MHD_USE_AUTO_INTERNAL_THREAD | MHD_USE_ERROR_LOG | MHD_USE_ITC;
	if (x->sa.ss_family == AF_INET6)
		flags |= MHD_USE_IPv6;
	if (v->cfg.tls)
		flags |= MHD_USE_TLS;
	struct MHD_OptionItem tls[] = {
		{ MHD_OPTION_HTTPS_MEM_CERT, 0, v->cfg.cert_pem },
		{ MHD_OPTION_HTTPS_MEM_KEY, 0, v->cfg.key_pem },
		{ MHD_OPTION_HTTPS_PRIORITIES, 0, v->cfg.priorities },
		{ v->cfg.ca_pem ? MHD_OPTION_HTTPS_MEM_TRUST : MHD_OPTION_END, 0, v->cfg.ca_pem },
		{ MHD_OPTION_END, 0, NULL },
	};
	struct MHD_OptionItem where[] = {
		{ fd >= 0 ? MHD_OPTION_LISTEN_SOCKET : MHD_OPTION_SOCK_ADDR, fd,
		  fd >= 0 ? NULL : (void *)&x->sa },
		{ MHD_OPTION_END, 0, NULL },
	};
	/* The server thread inherits this mask: signals stay with the main
	 * thread, whose sleeps they must interrupt. */
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	errno = 0;
	v->mhd = x->m.MHD_start_daemon(flags, 0, NULL, NULL, on_request, v,
		MHD_OPTION_EXTERNAL_LOGGER, mhd_log, x,
		MHD_OPTION_ARRAY, where,
		MHD_OPTION_ARRAY, v->cfg.tls ? tls : tls + 4,
		MHD_OPTION_CONNECTION_LIMIT, (unsigned)EXPO_CONNECTIONS,
		MHD_OPTION_PER_IP_CONNECTION_LIMIT, (unsigned)EXPO_PER_CLIENT,
		MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)EXPO_IDLE_S,
		MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)EXPO_HEADER_BYTES,
		MHD_OPTION_END);
	int e = errno;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	errno = e;
	return v->mhd != NULL;
}

/* Stops v's daemon (scrapes in flight are cut) and frees it. */
static void server_free(struct server *v)
{
	if (!v)
		return;
	if (v->mhd)
		v->x->m.MHD_stop_daemon(v->mhd);
	for (int i = 0; i < R_COUNT; i++)
		if (v->fixed[i])
			v->x->m.MHD_destroy_response(v->fixed[i]);
	expo_auth_free(v->auth);
	webcfg_free(&v->cfg);
	free(v);
}

/* A server for configuration c (taken over), not started yet. */
static struct server *server_new(struct xg_exporter *x, struct xg_webcfg *c, struct xg_err *err)
{
	struct server *v = xg_calloc(1, sizeof(*v));
	v->x = x;
	v->cfg = *c;
	memset(c, 0, sizeof(*c));
	if (v->cfg.tls && x->m.MHD_is_feature_supported(MHD_FEATURE_TLS) != MHD_YES) {
		xg_fail(err, "--web-config %s: this libmicrohttpd (%s) was built without TLS", x->web_config,
			MHD_SO);
		goto fail;
	}
#ifndef HAVE_GNUTLS
	if (v->cfg.client_auth != XG_CLIENT_NONE) {
		xg_fail(err, "--web-config %s: client_auth_type: this xgtop was built without GnuTLS's "
			"headers (libgnutls28-dev), so it cannot check a client certificate", x->web_config);
		goto fail;
	}
#else
	if (v->cfg.client_auth != XG_CLIENT_NONE && !x->t.so) {
		struct xg_err e = { 0 };
		x->t.so = xg_dl_load(GNUTLS_SO, "GnuTLS", tls_fns, XG_ARRAY_LEN(tls_fns), &x->t, &e);
		if (!x->t.so) {
			xg_fail(err, "--web-config %s: client_auth_type: %s", x->web_config, e.msg);
			goto fail;
		}
	}
#endif
	if (v->cfg.nusers && !(v->auth = expo_auth_new(&v->cfg, err)))
		goto fail;
	make_fixed(v);
	return v;
fail:
	server_free(v);
	return NULL;
}

static int load_config(struct xg_exporter *x, struct xg_webcfg *c, struct xg_err *err)
{
	memset(c, 0, sizeof(*c));
	if (!x->web_config)
		return 0;
	struct xg_err e = { 0 };
	if (webcfg_load(c, x->web_config, &e) < 0)
		return xg_fail(err, "--web-config %s", e.msg);
	return 0;
}

struct xg_exporter *exporter_open(const struct xg_listen *at, const char *web_config, xg_log_fn *log,
				  void *log_ctx, struct xg_err *err)
{
	struct sockaddr_storage sa;
	if (resolve(at, &sa, err) < 0)
		return NULL;
	char host[INET6_ADDRSTRLEN] = "?";
	getnameinfo((struct sockaddr *)&sa, sizeof(sa), host, sizeof(host), NULL, 0, NI_NUMERICHOST);
	struct xg_exporter *x = xg_calloc(1, sizeof(*x));
	x->sa = sa;
	x->web_config = web_config;
	struct xg_err e = { 0 };
	x->m.so = xg_dl_load(MHD_SO, "libmicrohttpd", mhd_fns, XG_ARRAY_LEN(mhd_fns), &x->m, &e);
	if (!x->m.so) {
		xg_fail(err, "--export: %s", e.msg);
		free(x);
		return NULL;
	}
	pthread_mutex_init(&x->lock, NULL);
	pthread_mutex_init(&x->log_lock, NULL);
	struct xg_webcfg c;
	if (load_config(x, &c, err) < 0 || !(x->srv = server_new(x, &c, err))) {
		exporter_close(x);
		return NULL;
	}
	bool up = start(x->srv, -1);
	int errnum = errno;
	pthread_mutex_lock(&x->log_lock);
	x->log_ctx = log_ctx;
	x->log = log;
	pthread_mutex_unlock(&x->log_lock);
	if (!up) {
		if (x->srv->cfg.tls)
			xg_fail(err, "--export: cannot serve TLS on %s port %u: the certificate or key of "
				"--web-config %s is not usable (PEM, matching each other?)", host, at->port,
				web_config);
		else
			xg_fail_errno(err, errnum ? errnum : EADDRNOTAVAIL, "--export: cannot listen on %s "
				      "port %u", host, at->port);
		exporter_close(x);
		return NULL;
	}
	const union MHD_DaemonInfo *info = x->m.MHD_get_daemon_info(x->srv->mhd, MHD_DAEMON_INFO_BIND_PORT);
	snprintf(x->where, sizeof(x->where), sa.ss_family == AF_INET6 ? "[%s]:%u" : "%s:%u", host,
		 info ? info->port : at->port);
	return x;
}

int exporter_reload(struct xg_exporter *x, struct xg_err *err)
{
	struct xg_webcfg c;
	if (!x || !x->web_config)
		return 0;
	if (load_config(x, &c, err) < 0)
		return -1;
	struct server *n = server_new(x, &c, err);
	if (!n)
		return -1;
	/* The listening socket passes to the new server: connections wait
	 * in its backlog meanwhile. */
	struct server *old = x->srv;
	int fd = (int)x->m.MHD_quiesce_daemon(old->mhd);
	if (fd < 0) {
		server_free(n);
		return xg_fail(err, "--web-config %s: the running server would not hand over its socket",
			       x->web_config);
	}
	/* libmicrohttpd closes a socket it was given when it fails to start
	 * (a certificate and key that do not match): a copy stays here. */
	int spare = fcntl(fd, F_DUPFD_CLOEXEC, 0);
	if (start(n, fd)) {
		if (spare >= 0)
			close(spare);
	} else {
		/* The old configuration again, on the same socket. */
		server_free(n);
		fd = spare;
		struct server *again = xg_calloc(1, sizeof(*again));
		*again = *old;
		again->mhd = NULL;
		memset(old->fixed, 0, sizeof(old->fixed));
		memset(&old->cfg, 0, sizeof(old->cfg));
		old->auth = NULL;
		server_free(old);
		x->srv = again;
		if (fd < 0 || !start(again, fd))
			return xg_fail(err, "--web-config %s: neither the new nor the old configuration "
				       "would serve: the exporter is down", x->web_config);
		return xg_fail(err, "--web-config %s: the certificate or key is not usable (PEM, matching "
			       "each other?)", x->web_config);
	}
	x->srv = n;
	server_free(old);
	return 0;
}

const char *exporter_describe(const struct xg_exporter *x, char *buf, size_t n)
{
	const struct xg_webcfg *c = x && x->srv ? &x->srv->cfg : NULL;
	if (!c || (!c->tls && !c->nusers && !c->nheaders)) {
		snprintf(buf, n, "plain HTTP, no users");
		return buf;
	}
	snprintf(buf, n, "%s%s, %zu user%s, %zu extra header%s", c->tls ? "TLS" : "plain HTTP",
		 c->client_auth == XG_CLIENT_REQUIRE_VERIFY ? " with client certificates" :
		 c->client_auth == XG_CLIENT_VERIFY_IF_GIVEN ? " checking client certificates if given" : "",
		 c->nusers, c->nusers == 1 ? "" : "s", c->nheaders, c->nheaders == 1 ? "" : "s");
	return buf;
}

const char *exporter_where(const struct xg_exporter *x)
{
	return x ? x->where : "";
}

bool exporter_tls(const struct xg_exporter *x)
{
	return x && x->srv && x->srv->cfg.tls;
}

void exporter_close(struct xg_exporter *x)
{
	if (!x)
		return;
	server_free(x->srv);
	snap_put(x, x->cur);
	expo_totals_free(&x->st.totals);
	pthread_mutex_destroy(&x->lock);
	pthread_mutex_destroy(&x->log_lock);
#ifdef HAVE_GNUTLS
	xg_dl_close(x->t.so);
#endif
	xg_dl_close(x->m.so);
	free(x);
}

#else /* no libmicrohttpd */

struct xg_exporter *exporter_open(const struct xg_listen *at, const char *web_config, xg_log_fn *log,
				  void *log_ctx, struct xg_err *err)
{
	(void)at, (void)web_config, (void)log, (void)log_ctx;
	xg_fail(err, "--export: this xgtop was built without libmicrohttpd (install libmicrohttpd-dev "
		"and rebuild)");
	return NULL;
}

const char *exporter_where(const struct xg_exporter *x)
{
	(void)x;
	return "";
}

bool exporter_tls(const struct xg_exporter *x)
{
	(void)x;
	return false;
}

void exporter_publish(struct xg_exporter *x, const struct xg_sample *s, const int8_t *victim, int rc)
{
	(void)x, (void)s, (void)victim, (void)rc;
}

void exporter_close(struct xg_exporter *x)
{
	(void)x;
}

int exporter_reload(struct xg_exporter *x, struct xg_err *err)
{
	(void)x, (void)err;
	return 0;
}

const char *exporter_describe(const struct xg_exporter *x, char *buf, size_t n)
{
	(void)x;
	snprintf(buf, n, "-");
	return buf;
}

#endif
