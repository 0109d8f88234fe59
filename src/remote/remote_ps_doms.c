// SPDX-License-Identifier: GPL-2.0-or-later
/* The `prometheus` source's domains: the query that asks every field of
 * every domain the selectors match (rates computed by the server; the
 * full-screen view's in three parts, asked at once), and
 * its answer, kept per (host, domain name) from one refresh to the next. */
#include "promsrc_state.h"
#include "xgtop/model/metric_defs.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t dom_hash(uint16_t host, const char *name)
{
	return rm_ps_hash(14695981039346656037ull ^ host, name);
}

static uint64_t dom_hash_at(const struct xg_source *s, size_t i)
{
	return dom_hash(s->d[i].host, s->d[i].name);
}

struct ps_dom *rm_ps_dom_of(struct xg_source *s, uint16_t host, const char *name)
{
	uint64_t hv = dom_hash(host, name);
	size_t k = s->dix.cap ? hv & (s->dix.cap - 1) : 0;
	for (; s->dix.cap && s->dix.slot[k]; k = (k + 1) & (s->dix.cap - 1)) {
		struct ps_dom *d = &s->d[s->dix.slot[k] - 1];
		if (d->host == host && !strcmp(d->name, name))   /* both under XG_NAME_MAX */
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
		rm_ps_index_grow(&s->dix, s->nd, dom_hash_at, s);
	} else {
		k = hv & (s->dix.cap - 1);
		while (s->dix.slot[k])
			k = (k + 1) & (s->dix.cap - 1);
		s->dix.slot[k] = (uint32_t)s->nd;
	}
	return d;
}

void rm_ps_take_domid(struct ps_dom *d, const struct rm_qpoint *p)
{
	const char *id = rm_qlabel(p, "domid");
	char *end;
	unsigned long v = id ? strtoul(id, &end, 10) : 0;
	if (id && !*end && v < (1ul << 30)) {
		d->domid = (uint32_t)v;
		d->has_domid = true;
	}
}

/* Whether p has every label of matchers m (k="v",k2="v2"). */
static bool has_labels(const struct rm_qpoint *p, const char *m)
{
	while (m && *m) {
		const char *eq = strchr(m, '='), *end = eq ? strchr(eq + 2, '"') : NULL;
		if (!end)
			return false;
		char k[32], v[64];
		snprintf(k, sizeof(k), "%.*s", (int)(eq - m), m);
		snprintf(v, sizeof(v), "%.*s", (int)(end - eq - 2), eq + 2);
		const char *got = rm_qlabel(p, k);
		if (!got || strcmp(got, v))
			return false;
		m = end[1] == ',' ? end + 2 : NULL;
	}
	return true;
}

/* A series of a row on screen (f: its metric name less xgtop_, led by d_
 * for a counter's change over the window): kept for remote_ps_fill.c,
 * unless the field is one of those asked of every domain. */
static void on_scraped(struct xg_source *s, struct ps_host *h, struct ps_dom *d, const char *f,
		       const struct rm_qpoint *p)
{
	bool change = !strncmp(f, "d_", 2);
	f += change ? 2 : 0;
	for (int k = 0; k < XG_F_COUNT; k++) {
		const struct xg_metric *m = &xg_field_metric[k];
		size_t n = strlen(m->name + 6);
		if ((m->type == XG_MT_COUNTER) != change || strncmp(f, m->name + 6, n) ||
		    strcmp(f + n, change ? "_total" : "") || !has_labels(p, m->label))
			continue;
		h->published |= 1ull << k;
		if (s->want_fields >> k & 1 || !isfinite(p->v))
			return;
		if (p->v < 0) {
			d->back |= 1ull << k;
		} else {
			d->v[k] = p->v;
			d->got |= 1ull << k;
		}
		d->scraped |= 1ull << k;
		return;
	}
}

/* A total over the domains of a host: their CPU seconds or runstate
 * seconds over the window, from its exporter's sums (hcpu, hrs) where it
 * has them (ps_host.sums), else summed by the server (tcpu, trs: only
 * for such hosts, but for all past SEL_HOSTS_MAX, so one is taken of
 * each host); or how many have a state. */
static void on_total(struct xg_source *s, struct ps_host *h, const char *f, const struct rm_qpoint *p)
{
	if (!isfinite(p->v) || p->v < 0)
		return;
	bool own = f[0] == 'h';
	if (!strcmp(f + 1, "cpu")) {
		if (own == h->sums)
			h->tcpu = p->v;
		return;
	}
	if (!strcmp(f + 1, "rs")) {
		const char *st = rm_qlabel(p, "state");
		for (int r = 0; st && r < XG_RS_COUNT && own == h->sums; r++)
			if (!strcmp(st, xg_runstate_label[r]))
				h->trs[r] = p->v;
		return;
	}
	const char *w = rm_qlabel(p, "xgtop_w");
	char *end;
	long k = w ? XG_STATE_FLAGS - strtol(w, &end, 10) : -1;
	/* A host whose exporter counted them (remote_ps_hosts.c) is in the
	 * counts already. */
	if (w && !*end && k >= 0 && k < XG_STATE_FLAGS && p->v < 1e9 && !h->counts) {
		s->nstate[k] += (unsigned)p->v;
		s->got_nstate = true;
	}
}

/* A series of a host, not of a domain: its clock's changes, its totals. */
static void on_host_series(struct xg_source *s, struct ps_host *h, const char *f, const struct rm_qpoint *p)
{
	if (!strcmp(f, "clk")) {   /* the host's sample clock's change over the window */
		if (isfinite(p->v) && p->v > 0)
			h->clk = p->v;
	} else if (!strcmp(f, "clk_span")) {   /* that clock's change between two scrapes a window apart */
		if (isfinite(p->v) && p->v > 0)
			h->span = p->v;
	} else if (!strcmp(f, "tcpu") || !strcmp(f, "trs") || !strcmp(f, "hcpu") || !strcmp(f, "hrs") ||
		   !strcmp(f, "nstate")) {
		on_total(s, h, f, p);
	}
}

/* Field k's figure of d (a term asked of every domain, xgtop_f its index);
 * the sort's first field counts d among its host's domains that came by
 * it (info_term). */
static void on_field(const struct xg_source *s, struct ps_host *h, struct ps_dom *d, const char *f,
		     const struct rm_qpoint *p)
{
	unsigned long k = strtoul(f, NULL, 10);
	if (k >= XG_F_COUNT)
		return;
	h->nsorted_now += (int)k == s->sort_f;
	h->published |= 1ull << k;
	if (isfinite(p->v) && p->v < 0)
		d->back |= 1ull << k;
	if (isfinite(p->v) && p->v >= 0) {
		d->v[k] = p->v;
		d->got |= 1ull << k;
	}
}

int rm_ps_on_dom(void *ctx, const struct rm_qpoint *p, struct xg_err *err)
{
	struct xg_source *s = ctx;
	const char *inst = rm_qlabel(p, "instance"), *name = rm_qlabel(p, "domain"), *f = rm_qlabel(p, "xgtop_f");
	if (!inst || !f)
		return 0;
	struct ps_host *h = rm_ps_host_of(s, inst);
	if (!h)
		return 0;
	if (!name) {
		on_host_series(s, h, f, p);
		return 0;
	}
	/* The exporter escapes names as the screen shows them (\\, \xNN);
	 * most names have no escape. */
	char raw[XG_NAME_MAX];
	size_t nl = strlen(name);
	if (memchr(name, '\\', nl) || nl >= sizeof(raw))
		rm_unescape_name(raw, sizeof(raw), name);
	else
		memcpy(raw, name, nl + 1);
	struct ps_dom *d = rm_ps_dom_of(s, (uint16_t)(h - s->h), raw);
	if (!d)
		return xg_fail(err, "more than %d domains", XG_PS_DOMS_MAX);
	if (!d->seen && nl < sizeof(d->label) && strcmp(d->label, name))   /* as it came, mostly as before */
		memcpy(d->label, name, nl + 1);
	else if (!d->seen && nl >= sizeof(d->label))
		snprintf(d->label, sizeof(d->label), "%s", name);
	d->seen = true;
	if (*f >= '0' && *f <= '9') {   /* the sort's fields: most series, first */
		on_field(s, h, d, f, p);
		return 0;
	}
	if (!strcmp(f, "info") || !strcmp(f, "domain_info")) {   /* of all, or of a row on screen */
		rm_ps_take_domid(d, p);
		d->info_now = true;
		return 0;
	}
	if (!strcmp(f, "state")) {
		const char *st = rm_qlabel(p, "state");
		for (int k = 0; st && k < XG_STATE_FLAGS; k++)
			if (!strcmp(st, xg_state_label[k]))
				d->state |= 1u << k;
		return 0;
	}
	if (rm_ps_on_vcpu(d, f, p))
		return 0;
	if (!strncmp(f, "domain_", 7) || !strncmp(f, "d_domain_", 9)) {
		on_scraped(s, h, d, f, p);
		return 0;
	}
	if (!strcmp(f, "cpu") && isfinite(p->v) && p->v >= 0 && p->v < 1.8e10)
		d->cpu_total = p->v;
	return 0;
}

static int key_cmp(const void *a, const void *b)
{
	const struct xg_dom_key *x = a, *y = b;
	if (x->host != y->host)
		return x->host < y->host ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id;
}

void rm_ps_doms_mark(struct xg_source *s)
{
	if (s->nwant)   /* want is NULL until the view first names its rows */
		qsort(s->want, s->nwant, sizeof(*s->want), key_cmp);
	for (size_t i = 0; i < s->nd; i++) {
		struct ps_dom *d = &s->d[i];
		struct xg_dom_key k = { .host = d->host, .id = d->has_domid ? d->domid : d->id };
		d->shown = s->want_all || (s->nwant && bsearch(&k, s->want, s->nwant, sizeof(k), key_cmp));
		d->asked = s->want_all ? ~0ull : d->shown ? s->want_fields | s->row_fields : s->want_fields;
	}
}

/* Field f's term: a counter's change over the window (delta(), not
 * rate(): the host's sample clock, asked once per host in the same query,
 * is extrapolated alike, where rate() stops a counter's extrapolation at
 * zero and so skews a young counter's figure); remote_ps_fill.c divides it
 * by the change of that clock (xgtop_sample_monotonic_seconds) over the
 * same window: the figure is then the change of the counter over the
 * change of the clock between the window's first and last scrape, as the
 * pool view and the host's own xgtop compute it, whatever the scrapes'
 * jitter. A counter that went back (its domain restarted) in the window
 * comes out negative, and that figure is `-` for that window. */
static void field_term(const struct xg_source *s, struct xg_strbuf *b, int f, const char *lead)
{
	const struct xg_metric *m = &xg_field_metric[f];
	strbuf_printf(b, "%slabel_replace(%s", lead, m->type == XG_MT_COUNTER ? "delta(" : "");
	rm_ps_sel(s, b, m->name, m->type == XG_MT_COUNTER, m->label);
	if (m->type == XG_MT_COUNTER)
		strbuf_printf(b, "[%us])", s->window);
	strbuf_printf(b, ",\"xgtop_f\",\"%d\",\"\",\"\")", f);
}

/* text as one alternative of a regex inside a PromQL string: the regex's
 * metacharacters escaped, then \ and " for the string. */
static void put_literal(struct xg_strbuf *b, const char *text)
{
	for (const char *p = text; *p; p++) {
		if (strchr("\\.+*?()|[]{}^$", *p))
			strbuf_put(b, "\\\\", 2);   /* the regex's \, as a string's \\ */
		if (*p == '"' || *p == '\\')
			strbuf_put(b, "\\", 1);
		strbuf_put(b, p, 1);
	}
}

/* The entry of (host, name), or NULL: never adds one. */
static const struct ps_dom *dom_find(const struct xg_source *s, uint16_t host, const char *name)
{
	if (!s->dix.cap)
		return NULL;
	for (size_t k = dom_hash(host, name) & (s->dix.cap - 1); s->dix.slot[k]; k = (k + 1) & (s->dix.cap - 1)) {
		const struct ps_dom *d = &s->d[s->dix.slot[k] - 1];
		if (d->host == host && !strcmp(d->name, name))
			return d;
	}
	return NULL;
}

/* The rows on screen: how many (rows[], nd long), and (*more) whether
 * other known domains have one of their hosts and one of their names (the
 * same names on other hosts); hosts[], names[]: their distinct hosts and
 * names (nd each). */
static size_t rows_shown(const struct xg_source *s, const struct ps_dom **rows, uint16_t *hosts, size_t *nh,
			 const struct ps_dom **names, size_t *nn, bool *more)
{
	size_t n = 0, pairs = 0;
	*nh = *nn = 0;
	for (size_t i = 0; i < s->nd; i++) {
		const struct ps_dom *d = &s->d[i];
		if (!d->shown || !d->label[0])
			continue;
		rows[n++] = d;
		size_t k = 0;
		while (k < *nh && hosts[k] != d->host)
			k++;
		if (k == *nh)
			hosts[(*nh)++] = d->host;
		for (k = 0; k < *nn && strcmp(names[k]->label, d->label); k++)
			;
		if (k == *nn)
			names[(*nn)++] = d;
	}
	for (size_t i = 0; i < *nh; i++)
		for (size_t k = 0; k < *nn; k++)
			pairs += dom_find(s, hosts[i], names[k]->name) != NULL;
	*more = pairs > n;
	return n;
}

/* The rows on screen (rows_shown): n rows, their nh distinct hosts and
 * nn distinct names. */
struct rows_on_screen {
	const struct ps_dom **rows, **names;
	size_t n, nh, nn;
	uint16_t *hosts;
};

/* The rows on screen as selectors (sel: the opening matchers, then each
 * one's own, then "}" and suffix), " or " between them: one selector,
 * instance=~ their hosts and domain=~ their names; per_host: one per host,
 * with the names of its rows. */
static void rows_selectors(const struct xg_source *s, struct xg_strbuf *b, const char *sel, const char *suffix,
			   bool per_host, const struct rows_on_screen *r)
{
	const uint16_t *hosts = r->hosts;
	const struct ps_dom *const *names = r->names;
	size_t nh = r->nh, nn = r->nn;
	if (!per_host) {
		strbuf_printf(b, "%s%s,instance=~\"", sel, s->sel_dom);
		for (size_t i = 0; i < nh; i++) {
			strbuf_printf(b, "%s", i ? "|" : "");
			put_literal(b, s->h[hosts[i]].name);
		}
		strbuf_printf(b, "\",domain=~\"");
		for (size_t k = 0; k < nn; k++) {
			strbuf_printf(b, "%s", k ? "|" : "");
			put_literal(b, names[k]->label);
		}
		strbuf_printf(b, "\"}%s", suffix);
		return;
	}
	for (size_t i = 0; i < nh; i++) {
		char e[4 * XG_PEER_NAME_MAX];
		rm_ps_promql_string(e, sizeof(e), s->h[hosts[i]].name);
		strbuf_printf(b, "%s%s%s,instance=\"%s\",domain=~\"", i ? " or " : "", sel, s->sel_dom, e);
		const char *bar = "";
		for (size_t k = 0; k < r->n; k++) {
			const struct ps_dom *d = r->rows[k];
			if (d->host == hosts[i]) {
				strbuf_printf(b, "%s", bar);
				put_literal(b, d->label);
				bar = "|";
			}
		}
		strbuf_printf(b, "\"}%s", suffix);
	}
}

/* The families of the rows on screen as the opening of a selector,
 * __name__ one of them: their gauges (counters false; with the info
 * series, for its domid whatever the other domains' info asks) or their
 * counters (*_total), of the fields of the columns shown less the sort's
 * (which come of every domain), and of their vCPUs (online flag; CPU
 * and runstate seconds) when those show; "" when there are none. Names
 * the server finds in its index at once, where a pattern has it match
 * every family's name. */
static void row_families(const struct xg_source *s, struct xg_strbuf *b, bool counters)
{
	uint64_t want = s->row_fields & ~s->want_fields;
	const struct xg_metric *fx = xg_fixed_metric;
	size_t start = b->len;
	strbuf_printf(b, "{__name__=~\"%s", counters ? "" : "xgtop_domain_info");
	size_t n = counters ? 0 : 1;
	for (int f = 0; f < XG_F_COUNT; f++) {
		const struct xg_metric *m = &xg_field_metric[f];
		bool dup = false;   /* a family of several fields (the runstates) once */
		for (int g = 0; g < f && !dup; g++)
			dup = (want >> g & 1) && !strcmp(xg_field_metric[g].name, m->name);
		if (!(want >> f & 1) || (m->type == XG_MT_COUNTER) != counters || dup)
			continue;
		strbuf_printf(b, "%s%s%s", n++ ? "|" : "", m->name, counters ? "_total" : "");
	}
	if (s->row_vcpus && counters)
		strbuf_printf(b, "%s%s_total|%s_total", n++ ? "|" : "", fx[XG_MF_VCPU_CPU].name,
			      fx[XG_MF_VCPU_RUNSTATE].name);
	else if (s->row_vcpus)
		strbuf_printf(b, "|%s", fx[XG_MF_VCPU_ONLINE].name);
	strbuf_printf(b, "\"");
	if (!n)
		b->len = start;
}
/* Past this, one selector for all hosts' rows on screen even when it
 * takes in others (VictoriaMetrics refuses a query over 16 kB). */
#define ROWS_TEXT_MAX 11000

/* The rows on screen: their gauges as scraped (xgtop_f: the metric name
 * less xgtop_), their counters' changes over the window (the counter now
 * less the counter a window ago, xgtop_f d_ and the name: offset keeps the
 * metric names, which delta() drops, so that one selector serves every
 * field and the query stays short), and each host's clock's change over
 * the same scrapes (clk_span): remote_ps_fill.c divides. */
static void rows_terms(const struct xg_source *s, struct xg_strbuf *b)
{
	struct rows_on_screen r = { .hosts = xg_calloc(s->nd + 1, sizeof(*r.hosts)),
				    .names = xg_calloc(s->nd + 1, sizeof(*r.names)),
				    .rows = xg_calloc(s->nd + 1, sizeof(*r.rows)) };
	bool more;
	struct xg_strbuf gauges = { 0 }, counters = { 0 };
	struct xg_strbuf g = { 0 }, now = { 0 }, ago = { 0 }, st = { 0 };
	char off[32];
	snprintf(off, sizeof(off), " offset %us", s->window);
	row_families(s, &gauges, false);
	row_families(s, &counters, true);
	r.n = rows_shown(s, r.rows, r.hosts, &r.nh, r.names, &r.nn, &more);
	if (r.n) {
		for (int per_host = more; per_host >= 0; per_host--) {
			g.len = now.len = ago.len = st.len = 0;
			rows_selectors(s, &g, gauges.p, "", per_host, &r);
			if (!s->want_state)
				rows_selectors(s, &st, "xgtop_domain_state{state!=\"\"", " == 1", per_host, &r);
			if (counters.len) {
				rows_selectors(s, &now, counters.p, "", per_host, &r);
				rows_selectors(s, &ago, counters.p, off, per_host, &r);
			}
			if (g.len + now.len + ago.len + st.len < ROWS_TEXT_MAX)
				break;
		}
		strbuf_printf(b, " or label_replace(%s,\"xgtop_f\",\"$1\",\"__name__\",\"xgtop_(.*)\")", g.p);
		if (st.len)
			strbuf_printf(b, " or label_replace(%s,\"xgtop_f\",\"state\",\"\",\"\")", st.p);
		if (now.len)
			strbuf_printf(b, " or (label_replace(%s,\"xgtop_f\",\"d_$1\",\"__name__\",\"xgtop_(.*)\") - "
				      "label_replace(%s,\"xgtop_f\",\"d_$1\",\"__name__\",\"xgtop_(.*)\"))", now.p, ago.p);
		strbuf_printf(b, " or label_replace(xgtop_sample_monotonic_seconds{instance!=\"\"%s} - "
			      "xgtop_sample_monotonic_seconds{instance!=\"\"%s}%s,\"xgtop_f\",\"clk_span\",\"\",\"\")",
			      s->sel_host, s->sel_host, off);
	}
	strbuf_free(&gauges);
	strbuf_free(&counters);
	strbuf_free(&g);
	strbuf_free(&now);
	strbuf_free(&ago);
	strbuf_free(&st);
	free(r.hosts);
	free(r.names);
	free(r.rows);
}

/* The hosts for which has() is false (an exporter lacks a family: an
 * older xgtop; some domain lacks the sort's series) as a matcher in *sel,
 * for the server to sum, count or send their domains' series; false: no
 * such host. Past SEL_HOSTS_MAX of text, *sel is empty (all hosts), and
 * on_total leaves out those whose exporter's figure came. */
#define SEL_HOSTS_MAX 4000
static bool hosts_lacking(const struct xg_source *s, bool (*has)(const struct xg_source *, const struct ps_host *),
			  struct xg_strbuf *sel)
{
	strbuf_printf(sel, "instance=~\"");
	size_t n = 0;
	for (size_t i = 0; i < s->nh; i++) {
		if (has(s, &s->h[i]))
			continue;
		strbuf_printf(sel, "%s", n++ ? "|" : "");
		put_literal(sel, s->h[i].name);
	}
	strbuf_printf(sel, "\"");
	if (sel->len > SEL_HOSTS_MAX)
		sel->len = 0;
	return n > 0;
}

static bool has_counts(const struct xg_source *s, const struct ps_host *h)
{
	(void)s;
	return h->counts;
}

static bool has_sums(const struct xg_source *s, const struct ps_host *h)
{
	(void)s;
	return h->sums;
}

/* Whether the server is to count domains by state: for every host when
 * the exporters' own counts did not come (--filter, or no exporter has
 * them); else for the hosts whose exporter lacks them, their matcher in
 * *sel (empty: all hosts). */
static bool count_hosts(const struct xg_source *s, struct xg_strbuf *sel)
{
	return !s->got_nstate || hosts_lacking(s, has_counts, sel);
}

/* One total over each host's domains, of the window: for the hosts whose
 * exporter sums their figure (ps_host.sums; own: there are some), delta()
 * of its sum (sum_name, one series a host or host and runstate, xgtop_f
 * h...); for the others (per_dom; sel: their matcher, empty: all hosts),
 * the server's sum (by `by`) of delta() of each domain's counter (name,
 * xgtop_f t...). A change that went back is left out (a domain or an
 * exporter restarted), as the rows show `-` for it. */
static void total_term(const struct xg_source *s, struct xg_strbuf *b, const char *f, const char *name,
		       const char *sum_name, const char *by, bool own, bool per_dom, const struct xg_strbuf *sel)
{
	if (own)
		strbuf_printf(b, " or label_replace(delta(%s_total{instance!=\"\"%s}[%us]) >= 0,"
			      "\"xgtop_f\",\"h%s\",\"\",\"\")", sum_name, s->sel_host, s->window, f);
	if (!per_dom)
		return;
	strbuf_printf(b, " or label_replace(sum by(%s)(delta(", by);
	if (sel->len)
		strbuf_printf(b, "%s_total{%s%s}", name, sel->p, s->sel_dom);
	else
		rm_ps_sel(s, b, name, true, NULL);
	strbuf_printf(b, "[%us]) >= 0),\"xgtop_f\",\"t%s\",\"\",\"\")", s->window, f);
}

/* The summary line's totals over every domain, where the rows do not
 * carry their fields: each host's CPU and runstate seconds over the
 * window (total_term), and its domains by state, each under its first
 * flag in xentop's order (count_values of the highest weight among its
 * flags). */
void rm_ps_server_totals(const struct xg_source *s, bool *cpu, bool *rs)
{
	uint64_t runstates = collector_fields(XG_CL_SCHED);   /* the four of them */
	*cpu = !(s->want_fields >> XG_F_CPU_NS & 1);
	*rs = (s->want_fields & runstates) != runstates;
}

static void total_terms(const struct xg_source *s, struct xg_strbuf *b)
{
	const struct xg_metric *fx = xg_fixed_metric;
	bool cpu, rs;
	rm_ps_server_totals(s, &cpu, &rs);
	bool own = false;   /* the host query said which exporters sum them (remote_ps_hosts.c) */
	for (size_t i = 0; i < s->nh && !own; i++)
		own = s->h[i].sums;
	struct xg_strbuf hosts = { 0 };
	bool per_dom = !own || hosts_lacking(s, has_sums, &hosts);
	if (cpu)
		total_term(s, b, "cpu", xg_field_metric[XG_F_CPU_NS].name, fx[XG_MF_HOST_DOMAINS_CPU].name,
			   "instance", own, per_dom, &hosts);
	if (rs)
		total_term(s, b, "rs", xg_field_metric[XG_F_RUN_NS].name, fx[XG_MF_HOST_DOMAINS_RS].name,
			   "instance,state", own, per_dom, &hosts);
	hosts.len = 0;
	if (count_hosts(s, &hosts)) {
		strbuf_printf(b, " or label_replace(count_values by(instance)(\"xgtop_w\",max by(instance,domain)((");
		if (hosts.len)
			strbuf_printf(b, "xgtop_domain_state{%s%s}", hosts.p, s->sel_dom);
		else
			rm_ps_sel(s, b, "xgtop_domain_state", false, NULL);
		strbuf_printf(b, " == 1) * on(state) group_left() (");
		for (int k = 0; k < XG_STATE_FLAGS; k++)
			strbuf_printf(b, "%slabel_replace(vector(%d),\"state\",\"%s\",\"\",\"\")", k ? " or " : "",
				      XG_STATE_FLAGS - k, xg_state_priority_label(k));
		strbuf_printf(b, "))),\"xgtop_f\",\"nstate\",\"\",\"\")");
	}
	strbuf_free(&hosts);
}

/* name's selector (rm_ps_sel) on the hosts of matcher hosts only, or on
 * all when it is empty. */
static void sel_on(const struct xg_source *s, struct xg_strbuf *b, const char *name, bool counter, const char *label,
		   const struct xg_strbuf *hosts)
{
	if (!hosts->len) {
		rm_ps_sel(s, b, name, counter, label);
		return;
	}
	strbuf_printf(b, "%s%s{%s%s%s%s}", name, counter ? "_total" : "", hosts->p, label && *label ? "," : "",
		      label ? label : "", s->sel_dom);
}

/* Whether every domain of h came by the sort's series at the last
 * refresh: as many as its exporter counted (xgtop_host_domains, asked
 * without --filter only), for the sort's field of now. */
static bool all_sorted(const struct xg_source *s, const struct ps_host *h)
{
	return s->counted_f == s->sort_f && h->counts && h->nsorted == h->ndoms;
}

static bool no_info(const struct xg_source *s, const struct ps_host *h)
{
	(void)s;
	return !h->ask_info;
}

static bool info_or_sorted(const struct xg_source *s, const struct ps_host *h)
{
	return h->ask_info || all_sorted(s, h);
}

static bool no_total(const struct xg_source *s, const struct ps_host *h)
{
	(void)s;
	return !h->ask_total;
}

/* The info term (led by " or "): every domain's info of the hosts that
 * ask it this refresh (ps_host.ask_info); of the others, the info only of
 * the domains that have no series of the sort's first field (the sort's
 * series mark the others seen, and their domids stay as they came: a
 * domain whose figure is not measured comes by no other series), and of
 * those hosts only where some domain did not come by them at the last
 * refresh (all_sorted). Mostly that is none: the server then selects
 * neither family of most hosts, 20,000 series at 10,000 domains. */
static void info_term(const struct xg_source *s, struct xg_strbuf *b)
{
	struct xg_strbuf asked = { 0 }, rest = { 0 };
	const struct xg_metric *m = s->sort_f >= 0 ? &xg_field_metric[s->sort_f] : NULL;
	bool all = s->info_all || !m;
	bool some = !all && hosts_lacking(s, no_info, &asked);
	bool others = !all && hosts_lacking(s, info_or_sorted, &rest);
	if (all || some || others) {
		/* Batch mode lists a stale host's domains of the last hour; the
		 * full-screen view keeps those it had (remote_ps_fill.c) and
		 * asks the info as of now: an hour of samples of 10,000 series
		 * was most of the server's work. */
		strbuf_printf(b, " or label_replace(%s", s->want_all ? "last_over_time(" : "");
		if (all || some)
			sel_on(s, b, "xgtop_domain_info", false, NULL, &asked);
		if (others) {
			strbuf_printf(b, "%s", some ? " or " : "");
			sel_on(s, b, "xgtop_domain_info", false, NULL, &rest);
			strbuf_printf(b, " unless on(instance,domain) ");
			sel_on(s, b, m->name, m->type == XG_MT_COUNTER, m->label, &rest);
		}
		strbuf_printf(b, "%s,\"xgtop_f\",\"info\",\"\",\"\")", s->want_all ? "[1h])" : "");
	}
	strbuf_free(&asked);
	strbuf_free(&rest);
}

/* The CPU time as scraped of every domain of the hosts that ask it this
 * refresh (ps_host.ask_total), led by " or ". */
static void total_now_term(const struct xg_source *s, struct xg_strbuf *b)
{
	struct xg_strbuf hosts = { 0 };
	bool every = true;
	for (size_t i = 0; i < s->nh && every; i++)
		every = s->h[i].ask_total;
	if (every || !hosts_lacking(s, no_total, &hosts))
		hosts.len = 0;   /* no matcher */
	strbuf_printf(b, " or label_replace(");
	sel_on(s, b, xg_field_metric[XG_F_CPU_NS].name, true, NULL, &hosts);
	strbuf_printf(b, ",\"xgtop_f\",\"cpu\",\"\",\"\")");
	strbuf_free(&hosts);
}

/* The labels the answers keep of each series: one aggregation over every
 * term keeps only those this source reads. */
#define KEEP "max by(instance,domain,xgtop_f,domid,state,vcpu,resource,kind,xgtop_w)("

/* Every field and vCPU of every domain the selectors match, in q[0]; in
 * the full-screen view three queries, which the server evaluates side by
 * side (each one's terms one after the other): q[0] the domains' info
 * (name, domid: info_term; their state when sorted by it, and their CPU
 * time as scraped while one is new; empty when none of these is asked),
 * q[1] what sorting needs of every domain and the summary line's totals
 * (total_terms), q[2] (empty when none is on screen) the fields of the
 * columns shown, the state and the vCPUs of the domains on screen, whose
 * hosts and names are in those terms' own matchers (the server evaluates
 * them for those series only). Each host's sample clock comes once
 * (xgtop_f "clk"). */
void rm_ps_dom_query(const struct xg_source *s, struct xg_strbuf q[PS_FETCHES])
{
	struct xg_strbuf t = { 0 }, *b = &q[1];   /* q[0]'s terms, each led by " or " */
	info_term(s, &t);
	if (s->want_all || s->want_state) {
		strbuf_printf(&t, " or label_replace(");
		rm_ps_sel(s, &t, "xgtop_domain_state", false, NULL);
		strbuf_printf(&t, " == 1,\"xgtop_f\",\"state\",\"\",\"\")");
	}
	if (s->ask_total)
		total_now_term(s, &t);
	if (s->want_all) {   /* all in one query */
		b = &t;
		strbuf_printf(b, " or label_replace(");
	} else {
		if (t.len)
			strbuf_printf(&q[0], KEEP "%s)", t.p + 4);
		strbuf_printf(b, KEEP "label_replace(");
	}
	strbuf_printf(b, "delta(xgtop_sample_monotonic_seconds{instance!=\"\"%s}[%us]),"
		      "\"xgtop_f\",\"clk\",\"\",\"\")", s->sel_host, s->window);
	uint64_t all = s->want_all ? ~0ull : s->want_fields;
	for (int f = 0; f < XG_F_COUNT; f++)
		if (all >> f & 1)
			field_term(s, b, f, " or ");
	if (s->want_all) {
		rm_ps_vcpu_terms(s, b, " or ");
		strbuf_printf(&q[0], KEEP "%s)", t.p + 4);
		strbuf_free(&t);
		return;
	}
	strbuf_free(&t);
	total_terms(s, b);
	strbuf_printf(b, ")");
	struct xg_strbuf r = { 0 };
	rows_terms(s, &r);   /* each term led by " or " */
	if (r.len)
		strbuf_printf(&q[2], KEEP "%s)", r.p + 4);
	strbuf_free(&r);
}
