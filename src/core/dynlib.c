// SPDX-License-Identifier: GPL-2.0-or-later
/* Loads an optional library and fills a table of its functions. */
#include "xgtop/core/dynlib.h"

#include <dlfcn.h>
#include <string.h>

void *xg_dl_load(const char *soname, const char *what, const struct xg_dl_fn *fns, size_t n,
                 void *table, struct xg_err *err)
{
	/* Lazy, as a linked library binds: resolving all of a library's
	 * calls up front costs every start for calls never made. */
	void *h = dlopen(soname, RTLD_LAZY | RTLD_LOCAL);
	if (!h) {
		xg_fail(err, "cannot load %s (%s): %s", soname, what, dlerror());
		return NULL;
	}
	for (size_t i = 0; i < n; i++) {
		void *sym = dlsym(h, fns[i].name);
		if (!sym) {
			xg_fail(err, "%s (%s) lacks %s: a different version than xgtop was built with?",
			        soname, what, fns[i].name);
			dlclose(h);
			return NULL;
		}
		/* POSIX: a data pointer from dlsym converts to a function pointer. */
		memcpy((char *)table + fns[i].off, &sym, sizeof(sym));
	}
	return h;
}

#ifndef __has_feature
#define __has_feature(x) 0
#endif

void xg_dl_close(void *handle)
{
#if defined(__SANITIZE_ADDRESS__) || __has_feature(address_sanitizer)
	/* make SANITIZE=1 check: LeakSanitizer (GCC 12's) crashes at exit
	 * scanning the thread-local storage an unloaded library left behind,
	 * and without that scan it takes the loader's own blocks for leaks.
	 * An instrumented build keeps its libraries loaded. */
	(void)handle;
#else
	if (handle)
		dlclose(handle);
#endif
}
