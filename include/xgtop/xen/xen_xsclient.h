/* SPDX-License-Identifier: GPL-2.0-or-later */
/* dom0's xenstore reads, with bounded waits. libxenstore waits for an
 * answer forever (a stopped xenstored hangs the monitor) and its handle is
 * dead after xenstored restarts; this client speaks xenstore's wire
 * protocol itself over the same socket (or the xenbus device), so that:
 *   - one answer is waited for at most answer_ms, and all the reads of one
 *     refresh together at most refresh_ms; past either, the refresh's
 *     remaining reads fail at once with the reason (one wait, not one per
 *     domain);
 *   - a connection that broke or timed out is closed, and the next refresh
 *     connects again: reads work again as soon as xenstored does;
 *   - an answer is read into one fixed buffer of the protocol's maximum
 *     payload (4 KiB): no allocation per read, whatever a guest wrote.
 * Writes, watches and transactions are not needed in dom0 (the guest agent
 * writes through libxenstore). Compiled only with HAVE_XEN. */
#ifndef XGTOP_XEN_XSCLIENT_H
#define XGTOP_XEN_XSCLIENT_H

#include "xgtop/core/common.h"

#define XEN_XS_ANSWER_MS 500      /* an answer later than this: xenstored is stuck */
#define XEN_XS_REFRESH_MS 1000    /* every xenstore read of one refresh together */

enum xen_xs_rc {
	XEN_XS_OK,       /* the value is in the buffer */
	XEN_XS_ABSENT,   /* no such node (or xenstore refused this one read) */
	XEN_XS_FAIL,     /* xenstore failed for this refresh: xen_xs_why() says how */
};

/* What the client did since it opened (XGTOP_XS_STATS=1 prints it). */
struct xen_xs_stats {
	uint64_t refreshes, requests, bytes;
	uint64_t max_answer;        /* largest answer's payload, bytes */
	uint64_t max_wait_ns;       /* longest wait for one answer */
	uint64_t max_refresh_ns;    /* longest time spent in one refresh's reads */
	uint64_t max_refresh_reqs;  /* most requests in one refresh */
	uint64_t timeouts;          /* answers not there in time */
	uint64_t failures;          /* connections that failed or broke */
	uint64_t connects;
};

struct xsc;

/* path NULL: $XENSTORED_PATH, else xenstored's socket when it exists, else
 * the xenbus device. Connects now: NULL with err when xenstore cannot be
 * reached at all (a start-up error); later failures are per refresh. */
struct xsc *xen_xs_open(const char *path, struct xg_err *err);
void xen_xs_close(struct xsc *c);
/* Tests: other limits than XEN_XS_ANSWER_MS and XEN_XS_REFRESH_MS. */
void xen_xs_set_limits(struct xsc *c, unsigned answer_ms, unsigned refresh_ms);
/* A refresh begins: its time budget starts, and a connection lost in an
 * earlier refresh is made again. */
void xen_xs_begin(struct xsc *c);
/* Reads the node at path. The value goes into buf, NUL-terminated, cut to
 * cap - 1 bytes; *len is what was kept. */
enum xen_xs_rc xen_xs_read(struct xsc *c, const char *path, char *buf, size_t cap, size_t *len);
/* Why the last XEN_XS_FAIL: one line for a `-` reason. */
const char *xen_xs_why(const struct xsc *c);
void xen_xs_stats(const struct xsc *c, struct xen_xs_stats *st);

#endif
