// SPDX-License-Identifier: GPL-2.0-or-later
/* Host samples: storage, reasons, lookup. */
#include "xgtop/core/sample.h"

#include <stdlib.h>
#include <string.h>

static const struct {
	const char *name;
	bool counter;
} fields[XG_F_COUNT] = {
	[XG_F_CPU_NS] = { "cpu_ns", true },
	[XG_F_VCPUS] = { "vcpus", false },
	[XG_F_VCPUS_MAX] = { "vcpus_max", false },
	[XG_F_MEM] = { "mem_bytes", false },
	[XG_F_MAXMEM] = { "maxmem_bytes", false },
	[XG_F_NETS] = { "nets", false },
	[XG_F_NET_RX_BYTES] = { "net_rx_bytes", true },
	[XG_F_NET_TX_BYTES] = { "net_tx_bytes", true },
	[XG_F_NET_RX_PKTS] = { "net_rx_packets", true },
	[XG_F_NET_TX_PKTS] = { "net_tx_packets", true },
	[XG_F_NET_RX_ERRS] = { "net_rx_errors", true },
	[XG_F_NET_TX_ERRS] = { "net_tx_errors", true },
	[XG_F_NET_RX_DROP] = { "net_rx_drops", true },
	[XG_F_NET_TX_DROP] = { "net_tx_drops", true },
	[XG_F_VBDS] = { "vbds", false },
	[XG_F_DISK_RD_OPS] = { "disk_read_ops", true },
	[XG_F_DISK_WR_OPS] = { "disk_write_ops", true },
	[XG_F_DISK_RD_BYTES] = { "disk_read_bytes", true },
	[XG_F_DISK_WR_BYTES] = { "disk_write_bytes", true },
	[XG_F_DISK_OO] = { "disk_oo_reqs", true },
	[XG_F_RUN_NS] = { "run_ns", true },
	[XG_F_WAIT_NS] = { "wait_ns", true },
	[XG_F_BLK_NS] = { "blocked_ns", true },
	[XG_F_OFF_NS] = { "offline_ns", true },
	[XG_F_LLC_REF] = { "llc_references", true },
	[XG_F_LLC_MISS] = { "llc_misses", true },
	[XG_F_INSTR] = { "instructions", true },
	[XG_F_CYCLES] = { "cycles", true },
	[XG_F_L3_OCC] = { "l3_occupancy_bytes", false },
	[XG_F_MBM_TOTAL] = { "mbm_total_bytes", true },
	[XG_F_MBM_LOCAL] = { "mbm_local_bytes", true },
	[XG_F_SSID] = { "ssid", false },
	[XG_F_EMU_NS] = { "emu_ns", true },
	[XG_F_VM_EXITS] = { "vm_exits", true },
	[XG_F_HALT_POLL_NS] = { "halt_poll_ns", true },
	[XG_F_SWAP] = { "swap_bytes", false },
};

const char *field_name(enum xg_field f) { return f < XG_F_COUNT ? fields[f].name : "?"; }
bool field_is_counter(enum xg_field f) { return f < XG_F_COUNT && fields[f].counter; }

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
	sample_init(s);
}

void sample_clear(struct xg_sample *s)
{
	free_reasons(s);
	memset(&s->host, 0, sizeof(s->host));
	s->ndom = 0;
	s->nvcpu = 0;
	s->nsock = 0;
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
	dst->ndom = src->ndom;
	dst->nvcpu = src->nvcpu;
	dst->nsock = src->nsock;
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

static int cmp_dom(const void *a, const void *b)
{
	const struct xg_dom *x = a, *y = b;
	return (x->id > y->id) - (x->id < y->id);
}

void sample_sort(struct xg_sample *s)
{
	for (size_t i = 1; i < s->ndom; i++)
		if (s->dom[i - 1].id > s->dom[i].id) {
			qsort(s->dom, s->ndom, sizeof(*s->dom), cmp_dom);
			return;
		}
}

const struct xg_dom *sample_find(const struct xg_sample *s, uint32_t id)
{
	size_t lo = 0, hi = s->ndom;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (s->dom[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < s->ndom && s->dom[lo].id == id ? &s->dom[lo] : NULL;
}
