/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Renders one sample's counters and gauges as a Prometheus text (0.0.4) or
 * OpenMetrics (1.0.0) exposition. Pure: no I/O, no clock, no globals. */
#ifndef XGTOP_EXPORTER_RENDER_H
#define XGTOP_EXPORTER_RENDER_H

#include "xgtop/model/metric_defs.h"
#include "xgtop/core/strbuf.h"

enum xg_expo_fmt { XG_EXPO_TEXT, XG_EXPO_OPENMETRICS, XG_EXPO_FMT_COUNT };

/* What the collector knows about itself, beyond the sample. */
struct xg_expo_stats {
	uint64_t refreshes;
	uint64_t errors[XG_CL_COUNT];
	bool up[XG_CL_COUNT];
	uint64_t self_cpu_ns;           /* this process's CPU time */
};

/* Appends the exposition of s (sorted by id, as the engine leaves it) and
 * st to b in format fmt. victim: per domain of s, 1 a cache victim, 0
 * judged and not one, -1 not judged (no counters, learning); NULL when
 * nothing judges victims. */
void expo_render(struct xg_strbuf *b, enum xg_expo_fmt fmt, const struct xg_sample *s, const int8_t *victim,
		 const struct xg_expo_stats *st);

/* The format an Accept header prefers (highest q, the first on a tie);
 * the text format when it names neither or is NULL. */
enum xg_expo_fmt expo_negotiate(const char *accept);
/* Whether an Accept-Encoding header takes gzip (gzip, x-gzip or * with a
 * q above 0); false for NULL. */
bool expo_wants_gzip(const char *accept_encoding);
extern const char *const xg_expo_content_type[XG_EXPO_FMT_COUNT];

#endif
