// SPDX-License-Identifier: GPL-2.0-or-later
/* The source registry and --source auto: the one place that names every
 * source, through each source folder's public header (a build without the
 * Xen libraries gets src/xen/xen_absent.c's stand-in). */
#include "xgtop/core/format.h"
#include "xgtop/model/source.h"
#include "xgtop/linux/linux_source.h"
#include "xgtop/record/replay_source.h"
#include "xgtop/remote/promsrc.h"
#include "xgtop/remote/remote_source.h"
#include "xgtop/trace/trace_source.h"
#include "xgtop/xen/xen_source.h"

#include <string.h>

const struct xg_source_ops *const xg_sources[] = {
	&source_xen_ops,
	&source_linux_ops,
	&source_replay_ops,
	&source_trace_ops,
	&source_remote_ops,
	&source_prometheus_ops,
	NULL
};

const struct xg_source_ops *source_lookup(const char *name)
{
	for (size_t i = 0; name && xg_sources[i]; i++)
		if (!strcmp(xg_sources[i]->name, name))
			return xg_sources[i];
	return NULL;
}

void source_names(char *buf, size_t n)
{
	const char *names[XG_ARRAY_LEN(xg_sources)] = { "auto" };
	size_t k = 1;
	for (size_t i = 0; xg_sources[i]; i++)
		names[k++] = xg_sources[i]->name;
	fmt_list_or(buf, n, names, k);
}

const struct xg_source_ops *source_find(const char *name, struct xg_err *err)
{
	if (!name || !strcmp(name, "auto")) {
		for (size_t i = 0; xg_sources[i]; i++)
			if (xg_sources[i]->probe && xg_sources[i]->probe())
				return xg_sources[i];
		xg_fail(err, "no data source works on this host");
		return NULL;
	}
	const struct xg_source_ops *ops = source_lookup(name);
	if (!ops) {
		char names[128];
		source_names(names, sizeof(names));
		xg_fail(err, "--source %s: unknown source (%s)", name, names);
	}
	return ops;
}
