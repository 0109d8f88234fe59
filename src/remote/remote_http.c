// SPDX-License-Identifier: GPL-2.0-or-later
/* HTTP/1.1 GET of many exporters at once: non-blocking sockets and one
 * poll() loop, so one slow or dead host costs the refresh at most the time
 * limit, never the sum over hosts. Answers are bounded (RM_HEAD_MAX,
 * RM_BODY_MAX); a host name is resolved once (again after a failure), the
 * only step that may block. */
#include "remote_int.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>

void rm_fetch_init(struct rm_fetch *f, const struct rm_target *t)
{
	memset(f, 0, sizeof(*f));
	f->t = t;
	f->fd = -1;
	f->reqlen = (size_t)snprintf(f->req, sizeof(f->req),
		"GET %s HTTP/1.1\r\nHost: %s%s%s:%s\r\nUser-Agent: xgtop/" XG_VERSION "\r\n"
		"Accept: text/plain;version=0.0.4\r\nAccept-Encoding: identity\r\nConnection: close\r\n\r\n",
		t->path, strchr(t->host, ':') ? "[" : "", t->host, strchr(t->host, ':') ? "]" : "", t->port);
}

static void drop_conn(struct rm_fetch *f)
{
	if (f->fd >= 0)
		close(f->fd);
	f->fd = -1;
}

void rm_fetch_free(struct rm_fetch *f)
{
	drop_conn(f);
	if (f->addr)
		freeaddrinfo(f->addr);
	free(f->buf);
	memset(f, 0, sizeof(*f));
	f->fd = -1;
}

static void fail(struct rm_fetch *f, const char *what, int errnum)
{
	if (errnum)
		snprintf(f->why, sizeof(f->why), "%s: %s", what, strerror(errnum));
	else
		snprintf(f->why, sizeof(f->why), "%s", what);
	drop_conn(f);
	f->phase = RM_FAILED;
}

/* The address may have moved: resolve the name again next time. */
static void connect_failed(struct rm_fetch *f, int errnum)
{
	if (f->addr)
		freeaddrinfo(f->addr);
	f->addr = NULL;
	fail(f, "connect", errnum);
}

static void start(struct rm_fetch *f)
{
	f->len = f->sent = 0;
	f->why[0] = 0;
	if (!f->addr) {
		struct addrinfo hint = { .ai_socktype = SOCK_STREAM }, *ai = NULL;
		int rc = getaddrinfo(f->t->host, f->t->port, &hint, &ai);
		if (rc) {
			snprintf(f->why, sizeof(f->why), "cannot resolve %.100s: %.60s", f->t->host, gai_strerror(rc));
			f->phase = RM_FAILED;
			return;
		}
		f->addr = ai;
	}
	const struct addrinfo *ai = f->addr;
	f->fd = socket(ai->ai_family, ai->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, ai->ai_protocol);
	if (f->fd < 0)
		return fail(f, "socket", errno);
	if (connect(f->fd, ai->ai_addr, ai->ai_addrlen) < 0 && errno != EINPROGRESS)
		return connect_failed(f, errno);
	f->phase = RM_CONNECT;
}

static void on_writable(struct rm_fetch *f)
{
	if (f->phase == RM_CONNECT) {
		int e = 0;
		socklen_t el = sizeof(e);
		if (getsockopt(f->fd, SOL_SOCKET, SO_ERROR, &e, &el) < 0 || e)
			return connect_failed(f, e ? e : errno);
		f->phase = RM_SEND;
	}
	ssize_t w = send(f->fd, f->req + f->sent, f->reqlen - f->sent, MSG_NOSIGNAL);
	if (w < 0 && errno != EAGAIN && errno != EINTR)
		return fail(f, "send", errno);
	if (w > 0 && (f->sent += (size_t)w) == f->reqlen)
		f->phase = RM_RECV;
}

static void finish(struct rm_fetch *f)
{
	drop_conn(f);
	if (rm_http_body(f->buf, f->len, &f->body, &f->body_len, f->why, sizeof(f->why)) < 0)
		f->phase = RM_FAILED;
	else
		f->phase = RM_DONE;
}

static void on_readable(struct rm_fetch *f)
{
	const size_t max = RM_HEAD_MAX + RM_BODY_MAX;
	if (f->cap - f->len < 4096 + 1) {
		if (f->cap >= max + 1)
			return fail(f, "answer larger than 32 MiB: not an xgtop exporter?", 0);
		size_t want = f->cap ? f->cap * 2 : 65536;
		f->buf = xg_realloc(f->buf, want > max + 1 ? max + 1 : want);
		f->cap = want > max + 1 ? max + 1 : want;
	}
	ssize_t r = recv(f->fd, f->buf + f->len, f->cap - f->len - 1, 0);
	if (r < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	if (r < 0)
		return fail(f, "receive", errno);
	if (r == 0)
		return finish(f);
	f->len += (size_t)r;
	f->buf[f->len] = 0;
}

static bool active(const struct rm_fetch *f)
{
	return f->phase == RM_CONNECT || f->phase == RM_SEND || f->phase == RM_RECV;
}

void rm_fetch_all(struct rm_fetch **f, size_t n, uint64_t timeout_ns)
{
	uint64_t deadline = xg_now_mono_ns() + timeout_ns;
	struct pollfd *pfd = xg_calloc(n ? n : 1, sizeof(*pfd));
	size_t *who = xg_calloc(n ? n : 1, sizeof(*who));
	for (size_t i = 0; i < n; i++)
		start(f[i]);
	for (;;) {
		size_t np = 0;
		for (size_t i = 0; i < n; i++)
			if (active(f[i])) {
				pfd[np] = (struct pollfd){ f[i]->fd, f[i]->phase == RM_RECV ? POLLIN : POLLOUT, 0 };
				who[np++] = i;
			}
		uint64_t now = xg_now_mono_ns();
		if (!np || now >= deadline)
			break;
		int ms = (int)((deadline - now + 999999) / 1000000);
		if (poll(pfd, np, ms) < 0 && errno != EINTR)
			break;
		for (size_t k = 0; k < np; k++) {
			struct rm_fetch *x = f[who[k]];
			if (pfd[k].revents & (POLLIN | POLLHUP | POLLERR) && x->phase == RM_RECV)
				on_readable(x);
			else if (pfd[k].revents)
				on_writable(x);
		}
	}
	for (size_t i = 0; i < n; i++)
		if (active(f[i])) {
			char what[96];
			snprintf(what, sizeof(what), "no answer within %.1f s", (double)timeout_ns / 1e9);
			fail(f[i], what, 0);
		}
	free(pfd);
	free(who);
}
