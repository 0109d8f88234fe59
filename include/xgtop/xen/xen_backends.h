/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Dom0's view of the Xen backends: per-vif counters from /proc/net/dev and
 * per-VBD counters from /sys/bus/xen-backend (blkback and blktap) or, for
 * tapdisk3's vbd3 devices, from the statistics file tapdisk keeps in
 * /dev/shm. Plain Linux files, no Xen library, so the parsers are
 * unit-tested on fixture trees. Every path is relative to a root directory
 * ("/" on a real host); xenstore is read through a function the caller
 * gives (xen_vbd_set_xenstore). */
#ifndef XGTOP_XENBACK_H
#define XGTOP_XENBACK_H

#include "xgtop/core/common.h"
#include "xgtop/core/netdev.h"
#include "xgtop/model/sample.h"

#include <sys/types.h>

/* One vif as netback counts it: its /proc/net/dev line, in the backend
 * interface's own direction (rx = what the guest sent, tx = what the guest
 * received). */
struct xen_vif {
	uint32_t domid, devid;
	struct xg_netdev n;
};

/* One VBD backend device. ok = false when its statistics could not be
 * read (the counters are then meaningless); why then says what was wrong,
 * when the reader knows more than "unreadable". */
enum xen_vbd_type { XEN_VBD_UNKNOWN, XEN_VBD_BLKBACK, XEN_VBD_BLKTAP, XEN_VBD_TAPDISK3 };
struct xen_vbd {
	uint32_t domid, dev;
	enum xen_vbd_type type;
	bool ok;
	uint64_t oo_req, rd_req, wr_req, rd_sect, wr_sect;
	char why[200];
};

/* A xenstore read for the VBD reader: the value of path into buf (cut to
 * cap - 1 bytes, NUL-terminated). XEN_KEY_FAIL: xenstore itself failed,
 * *why (the callee's text) says how. */
enum xen_key_rc { XEN_KEY_OK, XEN_KEY_ABSENT, XEN_KEY_FAIL };
typedef enum xen_key_rc (*xb_xs_read_fn)(void *ctx, const char *path, char *buf, size_t cap,
					const char **why);

/* Interface name -> vif identity, remembered so other interfaces (lo,
 * bridges, NICs) cost one sysfs lookup in the reader's lifetime. */
struct xen_ifname {
	char name[32];
	bool is_vif;
	uint32_t domid, devid;
};

struct xen_net_reader {
	char root[256];
	int fd;                     /* /proc/net/dev, kept open and re-read */
	char *buf;
	size_t buf_cap;
	struct xen_ifname *names;
	size_t nnames, names_cap;
};

/* A VBD's five statistics files, kept open and re-read from offset 0 (the
 * kernel regenerates a sysfs file on each read there): five preads a
 * refresh instead of fifteen open/read/close calls. */
#define XEN_VBD_NSTATS 5
#define XEN_VBD_KEEP 128             /* devices whose files stay open (fds) */
struct xen_vbd_files {
	char name[64];              /* vbd-D-N or tap-D-N */
	int fd[XEN_VBD_NSTATS];      /* -1: not open */
	bool seen;                  /* listed in this pass */
};

struct xen_vbd_reader {
	char root[256];
	int dirfd;                  /* .../sys/bus/xen-backend/devices */
	void *dir;                  /* DIR * over dirfd, rewound each pass */
	struct xen_vbd_files *dev;
	size_t ndev, dev_cap;
	xb_xs_read_fn xs_read;      /* tapdisk3's pid (NULL: vbd3 devices unreadable) */
	void *xs_ctx;
	uid_t tapdisk_uid;          /* who must own tapdisk's files: root (0) */
};

void xen_net_init(struct xen_net_reader *r, const char *root);
/* Forgets interface names that are not vifN.M (call when the domain set
 * changed: a renamed vif may now belong to another domain). */
void xen_net_forget(struct xen_net_reader *r);
/* Reads every vif into *out (grown with xg_grow). -1 with err set when
 * /proc/net/dev cannot be read or is not in the expected format. */
int xen_net_read(struct xen_net_reader *r, struct xen_vif **out, size_t *n, size_t *cap,
		struct xg_err *err);
void xen_net_close(struct xen_net_reader *r);

void xen_vbd_init(struct xen_vbd_reader *r, const char *root);
/* How vbd3 devices find their tapdisk: xenstore's kthread-pid, read
 * through fn (the xen source's client; a table in tests). */
void xen_vbd_set_xenstore(struct xen_vbd_reader *r, xb_xs_read_fn fn, void *ctx);
/* Reads every vbd-D-N / tap-D-N / vbd3-D-N backend into *out. -1 with err
 * set when the backend directory cannot be listed; an unreadable device
 * comes back with ok = false. A vbd3 device without a tapdisk (no
 * kthread-pid: an empty CD drive) is no disk with counters and is left
 * out, as xentop leaves it out. */
int xen_vbd_read(struct xen_vbd_reader *r, struct xen_vbd **out, size_t *n, size_t *cap,
		struct xg_err *err);
void xen_vbd_close(struct xen_vbd_reader *r);

/* Adds the VBDs to their domains in out (VBDS and the disk counters, which
 * the caller has set to 0): a domain with an unreadable VBD gets `-` in its
 * disk counters, with the VBD's reason, rather than a partial sum; other
 * domains keep theirs. */
void xen_vbd_sum(struct xg_sample *out, const struct xen_vbd *b, size_t n);

#endif
