// SPDX-License-Identifier: GPL-2.0-or-later
/* tapdisk3 (blktap3, the vbd3 backend of XCP-ng and XenServer) serves a
 * VBD from user space, so the kernel has no statistics files for it.
 * tapdisk keeps them in a file of its own instead,
 * /dev/shm/td3-<pid>/vbd-<domid>-<dev>, whose pid the toolstack writes to
 * xenstore as /local/domain/0/backend/vbd3/<domid>/<dev>/kthread-pid;
 * libxenstat reads the same file since Xen 4.19 (XCP-ng's before that).
 *
 * /dev/shm is writable by everyone, so the file is read only when it is
 * what tapdisk (root) makes: the directory and the file are opened without
 * following a symbolic link (and without blocking on a FIFO), must be owned
 * by root, the file must be a regular file of at least the layout's size
 * and at most a page, and of layout version 1. Anything else makes this
 * VBD's figures `-` with the reason; the other VBDs are read as usual. */
#include "xen_vbd3.h"

#include "xgtop/core/common.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Linux's largest pid (PID_MAX_LIMIT on 64-bit). */
#define PID_MAX 4194304u

static enum xen_vbd3_rc bad(struct xen_vbd *b, const char *fmt, ...) XG_PRINTF(2, 3);
static enum xen_vbd3_rc bad(struct xen_vbd *b, const char *fmt, ...)
{
	int k = snprintf(b->why, sizeof(b->why), "VBD vbd3-%u-%u: ", b->domid, b->dev);
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(b->why + k, sizeof(b->why) - (size_t)k, fmt, ap);
	va_end(ap);
	return XEN_VBD3_BAD;
}

static uint64_t u64_at(const unsigned char *raw, size_t i)
{
	uint64_t v;
	memcpy(&v, raw + 8 + 8 * i, sizeof(v));
	return v;
}

bool xen_vbd3_decode(const unsigned char *raw, struct xen_vbd *b, char *why, size_t cap)
{
	uint32_t version;
	memcpy(&version, raw, sizeof(version));
	if (version != XEN_VBD3_STATS_VERSION) {
		snprintf(why, cap, "layout version %u, xgtop reads version %u", version,
			 XEN_VBD3_STATS_VERSION);
		return false;
	}
	/* oo_reqs, read_reqs_submitted, read_reqs_completed, read_sectors,
	 * read_total_ticks, write_reqs_submitted, write_reqs_completed,
	 * write_sectors, write_total_ticks, io_errors, flags. The requests
	 * are the submitted ones, as libxenstat takes them. */
	b->oo_req = u64_at(raw, 0);
	b->rd_req = u64_at(raw, 1);
	b->rd_sect = u64_at(raw, 3);
	b->wr_req = u64_at(raw, 5);
	b->wr_sect = u64_at(raw, 7);
	return true;
}

/* The pid xenstore gives as kthread-pid: decimal, 1..PID_MAX, nothing else. */
static bool parse_pid(const char *s, unsigned *pid)
{
	const char *p = s;
	uint64_t v;
	if (!xg_scan_u64(&p, &v) || *p || v < 1 || v > PID_MAX)
		return false;
	*pid = (unsigned)v;
	return true;
}

/* Why path could not be opened, into b->why. O_NOFOLLOW fails with ELOOP
 * on a link, or with ENOTDIR when a directory was asked for. */
static int open_bad(struct xen_vbd *b, const char *path, int e)
{
	struct stat st;
	if (e == ELOOP || (e == ENOTDIR && !lstat(path, &st) && S_ISLNK(st.st_mode)))
		bad(b, "%s is a symbolic link", path);
	else if (e == ENOTDIR)
		bad(b, "%s is not a directory", path);
	else
		bad(b, "%s: %s", path, strerror(e));
	return -1;
}

/* What is wrong with an opened file or directory of tapdisk's, or NULL. */
static const char *owner_why(const struct stat *st, uid_t uid, char *buf, size_t cap)
{
	if (st->st_uid == uid)
		return NULL;
	snprintf(buf, cap, "is owned by uid %u, not by %s", (unsigned)st->st_uid,
		 uid ? "tapdisk's user" : "root");
	return buf;
}

/* Opens <root>/dev/shm/td3-<pid>/vbd-<domid>-<dev> as described above:
 * the fd, or -1 with b->why set. */
static int open_stats(const struct xen_vbd_reader *r, unsigned pid, struct xen_vbd *b, char *path,
		      size_t cap)
{
	char tmp[64];
	const char *w;
	struct stat st;
	int k = snprintf(path, cap, "%s/dev/shm/td3-%u", r->root, pid);
	int dfd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dfd < 0)
		return open_bad(b, path, errno);
	if (fstat(dfd, &st)) {
		int e = errno;
		close(dfd);
		return bad(b, "%s: %s", path, strerror(e)), -1;
	}
	if ((w = owner_why(&st, r->tapdisk_uid, tmp, sizeof(tmp)))) {
		close(dfd);
		return bad(b, "%s %s", path, w), -1;
	}
	snprintf(path + k, cap - (size_t)k, "/vbd-%u-%u", b->domid, b->dev);
	int fd = openat(dfd, path + k + 1, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	int e = errno;
	close(dfd);
	if (fd < 0)
		return open_bad(b, path, e);
	return fd;
}

/* Checks the opened file and reads its first XEN_VBD3_STATS_SIZE bytes. */
static enum xen_vbd3_rc read_stats(const struct xen_vbd_reader *r, int fd, const char *path,
			       struct xen_vbd *b)
{
	char tmp[64];
	const char *w;
	struct stat st;
	unsigned char raw[XEN_VBD3_STATS_SIZE];
	if (fstat(fd, &st))
		return bad(b, "%s: %s", path, strerror(errno));
	if (!S_ISREG(st.st_mode))
		return bad(b, "%s is not a regular file", path);
	if ((w = owner_why(&st, r->tapdisk_uid, tmp, sizeof(tmp))))
		return bad(b, "%s %s", path, w);
	if (st.st_size < XEN_VBD3_STATS_SIZE)
		return bad(b, "%s is %lld bytes, shorter than tapdisk's statistics (%d)", path,
			   (long long)st.st_size, XEN_VBD3_STATS_SIZE);
	if (st.st_size > XEN_VBD3_FILE_MAX)
		return bad(b, "%s is %lld bytes, larger than tapdisk's statistics page (at most %d)",
			   path, (long long)st.st_size, XEN_VBD3_FILE_MAX);
	ssize_t got;
	do
		got = pread(fd, raw, sizeof(raw), 0);
	while (got < 0 && errno == EINTR);
	if (got < 0)
		return bad(b, "%s: %s", path, strerror(errno));
	if (got < XEN_VBD3_STATS_SIZE)
		return bad(b, "%s gave %zd bytes, shorter than tapdisk's statistics (%d)", path,
			   got, XEN_VBD3_STATS_SIZE);
	char why[96];
	if (!xen_vbd3_decode(raw, b, why, sizeof(why)))
		return bad(b, "%s has %s", path, why);
	return XEN_VBD3_OK;
}

enum xen_vbd3_rc xen_vbd3_read(const struct xen_vbd_reader *r, struct xen_vbd *b)
{
	char key[96], val[32], path[512];
	const char *why = NULL;
	if (!r->xs_read)
		return bad(b, "no xenstore to find its tapdisk in");
	snprintf(key, sizeof(key), "/local/domain/0/backend/vbd3/%u/%u/kthread-pid", b->domid, b->dev);
	switch (r->xs_read(r->xs_ctx, key, val, sizeof(val), &why)) {
	case XEN_KEY_OK:
		break;
	case XEN_KEY_ABSENT:
		return XEN_VBD3_SKIP;
	default:
		return bad(b, "%s", why ? why : "xenstore failed");
	}
	unsigned pid;
	if (!parse_pid(val, &pid)) {
		char esc[64];
		return bad(b, "kthread-pid \"%s\" in xenstore is not a process id",
			   xg_escape_name(esc, sizeof(esc), val));
	}
	int fd = open_stats(r, pid, b, path, sizeof(path));
	if (fd < 0)
		return XEN_VBD3_BAD;
	enum xen_vbd3_rc rc = read_stats(r, fd, path, b);
	close(fd);
	return rc;
}
