/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A xenstored stand-in for the unit tests of dom0's xenstore reads: a
 * thread serving XS_READ on a unix socket from a table of nodes, which can
 * be told to misbehave (hang, hang up, answer late, send what no xenstored
 * sends) and whose table a hook may change at every read (a guest writing
 * while dom0 reads). One connection at a time, like the client uses. */
#ifndef XGTOP_TEST_FAKE_XENSTORED_H
#define XGTOP_TEST_FAKE_XENSTORED_H

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#undef __STRICT_ANSI__
#include <xen/io/xs_wire.h>

enum fxs_mode {
	FXS_NORMAL,
	FXS_HANG,       /* read requests, answer none (a stopped xenstored) */
	FXS_CLOSE,      /* hang up at the next request (then normal) */
	FXS_BIG,        /* announce a payload over 4 KiB (then normal) */
	FXS_WRONG_ID,   /* answer with another request id (then normal) */
};

struct fxs_node {
	char *path, *val;
	size_t len;
};

struct fxs {
	char path[108];
	int lfd;
	pthread_t thr;
	pthread_mutex_t lock;
	volatile int stop;
	enum fxs_mode mode;
	unsigned delay_ms;           /* before every answer */
	struct fxs_node *node;
	size_t n, cap;
	unsigned long reads;         /* requests seen */
	void (*on_read)(struct fxs *f, const char *path);   /* called with lock held */
	void *ctx;
};

static inline void fxs_sleep_ms(unsigned ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000 };
	nanosleep(&ts, NULL);
}

/* Sets (val non-NULL) or removes a node; lock held. */
static inline void fxs_put_locked(struct fxs *f, const char *path, const char *val, size_t len)
{
	for (size_t i = 0; i < f->n; i++) {
		if (strcmp(f->node[i].path, path))
			continue;
		free(f->node[i].val);
		if (!val) {
			free(f->node[i].path);
			f->node[i] = f->node[--f->n];
			return;
		}
		f->node[i].val = malloc(len + 1);
		memcpy(f->node[i].val, val, len);
		f->node[i].len = len;
		return;
	}
	if (!val)
		return;
	if (f->n == f->cap) {
		f->cap = f->cap ? 2 * f->cap : 64;
		f->node = realloc(f->node, f->cap * sizeof(*f->node));
	}
	struct fxs_node *nd = &f->node[f->n++];
	nd->path = strdup(path);
	nd->val = malloc(len + 1);
	memcpy(nd->val, val, len);
	nd->len = len;
}

static inline void fxs_put(struct fxs *f, const char *path, const char *val)
{
	pthread_mutex_lock(&f->lock);
	fxs_put_locked(f, path, val, val ? strlen(val) : 0);
	pthread_mutex_unlock(&f->lock);
}

static inline void fxs_set_mode(struct fxs *f, enum fxs_mode m, unsigned delay_ms)
{
	pthread_mutex_lock(&f->lock);
	f->mode = m;
	f->delay_ms = delay_ms;
	pthread_mutex_unlock(&f->lock);
}

static inline unsigned long fxs_reads(struct fxs *f)
{
	pthread_mutex_lock(&f->lock);
	unsigned long n = f->reads;
	pthread_mutex_unlock(&f->lock);
	return n;
}

static inline bool fxs_full(int fd, void *p, size_t n, bool out)
{
	char *b = p;
	while (n) {
		ssize_t k = out ? send(fd, b, n, MSG_NOSIGNAL) : read(fd, b, n);
		if (k <= 0)
			return false;
		b += k;
		n -= (size_t)k;
	}
	return true;
}

/* Waits for fd to be readable, watching f->stop: false when stopping. */
static inline bool fxs_wait(struct fxs *f, int fd)
{
	while (!f->stop) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		if (poll(&p, 1, 20) > 0)
			return true;
	}
	return false;
}

static inline void fxs_answer(struct fxs *f, int fd, const struct xsd_sockmsg *rq, const char *path)
{
	struct xsd_sockmsg h = { .type = XS_READ, .req_id = rq->req_id };
	char *val = NULL;
	pthread_mutex_lock(&f->lock);
	if (f->on_read)
		f->on_read(f, path);
	for (size_t i = 0; i < f->n; i++) {
		if (!strcmp(f->node[i].path, path)) {
			val = malloc(f->node[i].len + 1);
			memcpy(val, f->node[i].val, f->node[i].len);
			h.len = (uint32_t)f->node[i].len;
			break;
		}
	}
	unsigned delay = f->delay_ms;
	pthread_mutex_unlock(&f->lock);
	if (!val) {
		h.type = XS_ERROR;
		h.len = sizeof("ENOENT");
		val = strdup("ENOENT");
	}
	if (delay)
		fxs_sleep_ms(delay);
	if (fxs_full(fd, &h, sizeof(h), true))
		fxs_full(fd, val, h.len, true);
	free(val);
}

/* Serves one connection until the client hangs up, a FXS_CLOSE, or stop. */
static inline void fxs_serve(struct fxs *f, int fd)
{
	while (fxs_wait(f, fd)) {
		struct xsd_sockmsg rq;
		char path[XENSTORE_PAYLOAD_MAX + 1];
		if (!fxs_full(fd, &rq, sizeof(rq), false) || rq.len > XENSTORE_PAYLOAD_MAX ||
		    !fxs_full(fd, path, rq.len, false))
			return;
		path[rq.len] = 0;
		pthread_mutex_lock(&f->lock);
		f->reads++;
		enum fxs_mode m = f->mode;
		if (m == FXS_CLOSE || m == FXS_BIG || m == FXS_WRONG_ID)
			f->mode = FXS_NORMAL;
		pthread_mutex_unlock(&f->lock);
		if (m == FXS_HANG)
			continue;
		if (m == FXS_CLOSE)
			return;
		if (m == FXS_BIG) {
			struct xsd_sockmsg h = { .type = XS_READ, .req_id = rq.req_id,
						 .len = XENSTORE_PAYLOAD_MAX + 1 };
			fxs_full(fd, &h, sizeof(h), true);
			continue;
		}
		if (m == FXS_WRONG_ID)
			rq.req_id++;
		fxs_answer(f, fd, &rq, path);
	}
}

static inline void *fxs_main(void *arg)
{
	struct fxs *f = arg;
	while (fxs_wait(f, f->lfd)) {
		int fd = accept(f->lfd, NULL, NULL);
		if (fd < 0)
			continue;
		fxs_serve(f, fd);
		close(fd);
	}
	return NULL;
}

static inline void fxs_init(struct fxs *f)
{
	memset(f, 0, sizeof(*f));
	pthread_mutex_init(&f->lock, NULL);
}

/* Listens on path and serves in a thread (the table is kept across a
 * fxs_stop / fxs_start: a xenstored restarted with the same nodes). */
static inline int fxs_start(struct fxs *f, const char *path)
{
	snprintf(f->path, sizeof(f->path), "%s", path);
	f->stop = 0;
	f->lfd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	snprintf(a.sun_path, sizeof(a.sun_path), "%s", path);
	unlink(path);
	if (f->lfd < 0 || bind(f->lfd, (struct sockaddr *)&a, sizeof(a)) || listen(f->lfd, 4))
		return -1;
	return pthread_create(&f->thr, NULL, fxs_main, f) ? -1 : 0;
}

/* Stops serving and removes the socket (a xenstored that went away). */
static inline void fxs_stop(struct fxs *f)
{
	f->stop = 1;
	pthread_join(f->thr, NULL);
	close(f->lfd);
	unlink(f->path);
}

static inline void fxs_free(struct fxs *f)
{
	for (size_t i = 0; i < f->n; i++) {
		free(f->node[i].path);
		free(f->node[i].val);
	}
	free(f->node);
	pthread_mutex_destroy(&f->lock);
	memset(f, 0, sizeof(*f));
}

#endif
