// SPDX-License-Identifier: GPL-2.0-or-later
/* The source registry and --source auto. */
#include "xgtop/core/source.h"

#include <string.h>

extern const struct xg_source_ops source_linux_ops;
extern const struct xg_source_ops source_replay_ops;
extern const struct xg_source_ops source_trace_ops;
extern const struct xg_source_ops source_remote_ops;
#ifdef HAVE_XEN
extern const struct xg_source_ops source_xen_ops;
#endif

const struct xg_source_ops *const xg_sources[] = {
#ifdef HAVE_XEN
	&source_xen_ops,
#endif
	&source_linux_ops,
	&source_replay_ops,
	&source_trace_ops,
	&source_remote_ops,
	NULL
};

const struct xg_source_ops *source_find(const char *name, struct xg_err *err)
{
	if (!name || !strcmp(name, "auto")) {
		for (size_t i = 0; xg_sources[i]; i++)
			if (xg_sources[i]->probe && xg_sources[i]->probe())
				return xg_sources[i];
		xg_fail(err, "no data source works on this host");
		return NULL;
	}
	for (size_t i = 0; xg_sources[i]; i++)
		if (!strcmp(xg_sources[i]->name, name))
			return xg_sources[i];
	if (!strcmp(name, "xen"))
		xg_fail(err, "--source xen: this xgtop was built without the Xen libraries (install libxen-dev and rebuild)");
	else
		xg_fail(err, "--source %s: unknown source (auto, xen, linux, replay, trace, remote)", name);
	return NULL;
}
