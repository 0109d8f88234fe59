// SPDX-License-Identifier: GPL-2.0-or-later
/* The `prometheus` source's hosts: the query that finds them (the time of
 * each one's last scrape, the spacing of its scrapes, its pCPUs and
 * memory, whether the server's scrapes of it fail), its answer, and from
 * it which hosts are stale and the rate window that fits them all. */
#include "promsrc_state.h"
#include "xgtop/model/metric_defs.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t host_hash(const char *name)
{
	return rm_ps_hash(14695981039346656037ull, name);
}

static uint64_t host_hash_at(const struct xg_source *s, size_t i)
{
	return host_hash(s->h[i].name);
}

struct ps_host *rm_ps_host_of(struct xg_source *s, const char *name)
{
	size_t k = s->hix.cap ? host_hash(name) & (s->hix.cap - 1) : 0;
	for (; s->hix.cap && s->hix.slot[k]; k = (k + 1) & (s->hix.cap - 1))
		if (!strncmp(s->h[s->hix.slot[k] - 1].name, name, XG_PEER_NAME_MAX - 1))
			return &s->h[s->hix.slot[k] - 1];
	if (s->nh >= UINT16_MAX)
		return NULL;
	s->h = xg_realloc(s->h, (s->nh + 1) * sizeof(*s->h));
	struct ps_host *h = &s->h[s->nh++];
	memset(h, 0, sizeof(*h));
	snprintf(h->name, sizeof(h->name), "%s", name);
	s->hix.cap = 0;   /* rebuilt with the new host: hosts are few */
	rm_ps_index_grow(&s->hix, s->nh, host_hash_at, s);
	return h;
}

/* One of a host's xgtop_host_domains{state}: its count into the
 * summary's (xg_totals' order, xentop's priority). */
static void take_counts(struct xg_source *s, struct ps_host *h, const struct rm_qpoint *p)
{
	const char *st = rm_qlabel(p, "state");
	for (int k = 0; st && k < XG_STATE_FLAGS; k++) {
		if (strcmp(st, xg_state_priority_label(k)))
			continue;
		if (isfinite(p->v) && p->v >= 0 && p->v < 1e9) {
			s->nstate[k] += (unsigned)p->v;
			h->ndoms += (unsigned)p->v;
			s->got_nstate = h->counts = true;
		}
		return;
	}
}

int rm_ps_on_host(void *ctx, const struct rm_qpoint *p, struct xg_err *err)
{
	struct xg_source *s = ctx;
	const char *inst = rm_qlabel(p, "instance"), *q = rm_qlabel(p, "xgtop_q");
	if (!inst || !q)
		return 0;
	/* Every target the server fails to scrape is down, xgtop's or not:
	 * kept aside until the hosts are known. */
	if (!strcmp(q, "down")) {
		if (s->ndown < XG_ARRAY_LEN(s->down))
			snprintf(s->down[s->ndown++], sizeof(s->down[0]), "%s", inst);
		return 0;
	}
	struct ps_host *h = rm_ps_host_of(s, inst);
	if (!h)
		return xg_fail(err, "%s", "more hosts than the view holds");
	h->seen = true;
	s->eval = p->t;
	if (!strcmp(q, "last"))
		h->last = p->v;
	else if (!strcmp(q, "c15") && p->v >= 3)
		h->c15 = p->v;
	else if (!strcmp(q, "c60") && p->v >= 1)
		h->c60 = p->v;
	else if (!strcmp(q, "pcpus") && p->v >= 0 && p->v < 1e6)
		h->pcpus = (uint32_t)p->v;
	else if (!strcmp(q, "mem") && p->v >= 0 && p->v < 1.8e19)
		h->mem = (uint64_t)p->v;
	else if (!strcmp(q, "free") && p->v >= 0 && p->v < 1.8e19)
		h->free = (uint64_t)p->v;
	else if (!strcmp(q, "states"))
		take_counts(s, h, p);
	else if (!strcmp(q, "sums"))
		h->got_sums = true;
	return 0;
}

/* When each host was last scraped (the newest sample time of its refresh
 * counter, looked for over 10 min at 5 s steps), its samples in the last
 * 15 s and minute (their spacing), its pCPUs and memory, and the targets
 * whose last scrape failed. */
void rm_ps_host_query(const struct xg_source *s, struct xg_strbuf *b)
{
	static const char *const q[][2] = {
		{ "max_over_time(timestamp(xgtop_collector_refreshes_total{instance!=\"\"%s})[10m:5s])", "last" },
		{ "count_over_time(xgtop_collector_refreshes_total{instance!=\"\"%s}[15s])", "c15" },
		{ "count_over_time(xgtop_collector_refreshes_total{instance!=\"\"%s}[1m])", "c60" },
		{ "xgtop_host_pcpus{instance!=\"\"%s}", "pcpus" },
		{ "xgtop_host_memory_bytes{instance!=\"\"%s}", "mem" },
		{ "xgtop_host_memory_free_bytes{instance!=\"\"%s}", "free" },
		{ "up{instance!=\"\"%s} == 0", "down" },
	};
	for (size_t i = 0; i < XG_ARRAY_LEN(q); i++) {
		strbuf_printf(b, "%slabel_replace(", i ? " or " : "");
		strbuf_printf(b, q[i][0], s->sel_host);
		strbuf_printf(b, ",\"xgtop_q\",\"%s\",\"\",\"\")", q[i][1]);
	}
	/* The summary's state counts: one series a host and state, where
	 * the domain query would count every domain's state series (the
	 * dearest of its terms at 10,000 domains); with --filter that query
	 * counts the domains it selects. */
	if (!s->want_all && !s->cfg->filter)
		strbuf_printf(b, " or label_replace(xgtop_host_domains{instance!=\"\"%s},\"xgtop_q\",\"states\",\"\",\"\")",
			      s->sel_host);
	/* The exporters that sum their domains' CPU and runstate times: the
	 * domain query takes the summary's totals from delta() of those sums,
	 * one series a host (and runstate), where it would take delta() of
	 * every domain's and sum them (its dearest terms at 10,000 domains).
	 * Only a sum that covers a whole window (the last refresh's; at the
	 * first, which knows none, a minute: longer than most) and did not
	 * restart in it: one that began later (an exporter updated) or went
	 * back (one restarted) would say less than the domains'. */
	if (!s->want_all && !s->cfg->filter) {
		const char *sum = "xgtop_host_domains_cpu_seconds_total{instance!=\"\"";
		unsigned w = s->window ? s->window : 60;
		strbuf_printf(b, " or label_replace(group by(instance)(%s%s} offset %us and %s%s}) unless on(instance) "
			      "resets(%s%s}[%us]) > 0,\"xgtop_q\",\"sums\",\"\",\"\")", sum, s->sel_host, w, sum,
			      s->sel_host, sum, s->sel_host, w);
	}
}

/* Not the answer's evaluation time: VictoriaMetrics stamps its answers
 * now but leaves out the last 30 s (-search.latencyOffset). */
double rm_ps_figures_time(const struct xg_source *s)
{
	double t = 0;
	for (size_t i = 0; i < s->nh; i++)
		if (s->h[i].seen && s->h[i].last > t)
			t = s->h[i].last;
	return t;
}

/* A host is stale when its last scrape is older than three of its scrape
 * spacings (at least 10 s), plus the 5 s steps it is looked for at, than
 * the newest scrape of any host; or, when every host stopped, than the
 * evaluation time less VictoriaMetrics' 30 s. */
bool rm_ps_host_stale(const struct xg_source *s, const struct ps_host *h)
{
	double bound = (h->step * 3 > 10 ? h->step * 3 : 10) + 5;
	return !h->seen || !h->last || h->down || rm_ps_figures_time(s) - h->last > bound ||
	       s->eval - h->last > bound + 30;
}

int rm_ps_hosts_settle(struct xg_source *s, struct xg_err *err)
{
	for (size_t i = 0; i < s->nh; i++) {
		s->h[i].sums = s->h[i].got_sums;
		s->h[i].got_sums = false;
	}
	/* The spacing of a host's scrapes: from the last 15 s when they
	 * hold 3 or more (a young series' minute is mostly empty), else the
	 * last minute. */
	for (size_t i = 0; i < s->nh; i++)
		if (s->h[i].c15 >= 3)
			s->h[i].step = 15 / s->h[i].c15;
		else if (s->h[i].c60 >= 1)
			s->h[i].step = 60 / s->h[i].c60;
	for (size_t k = 0; k < s->ndown; k++)
		for (size_t i = 0; i < s->nh; i++)
			if (!strcmp(s->h[i].name, s->down[k]))
				s->h[i].down = true;
	if (!s->nh)
		return xg_fail(err, "the server holds no xgtop exporter's figures%s: does it scrape them "
			       "(xgtop --export)?", s->sel_host[0] ? " that --host-match selects" : "");
	/* The window: -d, but at least three sample spacings of the slowest
	 * live host, so that delta() always spans two samples. */
	double step = 0;
	for (size_t i = 0; i < s->nh; i++)
		if (!rm_ps_host_stale(s, &s->h[i]) && s->h[i].step > step)
			step = s->h[i].step;
	double w = s->cfg->delay_s > step * 3 ? s->cfg->delay_s : step * 3;
	s->window = (unsigned)ceil(w < 2 ? 2 : w > 3600 ? 3600 : w);
	return 0;
}
