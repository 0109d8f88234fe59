// SPDX-License-Identifier: GPL-2.0-or-later
/* The Prometheus source (--source prometheus URL): every domain of every
 * host that a Prometheus-compatible server (Prometheus, VictoriaMetrics)
 * holds from xgtop exporters, read through its query API. The server
 * computes: each refresh asks two instant queries, one for the hosts (the
 * time of each one's last sample and the spacing of its samples, from
 * xgtop_sample_time_seconds) and one for every domain field at once
 * (for the counters, delta() over a window fitted to -d and that spacing,
 * divided by the delta() of the host's own sample clock; the gauges as
 * they are), both with --filter and --host-match inside the label
 * matchers, so hosts and domains the view does not show are not sent. The answer's evaluation time is each host's sample time, and each
 * counter is the sum of rate x interval, so compute/metrics divides it
 * back into exactly the server's rate. */
#include "xgtop/remote/promsrc.h"
#include "xgtop/core/strbuf.h"
#include "xgtop/model/metric_defs.h"
#include "remote_parts.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* The counters this source makes advance PS_SCALE times the server's
 * rate times the interval, and each host's clock PS_SCALE times the
 * interval, so that a rate of 5 requests/s is kept to 0.001 (at 1:1, a
 * 0.5 s interval would round it to 4 or 6). */
#define PS_SCALE 1000
/* Domains this source keeps, of every host (the engine's own bounds
 * apply after). */
#define XG_PS_DOMS_MAX (1 << 20)

struct ps_host {
	char name[XG_PEER_NAME_MAX];  /* the instance label */
	double last;                  /* its last sample's wall time, 0 = none */
	double step;                  /* seconds between its scrapes */
	double c15, c60;              /* its scrapes in the last 15 s and 1 min */
	bool seen;                    /* in this refresh's host answer */
	bool down;                    /* the server's last scrape of it failed */
	uint32_t pcpus;
	uint64_t mem, free;
};

/* A domain's synthetic counters, from one refresh to the next. */
struct ps_dom {
	uint16_t host;
	char name[XG_NAME_MAX];
	uint32_t id;
	uint64_t acc[XG_F_COUNT];
	bool seen;
	double v[XG_F_COUNT];
	uint64_t got;                 /* bit f: v[f] came this refresh */
	uint64_t back;                /* bit f: the counter went back in the window */
	uint32_t domid;
	bool has_domid;
	bool started;                 /* acc[] has its origin */
	uint32_t state;               /* enum xg_state bits */
	double cpu_total;             /* the CPU time counter as scraped, -1: none */
};

/* Open addressing over the hosts or domains by name: each answer holds
 * up to tens of fields per domain, of thousands of domains. Slots hold
 * index + 1, 0 = empty; the table is at most half full. */
struct ps_index {
	uint32_t *slot;
	size_t cap;                   /* a power of two */
};

static uint64_t name_hash(uint64_t h, const char *s)
{
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

struct xg_source {
	struct rm_client *client;
	struct rm_qapi *q;
	struct rm_target t;
	struct rm_fetch f;
	const struct xg_config *cfg;
	char sel_host[600];           /* matchers, comma-led, or "" */
	char sel_dom[1200];
	struct ps_host *h;
	size_t nh;
	struct ps_dom *d;
	size_t nd, dcap;
	uint32_t next_id;
	struct ps_index hix, dix;
	double eval;                  /* the server's evaluation time */
	double prev_t;                /* our monotonic clock at the last refresh, s */
	uint64_t clock_ns;            /* the hosts' clock: PS_SCALE x the time since the first */
	char down[256][XG_PEER_NAME_MAX];  /* targets whose last scrape failed (up == 0) */
	size_t ndown;
	unsigned window;
	char hostname[64];
};

static void ps_close(struct xg_source *s)
{
	if (!s)
		return;
	rm_fetch_free(s->client, &s->f);
	rm_client_close(s->client);
	rm_qapi_close(s->q);
	free(s->h);
	free(s->d);
	free(s->hix.slot);
	free(s->dix.slot);
	free(s);
}

/* text as a PromQL string's content: \ and " escaped. */
static void promql_string(char *dst, size_t n, const char *text)
{
	size_t k = 0;
	for (; *text && k + 3 < n; text++) {
		if (*text == '\\' || *text == '"')
			dst[k++] = '\\';
		dst[k++] = *text;
	}
	dst[k] = 0;
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
		promql_string(e, sizeof(e), cfg->host_match);
		snprintf(s->sel_host, sizeof(s->sel_host), ",instance=~\"%s\"", e);
	}
	if (cfg->filter) {
		/* --filter matches anywhere in the name, in any case; PromQL
		 * anchors. The view still filters by host name too. */
		promql_string(e, sizeof(e), cfg->filter);
		snprintf(s->sel_dom, sizeof(s->sel_dom), "%s,domain=~\"(?i).*(?:%s).*\"", s->sel_host, e);
	} else {
		snprintf(s->sel_dom, sizeof(s->sel_dom), "%s", s->sel_host);
	}
	s->next_id = 1u << 30;
	rm_fetch_init(&s->f, &s->t);
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

/* One query, answered within the time limit; 0 or -1 with a one-line err
 * that says what to do. */
static int ask(struct xg_source *s, const char *query, rm_qpoint_fn fn, struct xg_err *err)
{
	struct xg_strbuf url = { 0 };
	const char *base = s->t.path;
	size_t bl = strlen(base);
	while (bl && base[bl - 1] == '/')
		bl--;
	strbuf_put(&url, base, bl);
	strbuf_printf(&url, "/api/v1/query?query=");
	put_encoded(&url, query);
	int rc = rm_fetch_url(s->client, &s->f, url.p);
	strbuf_free(&url);
	if (rc < 0)
		return xg_fail(err, "%s", "libcurl could not make a request");
	double limit = s->cfg->delay_s * 0.8;
	struct rm_fetch *one = &s->f;
	rm_fetch_all(s->client, &one, 1, (uint64_t)((limit > 10 ? 10 : limit < 0.5 ? 0.5 : limit) * 1e9));
	char where[600];
	snprintf(where, sizeof(where), "%s://%s:%s", s->t.https ? "https" : "http", s->t.host, s->t.port);
	if (s->f.phase != RM_DONE) {
		/* A refusal comes with a JSON body that says why. */
		struct xg_err e = { 0 };
		if (s->f.len && s->f.buf && rm_qapi_parse(s->q, s->f.buf, s->f.len, fn, s, &e) < 0 &&
		    strstr(e.msg, "refused"))
			return xg_fail(err, "Prometheus at %s: %.300s; check --filter and --host-match", where,
				       e.msg);
		return xg_fail(err, "Prometheus at %s: %s; is the server up, and is the URL its own "
			       "(http://HOST:9090)?", where, s->f.why);
	}
	struct xg_err e = { 0 };
	if (rm_qapi_parse(s->q, s->f.body, s->f.body_len, fn, s, &e) < 0) {
		if (strstr(e.msg, "more than"))
			return xg_fail(err, "Prometheus at %s: too many series (%s): narrow them with "
				       "--host-match REGEX or --filter REGEX", where, e.msg);
		return xg_fail(err, "Prometheus at %s: %s", where, e.msg);
	}
	return 0;
}

static uint64_t host_hash(const char *name)
{
	return name_hash(14695981039346656037ull, name);
}

static uint64_t dom_hash(uint16_t host, const char *name)
{
	return name_hash(14695981039346656037ull ^ host, name);
}

/* Doubles ix to hold n entries at most half full; hash(i) rehashes entry i. */
static void index_grow(struct ps_index *ix, size_t n, uint64_t (*hash)(const struct xg_source *, size_t),
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

static uint64_t host_hash_at(const struct xg_source *s, size_t i)
{
	return host_hash(s->h[i].name);
}

static uint64_t dom_hash_at(const struct xg_source *s, size_t i)
{
	return dom_hash(s->d[i].host, s->d[i].name);
}

static struct ps_host *host_of(struct xg_source *s, const char *name)
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
	index_grow(&s->hix, s->nh, host_hash_at, s);
	return h;
}

static int on_host(void *ctx, const struct rm_qpoint *p, struct xg_err *err)
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
	struct ps_host *h = host_of(s, inst);
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
	return 0;
}

static struct ps_dom *dom_of(struct xg_source *s, uint16_t host, const char *name)
{
	uint64_t hv = dom_hash(host, name);
	size_t k = s->dix.cap ? hv & (s->dix.cap - 1) : 0;
	for (; s->dix.cap && s->dix.slot[k]; k = (k + 1) & (s->dix.cap - 1)) {
		struct ps_dom *d = &s->d[s->dix.slot[k] - 1];
		if (d->host == host && !strncmp(d->name, name, XG_NAME_MAX - 1))
			return d;
	}
	if (s->nd >= XG_PS_DOMS_MAX)
		return NULL;
	if (s->nd == s->dcap) {
		s->dcap = s->dcap ? s->dcap * 2 : 64;
		s->d = xg_realloc(s->d, s->dcap * sizeof(*s->d));
	}
	struct ps_dom *d = &s->d[s->nd++];
	memset(d, 0, sizeof(*d));
	d->host = host;
	snprintf(d->name, sizeof(d->name), "%s", name);
	d->id = s->next_id++;
	d->cpu_total = -1;
	if ((s->nd - 1) * 2 + 2 >= s->dix.cap) {
		index_grow(&s->dix, s->nd, dom_hash_at, s);
	} else {
		k = hv & (s->dix.cap - 1);
		while (s->dix.slot[k])
			k = (k + 1) & (s->dix.cap - 1);
		s->dix.slot[k] = (uint32_t)s->nd;
	}
	return d;
}

static int on_dom(void *ctx, const struct rm_qpoint *p, struct xg_err *err)
{
	struct xg_source *s = ctx;
	const char *inst = rm_qlabel(p, "instance"), *name = rm_qlabel(p, "domain"), *f = rm_qlabel(p, "xgtop_f");
	if (!inst || !name || !f)
		return 0;
	struct ps_host *h = host_of(s, inst);
	if (!h)
		return 0;
	/* The exporter escapes names as the screen shows them (\\, \xNN). */
	char raw[XG_NAME_MAX];
	rm_unescape_name(raw, sizeof(raw), name);
	struct ps_dom *d = dom_of(s, (uint16_t)(h - s->h), raw);
	if (!d)
		return xg_fail(err, "more than %d domains", XG_PS_DOMS_MAX);
	d->seen = true;
	if (!strcmp(f, "info")) {
		const char *id = rm_qlabel(p, "domid");
		char *end;
		unsigned long v = id ? strtoul(id, &end, 10) : 0;
		if (id && !*end && v < (1ul << 30)) {
			d->domid = (uint32_t)v;
			d->has_domid = true;
		}
		return 0;
	}
	if (!strcmp(f, "state")) {
		const char *st = rm_qlabel(p, "state");
		for (int k = 0; st && k < XG_STATE_FLAGS; k++)
			if (!strcmp(st, xg_state_label[k]))
				d->state |= 1u << k;
		return 0;
	}
	if (!strcmp(f, "cpu")) {
		if (isfinite(p->v) && p->v >= 0 && p->v < 1.8e10)
			d->cpu_total = p->v;
		return 0;
	}
	unsigned long k = strtoul(f, NULL, 10);
	if (k < XG_F_COUNT && isfinite(p->v) && p->v < 0)
		d->back |= 1ull << k;
	if (k < XG_F_COUNT && isfinite(p->v) && p->v >= 0) {
		d->v[k] = p->v;
		d->got |= 1ull << k;
	}
	return 0;
}

/* The host query: when each host was last scraped (the newest sample
 * time of its refresh counter, looked for over 10 min at 5 s steps), its
 * samples in the last minute (their spacing), its pCPUs and memory. */
static void host_query(const struct xg_source *s, struct xg_strbuf *b)
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
}

/* The domain query: every field of every domain the selectors match. A
 * counter's change over the window is divided by the change of its host's
 * own sample clock (xgtop_sample_monotonic_seconds) over the same window:
 * the figure is then the change of the counter over the change of that
 * clock between the window's first and last scrape, as the pool view and
 * the host's own xgtop compute it, whatever the scrapes' jitter. delta(),
 * not rate(): both series are extrapolated alike, where rate() stops a
 * counter's extrapolation at zero and so skews a young counter's figure.
 * A counter that went back (its domain restarted) in the window comes out
 * negative, and that figure is `-` for that window. */
static void dom_query(struct xg_source *s, struct xg_strbuf *b)
{
	strbuf_printf(b, "label_replace(last_over_time(xgtop_domain_info{domain!=\"\"%s}[1h]),"
		      "\"xgtop_f\",\"info\",\"\",\"\")", s->sel_dom);
	strbuf_printf(b, " or label_replace(xgtop_domain_state{domain!=\"\"%s} == 1,\"xgtop_f\",\"state\",\"\",\"\")"
		      " or label_replace(xgtop_domain_cpu_seconds_total{domain!=\"\"%s},\"xgtop_f\",\"cpu\",\"\",\"\")",
		      s->sel_dom, s->sel_dom);
	for (int f = 0; f < XG_F_COUNT; f++) {
		const struct xg_metric *m = &xg_field_metric[f];
		char sel[1700];
		snprintf(sel, sizeof(sel), "{domain!=\"\"%s%s%s}", s->sel_dom, m->label ? "," : "",
			 m->label ? m->label : "");
		if (m->type == XG_MT_COUNTER)
			strbuf_printf(b, " or label_replace(delta(%s_total%s[%us]) / on(instance,job) group_left "
				      "delta(xgtop_sample_monotonic_seconds{instance!=\"\"%s}[%us]),\"xgtop_f\",\"%d\","
				      "\"\",\"\")", m->name, sel, s->window, s->sel_host, s->window, f);
		else
			strbuf_printf(b, " or label_replace(%s%s,\"xgtop_f\",\"%d\",\"\",\"\")", m->name, sel, f);
	}
}

static uint64_t to_units(const struct xg_metric *m, double v)
{
	if (isinf(v))
		return UINT64_MAX;
	double x = v * pow(10, m->decimals);
	return x >= 1.8e19 ? UINT64_MAX : (uint64_t)llround(x);
}

static void clock_text(char *buf, size_t n, double t)
{
	time_t tt = (time_t)t;
	struct tm tm;
	strftime(buf, n, "%H:%M:%S", localtime_r(&tt, &tm));
}

/* The time the figures are of: the newest scrape of any host. Not the
 * answer's evaluation time: VictoriaMetrics stamps its answers now but
 * leaves out the last 30 s (-search.latencyOffset). */
static double figures_time(const struct xg_source *s)
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
static bool host_stale(const struct xg_source *s, const struct ps_host *h)
{
	double bound = (h->step * 3 > 10 ? h->step * 3 : 10) + 5;
	return !h->seen || !h->last || h->down || figures_time(s) - h->last > bound || s->eval - h->last > bound + 30;
}

static void fill(struct xg_source *s, struct xg_sample *out)
{
	/* Any interval will do, as long as the counters and the clock
	 * advance by the same one: ours, since VictoriaMetrics rounds its
	 * evaluation time to the second. */
	double now = (double)xg_now_mono_ns() / 1e9;
	double dt = s->prev_t > 0 && now > s->prev_t ? now - s->prev_t : 0;
	s->prev_t = now;
	s->clock_ns += (uint64_t)llround(dt * 1e9 * PS_SCALE);
	for (size_t i = 0; i < s->nh; i++) {
		struct ps_host *h = &s->h[i];
		struct xg_peer *p = sample_add_peer(out, h->name);
		snprintf(p->host.source, sizeof(p->host.source), "prometheus");
		snprintf(p->host.hostname, sizeof(p->host.hostname), "%s", h->name);
		p->host.mono_ns = s->clock_ns;
		p->counter_scale = PS_SCALE;
		p->host.real_ns = (uint64_t)(s->eval * 1e9);
		if (h->pcpus) {
			p->host.pcpus = h->pcpus;
			host_mark(&p->host, XG_H_PCPUS);
		}
		if (h->mem) {
			p->host.mem_total = h->mem;
			p->host.mem_free = h->free;
			host_mark(&p->host, XG_H_MEM);
		}
		if (host_stale(s, h)) {
			char when[32] = "never", text[300];
			if (h->last)
				clock_text(when, sizeof(when), h->last);
			snprintf(text, sizeof(text), "host %s: last scrape %s, stale%s", h->name, when,
				 h->down ? " (the server's scrapes of it fail: up == 0)" : "");
			p->stale = 1;
			p->why = sample_reason(out, text);
		}
	}
	uint8_t absent = sample_reason(out, "the server holds no such series for this domain now");
	uint8_t went_back = sample_reason(out, "the counter went back within the rate window (the domain "
					   "or its exporter restarted)");
	for (size_t i = 0; i < s->nd; i++) {
		struct ps_dom *pd = &s->d[i];
		if (!pd->seen)
			continue;
		uint32_t id = pd->has_domid ? pd->domid : pd->id;
		/* CPU(s) starts from the counter as scraped, then advances by
		 * the server's rates like every other counter. */
		if (!pd->started && pd->cpu_total >= 0)
			pd->acc[XG_F_CPU_NS] = (uint64_t)(pd->cpu_total * 1e9 * PS_SCALE);
		pd->started = true;
		struct xg_dom *d = sample_add_dom(out, id);
		d->host = pd->host;
		snprintf(d->name, sizeof(d->name), "%s", pd->name);
		for (int f = 0; f < XG_F_COUNT; f++) {
			const struct xg_metric *m = &xg_field_metric[f];
			if (!(pd->got >> f & 1)) {
				/* A stale host's series are gone: its reason, not theirs. */
				uint8_t stale = pd->host < out->npeer && out->peer[pd->host].stale ?
						out->peer[pd->host].why : 0;
				d->why[f] = stale ? stale : pd->back >> f & 1 ? went_back : absent;
				continue;
			}
			if (m->type == XG_MT_COUNTER)
				pd->acc[f] += to_units(m, pd->v[f] * dt * PS_SCALE);
			d->v[f] = m->type == XG_MT_COUNTER ? pd->acc[f] : to_units(m, pd->v[f]);
			d->valid |= 1ull << f;
		}
		d->state = pd->state;
	}
}

static void pool_line(struct xg_source *s, struct xg_sample *out)
{
	struct xg_host *h = &out->host;
	snprintf(h->source, sizeof(h->source), "prometheus");
	snprintf(h->hostname, sizeof(h->hostname), "%s", s->hostname);
	char when[32];
	double t = figures_time(s);
	clock_text(when, sizeof(when), t);
	double behind = (double)xg_now_real_ns() / 1e9 - t;
	char text[160];
	snprintf(text, sizeof(text), "%zu hosts, figures of %s (%.0f s ago), rate[%us]", s->nh, when,
		 behind < 0 ? 0 : behind > 1e6 ? 1e6 : behind, s->window);
	snprintf(h->hypervisor, sizeof(h->hypervisor), "%.63s", text);
	h->mono_ns = xg_now_mono_ns();
	h->real_ns = xg_now_real_ns();
	h->self_cpu_ns = xg_self_cpu_ns();
	host_mark(h, XG_H_SELF_CPU);
	for (size_t i = 0; i < out->npeer; i++) {
		const struct xg_host *p = &out->peer[i].host;
		h->pcpus += p->pcpus;
		h->mem_total += p->mem_total;
		h->mem_free += p->mem_free;
	}
	host_mark(h, XG_H_PCPUS);
	host_mark(h, XG_H_MEM);
	out->pcpu_why = sample_reason(out, "Prometheus source: the exporters publish no per-pCPU times");
}

static int ps_collect(struct xg_source *s, struct xg_sample *out, struct xg_err *err)
{
	struct xg_strbuf b = { 0 };
	host_query(s, &b);
	for (size_t i = 0; i < s->nh; i++) {
		s->h[i].seen = s->h[i].down = false;
		s->h[i].c15 = s->h[i].c60 = 0;
	}
	s->eval = 0;
	s->ndown = 0;
	int rc = ask(s, b.p, on_host, err);
	/* The spacing of a host's scrapes: from the last 15 s when they
	 * hold 3 or more (a young series' minute is mostly empty), else the
	 * last minute. */
	for (size_t i = 0; !rc && i < s->nh; i++)
		if (s->h[i].c15 >= 3)
			s->h[i].step = 15 / s->h[i].c15;
		else if (s->h[i].c60 >= 1)
			s->h[i].step = 60 / s->h[i].c60;
	for (size_t k = 0; !rc && k < s->ndown; k++)
		for (size_t i = 0; i < s->nh; i++)
			if (!strcmp(s->h[i].name, s->down[k]))
				s->h[i].down = true;
	if (!rc && !s->nh)
		rc = xg_fail(err, "the server holds no xgtop exporter's figures%s: does it scrape them "
			     "(xgtop --export)?", s->sel_host[0] ? " that --host-match selects" : "");
	if (!rc) {
		/* The window: -d, but at least three sample spacings of the
		 * slowest host, so that rate() always spans two samples. */
		double step = 0;
		for (size_t i = 0; i < s->nh; i++)
			if (!host_stale(s, &s->h[i]) && s->h[i].step > step)
				step = s->h[i].step;
		double w = s->cfg->delay_s > step * 3 ? s->cfg->delay_s : step * 3;
		s->window = (unsigned)ceil(w < 2 ? 2 : w > 3600 ? 3600 : w);
		for (size_t i = 0; i < s->nd; i++) {
			s->d[i].seen = false;
			s->d[i].got = s->d[i].back = 0;
			s->d[i].state = 0;
			s->d[i].cpu_total = -1;
		}
		double eval = s->eval;
		b.len = 0;
		b.p[0] = 0;
		dom_query(s, &b);
		rc = ask(s, b.p, on_dom, err);
		s->eval = eval;
	}
	strbuf_free(&b);
	if (rc)
		return -1;
	fill(s, out);
	sample_sort(out);
	pool_line(s, out);
	return XG_COLLECT_OK;
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
};
