/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Renders one sample's counters and gauges as a Prometheus text (0.0.4) or
 * OpenMetrics (1.0.0) exposition. Pure: no I/O, no clock, no globals. */
#ifndef XGTOP_EXPORTER_RENDER_H
#define XGTOP_EXPORTER_RENDER_H

#include "xgtop/model/metric_defs.h"
#include "xgtop/core/strbuf.h"

enum xg_expo_fmt { XG_EXPO_TEXT, XG_EXPO_OPENMETRICS, XG_EXPO_FMT_COUNT };

/* Counters the exporter keeps over the host's domains from one sample to
 * the next (expo_totals.c): each domain's non-negative change since the
 * sample before, summed, so that a reader asks one series a host where it
 * would sum every domain's. A domain that is new or restarted (dom_same
 * XG_SAME_OBJECT) or whose counter went back adds nothing for that step;
 * one that is gone stops adding: the sums never go back. */
#define XG_EXPO_TOT_COUNT (1 + XG_RS_COUNT)   /* [0] CPU time, [1 + r] runstate r */
struct xg_expo_totals {
	uint64_t ns[XG_EXPO_TOT_COUNT];
	uint8_t measured;               /* bit k: some domain of the last sample has figure k */
	struct expo_tot_dom *dom;       /* the last sample's domains and their counters */
	size_t ndom;
};
/* Adds sample s's changes since the last sample stepped. */
void expo_totals_step(struct xg_expo_totals *t, const struct xg_sample *s);
void expo_totals_free(struct xg_expo_totals *t);

/* What the collector knows about itself, beyond the sample. */
struct xg_expo_stats {
	uint64_t refreshes;
	uint64_t errors[XG_CL_COUNT];
	bool up[XG_CL_COUNT];
	uint64_t self_cpu_ns;           /* this process's CPU time */
	struct xg_expo_totals totals;   /* published where measured (zeroed: none) */
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
