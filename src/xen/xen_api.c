// SPDX-License-Identifier: GPL-2.0-or-later
/* Loads the Xen tools libraries by the sonames of the ones xgtop was built
 * against (their interfaces change between Xen releases, so another
 * version must not be taken in their place); the Makefile passes them.
 * libxenctrl's soname is xen_version.c's, the one source of truth for the
 * Xen this binary is for, and the library loaded under it is checked to
 * be that version before anything is called. */
#ifdef HAVE_XEN

#include "xen_api.h"
#include "xgtop/core/dynlib.h"
#include "xgtop/xen/xen_version.h"

#include <dlfcn.h>
#include <limits.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>

#ifndef XEN_SO_STORE
#define XEN_SO_STORE "libxenstore.so"
#endif
#ifndef XEN_SO_EVTCHN
#define XEN_SO_EVTCHN "libxenevtchn.so"
#endif
#ifndef XEN_SO_FMEM
#define XEN_SO_FMEM "libxenforeignmemory.so"
#endif

#define XEN_API_FN(fn) XG_DL_FN(struct xen_api, fn)
static const struct xg_dl_fn ctrl_fns[] = { XEN_API_CTRL(XEN_API_FN) };
static const struct xg_dl_fn store_fns[] = { XEN_API_STORE(XEN_API_FN) };
static const struct xg_dl_fn evtchn_fns[] = { XEN_API_EVTCHN(XEN_API_FN) };
static const struct xg_dl_fn fmem_fns[] = { XEN_API_FMEM(XEN_API_FN) };

static const struct {
	const char *soname;
	const struct xg_dl_fn *fns;
	size_t n;
} libs[XEN_LIB_COUNT] = {
	[XEN_LIB_CTRL] = { NULL, ctrl_fns, XG_ARRAY_LEN(ctrl_fns) },  /* xen_build_soname() */
	[XEN_LIB_STORE] = { XEN_SO_STORE, store_fns, XG_ARRAY_LEN(store_fns) },
	[XEN_LIB_EVTCHN] = { XEN_SO_EVTCHN, evtchn_fns, XG_ARRAY_LEN(evtchn_fns) },
	[XEN_LIB_FMEM] = { XEN_SO_FMEM, fmem_fns, XG_ARRAY_LEN(fmem_fns) },
};

/* Whether the libxenctrl loaded as h is the version this binary is for:
 * Xen's build gives each release's libxenctrl its own symbol version
 * (VERS_4.17.0), which a library of another release, whatever its file is
 * called, does not define; and the real file behind the soname must not
 * carry another version either (libxenctrl.so.4.17 -> libxenctrl.so.4.20.0). */
static int check_ctrl(void *h, struct xg_err *err)
{
	const char *node = xen_build_vernode();
	bool defines = true;
	const char *file = NULL;
	char real[PATH_MAX];
#ifdef __GLIBC__
	if (node && *node)
		defines = dlvsym(h, "xc_version", node) != NULL;
	struct link_map *lm = NULL;
	if (dlinfo(h, RTLD_DI_LINKMAP, &lm) == 0 && lm && lm->l_name && *lm->l_name)
		file = realpath(lm->l_name, real) ? real : lm->l_name;
#else
	/* Without glibc's dlvsym and dlinfo the soname alone vouches. */
	(void)h; (void)node; (void)real;
#endif
	return xen_ver_check_library(xen_build_soname(), node, defines, file, err);
}

int xen_api_load(struct xen_api *x, unsigned want, struct xg_err *err)
{
	for (int i = 0; i < XEN_LIB_COUNT; i++) {
		if (!(want & (1u << i)) || x->so[i])
			continue;
		struct xg_err e = { 0 };
		const char *so = i == XEN_LIB_CTRL ? xen_build_soname() : libs[i].soname;
		x->so[i] = xg_dl_load(so, "Xen tools library", libs[i].fns, libs[i].n, x, &e);
		if (!x->so[i]) {
			xen_api_unload(x);
			return xg_fail(err, "xen: %s", e.msg);
		}
		if (i == XEN_LIB_CTRL && check_ctrl(x->so[i], err)) {
			xen_api_unload(x);
			return -1;
		}
	}
	return 0;
}

void xen_api_unload(struct xen_api *x)
{
	for (int i = 0; i < XEN_LIB_COUNT; i++) {
		xg_dl_close(x->so[i]);
		x->so[i] = NULL;
	}
}

#endif /* HAVE_XEN */
