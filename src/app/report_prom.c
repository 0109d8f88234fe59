// SPDX-License-Identifier: GPL-2.0-or-later
/* `xgtop report --source prometheus URL --from TIME [--to TIME]`: the
 * period's TIMEs against now, the server's figures (remote/remote_ps_report.c)
 * into the report, written as for a recording. */
#include "report_prom.h"

#include <stdio.h>

#include "xgtop/core/timearg.h"
#include "xgtop/outputs/report.h"
#include "xgtop/remote/promsrc.h"

struct gather {
	struct xg_report *rep;
	uint64_t from_ns, to_ns;
	uint64_t most;                /* intervals of the domain seen longest */
};

static void put(void *ctx, const struct rm_ps_figure *f)
{
	struct gather *g = ctx;
	uint64_t n = f->n > 0 && f->n < 1e15 ? (uint64_t)f->n : 0;
	report_put(g->rep, f->host, f->name, f->id, (enum xg_col)f->col, n, f->mean, f->p95, f->max, g->from_ns,
		   g->to_ns);
	g->most = n > g->most ? n : g->most;
}

int report_prom(const struct report_opts *o, struct xg_err *err)
{
	uint64_t now = xg_now_real_ns(), from, to = now;
	if (!xg_timearg_parse(o->from, now, now, &from)) {
		xg_fail(err, "bad TIME '%s': give %s", o->from, XG_TIMEARG_FORMS);
		return -2;
	}
	if (o->to && !xg_timearg_parse(o->to, now, now, &to)) {
		xg_fail(err, "bad TIME '%s': give %s", o->to, XG_TIMEARG_FORMS);
		return -2;
	}
	if (from >= to) {
		xg_fail(err, "--from (%s) is not before --to (%s)", o->from, o->to ? o->to : "now");
		return -2;
	}
	struct xg_config cfg;
	config_defaults(&cfg);
	cfg.source = "prometheus";
	cfg.remote_urls = o->server;
	cfg.cacert = o->cacert;
	cfg.filter = o->filter;
	cfg.host_match = o->host_match;
	cfg.delay_s = o->step;
	struct rm_ps_period per = { .from = (double)from / 1e9, .to = (double)to / 1e9, .step = o->step };
	struct gather g = { .rep = report_new(1), .from_ns = from, .to_ns = to };
	int rc = rm_ps_report(&cfg, &per, put, &g, err);
	if (!rc) {
		struct xg_report_info info = { .file = o->server, .from_ns = from, .to_ns = to,
					       .intervals = g.most, .step_s = per.used_step };
		rc = report_write(g.rep, stdout, o->out, &info, err);
	}
	report_free(g.rep);
	return rc;
}
