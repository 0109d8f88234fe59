// SPDX-License-Identifier: GPL-2.0-or-later
/* Readers for dom0's backend counters: vifs in /proc/net/dev, VBDs in
 * /sys/bus/xen-backend (tapdisk3's in /dev/shm: xen_vbd3.c). Files stay open between refreshes (the kernel
 * regenerates them on a read from offset 0), to keep each refresh to a
 * few syscalls. */
#include "xgtop/xen/xen_backends.h"
#include "xgtop/core/osread.h"
#include "xen_vbd3.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void set_root(char *dst, size_t n, const char *root)
{
	/* "/" and "" both mean the real host; keep no trailing slash. */
	snprintf(dst, n, "%s", root ? root : "");
	size_t l = strlen(dst);
	while (l > 0 && dst[l - 1] == '/')
		dst[--l] = 0;
}

/* "<domid><sep><dev>" and nothing else, both decimal and 32-bit. */
static bool parse_id_pair(const char *p, char sep, uint32_t *domid, uint32_t *dev)
{
	char *end;
	if (*p < '0' || *p > '9')
		return false;
	errno = 0;
	unsigned long d = strtoul(p, &end, 10);
	if (errno || *end != sep || d > UINT32_MAX)
		return false;
	p = end + 1;
	if (*p < '0' || *p > '9')
		return false;
	unsigned long v = strtoul(p, &end, 10);
	if (errno || *end || v > UINT32_MAX)
		return false;
	*domid = (uint32_t)d;
	*dev = (uint32_t)v;
	return true;
}

/* "vif3.0" -> 3, 0. Exactly that shape: "vif3.0-emu" (the emulated twin of
 * an HVM vif) is not a netback interface. */
static bool parse_vifname(const char *name, uint32_t *domid, uint32_t *devid)
{
	return !strncmp(name, "vif", 3) && parse_id_pair(name + 3, '.', domid, devid);
}

void xen_net_init(struct xen_net_reader *r, const char *root)
{
	memset(r, 0, sizeof(*r));
	set_root(r->root, sizeof(r->root), root);
	r->fd = -1;
}

void xen_net_forget(struct xen_net_reader *r)
{
	r->nnames = 0;
}

void xen_net_close(struct xen_net_reader *r)
{
	if (r->fd >= 0)
		close(r->fd);
	free(r->buf);
	free(r->names);
	memset(r, 0, sizeof(*r));
	r->fd = -1;
}

/* Reads the whole file behind fd from offset 0 into r->buf. */
static ssize_t slurp(int fd, char **buf, size_t *cap)
{
	size_t len = 0;
	for (;;) {
		if (*cap - len < 4096 + 1)
			xg_grow(buf, cap, len + 8192, 1);
		ssize_t k = pread(fd, *buf + len, *cap - len - 1, (off_t)len);
		if (k < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (k == 0)
			break;
		len += (size_t)k;
	}
	(*buf)[len] = 0;
	return (ssize_t)len;
}

/* A vif renamed by the toolstack (vifname=) is still recognisable through
 * the backend node it belongs to. */
static const struct xen_ifname *lookup_name(struct xen_net_reader *r, const char *name)
{
	for (size_t i = 0; i < r->nnames; i++)
		if (!strcmp(r->names[i].name, name))
			return &r->names[i];
	xg_grow(&r->names, &r->names_cap, r->nnames + 1, sizeof(*r->names));
	struct xen_ifname *e = &r->names[r->nnames++];
	memset(e, 0, sizeof(*e));
	snprintf(e->name, sizeof(e->name), "%s", name);
	char path[512], node[128];
	snprintf(path, sizeof(path), "%s/sys/class/net/%s/device/nodename", r->root, name);
	unsigned d, v;
	if (xg_read_at(AT_FDCWD, path, node, sizeof(node)) > 0 &&
	    sscanf(node, "backend/vif/%u/%u", &d, &v) == 2) {
		e->is_vif = true;
		e->domid = d;
		e->devid = v;
	}
	return e;
}

int xen_net_read(struct xen_net_reader *r, struct xen_vif **out, size_t *n, size_t *cap,
		struct xg_err *err)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/proc/net/dev", r->root);
	*n = 0;
	if (r->fd < 0) {
		r->fd = open(path, O_RDONLY | O_CLOEXEC);
		if (r->fd < 0)
			return xg_fail_errno(err, errno, "cannot read %s", path);
	}
	if (slurp(r->fd, &r->buf, &r->buf_cap) < 0) {
		int e = errno;
		close(r->fd);
		r->fd = -1;
		return xg_fail_errno(err, e, "cannot read %s", path);
	}
	/* Two header lines; the second names the columns we rely on. */
	const char *line = r->buf, *nl1 = strchr(line, '\n');
	const char *p = netdev_body(line);
	if (!p || strncmp(line, "Inter-|", 7) || !strstr(nl1 + 1, "|bytes"))
		return xg_fail(err, "%s is not in the expected format", path);
	struct xg_netdev d;
	int k;
	while ((k = netdev_next(&p, &d))) {
		uint32_t domid, devid;
		if (k < 0)
			continue;   /* not an interface line: the others still count */
		if (!parse_vifname(d.name, &domid, &devid)) {
			const struct xen_ifname *e = lookup_name(r, d.name);
			if (!e->is_vif)
				continue;
			domid = e->domid;
			devid = e->devid;
		}
		xg_grow(out, cap, *n + 1, sizeof(**out));
		struct xen_vif *w = &(*out)[(*n)++];
		w->domid = domid;
		w->devid = devid;
		w->n = d;
	}
	return 0;
}

void xen_vbd_init(struct xen_vbd_reader *r, const char *root)
{
	memset(r, 0, sizeof(*r));
	set_root(r->root, sizeof(r->root), root);
	r->dirfd = -1;
}

void xen_vbd_set_xenstore(struct xen_vbd_reader *r, xb_xs_read_fn fn, void *ctx)
{
	r->xs_read = fn;
	r->xs_ctx = ctx;
}

static void files_close(struct xen_vbd_files *f)
{
	for (int i = 0; i < XEN_VBD_NSTATS; i++) {
		if (f->fd[i] >= 0)
			close(f->fd[i]);
		f->fd[i] = -1;
	}
}

void xen_vbd_close(struct xen_vbd_reader *r)
{
	if (r->dir)
		closedir(r->dir);
	for (size_t i = 0; i < r->ndev; i++)
		files_close(&r->dev[i]);
	free(r->dev);
	memset(r, 0, sizeof(*r));
	r->dirfd = -1;
}

/* "vbd-3-51712" -> blkback, dom 3, dev 51712; "tap-..." -> blktap;
 * "vbd3-..." -> tapdisk3. */
static bool parse_vbd_name(const char *name, enum xen_vbd_type *type, uint32_t *domid, uint32_t *dev)
{
	size_t skip = 4;
	if (!strncmp(name, "vbd-", 4))
		*type = XEN_VBD_BLKBACK;
	else if (!strncmp(name, "tap-", 4))
		*type = XEN_VBD_BLKTAP;
	else if (!strncmp(name, "vbd3-", 5))
		*type = XEN_VBD_TAPDISK3, skip = 5;
	else
		return false;
	return parse_id_pair(name + skip, '-', domid, dev);
}

static const char *const stat_name[XEN_VBD_NSTATS] = {
	"oo_req", "rd_req", "wr_req", "rd_sect", "wr_sect",
};

static void files_open(int dfd, struct xen_vbd_files *f)
{
	char path[300];
	for (int i = 0; i < XEN_VBD_NSTATS; i++) {
		snprintf(path, sizeof(path), "%s/statistics/%s", f->name, stat_name[i]);
		f->fd[i] = openat(dfd, path, O_RDONLY | O_CLOEXEC);
	}
}

static bool read_stat(int fd, uint64_t *out)
{
	char buf[64];
	ssize_t k = fd < 0 ? -1 : pread(fd, buf, sizeof(buf) - 1, 0);
	if (k <= 0)
		return false;
	buf[k] = 0;
	char *end;
	errno = 0;
	unsigned long long v = strtoull(buf, &end, 10);
	if (end == buf || errno || (*end && *end != '\n'))
		return false;
	*out = v;
	return true;
}

static bool read_stats(const struct xen_vbd_files *f, struct xen_vbd *b)
{
	uint64_t *v[XEN_VBD_NSTATS] = { &b->oo_req, &b->rd_req, &b->wr_req, &b->rd_sect, &b->wr_sect };
	for (int i = 0; i < XEN_VBD_NSTATS; i++)
		if (!read_stat(f->fd[i], v[i]))
			return false;
	return true;
}

/* The device's files, opened on first sight (the first XEN_VBD_KEEP
 * devices keep them; others use *tmp for this pass only). */
static struct xen_vbd_files *files_of(struct xen_vbd_reader *r, const char *name,
                                     struct xen_vbd_files *tmp)
{
	for (size_t i = 0; i < r->ndev; i++)
		if (!strcmp(r->dev[i].name, name))
			return &r->dev[i];
	struct xen_vbd_files *f = tmp;
	if (r->ndev < XEN_VBD_KEEP) {
		xg_grow(&r->dev, &r->dev_cap, r->ndev + 1, sizeof(*r->dev));
		f = &r->dev[r->ndev++];
	}
	snprintf(f->name, sizeof(f->name), "%.63s", name);   /* parsed: at most 21 */
	files_open(r->dirfd, f);
	return f;
}

/* Reads the statistics of the device `name` into b; files that fail
 * are opened again once (the device may have been re-created). */
static void vbd_stats(struct xen_vbd_reader *r, const char *name, struct xen_vbd *b)
{
	struct xen_vbd_files tmp;
	struct xen_vbd_files *f = files_of(r, name, &tmp);
	f->seen = true;
	b->ok = read_stats(f, b);
	if (!b->ok) {
		files_close(f);
		files_open(r->dirfd, f);
		b->ok = read_stats(f, b);
	}
	if (f == &tmp)
		files_close(f);
}

/* Devices not listed in this pass are gone: their files are closed. */
static void forget_unseen(struct xen_vbd_reader *r)
{
	for (size_t i = 0; i < r->ndev;) {
		if (r->dev[i].seen) {
			r->dev[i++].seen = false;
			continue;
		}
		files_close(&r->dev[i]);
		r->dev[i] = r->dev[--r->ndev];
	}
}

int xen_vbd_read(struct xen_vbd_reader *r, struct xen_vbd **out, size_t *n, size_t *cap,
		struct xg_err *err)
{
	*n = 0;
	char path[512];
	snprintf(path, sizeof(path), "%s/sys/bus/xen-backend/devices", r->root);
	if (!r->dir) {
		DIR *d = opendir(path);
		if (!d)
			return xg_fail_errno(err, errno, "cannot list %s", path);
		r->dir = d;
		r->dirfd = dirfd(d);
	} else {
		rewinddir(r->dir);
	}
	struct dirent *de;
	errno = 0;
	while ((de = readdir(r->dir))) {
		struct xen_vbd b = { 0 };
		if (!parse_vbd_name(de->d_name, &b.type, &b.domid, &b.dev))
			continue;
		if (b.type == XEN_VBD_TAPDISK3) {
			enum xen_vbd3_rc rc = xen_vbd3_read(r, &b);
			if (rc == XEN_VBD3_SKIP) {
				errno = 0;
				continue;
			}
			b.ok = rc == XEN_VBD3_OK;
		} else {
			vbd_stats(r, de->d_name, &b);
		}
		xg_grow(out, cap, *n + 1, sizeof(**out));
		(*out)[(*n)++] = b;
		errno = 0;
	}
	if (errno) {
		int e = errno;
		closedir(r->dir);
		r->dir = NULL;
		r->dirfd = -1;
		return xg_fail_errno(err, e, "cannot list %s", path);
	}
	forget_unseen(r);
	return 0;
}
