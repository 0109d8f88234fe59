// SPDX-License-Identifier: GPL-2.0-or-later
/* The pool view's HTTP client: libcurl's multi interface fetches every
 * host at once, each within the same deadline, so one slow or dead host
 * costs the refresh at most the time limit, never the sum over hosts.
 * http and https (a CA file, a client certificate), basic auth or a bearer
 * token, proxies from the environment (http_proxy, https_proxy, no_proxy,
 * as libcurl reads them), gzip. No redirect is followed. A body is bounded
 * to RM_BODY_MAX bytes after decompression, so a gzip bomb stops there.
 * libcurl is loaded by soname when the pool view opens, like libmicrohttpd
 * for the exporter: it brings a TLS library and a dozen more that no other
 * command needs. */
#include "remote_parts.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef HAVE_CURL
#include "xgtop/core/dynlib.h"
#define CURL_DISABLE_TYPECHECK 1
#include <curl/curl.h>

#ifndef CURL_SO
#define CURL_SO "libcurl.so.4"
#endif

#define CURL_API(F) \
	F(curl_global_init) F(curl_easy_init) F(curl_easy_setopt) F(curl_easy_getinfo) \
	F(curl_easy_cleanup) F(curl_easy_strerror) F(curl_multi_init) F(curl_multi_add_handle) \
	F(curl_multi_remove_handle) F(curl_multi_perform) F(curl_multi_poll) \
	F(curl_multi_info_read) F(curl_multi_cleanup) F(curl_multi_setopt)
struct curl_api {
	void *so;
#define CURL_SLOT(fn) __typeof__(fn) *fn;
	CURL_API(CURL_SLOT)
#undef CURL_SLOT
};
#define CURL_FN(fn) XG_DL_FN(struct curl_api, fn)
static const struct xg_dl_fn curl_fns[] = { CURL_API(CURL_FN) };

struct rm_client {
	struct curl_api c;
	CURLM *multi;
};

struct rm_client *rm_client_open(struct xg_err *err)
{
	struct rm_client *c = xg_calloc(1, sizeof(*c));
	struct xg_err e = { 0 };
	c->c.so = xg_dl_load(CURL_SO, "libcurl", curl_fns, XG_ARRAY_LEN(curl_fns), &c->c, &e);
	if (!c->c.so) {
		free(c);
		xg_fail(err, "pool view: %s", e.msg);
		return NULL;
	}
	/* Not thread-safe in old libcurls, but xgtop's other threads (the
	 * exporter's) never use libcurl. */
	if (c->c.curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK || !(c->multi = c->c.curl_multi_init())) {
		xg_dl_close(c->c.so);
		free(c);
		xg_fail(err, "pool view: libcurl would not start");
		return NULL;
	}
	/* One connection per host is all a scrape needs. */
	c->c.curl_multi_setopt(c->multi, CURLMOPT_MAX_HOST_CONNECTIONS, 1L);
	return c;
}

void rm_client_close(struct rm_client *c)
{
	if (!c)
		return;
	c->c.curl_multi_cleanup(c->multi);
	xg_dl_close(c->c.so);
	free(c);
}

void rm_fetch_init(struct rm_fetch *f, const struct rm_target *t)
{
	memset(f, 0, sizeof(*f));
	f->t = t;
}

void rm_fetch_free(struct rm_client *c, struct rm_fetch *f)
{
	if (f->easy && c)
		c->c.curl_easy_cleanup(f->easy);
	free(f->buf);
	memset(f, 0, sizeof(*f));
}

static size_t on_body(char *p, size_t size, size_t nmemb, void *ctx)
{
	struct rm_fetch *f = ctx;
	size_t n = size * nmemb;
	if (n > RM_BODY_MAX - f->len) {
		f->too_big = true;
		return 0;               /* libcurl stops: CURLE_WRITE_ERROR */
	}
	if (f->cap - f->len < n + 1) {
		size_t want = f->cap ? f->cap : 65536;
		while (want - f->len < n + 1)
			want *= 2;
		if (want > RM_BODY_MAX + 1)
			want = RM_BODY_MAX + 1;
		f->buf = xg_realloc(f->buf, want);
		f->cap = want;
	}
	memcpy(f->buf + f->len, p, n);
	f->len += n;
	f->buf[f->len] = 0;
	return n;
}

/* The handle of f, made once: its URL and credentials do not change. */
static CURL *easy(struct rm_client *c, struct rm_fetch *f)
{
	if (f->easy)
		return f->easy;
	const struct rm_target *t = f->t;
	CURL *h = c->c.curl_easy_init();
	if (!h)
		return NULL;
	char url[600];
	bool v6 = strchr(t->host, ':') != NULL;
	snprintf(url, sizeof(url), "%s://%s%s%s:%s%s", t->https ? "https" : "http", v6 ? "[" : "", t->host,
		 v6 ? "]" : "", t->port, t->path);
	__typeof__(c->c.curl_easy_setopt) set = c->c.curl_easy_setopt;
	set(h, CURLOPT_URL, url);
	set(h, CURLOPT_PROTOCOLS_STR, "http,https");
	set(h, CURLOPT_NOSIGNAL, 1L);
	set(h, CURLOPT_USERAGENT, "xgtop/" XG_VERSION);
	set(h, CURLOPT_ACCEPT_ENCODING, "gzip");
	set(h, CURLOPT_MAXFILESIZE_LARGE, (curl_off_t)RM_BODY_MAX);
	set(h, CURLOPT_WRITEFUNCTION, on_body);
	set(h, CURLOPT_WRITEDATA, f);
	set(h, CURLOPT_PRIVATE, f);
	if (t->ca_file[0])
		set(h, CURLOPT_CAINFO, t->ca_file);
	if (t->cert_file[0])
		set(h, CURLOPT_SSLCERT, t->cert_file);
	if (t->key_file[0])
		set(h, CURLOPT_SSLKEY, t->key_file);
	if (t->bearer[0]) {
		set(h, CURLOPT_HTTPAUTH, (long)CURLAUTH_BEARER);
		set(h, CURLOPT_XOAUTH2_BEARER, t->bearer);
	} else if (t->user[0]) {
		set(h, CURLOPT_HTTPAUTH, (long)CURLAUTH_BASIC);
		set(h, CURLOPT_USERNAME, t->user);
		set(h, CURLOPT_PASSWORD, t->password);
	}
	return f->easy = h;
}

int rm_fetch_url(struct rm_client *c, struct rm_fetch *f, const char *path)
{
	CURL *h = easy(c, f);
	if (!h)
		return -1;
	const struct rm_target *t = f->t;
	bool v6 = strchr(t->host, ':') != NULL;
	size_t n = strlen(t->host) + strlen(path) + 32;
	char *url = xg_calloc(1, n);
	snprintf(url, n, "%s://%s%s%s:%s%s", t->https ? "https" : "http", v6 ? "[" : "", t->host,
		 v6 ? "]" : "", t->port, path);
	int rc = c->c.curl_easy_setopt(h, CURLOPT_URL, url) == CURLE_OK ? 0 : -1;
	free(url);
	return rc;
}

static void failed(struct rm_fetch *f, const char *fmt, const char *a, long b)
{
	snprintf(f->why, sizeof(f->why), fmt, a, b);
	f->phase = RM_FAILED;
}

static void done(struct rm_client *c, struct rm_fetch *f, CURLcode rc, double timeout_s)
{
	long code = 0;
	c->c.curl_easy_getinfo(f->easy, CURLINFO_RESPONSE_CODE, &code);
	if (f->too_big || rc == CURLE_FILESIZE_EXCEEDED)
		failed(f, "%sanswer larger than 32 MiB: not an xgtop exporter?", "", 0);
	else if (rc == CURLE_OPERATION_TIMEDOUT) {
		snprintf(f->why, sizeof(f->why), "no answer within %.1f s", timeout_s);
		f->phase = RM_FAILED;
	}
	else if (rc != CURLE_OK)
		failed(f, "%s", c->c.curl_easy_strerror(rc), 0);
	else if (code == 401 || code == 403)
		failed(f, "%sHTTP %ld: the exporter wants a user and password, a token or a client "
		       "certificate that this host's line does not give or it refuses", "", code);
	else if (code != 200)
		failed(f, "%sHTTP %ld", "", code);
	else {
		f->body = f->buf ? f->buf : "";
		f->body_len = f->len;
		f->phase = RM_DONE;
	}
}

void rm_fetch_all(struct rm_client *c, struct rm_fetch **f, size_t n, uint64_t timeout_ns)
{
	long ms = (long)(timeout_ns / 1000000u);
	if (ms < 1)
		ms = 1;
	for (size_t i = 0; i < n; i++) {
		f[i]->len = 0;
		f[i]->too_big = false;
		f[i]->why[0] = 0;
		CURL *h = easy(c, f[i]);
		if (!h) {
			failed(f[i], "%slibcurl could not make a handle", "", 0);
			continue;
		}
		c->c.curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, ms);
		f[i]->phase = RM_RUNNING;
		c->c.curl_multi_add_handle(c->multi, h);
	}
	uint64_t deadline = xg_now_mono_ns() + timeout_ns + 100000000u;
	int running = 1;
	while (running) {
		if (c->c.curl_multi_perform(c->multi, &running) != CURLM_OK)
			break;
		int left;
		for (CURLMsg *m; (m = c->c.curl_multi_info_read(c->multi, &left));) {
			if (m->msg != CURLMSG_DONE)
				continue;
			struct rm_fetch *x = NULL;
			c->c.curl_easy_getinfo(m->easy_handle, CURLINFO_PRIVATE, (char **)&x);
			done(c, x, m->data.result, (double)timeout_ns / 1e9);
			c->c.curl_multi_remove_handle(c->multi, m->easy_handle);
		}
		uint64_t now = xg_now_mono_ns();
		if (!running || now >= deadline)
			break;
		c->c.curl_multi_poll(c->multi, NULL, 0, (int)((deadline - now) / 1000000u) + 1, NULL);
	}
	/* libcurl's own timeout ends each transfer; this is in case it did not. */
	for (size_t i = 0; i < n; i++)
		if (f[i]->phase == RM_RUNNING) {
			c->c.curl_multi_remove_handle(c->multi, f[i]->easy);
			snprintf(f[i]->why, sizeof(f[i]->why), "no answer within %.1f s", (double)timeout_ns / 1e9);
			f[i]->phase = RM_FAILED;
		}
}

#else /* no libcurl */

struct rm_client *rm_client_open(struct xg_err *err)
{
	xg_fail(err, "pool view: this xgtop was built without libcurl (install libcurl4-openssl-dev "
		"and rebuild)");
	return NULL;
}

void rm_client_close(struct rm_client *c)
{
	(void)c;
}

void rm_fetch_init(struct rm_fetch *f, const struct rm_target *t)
{
	memset(f, 0, sizeof(*f));
	f->t = t;
}

void rm_fetch_free(struct rm_client *c, struct rm_fetch *f)
{
	(void)c;
	free(f->buf);
	memset(f, 0, sizeof(*f));
}

void rm_fetch_all(struct rm_client *c, struct rm_fetch **f, size_t n, uint64_t timeout_ns)
{
	(void)c, (void)f, (void)n, (void)timeout_ns;
}

int rm_fetch_url(struct rm_client *c, struct rm_fetch *f, const char *path)
{
	(void)c, (void)f, (void)path;
	return -1;
}

#endif
