/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Small text files the kernel generates (/proc, /sys, cgroupfs, xenfs),
 * read the one way every source reads them. */
#ifndef XGTOP_OSREAD_H
#define XGTOP_OSREAD_H

#include <stddef.h>
#include <sys/types.h>

/* Reads name (relative to dirfd; AT_FDCWD or an absolute name for a plain
 * path) into buf with one read() in the usual case and NUL-terminates it.
 * Returns the length, or -errno. A result of cap - 1 bytes means the text
 * may have been cut: callers that need all of it use a big enough buffer
 * and check. */
ssize_t xg_read_at(int dirfd, const char *name, char *buf, size_t cap);

#endif
