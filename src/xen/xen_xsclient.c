// SPDX-License-Identifier: GPL-2.0-or-later
/* xenstore reads over the wire protocol (xen/io/xs_wire.h): a 16-byte
 * header (type, request id, transaction id, payload length) and the
 * payload, a path ending in NUL for XS_READ; the answer is XS_READ with
 * the value, or XS_ERROR with an errno name. Non-blocking descriptor and
 * poll() with a deadline on every step: see xen_xsclient.h. */
#ifdef HAVE_XEN

#include "xgtop/xen/xen_xsclient.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#undef __STRICT_ANSI__
#include <xen/io/xs_wire.h>

#define XEN_XS_SOCKET "/var/run/xenstored/socket"
#define XEN_XS_DEVICE "/dev/xen/xenbus"
#define XEN_XS_PATH_MAX 256           /* longest path xgtop asks for, with its NUL */

struct xsc {
	char path[sizeof(((struct sockaddr_un *)0)->sun_path)];
	bool dev;                  /* the xenbus device, not xenstored's socket */
	int fd;                    /* -1: not connected */
	uint32_t req_id;
	uint64_t answer_ns, refresh_ns;
	uint64_t deadline;         /* this refresh's budget ends */
	uint64_t spent_ns, reqs;   /* this refresh */
	bool failed;               /* this refresh: no more reads */
	uint64_t down_since;       /* first failure of the current outage, 0 = none */
	char why[224];
	struct xen_xs_stats st;
	struct xsd_sockmsg hdr;
	char payload[XENSTORE_PAYLOAD_MAX];
};

static int xsc_connect(struct xsc *c)
{
	c->st.connects++;
	if (c->dev) {
		c->fd = open(c->path, O_RDWR | O_CLOEXEC | O_NONBLOCK);
		return c->fd < 0 ? -errno : 0;
	}
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return -errno;
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	memcpy(a.sun_path, c->path, sizeof(a.sun_path));
	/* A unix socket connects at once or not at all (EAGAIN: its backlog
	 * is full, xenstored does not accept). */
	if (connect(fd, (struct sockaddr *)&a, sizeof(a)) < 0) {
		int e = errno;
		close(fd);
		return -e;
	}
	c->fd = fd;
	return 0;
}

struct xsc *xen_xs_open(const char *path, struct xg_err *err)
{
	struct xsc *c = xg_calloc(1, sizeof(*c));
	c->fd = -1;
	xen_xs_set_limits(c, XEN_XS_ANSWER_MS, XEN_XS_REFRESH_MS);
	const char *env = getenv("XENSTORED_PATH");
	struct stat sb;
	if (!path && env && *env)
		path = env;
	if (!path)
		path = access(XEN_XS_SOCKET, F_OK) == 0 ? XEN_XS_SOCKET : XEN_XS_DEVICE;
	if (strlen(path) >= sizeof(c->path)) {
		free(c);
		xg_fail(err, "xen: xenstore path too long: %s", path);
		return NULL;
	}
	snprintf(c->path, sizeof(c->path), "%s", path);
	c->dev = stat(path, &sb) == 0 && S_ISCHR(sb.st_mode);
	int r = xsc_connect(c);
	if (r < 0) {
		xg_fail_errno(err, -r, "xen: cannot connect to xenstore at %s (is xenstored running?)", c->path);
		free(c);
		return NULL;
	}
	return c;
}

void xen_xs_close(struct xsc *c)
{
	if (!c)
		return;
	if (c->fd >= 0)
		close(c->fd);
	free(c);
}

void xen_xs_set_limits(struct xsc *c, unsigned answer_ms, unsigned refresh_ms)
{
	c->answer_ns = answer_ms * 1000000ull;
	c->refresh_ns = refresh_ms * 1000000ull;
}

/* Ends xenstore for this refresh with a reason; drop: the connection is of
 * no more use (an answer is owed, or it broke) and is made again at the
 * next refresh. The reason says how long the outage has lasted once it
 * spans refreshes. */
static void fail(struct xsc *c, bool drop, const char *fmt, ...) XG_PRINTF(3, 4);
static void fail(struct xsc *c, bool drop, const char *fmt, ...)
{
	uint64_t now = xg_now_mono_ns();
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(c->why, sizeof(c->why), fmt, ap);
	va_end(ap);
	if (c->down_since && now - c->down_since >= 1000000000ull && n > 0 && (size_t)n < sizeof(c->why))
		snprintf(c->why + n, sizeof(c->why) - (size_t)n, " (failing for %llu s)",
			 (unsigned long long)((now - c->down_since) / 1000000000ull));
	if (!c->down_since)
		c->down_since = now;
	c->failed = true;
	if (drop && c->fd >= 0) {
		close(c->fd);
		c->fd = -1;
		c->st.failures++;
	}
}

void xen_xs_begin(struct xsc *c)
{
	if (c->reqs > c->st.max_refresh_reqs)
		c->st.max_refresh_reqs = c->reqs;
	if (c->spent_ns > c->st.max_refresh_ns)
		c->st.max_refresh_ns = c->spent_ns;
	c->st.refreshes++;
	c->reqs = c->spent_ns = 0;
	c->failed = false;
	c->deadline = xg_now_mono_ns() + c->refresh_ns;
	if (c->fd >= 0)
		return;
	int r = xsc_connect(c);
	if (r < 0)
		fail(c, false, "xenstore: cannot connect to %s: %s (xenstored not running?)", c->path,
		     strerror(-r));
}

/* 1 when fd is ready for ev, 0 at the deadline, -errno. */
static int wait_fd(int fd, short ev, uint64_t until)
{
	for (;;) {
		uint64_t now = xg_now_mono_ns();
		if (now >= until)
			return 0;
		struct pollfd p = { .fd = fd, .events = ev };
		int ms = (int)((until - now + 999999ull) / 1000000ull);
		int n = poll(&p, 1, ms);
		if (n < 0 && errno != EINTR)
			return -errno;
		if (n > 0)
			return 1;
	}
}

/* Moves n bytes to (out) or from the descriptor before until: 1, 0 at the
 * deadline, -errno (-ECONNRESET: the other end closed). */
static int xfer(struct xsc *c, bool out, void *p, size_t n, uint64_t until)
{
	char *b = p;
	while (n) {
		ssize_t k = out ? (c->dev ? write(c->fd, b, n) : send(c->fd, b, n, MSG_NOSIGNAL))
				: read(c->fd, b, n);
		if (k > 0) {
			b += k;
			n -= (size_t)k;
			continue;
		}
		if (k == 0)
			return -ECONNRESET;
		if (errno == EINTR)
			continue;
		if (errno != EAGAIN && errno != EWOULDBLOCK)
			return -errno;
		int w = wait_fd(c->fd, out ? POLLOUT : POLLIN, until);
		if (w <= 0)
			return w;
	}
	return 1;
}

/* One request and its answer (into c->hdr and c->payload). */
static int exchange(struct xsc *c, const char *path, uint64_t until)
{
	struct {
		struct xsd_sockmsg h;
		char p[XEN_XS_PATH_MAX];
	} req;
	size_t pl = strlen(path) + 1;
	req.h = (struct xsd_sockmsg){ .type = XS_READ, .req_id = ++c->req_id, .len = (uint32_t)pl };
	memcpy(req.p, path, pl);
	/* One write of the whole message: the xenbus device wants that. */
	int r = xfer(c, true, &req, sizeof(req.h) + pl, until);
	if (r > 0)
		r = xfer(c, false, &c->hdr, sizeof(c->hdr), until);
	if (r > 0 && c->hdr.len > sizeof(c->payload))
		return -EPROTO;
	if (r > 0)
		r = xfer(c, false, c->payload, c->hdr.len, until);
	if (r > 0 && (c->hdr.req_id != c->req_id || (c->hdr.type != XS_READ && c->hdr.type != XS_ERROR)))
		return -EPROTO;
	return r;
}

static void lost(struct xsc *c, int r, uint64_t until)
{
	if (r == 0 && until == c->deadline) {
		c->st.timeouts++;
		fail(c, true, "xenstore reads took over %llu ms in this refresh (xenstored overloaded?): "
		     "the rest waits for the next refresh", (unsigned long long)(c->refresh_ns / 1000000));
	} else if (r == 0) {
		c->st.timeouts++;
		fail(c, true, "xenstore did not answer within %llu ms (xenstored stopped or overloaded?)",
		     (unsigned long long)(c->answer_ns / 1000000));
	} else if (r == -ECONNRESET || r == -EPIPE) {
		fail(c, true, "xenstore closed the connection (xenstored stopped or restarted?)");
	} else if (r == -EPROTO) {
		fail(c, true, "xenstore sent an answer that is not one to xgtop's request");
	} else {
		fail(c, true, "xenstore: %s", strerror(-r));
	}
}

enum xen_xs_rc xen_xs_read(struct xsc *c, const char *path, char *buf, size_t cap, size_t *len)
{
	*len = 0;
	if (cap)
		buf[0] = 0;
	if (c->failed || c->fd < 0)
		return XEN_XS_FAIL;
	if (strlen(path) >= XEN_XS_PATH_MAX)
		return XEN_XS_ABSENT;
	uint64_t now = xg_now_mono_ns();
	if (now >= c->deadline) {
		fail(c, false, "xenstore reads took over %llu ms in this refresh (xenstored overloaded?): "
		     "the rest waits for the next refresh", (unsigned long long)(c->refresh_ns / 1000000));
		return XEN_XS_FAIL;
	}
	uint64_t until = now + c->answer_ns < c->deadline ? now + c->answer_ns : c->deadline;
	c->reqs++;
	c->st.requests++;
	int r = exchange(c, path, until);
	uint64_t waited = xg_now_mono_ns() - now;
	c->spent_ns += waited;
	if (waited > c->st.max_wait_ns)
		c->st.max_wait_ns = waited;
	if (r <= 0) {
		lost(c, r, until);
		return XEN_XS_FAIL;
	}
	c->down_since = 0;
	c->st.bytes += c->hdr.len;
	if (c->hdr.len > c->st.max_answer)
		c->st.max_answer = c->hdr.len;
	if (c->hdr.type == XS_ERROR)
		return XEN_XS_ABSENT;
	size_t n = c->hdr.len < cap ? c->hdr.len : cap ? cap - 1 : 0;
	if (cap) {
		memcpy(buf, c->payload, n);
		buf[n] = 0;
	}
	*len = n;
	return XEN_XS_OK;
}

const char *xen_xs_why(const struct xsc *c)
{
	return c->why[0] ? c->why : "xenstore unavailable";
}

void xen_xs_stats(const struct xsc *c, struct xen_xs_stats *st)
{
	*st = c->st;
	if (c->reqs > st->max_refresh_reqs)
		st->max_refresh_reqs = c->reqs;
	if (c->spent_ns > st->max_refresh_ns)
		st->max_refresh_ns = c->spent_ns;
}

#endif /* HAVE_XEN */
