/* SPDX-License-Identifier: GPL-2.0-or-later */
/* /proc/net/dev (and /proc/PID/net/dev, a network namespace's): the
 * kernel's per-interface counters, parsed by one set of rules for every
 * source. Works on captured text, so it is unit-tested and fuzzed without
 * a kernel. */
#ifndef XGTOP_NETDEV_H
#define XGTOP_NETDEV_H

#include <stdint.h>

#define XG_NETDEV_NAME 16            /* IFNAMSIZ: 15 bytes and the NUL */

/* One interface line, in the interface's own direction (rx: what this
 * interface received). */
struct xg_netdev {
	char name[XG_NETDEV_NAME];
	uint64_t rx_bytes, rx_pkts, rx_errs, rx_drop;
	uint64_t tx_bytes, tx_pkts, tx_errs, tx_drop;
};

/* The first interface line: the text after the two header lines, or NULL
 * when there are not two. The headers' wording is not checked here. */
const char *netdev_body(const char *text);

/* Parses the interface line at *p ("  name: 16 counters") and moves *p to
 * the next line. Returns 1 with *out filled, 0 at the end of the text, or
 * -1 for a line that is not an interface line as the kernel writes one (no
 * colon on it, a name longer than 15 bytes, fewer than 16 counters, one
 * past 2^64): whether the rest is still worth reading is the caller's
 * choice. */
int netdev_next(const char **p, struct xg_netdev *out);

#endif
