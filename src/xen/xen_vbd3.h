/* SPDX-License-Identifier: GPL-2.0-or-later */
/* tapdisk3's per-VBD statistics (the vbd3 backend of XCP-ng and
 * XenServer): private to the VBD reader (xen_backends.c). */
#ifndef XGTOP_XEN_VBD3_H
#define XGTOP_XEN_VBD3_H

#include "xgtop/xen/xen_backends.h"

/* The file's layout, version 1: a u32 version, 4 bytes of padding, then
 * eleven u64 in tapdisk's (the host's) byte order. */
#define XEN_VBD3_STATS_VERSION 1
#define XEN_VBD3_STATS_SIZE (8 + 11 * 8)
/* tapdisk makes the file one page; a larger one is not its. 64 KiB is the
 * largest page Linux has. */
#define XEN_VBD3_FILE_MAX 65536

enum xen_vbd3_rc { XEN_VBD3_SKIP, XEN_VBD3_OK, XEN_VBD3_BAD };

/* Reads the statistics of vbd3-<b->domid>-<b->dev> into b: XEN_VBD3_OK, or
 * XEN_VBD3_BAD with b->why set, or XEN_VBD3_SKIP when xenstore names no tapdisk
 * for it (no kthread-pid node). */
enum xen_vbd3_rc xen_vbd3_read(const struct xen_vbd_reader *r, struct xen_vbd *b);
/* Decodes a version-1 file's first XEN_VBD3_STATS_SIZE bytes into b (the
 * fields xentop shows: requests submitted, sectors, out-of-order
 * requests): false, with b->why's tail set, for another version. */
bool xen_vbd3_decode(const unsigned char *raw, struct xen_vbd *b, char *why, size_t cap);

#endif
