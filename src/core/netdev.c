// SPDX-License-Identifier: GPL-2.0-or-later
/* The /proc/net/dev parser the Xen source (dom0's vifs) and the Linux
 * source (a VM's taps, a container's namespace) share. Each line is
 * "  name: rx bytes packets errs drop fifo frame compressed multicast, tx
 * bytes packets errs drop fifo colls carrier compressed": sixteen
 * counters, of which the sources keep eight. */
#include "xgtop/core/netdev.h"
#include "xgtop/core/common.h"

#include <string.h>

const char *netdev_body(const char *text)
{
	const char *p = strchr(text, '\n');
	p = p ? strchr(p + 1, '\n') : NULL;
	return p ? p + 1 : NULL;
}

/* The counters' order in the line, and the ones kept. */
enum { RX_BYTES, RX_PKTS, RX_ERRS, RX_DROP, TX_BYTES = 8, TX_PKTS, TX_ERRS, TX_DROP, NCOUNT = 16 };

static int line(const char *p, const char *eol, struct xg_netdev *out)
{
	const char *colon = memchr(p, ':', (size_t)(eol - p));
	if (!colon || colon - p >= XG_NETDEV_NAME)
		return -1;
	uint64_t v[NCOUNT];
	const char *q = colon + 1;
	for (int i = 0; i < NCOUNT; i++) {
		while (*q == ' ')
			q++;
		if (!xg_scan_u64(&q, &v[i]))
			return -1;
	}
	memcpy(out->name, p, (size_t)(colon - p));
	out->name[colon - p] = 0;
	out->rx_bytes = v[RX_BYTES];
	out->rx_pkts = v[RX_PKTS];
	out->rx_errs = v[RX_ERRS];
	out->rx_drop = v[RX_DROP];
	out->tx_bytes = v[TX_BYTES];
	out->tx_pkts = v[TX_PKTS];
	out->tx_errs = v[TX_ERRS];
	out->tx_drop = v[TX_DROP];
	return 1;
}

int netdev_next(const char **pp, struct xg_netdev *out)
{
	const char *p = *pp;
	while (*p == ' ')
		p++;
	if (!*p)
		return 0;
	const char *eol = strchr(p, '\n');
	if (!eol)
		eol = p + strlen(p);
	*pp = *eol ? eol + 1 : eol;
	return line(p, eol, out);
}
