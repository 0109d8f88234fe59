// SPDX-License-Identifier: GPL-2.0-or-later
/* Host samples: storage, reasons, lookup. */
#include "xgtop/model/sample.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const field_names[XG_F_COUNT] = {
	[XG_F_CPU_NS] = "cpu_ns",
	[XG_F_VCPUS] = "vcpus",
	[XG_F_VCPUS_MAX] = "vcpus_max",
	[XG_F_MEM] = "mem_bytes",
	[XG_F_MAXMEM] = "maxmem_bytes",
	[XG_F_NETS] = "nets",
	[XG_F_NET_RX_BYTES] = "net_rx_bytes",
	[XG_F_NET_TX_BYTES] = "net_tx_bytes",
	[XG_F_NET_RX_PKTS] = "net_rx_packets",
	[XG_F_NET_TX_PKTS] = "net_tx_packets",
	[XG_F_NET_RX_ERRS] = "net_rx_errors",
	[XG_F_NET_TX_ERRS] = "net_tx_errors",
	[XG_F_NET_RX_DROP] = "net_rx_drops",
	[XG_F_NET_TX_DROP] = "net_tx_drops",
	[XG_F_VBDS] = "vbds",
	[XG_F_DISK_RD_OPS] = "disk_read_ops",
	[XG_F_DISK_WR_OPS] = "disk_write_ops",
	[XG_F_DISK_RD_BYTES] = "disk_read_bytes",
	[XG_F_DISK_WR_BYTES] = "disk_write_bytes",
	[XG_F_DISK_OO] = "disk_oo_reqs",
	[XG_F_RUN_NS] = "run_ns",
	[XG_F_WAIT_NS] = "wait_ns",
	[XG_F_BLK_NS] = "blocked_ns",
	[XG_F_OFF_NS] = "offline_ns",
	[XG_F_LLC_REF] = "llc_references",
	[XG_F_LLC_MISS] = "llc_misses",
	[XG_F_INSTR] = "instructions",
	[XG_F_CYCLES] = "cycles",
	[XG_F_L3_OCC] = "l3_occupancy_bytes",
	[XG_F_MBM_TOTAL] = "mbm_total_bytes",
	[XG_F_MBM_LOCAL] = "mbm_local_bytes",
	[XG_F_SSID] = "ssid",
	[XG_F_EMU_NS] = "emu_ns",
	[XG_F_VM_EXITS] = "vm_exits",
	[XG_F_HALT_POLL_NS] = "halt_poll_ns",
	[XG_F_SWAP] = "swap_bytes",
	[XG_F_PSI_CPU_SOME] = "psi_cpu_some_ns",
	[XG_F_PSI_CPU_FULL] = "psi_cpu_full_ns",
	[XG_F_PSI_MEM_SOME] = "psi_memory_some_ns",
	[XG_F_PSI_MEM_FULL] = "psi_memory_full_ns",
	[XG_F_PSI_IO_SOME] = "psi_io_some_ns",
	[XG_F_PSI_IO_FULL] = "psi_io_full_ns",
	[XG_F_BEHIND_WAIT_NS] = "behind_wait_ns",
	[XG_F_BEHIND_NS] = "behind_top_ns",
	[XG_F_BEHIND_ID] = "behind_top_id",
	[XG_F_WAIT_P50_NS] = "wait_p50_ns",
	[XG_F_WAIT_P99_NS] = "wait_p99_ns",
};

const char *field_name(enum xg_field f) { return f < XG_F_COUNT ? field_names[f] : "?"; }

void sample_init(struct xg_sample *s)
{
	memset(s, 0, sizeof(*s));
	s->nreason = 1;
}

static void free_reasons(struct xg_sample *s)
{
	for (size_t i = 1; i < s->nreason; i++)
		free(s->reason[i]);
	s->nreason = 1;
	memset(s->host_why, 0, sizeof(s->host_why));
}

void sample_free(struct xg_sample *s)
{
	free_reasons(s);
	free(s->dom);
	free(s->vcpu);
	free(s->sock);
	free(s->pcpu);
	free(s->wait);
	free(s->peer);
	sample_init(s);
}

void sample_clear(struct xg_sample *s)
{
	free_reasons(s);
	memset(&s->host, 0, sizeof(s->host));
	s->ndom = 0;
	s->nvcpu = 0;
	s->nsock = 0;
	s->npcpu = 0;
	s->pcpu_why = 0;
	s->nwait = 0;
	s->wait_why = 0;
	s->npeer = 0;
	memset(&s->totals, 0, sizeof(s->totals));
}

void sample_copy(struct xg_sample *dst, const struct xg_sample *src)
{
	if (dst == src)
		return;
	sample_clear(dst);
	dst->host = src->host;
	xg_grow(&dst->dom, &dst->dom_cap, src->ndom, sizeof(*dst->dom));
	xg_grow(&dst->vcpu, &dst->vcpu_cap, src->nvcpu, sizeof(*dst->vcpu));
	if (src->ndom)
		memcpy(dst->dom, src->dom, src->ndom * sizeof(*dst->dom));
	xg_grow(&dst->sock, &dst->sock_cap, src->nsock, sizeof(*dst->sock));
	if (src->nvcpu)
		memcpy(dst->vcpu, src->vcpu, src->nvcpu * sizeof(*dst->vcpu));
	if (src->nsock)
		memcpy(dst->sock, src->sock, src->nsock * sizeof(*dst->sock));
	xg_grow(&dst->pcpu, &dst->pcpu_cap, src->npcpu, sizeof(*dst->pcpu));
	if (src->npcpu)
		memcpy(dst->pcpu, src->pcpu, src->npcpu * sizeof(*dst->pcpu));
	dst->ndom = src->ndom;
	dst->nvcpu = src->nvcpu;
	dst->nsock = src->nsock;
	dst->npcpu = src->npcpu;
	dst->pcpu_why = src->pcpu_why;
	xg_grow(&dst->wait, &dst->wait_cap, src->nwait, sizeof(*dst->wait));
	if (src->nwait)
		memcpy(dst->wait, src->wait, src->nwait * sizeof(*dst->wait));
	dst->nwait = src->nwait;
	dst->wait_why = src->wait_why;
	dst->totals = src->totals;
	xg_grow(&dst->peer, &dst->peer_cap, src->npeer, sizeof(*dst->peer));
	if (src->npeer)
		memcpy(dst->peer, src->peer, src->npeer * sizeof(*dst->peer));
	dst->npeer = src->npeer;
	for (size_t i = 1; i < src->nreason; i++)
		dst->reason[i] = xg_strdup(src->reason[i]);
	dst->nreason = src->nreason;
	memcpy(dst->host_why, src->host_why, sizeof(dst->host_why));
}

struct xg_dom *sample_add_dom(struct xg_sample *s, uint32_t id)
{
	xg_grow(&s->dom, &s->dom_cap, s->ndom + 1, sizeof(*s->dom));
	struct xg_dom *d = &s->dom[s->ndom++];
	memset(d, 0, sizeof(*d));
	d->id = id;
	d->vcpu_first = (uint32_t)s->nvcpu;
	return d;
}

struct xg_vcpu *sample_add_vcpus(struct xg_sample *s, struct xg_dom *d, size_t n)
{
	xg_grow(&s->vcpu, &s->vcpu_cap, s->nvcpu + n, sizeof(*s->vcpu));
	struct xg_vcpu *v = s->vcpu + s->nvcpu;
	memset(v, 0, n * sizeof(*v));
	if (!d->vcpu_count)
		d->vcpu_first = (uint32_t)s->nvcpu;
	d->vcpu_count += (uint32_t)n;
	s->nvcpu += n;
	return v;
}

struct xg_sock *sample_add_socks(struct xg_sample *s, struct xg_dom *d, size_t n)
{
	xg_grow(&s->sock, &s->sock_cap, s->nsock + n, sizeof(*s->sock));
	struct xg_sock *k = s->sock + s->nsock;
	memset(k, 0, n * sizeof(*k));
	d->sock_first = (uint32_t)s->nsock;
	d->sock_count = (uint32_t)n;
	s->nsock += n;
	return k;
}

const uint64_t xg_wait_le_ns[XG_WAIT_LE_N] = {
	1ull << 13, 1ull << 15, 1ull << 17, 1ull << 18, 1ull << 19, 1ull << 20, 1ull << 21,
	1ull << 22, 1ull << 23, 1ull << 24, 1ull << 25, 1ull << 27, 1ull << 30,
};

struct xg_waits *sample_add_waits(struct xg_sample *s, struct xg_dom *d)
{
	if (d->wait_ix && d->wait_ix <= s->nwait)
		return &s->wait[d->wait_ix - 1];
	xg_grow(&s->wait, &s->wait_cap, s->nwait + 1, sizeof(*s->wait));
	struct xg_waits *w = &s->wait[s->nwait++];
	memset(w, 0, sizeof(*w));
	d->wait_ix = (uint32_t)s->nwait;
	return w;
}

const char *sample_waits_why(const struct xg_sample *s, const struct xg_dom *d)
{
	if (sample_waits(s, d))
		return NULL;
	if (s->wait_why && s->wait_why < s->nreason)
		return s->reason[s->wait_why];
	if (dom_has(d, XG_F_BEHIND_WAIT_NS))   /* measured: a source keeps no totals of nothing */
		return "no wait has ended since the source began";
	const char *why = dom_why(s, d, XG_F_BEHIND_WAIT_NS);
	return why ? why : "not measured by this source";
}

struct xg_pcpu *sample_add_pcpus(struct xg_sample *s, size_t n)
{
	xg_grow(&s->pcpu, &s->pcpu_cap, s->npcpu + n, sizeof(*s->pcpu));
	struct xg_pcpu *p = s->pcpu + s->npcpu;
	memset(p, 0, n * sizeof(*p));
	s->npcpu += n;
	return p;
}

uint8_t sample_reason(struct xg_sample *s, const char *text)
{
	for (size_t i = 1; i < s->nreason; i++)
		if (!strcmp(s->reason[i], text))
			return (uint8_t)i;
	if (s->nreason >= XG_REASON_MAX)
		return 0;
	s->reason[s->nreason] = xg_strdup(text);
	return (uint8_t)s->nreason++;
}

void dom_invalid(struct xg_sample *s, struct xg_dom *d, enum xg_field f, const char *why)
{
	d->valid &= ~(1ull << f);
	d->why[f] = why ? sample_reason(s, why) : 0;
}

void sample_invalid_all(struct xg_sample *s, enum xg_field f, const char *why)
{
	uint8_t r = why ? sample_reason(s, why) : 0;
	s->host_why[f] = r;
	for (size_t i = 0; i < s->ndom; i++) {
		s->dom[i].valid &= ~(1ull << f);
		s->dom[i].why[f] = r;
	}
}

const char *dom_why(const struct xg_sample *s, const struct xg_dom *d, enum xg_field f)
{
	if (dom_has(d, f))
		return NULL;
	uint8_t r = d->why[f] ? d->why[f] : s->host_why[f];
	return r && r < s->nreason ? s->reason[r] : NULL;
}

const char *sample_cache_uncounted(const struct xg_sample *s)
{
	const char *why = NULL;
	for (size_t i = 0; i < s->ndom; i++) {
		const struct xg_dom *d = &s->dom[i];
		if (dom_has(d, XG_F_LLC_REF) || dom_has(d, XG_F_LLC_MISS))
			return NULL;
		if (!why)
			why = dom_why(s, d, XG_F_LLC_MISS);
	}
	if (!s->ndom)
		return NULL;
	return why ? why : "not counted";
}

struct xg_peer *sample_add_peer(struct xg_sample *s, const char *name)
{
	xg_grow(&s->peer, &s->peer_cap, s->npeer + 1, sizeof(*s->peer));
	struct xg_peer *p = &s->peer[s->npeer++];
	memset(p, 0, sizeof(*p));
	snprintf(p->name, sizeof(p->name), "%s", name);
	return p;
}

static int cmp_dom(const void *a, const void *b)
{
	return dom_order(a, b);
}

void sample_sort(struct xg_sample *s)
{
	for (size_t i = 1; i < s->ndom; i++)
		if (dom_order(&s->dom[i - 1], &s->dom[i]) > 0) {
			qsort(s->dom, s->ndom, sizeof(*s->dom), cmp_dom);
			return;
		}
}

static bool dom_below(const void *elem, const void *key)
{
	return ((const struct xg_dom *)elem)->id < *(const uint32_t *)key;
}

struct xg_dom *sample_find(const struct xg_sample *s, uint32_t id)
{
	size_t i = xg_lower_bound(s->dom, s->ndom, sizeof(*s->dom), &id, dom_below);
	return i < s->ndom && s->dom[i].id == id ? &s->dom[i] : NULL;
}

struct xg_dom_ident dom_ident(const struct xg_dom *d)
{
	struct xg_dom_ident k = { .id = d->id, .gen = d->gen };
	memcpy(k.handle, d->handle, sizeof(k.handle));
	memcpy(k.name, d->name, sizeof(k.name));
	return k;
}

/* strncmp(a, b, XG_NAME_MAX) == 0 for two whole name arrays, eight bytes
 * at a time: metrics and the history ask it for every domain and refresh. */
bool dom_names_equal(const char *a, const char *b)
{
	for (size_t i = 0; i < XG_NAME_MAX; i += sizeof(uint64_t)) {
		uint64_t x, y;
		memcpy(&x, a + i, sizeof(x));
		memcpy(&y, b + i, sizeof(y));
		if (x != y) {
			for (size_t k = i; k < i + sizeof(x); k++) {
				if (a[k] != b[k])
					return false;
				if (!a[k])
					return true;
			}
		}
		/* A zero byte in x: equal up to the end of the name. */
		if ((x - 0x0101010101010101ull) & ~x & 0x8080808080808080ull)
			return true;
	}
	return true;
}
_Static_assert(XG_NAME_MAX % sizeof(uint64_t) == 0, "names are whole words");

static bool same_as(uint32_t id, uint32_t gen, const uint8_t handle[16], const char *name,
		    const struct xg_dom *now, enum xg_same how)
{
	if (id != now->id || gen != now->gen || memcmp(handle, now->handle, sizeof(now->handle)))
		return false;
	return how == XG_SAME_OBJECT || dom_names_equal(name, now->name);
}

bool dom_same(const struct xg_dom_ident *was, const struct xg_dom *now, enum xg_same how)
{
	return same_as(was->id, was->gen, was->handle, was->name, now, how);
}

bool dom_same_dom(const struct xg_dom *was, const struct xg_dom *now, enum xg_same how)
{
	return same_as(was->id, was->gen, was->handle, was->name, now, how);
}

void carry_init(struct xg_carry *c, size_t size)
{
	memset(c, 0, sizeof(*c));
	c->size = size;
}

void carry_free(struct xg_carry *c)
{
	free(c->cur);
	free(c->next);
	carry_init(c, c->size);
}

void carry_begin(struct xg_carry *c, size_t max)
{
	xg_grow(&c->next, &c->next_cap, max, c->size);
	c->nnext = 0;
	c->cursor = 0;
}

void *carry_take(struct xg_carry *c, const struct xg_dom *d, enum xg_same how)
{
	const struct xg_dom_ident *old = NULL;
	while (c->cursor < c->n && ((const struct xg_dom_ident *)carry_at(c, c->cursor))->id < d->id)
		c->cursor++;
	if (c->cursor < c->n && dom_same(carry_at(c, c->cursor), d, how))
		old = carry_at(c, c->cursor++);
	xg_grow(&c->next, &c->next_cap, c->nnext + 1, c->size);
	void *e = (char *)c->next + c->nnext++ * c->size;
	if (old)
		memcpy(e, old, c->size);
	else
		memset(e, 0, c->size);
	*(struct xg_dom_ident *)e = dom_ident(d);
	return e;
}

void carry_end(struct xg_carry *c)
{
	void *t = c->cur;
	size_t tc = c->cap;
	c->cur = c->next;
	c->cap = c->next_cap;
	c->n = c->nnext;
	c->next = t;
	c->next_cap = tc;
}
