// SPDX-License-Identifier: GPL-2.0-or-later
/* An exporter's sample lines onto one host sample. The names come from
 * the same table the exporter renders with (model/metric_defs), so the two
 * cannot drift. A domain is known by its identity labels (domain, uuid,
 * id); its vCPUs and sockets arrive family by family, so they are gathered
 * first and put under their domain at the end. Counts are bounded: a host
 * that claims more domains, vCPUs or sockets than RM_*_MAX is refused. */
#include "remote_parts.h"
#include "xgtop/model/metric_defs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RM_DOM_MAX 65536
#define RM_SUB_MAX (1u << 20)       /* vCPU or socket entries of one host */
#define RM_SOCKET_MAX 256

enum kind {
	K_FIELD, K_PMU, K_DOM_INFO, K_DOM_STATE, K_GUEST, K_VCPU_ONLINE, K_VCPU_CPU, K_VCPU_RS,
	K_SOCK, K_HOST_INFO, K_PCPUS, K_CPU_HZ, K_MEM, K_MEM_FREE, K_TIME, K_MONO, K_LOST,
};

#define ENTRY_LABELS 2           /* pressure: resource and kind */
struct entry {
	char wire[96];              /* name as sent: family + _total / _info */
	size_t wlen;
	/* the labels that set a shared family apart (lkey[0][0] = none) */
	char lkey[ENTRY_LABELS][16], lval[ENTRY_LABELS][24];
	enum kind kind;
	int a, b;                   /* field, or where/event, or socket event */
	const struct xg_metric *m;
};

/* A vCPU or socket entry, until it can be placed under its domain. */
struct sub {
	uint32_t dom, id;
	struct xg_vcpu v;
	struct xg_sock k;
};

struct hmap {
	uint64_t *hash;
	uint32_t *val;              /* index + 1, 0 = empty slot */
	size_t cap, n;
};

struct build {
	struct entry *e;
	size_t ne;
	struct xg_sample *out;
	struct xg_dom *dom;         /* domains, in the order first seen */
	size_t ndom, dom_cap;
	struct sub *vc, *sk;
	size_t nvc, vc_cap, nsk, sk_cap;
	struct hmap dmap, vmap, smap;
};

/* ---- the name table ---- */

static void add_entry(struct build *b, const struct xg_metric *m, enum kind k, int a, int c)
{
	struct entry *e = &b->e[b->ne++];
	memset(e, 0, sizeof(*e));
	snprintf(e->wire, sizeof(e->wire), "%s%s", m->name,
		 m->type == XG_MT_COUNTER ? "_total" : m->type == XG_MT_INFO ? "_info" : "");
	e->wlen = strlen(e->wire);
	/* key="value"[,key="value"]: the table's own text, so well formed */
	const char *l = m->label;
	for (int i = 0; l && *l && i < ENTRY_LABELS; i++) {
		const char *eq = strchr(l, '='), *end = strchr(eq + 2, '"');
		snprintf(e->lkey[i], sizeof(e->lkey[i]), "%.*s", (int)(eq - l), l);
		snprintf(e->lval[i], sizeof(e->lval[i]), "%.*s", (int)(end - eq - 2), eq + 2);
		l = end[1] == ',' ? end + 2 : NULL;
	}
	e->kind = k;
	e->a = a;
	e->b = c;
	e->m = m;
}

static void build_table(struct build *b)
{
	static const struct { enum xg_mfam f; enum kind k; int a; } fixed[] = {
		{ XG_MF_DOMAIN, K_DOM_INFO, 0 }, { XG_MF_DOMAIN_STATE, K_DOM_STATE, 0 },
		{ XG_MF_GUEST_REPORTED, K_GUEST, 0 }, { XG_MF_VCPU_ONLINE, K_VCPU_ONLINE, 0 },
		{ XG_MF_VCPU_CPU, K_VCPU_CPU, 0 }, { XG_MF_VCPU_RUNSTATE, K_VCPU_RS, 0 },
		{ XG_MF_SOCK_L3_OCC, K_SOCK, XG_SOCK_L3_OCC }, { XG_MF_SOCK_MBM_TOTAL, K_SOCK, XG_SOCK_MBM_TOTAL },
		{ XG_MF_SOCK_MBM_LOCAL, K_SOCK, XG_SOCK_MBM_LOCAL }, { XG_MF_HOST, K_HOST_INFO, 0 },
		{ XG_MF_HOST_PCPUS, K_PCPUS, 0 }, { XG_MF_HOST_CPU_HZ, K_CPU_HZ, 0 },
		{ XG_MF_HOST_MEM, K_MEM, 0 }, { XG_MF_HOST_MEM_FREE, K_MEM_FREE, 0 },
		{ XG_MF_SAMPLE_TIME, K_TIME, 0 }, { XG_MF_SAMPLE_MONO, K_MONO, 0 }, { XG_MF_LOST, K_LOST, 0 },
	};
	b->e = xg_calloc(XG_F_COUNT + XG_PMU_WHERE_COUNT * XG_PMU_EVENT_COUNT + XG_ARRAY_LEN(fixed),
			 sizeof(*b->e));
	for (int f = 0; f < XG_F_COUNT; f++)
		add_entry(b, &xg_field_metric[f], K_FIELD, f, 0);
	for (int w = 0; w < XG_PMU_WHERE_COUNT; w++)
		for (int ev = 0; ev < XG_PMU_EVENT_COUNT; ev++)
			add_entry(b, &xg_pmu_metric[w][ev], K_PMU, w, ev);
	for (size_t i = 0; i < XG_ARRAY_LEN(fixed); i++)
		add_entry(b, &xg_fixed_metric[fixed[i].f], fixed[i].k, fixed[i].a, 0);
}

static const struct entry *lookup(const struct build *b, const struct rm_series *s)
{
	for (size_t i = 0; i < b->ne; i++) {
		const struct entry *e = &b->e[i];
		if (e->wlen != s->nlen || memcmp(e->wire, s->name, s->nlen))
			continue;
		bool match = true;
		for (int k = 0; k < ENTRY_LABELS && e->lkey[k][0] && match; k++) {
			const char *v = rm_label(s, e->lkey[k]);
			match = v && !strcmp(v, e->lval[k]);
		}
		if (match)
			return e;
	}
	return NULL;
}

/* ---- a small hash map from byte strings to indexes ---- */

static uint64_t hash_bytes(const void *p, size_t n)
{
	const unsigned char *s = p;
	uint64_t h = 1469598103934665603ull;
	for (size_t i = 0; i < n; i++)
		h = (h ^ s[i]) * 1099511628211ull;
	return h ? h : 1;
}

/* The slot of h: where it is, or the empty slot where it would go. A hash
 * stands for its key: a collision between two keys of one host merges two
 * entries (64-bit hashes: not by accident). */
static size_t hmap_slot(const struct hmap *m, uint64_t h)
{
	size_t i = (size_t)h & (m->cap - 1);
	while (m->val[i] && m->hash[i] != h)
		i = (i + 1) & (m->cap - 1);
	return i;
}

static void hmap_grow(struct hmap *m)
{
	struct hmap old = *m;
	m->cap = old.cap ? old.cap * 2 : 256;
	m->hash = xg_calloc(m->cap, sizeof(*m->hash));
	m->val = xg_calloc(m->cap, sizeof(*m->val));
	for (size_t i = 0; i < old.cap; i++)
		if (old.val[i]) {
			size_t j = hmap_slot(m, old.hash[i]);
			m->hash[j] = old.hash[i];
			m->val[j] = old.val[i];
		}
	free(old.hash);
	free(old.val);
}

/* The index stored for h, or the next one (*fresh set) when new. */
static uint32_t hmap_get(struct hmap *m, uint64_t h, uint32_t next, bool *fresh)
{
	if ((m->n + 1) * 2 > m->cap)
		hmap_grow(m);
	size_t i = hmap_slot(m, h);
	*fresh = !m->val[i];
	if (*fresh) {
		m->hash[i] = h;
		m->val[i] = next + 1;
		m->n++;
	}
	return m->val[i] - 1;
}

static void hmap_free(struct hmap *m)
{
	free(m->hash);
	free(m->val);
}

/* ---- domains, vCPUs, sockets ---- */

static void key_add(uint64_t *h, const char *v)
{
	uint64_t x = hash_bytes(v ? v : "", v ? strlen(v) + 1 : 0);
	*h = (*h ^ x) * 1099511628211ull + 0x9e3779b97f4a7c15ull;
}

static bool parse_uuid(const char *s, uint8_t out[16])
{
	for (int i = 0; i < 16; i++) {
		if (*s == '-')
			s++;
		unsigned x;
		if (sscanf(s, "%2x", &x) != 1 || !s[0] || !s[1])
			return false;
		out[i] = (uint8_t)x;
		s += 2;
	}
	return !*s;
}

static struct xg_dom *find_dom(struct build *b, const struct rm_series *s, struct xg_err *err)
{
	const char *name = rm_label(s, "domain"), *uuid = rm_label(s, "uuid"), *id = rm_label(s, "id");
	if (!name && !uuid && !id) {
		xg_fail(err, "a domain series without domain, uuid or id label");
		return NULL;
	}
	uint64_t h = 1;
	key_add(&h, name);
	key_add(&h, uuid);
	key_add(&h, id);
	bool fresh;
	uint32_t i = hmap_get(&b->dmap, h, (uint32_t)b->ndom, &fresh);
	if (!fresh)
		return &b->dom[i];
	if (b->ndom >= RM_DOM_MAX) {
		xg_fail(err, "more than %d domains", RM_DOM_MAX);
		return NULL;
	}
	xg_grow(&b->dom, &b->dom_cap, b->ndom + 1, sizeof(*b->dom));
	struct xg_dom *d = &b->dom[b->ndom++];
	memset(d, 0, sizeof(*d));
	rm_unescape_name(d->name, sizeof(d->name), name ? name : "");
	uint64_t u;
	if (id && xg_parse_u64(id, &u) && u <= UINT32_MAX)
		d->id = (uint32_t)u;
	if (uuid && !parse_uuid(uuid, d->handle))
		memset(d->handle, 0, sizeof(d->handle));
	return d;
}

static struct sub *find_sub(struct build *b, bool sock, uint32_t dom, const char *label,
			    const struct rm_series *s, struct xg_err *err)
{
	const char *v = rm_label(s, label);
	uint64_t id;
	if (!v || !xg_parse_u64(v, &id) || id >= (sock ? RM_SOCKET_MAX : UINT32_MAX)) {
		xg_fail(err, "missing or bad %s label", label);
		return NULL;
	}
	struct hmap *m = sock ? &b->smap : &b->vmap;
	struct sub **arr = sock ? &b->sk : &b->vc;
	size_t *n = sock ? &b->nsk : &b->nvc, *cap = sock ? &b->sk_cap : &b->vc_cap;
	bool fresh;
	uint32_t i = hmap_get(m, hash_bytes((uint64_t[]){ dom, id }, 16), (uint32_t)*n, &fresh);
	if (!fresh)
		return &(*arr)[i];
	if (*n >= RM_SUB_MAX) {
		xg_fail(err, "more than %u %s entries", RM_SUB_MAX, label);
		return NULL;
	}
	xg_grow(arr, cap, *n + 1, sizeof(**arr));
	struct sub *x = &(*arr)[(*n)++];
	memset(x, 0, sizeof(*x));
	x->dom = dom;
	x->id = (uint32_t)id;
	return x;
}

/* ---- one sample line ---- */

static bool value(const struct rm_series *s, const struct entry *e, uint64_t *v, struct xg_err *err)
{
	if (rm_value_u64(s->value, s->vlen, e->m->decimals, e->m->inf_at_max, v))
		return true;
	xg_fail(err, "%s: value '%.*s' is not a count", e->wire, (int)(s->vlen < 40 ? s->vlen : 40), s->value);
	return false;
}

static void host_label(char *dst, size_t n, const struct rm_series *s, const char *key)
{
	const char *v = rm_label(s, key);
	if (v)
		snprintf(dst, n, "%s", v);
}

static void host_info(struct xg_host *h, const struct rm_series *s)
{
	const char *hyp = rm_label(s, "hypervisor"), *ver = rm_label(s, "version");
	host_label(h->source, sizeof(h->source), s, "source");
	snprintf(h->hypervisor, sizeof(h->hypervisor), "%.40s%s%.22s", hyp ? hyp : "", ver ? " " : "",
		 ver ? ver : "");
	host_label(h->hostname, sizeof(h->hostname), s, "hostname");
	host_label(h->sched, sizeof(h->sched), s, "scheduler");
	host_label(h->cache_events, sizeof(h->cache_events), s, "cache_events");
}

static int host_line(struct xg_host *h, const struct entry *e, uint64_t v)
{
	switch (e->kind) {
	case K_PCPUS: h->pcpus = v > UINT32_MAX ? UINT32_MAX : (uint32_t)v; host_mark(h, XG_H_PCPUS); break;
	case K_CPU_HZ: h->cpu_khz = v / 1000; host_mark(h, XG_H_CPU_KHZ); break;
	case K_MEM: h->mem_total = v; host_mark(h, XG_H_MEM); break;
	case K_MEM_FREE: h->mem_free = v; break;
	case K_TIME: h->real_ns = v; break;
	case K_MONO: h->mono_ns = v; break;
	case K_LOST: h->lost_records = v; host_mark(h, XG_H_LOST); break;
	default: break;
	}
	return 0;
}

static int sub_line(struct build *b, const struct entry *e, uint32_t dom, const struct rm_series *s,
		    uint64_t v, struct xg_err *err)
{
	struct sub *x = find_sub(b, e->kind == K_SOCK, dom, e->kind == K_SOCK ? "socket" : "vcpu", s, err);
	if (!x)
		return -1;
	if (e->kind == K_SOCK) {
		x->k.v[e->a] = v;
		x->k.valid |= (uint8_t)(1u << e->a);
	} else if (e->kind == K_VCPU_ONLINE) {
		x->v.online = v != 0;
	} else if (e->kind == K_VCPU_CPU) {
		x->v.cpu_ns = v;
		x->v.valid |= XG_VCPU_CPU_VALID;
	} else {
		const char *st = rm_label(s, "state");
		for (int r = 0; st && r < XG_RS_COUNT; r++)
			if (!strcmp(st, xg_runstate_label[r])) {
				x->v.sched_ns[r] = v;
				x->v.valid |= (uint8_t)(1u << r);
			}
	}
	return 0;
}

static void dom_line(struct xg_dom *d, const struct entry *e, const struct rm_series *s, uint64_t v)
{
	uint64_t u;
	const char *st;
	switch (e->kind) {
	case K_FIELD: dom_set(d, (enum xg_field)e->a, v); break;
	case K_PMU:
		d->pmu[e->a][e->b] = v;
		d->pmu_valid |= 1ull << (e->a * XG_PMU_EVENT_COUNT + e->b);
		break;
	case K_GUEST: d->guest_reported = v != 0; break;
	case K_DOM_INFO:
		if ((st = rm_label(s, "domid")) && xg_parse_u64(st, &u) && u <= UINT32_MAX)
			d->id = (uint32_t)u;
		break;
	case K_DOM_STATE:
		st = rm_label(s, "state");
		for (int i = 0; st && i < XG_STATE_FLAGS; i++)
			if (!strcmp(st, xg_state_label[i]) && v)
				d->state |= 1u << i;
		break;
	default: break;
	}
}

static int on_series(void *ctx, const struct rm_series *s, struct xg_err *err)
{
	struct build *b = ctx;
	const struct entry *e = lookup(b, s);
	uint64_t v = 0;
	if (!e)
		return 0;   /* a family this xgtop does not show (build, collector ...) */
	if (e->kind == K_HOST_INFO) {
		host_info(&b->out->host, s);
		return 0;
	}
	if (!value(s, e, &v, err))
		return -1;
	if (e->kind >= K_PCPUS)
		return host_line(&b->out->host, e, v);
	struct xg_dom *d = find_dom(b, s, err);
	if (!d)
		return -1;
	if (e->kind == K_VCPU_ONLINE || e->kind == K_VCPU_CPU || e->kind == K_VCPU_RS || e->kind == K_SOCK)
		return sub_line(b, e, (uint32_t)(d - b->dom), s, v, err);
	dom_line(d, e, s, v);
	return 0;
}

/* ---- the host sample ---- */

static int cmp_sub(const void *a, const void *b)
{
	const struct sub *x = a, *y = b;
	if (x->dom != y->dom)
		return x->dom < y->dom ? -1 : 1;
	return (x->id > y->id) - (x->id < y->id);
}

/* Domains in the order first seen, each followed by its vCPUs and sockets
 * (sorted by id), as sample_add_* want them. */
static void emit(struct build *b)
{
	struct xg_sample *out = b->out;
	if (b->nvc)   /* qsort's array may not be NULL, even empty */
		qsort(b->vc, b->nvc, sizeof(*b->vc), cmp_sub);
	if (b->nsk)
		qsort(b->sk, b->nsk, sizeof(*b->sk), cmp_sub);
	size_t iv = 0, is = 0;
	for (size_t i = 0; i < b->ndom; i++) {
		struct xg_dom *d = sample_add_dom(out, b->dom[i].id);
		uint32_t first = d->vcpu_first;
		*d = b->dom[i];
		d->vcpu_first = first;
		d->vcpu_count = d->sock_count = d->sock_first = 0;
		d->wait_ix = 0;
		size_t nv = 0, ns = 0;
		while (iv + nv < b->nvc && b->vc[iv + nv].dom == i)
			nv++;
		while (is + ns < b->nsk && b->sk[is + ns].dom == i)
			ns++;
		struct xg_vcpu *v = nv ? sample_add_vcpus(out, d, nv) : NULL;
		for (size_t k = 0; k < nv; k++, iv++) {
			v[k] = b->vc[iv].v;
			v[k].id = b->vc[iv].id;
		}
		struct xg_sock *k = ns ? sample_add_socks(out, d, ns) : NULL;
		for (size_t j = 0; j < ns; j++, is++) {
			k[j] = b->sk[is].k;
			k[j].socket = b->sk[is].id;
		}
	}
}

/* The exporter has no line for the host's "domains are VMs" flag; a host
 * that publishes any VM figure runs them, so the pool view shows the vm
 * columns as that host's own view does. */
static uint64_t any_figure(const struct xg_sample *s)
{
	uint64_t any = 0;
	for (size_t i = 0; i < s->ndom; i++)
		any |= s->dom[i].valid;
	return any;
}
#define VM_FIELDS (1ull << XG_F_EMU_NS | 1ull << XG_F_VM_EXITS | 1ull << XG_F_HALT_POLL_NS | \
		   1ull << XG_F_SWAP)
/* Likewise the pressure columns: a host that publishes pressure reads it. */
#define PSI_FIELDS (((1ull << (XG_PSI_RES_COUNT * XG_PSI_KIND_COUNT)) - 1) << XG_F_PSI_CPU_SOME)

/* And the wait columns: a host that publishes them attributes waits. */
#define WAITS_FIELDS (1ull << XG_F_BEHIND_WAIT_NS | 1ull << XG_F_WAIT_P50_NS)

void rm_host_flags(struct xg_host *h, uint64_t published)
{
	if (published & VM_FIELDS)
		host_mark(h, XG_H_VMS);
	if (published & PSI_FIELDS)
		host_mark(h, XG_H_PSI);
	if (published & WAITS_FIELDS)
		host_mark(h, XG_H_WAITS);
}

int rm_map_text(const char *text, size_t n, struct xg_sample *out, struct xg_err *err)
{
	struct build b = { .out = out };
	build_table(&b);
	int rc = rm_prom_parse(text, n, on_series, &b, err);
	if (rc == 0 && !out->host.mono_ns)
		rc = xg_fail(err, "no %s series: not an xgtop exporter?", xg_fixed_metric[XG_MF_SAMPLE_MONO].name);
	if (rc == 0) {
		emit(&b);
		rm_host_flags(&out->host, any_figure(out));
		uint8_t why = sample_reason(out, "not published by that host's exporter (not measured there: "
					    "xgtop --explain on that host says why)");
		memset(out->host_why, why, sizeof(out->host_why));
		sample_sort(out);
	}
	free(b.e);
	free(b.dom);
	free(b.vc);
	free(b.sk);
	hmap_free(&b.dmap);
	hmap_free(&b.vmap);
	hmap_free(&b.smap);
	return rc;
}
