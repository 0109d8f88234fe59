/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Private to src/remote: the state of the `prometheus` source, shared by
 * its files: the hosts (remote_ps_hosts.c), the domains (remote_ps_doms.c),
 * the counters made from the server's rates (remote_ps_fill.c) and the
 * source itself (remote_promsrc.c). */
#ifndef XGTOP_PROMSRC_STATE_H
#define XGTOP_PROMSRC_STATE_H

#include "xgtop/core/strbuf.h"
#include "xgtop/model/config.h"
#include "xgtop/model/source.h"
#include "remote_parts.h"

/* The counters this source makes advance PS_SCALE times the server's
 * rate times the interval, and each host's clock PS_SCALE times the
 * interval, so that a rate of 5 requests/s is kept to 0.001 (at 1:1, a
 * 0.5 s interval would round it to 4 or 6). */
#define PS_SCALE 1000
/* The full-screen view asks every domain's info (name, domid) at least
 * once in this many refreshes: each refresh, that of the hosts whose
 * index is its turn modulo this. */
#define PS_INFO_EVERY 10
/* Queries asked at once: the domain query's three parts. */
#define PS_FETCHES 3
/* Domains this source keeps, of every host (the engine's own bounds
 * apply after). */
#define XG_PS_DOMS_MAX (1 << 20)

struct ps_host {
	char name[XG_PEER_NAME_MAX];  /* the instance label */
	double last;                  /* its last sample's wall time, 0 = none */
	double step;                  /* seconds between its scrapes */
	double c15, c60;              /* its scrapes in the last 15 s and 1 min */
	double clk;                   /* its sample clock's change over the window, 0 = none */
	double span;                  /* its change between two scrapes a window apart (rows on screen) */
	double tcpu;                  /* its domains' CPU seconds over the window, summed by the server, -1: none */
	double trs[XG_RS_COUNT];      /* their runstates' seconds over the window, likewise, -1: none */
	bool seen;                    /* in this refresh's host answer */
	bool counts;                  /* its exporter's xgtop_host_domains came (into nstate) */
	unsigned ndoms;               /* and the domains they count */
	unsigned nsorted, nsorted_now; /* its domains with a series of the sort's first field: at the
	                                 last refresh's answer, in this one's */
	bool sums;                    /* its exporter sums its domains' CPU and runstate times
	                                 (xgtop_host_domains_*_seconds_total), over a window:
	                                 tcpu and trs come from those */
	bool got_sums;                /* the host answer said so (made sums by rm_ps_hosts_settle) */
	bool down;                    /* the server's last scrape of it failed */
	bool ask_info;                /* this refresh asks every domain's info (name, domid) of it */
	bool ask_total;               /* and their CPU time as scraped (remote_promsrc.c) */
	uint32_t pcpus;
	uint64_t mem, free;
	uint64_t published;           /* bit f: some domain of it has field f */
};

/* vCPUs a domain keeps (Xen's limit for a guest is 512). */
#define XG_PS_VCPUS_MAX 1024
#define PS_VCPU_CPU 0x80              /* ps_vcpu.got: the CPU rate came */

/* A vCPU's synthetic counters, like its domain's. */
struct ps_vcpu {
	uint32_t id;
	bool seen;
	uint8_t online;
	uint8_t got;                  /* bit r: rs[r] came; PS_VCPU_CPU: cpu */
	double cpu, rs[XG_RS_COUNT];  /* the counters' changes over the window, s */
	double total;                 /* the CPU time counter as scraped, -1: none */
	bool scraped;                 /* cpu, rs[]: changes between two scrapes (a row on screen) */
	bool started;                 /* acc_cpu has its origin */
	uint64_t acc_cpu, acc_rs[XG_RS_COUNT];
};

/* A domain's synthetic counters, from one refresh to the next. */
struct ps_dom {
	uint16_t host;
	char name[XG_NAME_MAX];
	char label[4 * XG_NAME_MAX + 8];  /* the domain label as the server holds it */
	uint32_t id;
	uint64_t acc[XG_F_COUNT];
	bool seen;
	bool was_seen;                /* at the last refresh */
	double v[XG_F_COUNT];         /* a counter's change over the window, a gauge's value */
	uint64_t got;                 /* bit f: v[f] came this refresh */
	uint64_t scraped;             /* bit f: v[f] is the change between two scrapes (over span) */
	uint64_t back;                /* bit f: the counter went back in the window */
	uint64_t asked;               /* bit f: asked for this refresh */
	bool shown;                   /* on screen: every field asked for */
	uint32_t domid;
	bool has_domid;
	bool info_now;                /* its info series came this refresh (it is there now) */
	bool started;                 /* acc[] has its origin */
	uint32_t state;               /* enum xg_state bits */
	double cpu_total;             /* the CPU time counter as scraped, -1: none */
	struct ps_vcpu *vc;           /* by id */
	uint32_t nvc, vccap;
};

/* Open addressing over the hosts or domains by name: each answer holds
 * up to tens of fields per domain, of thousands of domains. Slots hold
 * index + 1, 0 = empty; the table is at most half full. */
struct ps_index {
	uint32_t *slot;
	size_t cap;                   /* a power of two */
};

/* A domain's place in the sample's order, (host, id). */
struct ps_order {
	uint64_t key;                 /* host << 32 | id */
	uint32_t i;                   /* its entry in xg_source.d */
};

struct xg_source {
	struct rm_client *client;
	struct rm_qapi *q;
	struct rm_target t;
	struct rm_fetch f[PS_FETCHES];  /* the queries of one refresh asked at once */
	const struct xg_config *cfg;
	char sel_host[600];           /* matchers, comma-led, or "" */
	char sel_dom[1200];
	struct ps_host *h;
	size_t nh;
	struct ps_dom *d;
	size_t nd, dcap;
	struct ps_order *ord;         /* every entry of d in (host, id) order (remote_ps_fill.c) */
	size_t nord, ord_cap;
	uint32_t next_id;
	struct ps_index hix, dix;
	double eval;                  /* the server's evaluation time */
	double at;                    /* the time asked for (time=), 0 = now */
	double prev_t;                /* our monotonic clock at the last refresh, s */
	uint64_t clock_ns;            /* the hosts' clock: PS_SCALE x the time since the first */
	char down[256][XG_PEER_NAME_MAX];  /* targets whose last scrape failed (up == 0) */
	size_t ndown;
	unsigned window;
	char hostname[64];
	/* What the view shows next (set_wanted): row_fields (and their vCPUs)
	 * of the domains on screen, want_fields of all; all: every field of
	 * every one. */
	bool want_all;
	uint64_t want_fields;
	bool want_state;              /* the state of every domain too */
	uint64_t row_fields;          /* the fields of the domains on screen (the columns shown) */
	bool row_vcpus;               /* and their vCPUs */
	bool ask_total;               /* this refresh asks some host's ps_host.ask_total */
	bool info_all;                /* and every host's ps_host.ask_info */
	int sort_f;                   /* the sort's first field (-1: none), this refresh */
	int counted_f;                /* the field ps_host.nsorted counted, -1: none */
	unsigned info_turn;           /* the hosts whose index is this modulo PS_INFO_EVERY ask their
	                                 info this refresh */
	unsigned nstate[6];           /* domains by state (xg_totals' order): the exporters' counts
	                                 (xgtop_host_domains), or counted by the server */
	bool got_nstate;
	struct xg_dom_key *want;      /* sorted by (host, id) */
	size_t nwant, want_cap;
};

/* One query of the API (api: "query" or "query_range", params: its
 * &time= or &start=&end=&step=, "" for none), answered within limit_s
 * (0: from -d, 0.5 to 10 s), fn called with ctx for each point of the
 * answer; 0 or -1 with a one-line err that says what to do. */
int rm_ps_ask(struct xg_source *s, const char *api, const char *params, const char *query, double limit_s,
	      rm_qpoint_fn fn, void *ctx, struct xg_err *err);

/* FNV-1a of s, from h. */
uint64_t rm_ps_hash(uint64_t h, const char *s);
/* Doubles ix to hold n entries at most half full; hash(s, i) rehashes entry i. */
void rm_ps_index_grow(struct ps_index *ix, size_t n, uint64_t (*hash)(const struct xg_source *, size_t),
		      const struct xg_source *s);
/* Metric name's selector (counter: the family's name, _total follows):
 * its label matcher (NULL: none) and the view's domain matchers, without
 * a domain!="" (which has the server merge the postings of every domain
 * name: twice the work at 10,000 domains). */
void rm_ps_sel(const struct xg_source *s, struct xg_strbuf *b, const char *name, bool counter, const char *label);
/* text as a PromQL string's content: \ and " escaped. */
void rm_ps_promql_string(char *dst, size_t n, const char *text);


/* ---- remote_ps_hosts.c ---- */
/* The host query's text (appended to b), and its answer's callback; in
 * the full-screen view without --filter, it asks each exporter's domains
 * by state too (ps_host.counts), and which exporters sum their domains'
 * times (ps_host.sums). */
void rm_ps_host_query(const struct xg_source *s, struct xg_strbuf *b);
int rm_ps_on_host(void *ctx, const struct rm_qpoint *p, struct xg_err *err);
/* Host name's entry, added when new; NULL when the view holds no more. */
struct ps_host *rm_ps_host_of(struct xg_source *s, const char *name);
/* After the host answer: each host's scrape spacing and down flag, and
 * the rate window (s->window). Returns 0 or -1 with err (no hosts). */
int rm_ps_hosts_settle(struct xg_source *s, struct xg_err *err);
/* The time the figures are of: the newest scrape of any host. */
double rm_ps_figures_time(const struct xg_source *s);
bool rm_ps_host_stale(const struct xg_source *s, const struct ps_host *h);

/* ---- remote_ps_doms.c ---- */
void rm_ps_dom_query(const struct xg_source *s, struct xg_strbuf q[PS_FETCHES]);
/* Whether the summary's CPU total (*cpu) and runstate shares (*rs) are
 * the server's sums over every domain (the domain query's total_terms asks
 * them, remote_ps_fill.c reads them): those the rows of the domains not
 * on screen do not carry, not being asked of every domain for the sort. */
void rm_ps_server_totals(const struct xg_source *s, bool *cpu, bool *rs);
int rm_ps_on_dom(void *ctx, const struct rm_qpoint *p, struct xg_err *err);

/* The entry of domain name (unescaped) of host, added when new; NULL
 * past XG_PS_DOMS_MAX. */
struct ps_dom *rm_ps_dom_of(struct xg_source *s, uint16_t host, const char *name);
/* Before a refresh's answer: no vCPU of any domain seen yet. */
void rm_ps_vcpus_reset(struct xg_source *s);
/* d's domid from the info series p's domid label, when it holds one. */
void rm_ps_take_domid(struct ps_dom *d, const struct rm_qpoint *p);
/* Marks the domains on screen (s->want) and what each is asked for. */
void rm_ps_doms_mark(struct xg_source *s);

/* ---- remote_ps_range.c ---- */
/* The source's range op: a domain's graphs from one range query. */
int rm_ps_range(struct xg_source *s, struct xg_range *r, float *out, struct xg_err *err);

/* ---- remote_ps_vcpus.c ---- */
/* The vCPU terms of the domain query (lead, then " or " between them). */
void rm_ps_vcpu_terms(const struct xg_source *s, struct xg_strbuf *b, const char *lead);
/* A vCPU series of the domain answer (f: its xgtop_f): true when it was one. */
bool rm_ps_on_vcpu(struct ps_dom *d, const char *f, const struct rm_qpoint *p);
/* d's vCPUs seen this refresh, their counters advanced by dt s of rates
 * (their changes over h's clock's change over the window). */
void rm_ps_fill_vcpus(struct ps_dom *pd, const struct ps_host *h, struct xg_sample *out, struct xg_dom *d,
		      double dt);

/* ---- remote_ps_cols.c ---- */
/* Column col's per-interval figure over a window of w seconds as a PromQL
 * expression (appended to b); false, and nothing appended, for a column
 * the report does not ask the server for. */
bool rm_ps_col_expr(const struct xg_source *s, int col, unsigned w, struct xg_strbuf *b);

/* ---- remote_ps_fill.c ---- */
/* The sample from this refresh's answers: each host a peer, each domain
 * with counters advanced by the server's rates, and the pool's own line. */
void rm_ps_fill(struct xg_source *s, struct xg_sample *out);

#endif
