/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Optional libraries loaded when a feature needs them rather than at
 * start-up (the Xen tools libraries, libpfm4, libmicrohttpd): a command
 * that does not use them (`xgtop trace`, the Linux source) neither pays
 * for loading them nor fails on a host that lacks them. A user keeps a
 * table of function pointers; the loader fills it by name. */
#ifndef XGTOP_DYNLIB_H
#define XGTOP_DYNLIB_H

#include "xgtop/core/common.h"

#include <stddef.h>

/* One function of a table: its symbol name and its slot's offset. */
struct xg_dl_fn {
	const char *name;
	size_t off;
};
#define XG_DL_FN(type, fn) { #fn, offsetof(type, fn) },

/* dlopen()s soname (what: a few words for the message, say "libpfm4")
 * and stores each function's address in its slot of table. Returns the
 * library's handle, or NULL with a one-line message naming what is
 * missing ("cannot load libpfm.so.4 (libpfm4): ... No such file"). */
void *xg_dl_load(const char *soname, const char *what, const struct xg_dl_fn *fns, size_t n,
                 void *table, struct xg_err *err);
void xg_dl_close(void *handle);

#endif
