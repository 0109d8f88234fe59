// SPDX-License-Identifier: GPL-2.0-or-later
/* Loads the Xen tools libraries by the sonames of the ones xgtop was built
 * against (their interfaces change between Xen releases, so another
 * version must not be taken in their place); the Makefile passes them. */
#ifdef HAVE_XEN

#include "xen_api.h"
#include "xgtop/core/dynlib.h"

#include <stdio.h>

#ifndef XEN_SO_CTRL
#define XEN_SO_CTRL "libxenctrl.so"
#endif
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
	[XEN_LIB_CTRL] = { XEN_SO_CTRL, ctrl_fns, XG_ARRAY_LEN(ctrl_fns) },
	[XEN_LIB_STORE] = { XEN_SO_STORE, store_fns, XG_ARRAY_LEN(store_fns) },
	[XEN_LIB_EVTCHN] = { XEN_SO_EVTCHN, evtchn_fns, XG_ARRAY_LEN(evtchn_fns) },
	[XEN_LIB_FMEM] = { XEN_SO_FMEM, fmem_fns, XG_ARRAY_LEN(fmem_fns) },
};

int xen_api_load(struct xen_api *x, unsigned want, struct xg_err *err)
{
	for (int i = 0; i < XEN_LIB_COUNT; i++) {
		if (!(want & (1u << i)) || x->so[i])
			continue;
		struct xg_err e = { 0 };
		x->so[i] = xg_dl_load(libs[i].soname, "Xen tools library", libs[i].fns, libs[i].n, x, &e);
		if (!x->so[i]) {
			xen_api_unload(x);
			return xg_fail(err, "xen: %s", e.msg);
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
