/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Dom0's view of the Xen backends: per-vif counters from /proc/net/dev and
 * per-VBD counters from /sys/bus/xen-backend. Plain Linux files, no Xen
 * library, so the parsers are unit-tested on fixture trees. Every path is
 * relative to a root directory ("/" on a real host). */
#ifndef XGTOP_XENBACK_H
#define XGTOP_XENBACK_H

#include "xgtop/core/common.h"
#include "xgtop/core/netdev.h"

/* One vif as netback counts it: its /proc/net/dev line, in the backend
 * interface's own direction (rx = what the guest sent, tx = what the guest
 * received). */
struct xb_vif {
	uint32_t domid, devid;
	struct xg_netdev n;
};

/* One VBD backend device. ok = false when its statistics could not be
 * read (the counters are then meaningless). */
enum xb_vbd_type { XB_VBD_UNKNOWN, XB_VBD_BLKBACK, XB_VBD_BLKTAP };
struct xb_vbd {
	uint32_t domid, dev;
	enum xb_vbd_type type;
	bool ok;
	uint64_t oo_req, rd_req, wr_req, rd_sect, wr_sect;
};

/* Interface name -> vif identity, remembered so other interfaces (lo,
 * bridges, NICs) cost one sysfs lookup in the reader's lifetime. */
struct xb_ifname {
	char name[32];
	bool is_vif;
	uint32_t domid, devid;
};

struct xb_net_reader {
	char root[256];
	int fd;                     /* /proc/net/dev, kept open and re-read */
	char *buf;
	size_t buf_cap;
	struct xb_ifname *names;
	size_t nnames, names_cap;
};

/* A VBD's five statistics files, kept open and re-read from offset 0 (the
 * kernel regenerates a sysfs file on each read there): five preads a
 * refresh instead of fifteen open/read/close calls. */
#define XB_VBD_NSTATS 5
#define XB_VBD_KEEP 128             /* devices whose files stay open (fds) */
struct xb_vbd_files {
	char name[64];              /* vbd-D-N or tap-D-N */
	int fd[XB_VBD_NSTATS];      /* -1: not open */
	bool seen;                  /* listed in this pass */
};

struct xb_vbd_reader {
	char root[256];
	int dirfd;                  /* .../sys/bus/xen-backend/devices */
	void *dir;                  /* DIR * over dirfd, rewound each pass */
	struct xb_vbd_files *dev;
	size_t ndev, dev_cap;
};

void xb_net_init(struct xb_net_reader *r, const char *root);
/* Forgets interface names that are not vifN.M (call when the domain set
 * changed: a renamed vif may now belong to another domain). */
void xb_net_forget(struct xb_net_reader *r);
/* Reads every vif into *out (grown with xg_grow). -1 with err set when
 * /proc/net/dev cannot be read or is not in the expected format. */
int xb_net_read(struct xb_net_reader *r, struct xb_vif **out, size_t *n, size_t *cap,
		struct xg_err *err);
void xb_net_close(struct xb_net_reader *r);

void xb_vbd_init(struct xb_vbd_reader *r, const char *root);
/* Reads every vbd-D-N / tap-D-N backend into *out. -1 with err set when
 * the backend directory cannot be listed; an unreadable device comes back
 * with ok = false. */
int xb_vbd_read(struct xb_vbd_reader *r, struct xb_vbd **out, size_t *n, size_t *cap,
		struct xg_err *err);
void xb_vbd_close(struct xb_vbd_reader *r);

#endif
