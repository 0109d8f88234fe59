/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Which Xen this binary is for, and whether the libxenctrl it loaded and
 * the hypervisor it runs on are that Xen. libxenctrl's interface (the
 * structures xgtop hands it: xc_domaininfo_t, xc_physinfo_t, the sysctl
 * and PSR arguments) changes between Xen minor releases, and its soname
 * carries the minor (libxenctrl.so.4.17). xgtop is built once per minor:
 * a binary supports exactly the minor of the headers and library it was
 * compiled against, and refuses any other rather than misread it. The
 * one source of truth is the soname of the build's libxenctrl (passed by
 * the Makefile): it is what the Xen source loads, what it checks against,
 * and what `--version` says. The decisions are pure functions here;
 * xen_api.c and xen_source.c feed them what the library and the
 * hypervisor report. */
#ifndef XGTOP_XEN_VERSION_H
#define XGTOP_XEN_VERSION_H

#include "xgtop/core/common.h"

#include <stdbool.h>
#include <stddef.h>

/* A Xen release's major.minor (4.17). */
struct xen_ver {
	unsigned major, minor;
};

/* The soname of the libxenctrl this binary was built against and loads
 * ("libxenctrl.so.4.17"), or NULL when it was built without Xen. */
const char *xen_build_soname(void);
/* The symbol version that library defines ("VERS_4.17.0", as Xen's own
 * build names it), "" when it defines none, NULL without Xen. */
const char *xen_build_vernode(void);

/* The major.minor a libxenctrl soname or file name carries:
 * "libxenctrl.so.4.17", "/usr/lib/libxenctrl.so.4.17.0" -> 4.17.
 * 0, or -1 when name is not libxenctrl.so.MAJOR.MINOR[.N]. */
int xen_ver_from_soname(const char *name, struct xen_ver *v);

/* Whether v is a minor whose headers xgtop's Xen structures were checked
 * against (4.17, 4.20). A build for any other is refused by both checks
 * below, with one line that says so. */
bool xen_ver_checked(struct xen_ver v);

/* The --version line about Xen, for a build against soname (NULL: none):
 * "Xen 4.17 (loads libxenctrl.so.4.17)"; an unchecked minor's says the
 * Xen source refuses it. */
void xen_ver_describe(const char *soname, char *buf, size_t n);

/* Whether the libxenctrl loaded for a build against soname is that
 * version: it must define the build's symbol version vernode (when the
 * build's library defined one; defines_vernode says whether the loaded
 * one does) and its file (file: the loaded file's real path, NULL if
 * unknown) must not carry another version. 0, or -1 with one line. */
int xen_ver_check_library(const char *soname, const char *vernode, bool defines_vernode,
                          const char *file, struct xg_err *err);

/* Whether the hypervisor, whose XENVER_version answer is xenver (major
 * << 16 | minor) and whose extraversion is extra (up to extra_len bytes,
 * not necessarily NUL-terminated: ".6-pre"), is the minor a build
 * against soname supports. 0, or -1 with one line naming both versions
 * and what to do. */
int xen_ver_check_hypervisor(const char *soname, long xenver, const char *extra, size_t extra_len,
                             struct xg_err *err);

#endif
