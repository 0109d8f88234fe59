/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The source table of the `prometheus` source (a fleet read from a
 * Prometheus-compatible server's query API), for the source registry
 * (src/engine/sources.c). */
#ifndef XGTOP_REMOTE_PROMSRC_H
#define XGTOP_REMOTE_PROMSRC_H

#include "xgtop/model/config.h"
#include "xgtop/model/source.h"

extern const struct xg_source_ops source_prometheus_ops;

/* `xgtop report --source prometheus`: a period's summary, computed by the
 * server (remote_ps_report.c). */
struct rm_ps_figure {
	const char *host;             /* the instance label */
	const char *name;             /* the domain, as the screen shows it unescaped */
	uint32_t id;                  /* its domid, or an id of this report's */
	int col;                      /* enum xg_col */
	double n, mean, p95, max;     /* n == 0: the server held none of it */
};
typedef void (*rm_ps_figure_fn)(void *ctx, const struct rm_ps_figure *f);

struct rm_ps_period {
	double from, to;              /* Unix seconds */
	double step;                  /* the interval; 0: 3 scrapes of the slowest host */
	double used_step;             /* out: the interval the server was asked for */
};

/* Opens the source of cfg (remote_urls, cacert, filter, host_match), asks
 * the server for the mean, 95th percentile and maximum of every column of
 * every domain over the period, and hands each figure to fn. 0, or -1 with
 * a one-line err that says what to do. */
int rm_ps_report(const struct xg_config *cfg, struct rm_ps_period *per, rm_ps_figure_fn fn, void *ctx,
		 struct xg_err *err);

#endif
