// SPDX-License-Identifier: GPL-2.0-or-later
/* The Prometheus source (--source prometheus URL): every domain of every
 * host that a Prometheus-compatible server (Prometheus, VictoriaMetrics)
 * holds from xgtop exporters, read through its query API. The server
 * computes: each refresh asks an instant query for the hosts
 * (remote_ps_hosts.c), then the domains' (remote_ps_doms.c: every field
 * at once; in the full-screen view three, asked at once: all domains'
 * info, what sorting and the summary need of all, the rows on screen),
 * all with --filter and --host-match inside the label
 * matchers, so hosts and domains the view does not show are not sent; the
 * rates become counters again in remote_ps_fill.c. Both ask as of the
 * view's time (--at, Left/Right: time=), and the detail pane's graphs
 * come from range queries (remote_ps_range.c). This file opens the
 * source, asks the queries and says what to do when one fails. */
#include "xgtop/remote/promsrc.h"
#include "promsrc_state.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

uint64_t rm_ps_hash(uint64_t h, const char *s)
{
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

void rm_ps_index_grow(struct ps_index *ix, size_t n, uint64_t (*hash)(const struct xg_source *, size_t),
		      const struct xg_source *s)
{
	if (n * 2 < ix->cap)
		return;
	size_t cap = ix->cap ? ix->cap * 2 : 64;
	while (n * 2 >= cap)
		cap *= 2;
	free(ix->slot);
	ix->slot = xg_calloc(cap, sizeof(*ix->slot));
	ix->cap = cap;
	for (size_t i = 0; i < n; i++) {
		size_t k = hash(s, i) & (cap - 1);
		while (ix->slot[k])
			k = (k + 1) & (cap - 1);
		ix->slot[k] = (uint32_t)(i + 1);
	}
}

void rm_ps_sel(const struct xg_source *s, struct xg_strbuf *b, const char *name, bool counter, const char *label)
{
	const char *dom = s->sel_dom[0] == ',' ? s->sel_dom + 1 : s->sel_dom;
	strbuf_printf(b, "%s%s", name, counter ? "_total" : "");
	if (!(label && *label) && !*dom)
		return;
	strbuf_printf(b, "{%s%s%s}", label ? label : "", label && *label && *dom ? "," : "", dom);
}

void rm_ps_promql_string(char *dst, size_t n, const char *text)
{
	size_t k = 0;
	for (; *text && k + 3 < n; text++) {
		if (*text == '\\' || *text == '"')
			dst[k++] = '\\';
		dst[k++] = *text;
	}
	dst[k] = 0;
}

static void ps_close(struct xg_source *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < PS_FETCHES; i++)
		rm_fetch_free(s->client, &s->f[i]);
	rm_client_close(s->client);
	rm_qapi_close(s->q);
	free(s->h);
	for (size_t i = 0; i < s->nd; i++)
		free(s->d[i].vc);
	free(s->d);
	free(s->ord);
	free(s->hix.slot);
	free(s->dix.slot);
	free(s->want);
	free(s);
}

/* The pool view's URL rules default to an exporter (port 9717, path
 * /metrics); a server's URL defaults to port 9090 and the root. */
static void server_defaults(const char *url, struct rm_target *t)
{
	const char *a = strstr(url, "://");
	a = a ? a + 3 : url;
	size_t an = strcspn(a, "/");
	const char *close = memchr(a, ']', an);
	const char *from = close ? close : a;
	if (!memchr(from, ':', an - (size_t)(from - a)))
		snprintf(t->port, sizeof(t->port), "9090");
	if (!a[an])
		t->path[0] = 0;
}

static int ps_open(struct xg_source **out, const struct xg_config *cfg, struct xg_err *err)
{
	struct rm_target *t = NULL;
	size_t n = 0;
	int rc = 0;
	if (cfg->remote_urls)
		rc = rm_url_list(cfg->remote_urls, &t, &n, err);
	else if (cfg->hosts_file)
		rc = rm_url_file(cfg->hosts_file, &t, &n, err);
	if (!rc && n != 1)
		rc = xg_fail(err, "--source prometheus needs one server URL (http://HOST:9090), %zu given", n);
	if (!rc && cfg->cacert && access(cfg->cacert, R_OK) < 0)
		rc = xg_fail_errno(err, errno, "--cacert %s", cfg->cacert);
	struct rm_qapi *q = rc ? NULL : rm_qapi_open(err);
	struct rm_client *client = q ? rm_client_open(err) : NULL;
	if (!client) {
		rm_qapi_close(q);
		free(t);
		return -1;
	}
	struct xg_source *s = xg_calloc(1, sizeof(*s));
	s->sort_f = s->counted_f = -1;
	s->client = client;
	if (cfg->remote_urls)
		server_defaults(cfg->remote_urls, &t[0]);
	s->q = q;
	s->t = t[0];
	free(t);
	if (cfg->cacert && !s->t.ca_file[0])
		snprintf(s->t.ca_file, sizeof(s->t.ca_file), "%s", cfg->cacert);
	s->cfg = cfg;
	char e[512];
	if (cfg->host_match) {
		rm_ps_promql_string(e, sizeof(e), cfg->host_match);
		snprintf(s->sel_host, sizeof(s->sel_host), ",instance=~\"%s\"", e);
	}
	if (cfg->filter) {
		/* --filter matches anywhere in the name, in any case; PromQL
		 * anchors. The view still filters by host name too. */
		rm_ps_promql_string(e, sizeof(e), cfg->filter);
		snprintf(s->sel_dom, sizeof(s->sel_dom), "%s,domain=~\"(?i).*(?:%s).*\"", s->sel_host, e);
	} else {
		snprintf(s->sel_dom, sizeof(s->sel_dom), "%s", s->sel_host);
	}
	s->at = cfg->at;
	s->next_id = 1u << 30;
	s->want_all = true;
	for (size_t i = 0; i < PS_FETCHES; i++)
		rm_fetch_init(&s->f[i], &s->t);
	if (gethostname(s->hostname, sizeof(s->hostname) - 1))
		snprintf(s->hostname, sizeof(s->hostname), "?");
	*out = s;
	return 0;
}

static void put_encoded(struct xg_strbuf *b, const char *text)
{
	for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
		    strchr("-_.~", *p))
			strbuf_put(b, (const char *)p, 1);
		else
			strbuf_printf(b, "%%%02X", *p);
	}
}

/* The failure of fetch f (not RM_DONE, or its answer not parsed) as a
 * line that says what to do. */
static int ask_failed(struct xg_source *s, struct rm_fetch *f, double limit_s, rm_qpoint_fn fn, void *ctx,
		      struct xg_err *err)
{
	char where[600];
	snprintf(where, sizeof(where), "%s://%s:%s", s->t.https ? "https" : "http", s->t.host, s->t.port);
	struct xg_err e = { 0 };
	if (f->phase != RM_DONE) {
		/* A refusal comes with a JSON body that says why. */
		if (f->len && f->buf && rm_qapi_parse(s->q, f->buf, f->len, fn, ctx, &e) < 0 &&
		    strstr(e.msg, "refused"))
			return xg_fail(err, "Prometheus at %s: %.300s; check --filter and --host-match%s", where,
				       e.msg, limit_s > 0 ? ", or ask for a shorter period or a longer --step" : "");
		if (limit_s > 0 && strstr(f->why, "no answer within"))
			return xg_fail(err, "Prometheus at %s: %s; is the server up? A shorter period or a "
				       "longer --step asks less of it", where, f->why);
		return xg_fail(err, "Prometheus at %s: %s; is the server up, and is the URL its own "
			       "(http://HOST:9090)?", where, f->why);
	}
	if (rm_qapi_parse(s->q, f->body, f->body_len, fn, ctx, &e) < 0) {
		if (strstr(e.msg, "more than"))
			return xg_fail(err, "Prometheus at %s: too many series (%s): narrow them with "
				       "--host-match REGEX or --filter REGEX", where, e.msg);
		return xg_fail(err, "Prometheus at %s: %s", where, e.msg);
	}
	return 0;
}

/* Asks query[0..n) (n <= PS_FETCHES) at once, each on its own
 * connection, so that the server evaluates them side by side; then their
 * answers in turn, fn called for every point of each. */
static int ask_all(struct xg_source *s, const char *api, const char *params, const char *const *query, size_t n,
		   double limit_s, rm_qpoint_fn fn, void *ctx, struct xg_err *err)
{
	struct rm_fetch *f[PS_FETCHES];
	for (size_t i = 0; i < n; i++) {
		struct xg_strbuf url = { 0 };
		const char *base = s->t.path;
		size_t bl = strlen(base);
		while (bl && base[bl - 1] == '/')
			bl--;
		strbuf_put(&url, base, bl);
		strbuf_printf(&url, "/api/v1/%s?query=", api);
		put_encoded(&url, query[i]);
		strbuf_printf(&url, "%s", params);
		f[i] = &s->f[i];
		int rc = rm_fetch_url(s->client, f[i], url.p);
		strbuf_free(&url);
		if (rc < 0)
			return xg_fail(err, "%s", "libcurl could not make a request");
	}
	/* Within the refresh, but 10 s until a domain is known: the first
	 * refresh asks every domain's info and CPU time as scraped, which
	 * took Prometheus 3 to 5 s at 10,000 domains on two busy cores. */
	double limit = s->nd ? s->cfg->delay_s * 0.8 : 10;
	limit = limit_s > 0 ? limit_s : limit > 10 ? 10 : limit < 0.5 ? 0.5 : limit;
	rm_fetch_all(s->client, f, n, (uint64_t)(limit * 1e9));
	for (size_t i = 0; i < n; i++)
		if (ask_failed(s, f[i], limit_s, fn, ctx, err) < 0)
			return -1;
	return 0;
}

int rm_ps_ask(struct xg_source *s, const char *api, const char *params, const char *query, double limit_s,
	      rm_qpoint_fn fn, void *ctx, struct xg_err *err)
{
	return ask_all(s, api, params, &query, 1, limit_s, fn, ctx, err);
}

/* Which hosts this refresh asks every domain's CPU time as scraped
 * (CPU(s) starts from it: a domain is in the sample once it came) and
 * info (name, domid; in between, the sort's series name the domains and
 * remote_ps_doms.c asks only the info of those without one): every host
 * at the first refresh, in batch mode and without a sort field; else a
 * host whose domains were unknown (new, or none at the last refresh), one
 * with a new domain, and for the info one with a domain restarted (a
 * counter went back: a new domid), one where more domains came by the
 * sort's series at the last refresh than its exporter counts now (some
 * are gone, their series still in the rate window: remote_ps_fill.c
 * leaves out a domain of a host asked its info whose info did not come),
 * and a tenth of the hosts in turn. At 10,000 domains, asking all of them
 * at once was a refresh of twice the usual wall time. Then each domain is
 * made ready for this refresh's answer. */
static void plan_asks(struct xg_source *s)
{
	bool all = s->want_all || !s->nd;
	for (size_t i = 0; i < s->nh; i++)
		s->h[i].ask_total = true;   /* here: none of its domains was seen at the last refresh */
	for (size_t i = 0; i < s->nd; i++)
		if (s->d[i].seen && s->d[i].host < s->nh)
			s->h[s->d[i].host].ask_total = false;
	for (size_t i = 0; i < s->nh; i++) {
		struct ps_host *h = &s->h[i];
		h->ask_total = h->ask_total || all;
		h->ask_info = h->ask_total || !s->want_fields || i % PS_INFO_EVERY == s->info_turn ||
			      (s->counted_f == s->sort_f && h->counts && h->nsorted > h->ndoms);
	}
	for (size_t i = 0; i < s->nd; i++) {   /* one pass: 10,000 domains */
		struct ps_dom *d = &s->d[i];
		if (d->seen && d->host < s->nh) {
			struct ps_host *h = &s->h[d->host];
			h->ask_total = h->ask_total || !d->started;
			h->ask_info = h->ask_info || !d->has_domid || d->back;
		}
		d->was_seen = d->seen;
		d->seen = false;
		d->got = d->back = d->scraped = 0;
		d->info_now = false;
		d->state = 0;
		d->cpu_total = -1;
	}
	s->ask_total = false;
	s->info_all = true;
	for (size_t i = 0; i < s->nh; i++) {
		s->ask_total = s->ask_total || s->h[i].ask_total;
		s->info_all = s->info_all && s->h[i].ask_info;
	}
	s->info_turn = (s->info_turn + 1) % PS_INFO_EVERY;
}

static int ps_collect(struct xg_source *s, struct xg_sample *out, struct xg_err *err)
{
	struct xg_strbuf b = { 0 };
	char at[48] = "";
	if (s->at > 0)
		snprintf(at, sizeof(at), "&time=%.3f", s->at);
	rm_ps_host_query(s, &b);
	for (size_t i = 0; i < s->nh; i++) {
		s->h[i].seen = s->h[i].down = s->h[i].counts = false;
		s->h[i].ndoms = 0;
		s->h[i].c15 = s->h[i].c60 = s->h[i].clk = s->h[i].span = 0;
		s->h[i].published = 0;
		s->h[i].tcpu = -1;
		for (int r = 0; r < XG_RS_COUNT; r++)
			s->h[i].trs[r] = -1;
	}
	memset(s->nstate, 0, sizeof(s->nstate));
	s->got_nstate = false;
	s->eval = 0;
	s->ndown = 0;
	int rc = rm_ps_ask(s, "query", at, b.p, 0, rm_ps_on_host, s, err);   /* at the view's time */
	if (!rc)
		rc = rm_ps_hosts_settle(s, err);
	if (!rc) {
		s->sort_f = s->want_all || !s->want_fields ? -1 : __builtin_ctzll(s->want_fields);
		plan_asks(s);
		rm_ps_vcpus_reset(s);
		rm_ps_doms_mark(s);
		for (size_t i = 0; i < s->nh; i++)
			s->h[i].nsorted_now = 0;
		double eval = s->eval;
		struct xg_strbuf dq[PS_FETCHES] = { 0 };
		rm_ps_dom_query(s, dq);
		const char *q[PS_FETCHES];
		size_t n = 0;
		for (size_t i = 0; i < PS_FETCHES; i++)
			if (dq[i].len)
				q[n++] = dq[i].p;
		rc = ask_all(s, "query", at, q, n, 0, rm_ps_on_dom, s, err);
		/* Which hosts' domains all came by the sort's series (the next
		 * refresh need not ask their info): a failed answer says none. */
		s->counted_f = rc ? -1 : s->sort_f;
		for (size_t i = 0; i < s->nh; i++)
			s->h[i].nsorted = s->h[i].nsorted_now;
		for (size_t i = 0; i < PS_FETCHES; i++)
			strbuf_free(&dq[i]);
		s->eval = eval;
	}
	strbuf_free(&b);
	if (rc)
		return -1;
	rm_ps_fill(s, out);
	return XG_COLLECT_OK;
}

static void ps_set_wanted(struct xg_source *s, const struct xg_wanted *w)
{
	s->want_all = w->all;
	s->want_fields = w->fields;
	s->want_state = w->state;
	s->row_fields = w->row_fields;
	s->row_vcpus = w->row_vcpus;
	s->nwant = 0;
	if (w->nkeys)
		xg_grow(&s->want, &s->want_cap, w->nkeys, sizeof(*s->want));
	for (size_t i = 0; i < w->nkeys; i++)
		s->want[s->nwant++] = w->keys[i];
}

static void ps_set_time(struct xg_source *s, double t)
{
	s->at = t > 0 ? t : 0;
}

static bool ps_probe(void)
{
	return false;   /* never picked by --source auto */
}

const struct xg_source_ops source_prometheus_ops = {
	.name = "prometheus",
	.probe = ps_probe,
	.open = ps_open,
	.collect = ps_collect,
	.close = ps_close,
	.set_wanted = ps_set_wanted,
	.set_time = ps_set_time,
	.range = rm_ps_range,
	.retries = true,
};
