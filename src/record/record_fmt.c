// SPDX-License-Identifier: GPL-2.0-or-later
/* Pieces of the recording text format shared by the writer and the reader. */
#include "record_fmt.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const enum xg_field rec_sum_field[REC_NSUM] = {
	XG_F_CPU_NS, XG_F_RUN_NS, XG_F_WAIT_NS, XG_F_BLK_NS, XG_F_OFF_NS,
};

const enum xg_field rec_sock_field[XG_SOCK_EVENT_COUNT] = {
	XG_F_L3_OCC, XG_F_MBM_TOTAL, XG_F_MBM_LOCAL,
};

uint64_t rec_vcpu_counter(const struct xg_vcpu *v, int i)
{
	return i == 0 ? v->cpu_ns : v->sched_ns[i - 1];
}

uint64_t rec_blocked_rest(const struct xg_vcpu *v, const struct xg_vcpu *o, uint64_t dmono)
{
	uint64_t rest = dmono;
	for (int st = 0; st < XG_RS_COUNT; st++)
		if (st != XG_RS_BLOCKED)
			rest -= v->sched_ns[st] - o->sched_ns[st];
	return rest;
}

bool rec_vcpu_sum(const struct xg_sample *s, const struct xg_dom *d, int i, uint64_t *sum)
{
	if (!d->vcpu_count || d->vcpu_first > s->nvcpu || d->vcpu_count > s->nvcpu - d->vcpu_first)
		return false;
	uint64_t t = 0;
	for (uint32_t k = 0; k < d->vcpu_count; k++)
		t += rec_vcpu_counter(&s->vcpu[d->vcpu_first + k], i);
	*sum = t;
	return true;
}

const char *rec_pmu_name(size_t slot, char *buf, size_t n)
{
	static const char *const where[XG_PMU_WHERE_COUNT] = { "guest_user", "guest_kernel", "host" };
	static const char *const ev[XG_PMU_EVENT_COUNT] = {
		"llc_references", "llc_misses", "instructions", "cycles",
	};
	snprintf(buf, n, "%s.%s", where[slot / XG_PMU_EVENT_COUNT], ev[slot % XG_PMU_EVENT_COUNT]);
	return buf;
}

/* Formats v in decimal at the end of t[24]; returns the first digit. The
 * recorder formats millions of numbers per second with 10,000 domains,
 * where snprintf shows up in profiles. */
static char *dec(char *t, uint64_t v)
{
	char *p = t + 24;
	do
		*--p = (char)('0' + v % 10);
	while (v /= 10);
	return p;
}

void rbuf_u64(struct xg_strbuf *b, uint64_t v)
{
	char t[24], *p = dec(t, v);
	strbuf_put(b, p, (size_t)(t + 24 - p));
}

void rbuf_hex(struct xg_strbuf *b, uint64_t v)
{
	char t[24];
	strbuf_put(b, t, (size_t)snprintf(t, sizeof(t), "%" PRIx64, v));
}

void rbuf_delta(struct xg_strbuf *b, uint64_t v, uint64_t base)
{
	if (v == base)
		return;
	/* Modulo 2^64, so a counter that wrapped or went backwards still
	 * round-trips exactly. */
	uint64_t d = v - base;
	char t[25], *p = dec(t + 1, d >> 63 ? (~d) + 1 : d);
	if (d >> 63)
		*--p = '-';
	strbuf_put(b, p, (size_t)(t + 25 - p));
}

static size_t utf8_len(const unsigned char *s)
{
	uint32_t cp;
	return xg_utf8_decode(s, &cp);
}

void rbuf_esc(struct xg_strbuf *b, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	while (*s) {
		size_t l = utf8_len(s);
		if (l == 1 && (*s < 0x20 || *s == 0x7f || *s == '\\'))
			l = 0;
		if (l) {
			strbuf_put(b, s, l);
			s += l;
		} else if (*s == '\\') {
			strbuf_put(b, "\\\\", 2);
			s++;
		} else {
			char t[8];
			strbuf_put(b, t, (size_t)snprintf(t, sizeof(t), "\\x%02x", *s++));
		}
	}
}

void rbuf_trim_tabs(struct xg_strbuf *b, size_t line_start)
{
	while (b->len > line_start && b->p[b->len - 1] == '\t')
		b->len--;
	b->p[b->len] = 0;
}

void rec_header(struct xg_strbuf *b)
{
	strbuf_puts(b, REC_MAGIC "\t");
	rbuf_u64(b, REC_MAJOR);
	strbuf_putc(b, '\t');
	rbuf_u64(b, REC_MINOR);
	strbuf_puts(b, "\txgtop " XG_VERSION "\nfields");
	for (int f = 0; f < XG_F_COUNT; f++) {
		strbuf_putc(b, '\t');
		strbuf_puts(b, field_name((enum xg_field)f));
	}
	strbuf_puts(b, "\npmu");
	for (size_t i = 0; i < REC_PMU_SLOTS; i++) {
		char t[64];
		strbuf_putc(b, '\t');
		strbuf_puts(b, rec_pmu_name(i, t, sizeof(t)));
	}
	strbuf_putc(b, '\n');
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

bool rec_unesc(const char *s, char *out, size_t n)
{
	size_t o = 0;
	while (*s) {
		int c = (unsigned char)*s++;
		if (c == '\\') {
			if (*s == '\\') {
				s++;
			} else if (*s == 'x' && hexval(s[1]) >= 0 && hexval(s[2]) >= 0) {
				c = hexval(s[1]) * 16 + hexval(s[2]);
				s += 3;
				if (!c)
					return false;
			} else {
				return false;
			}
		}
		if (o + 1 >= n)
			return false;
		out[o++] = (char)c;
	}
	out[o] = 0;
	return true;
}

static int cmp_ent(const void *a, const void *b)
{
	const struct rec_ent *x = a, *y = b;
	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	return (x->pos > y->pos) - (x->pos < y->pos);
}

void rec_index_build(struct rec_index *ix, const struct xg_sample *s)
{
	xg_grow(&ix->e, &ix->cap, s->ndom, sizeof(*ix->e));
	bool sorted = true;
	for (size_t i = 0; i < s->ndom; i++) {
		ix->e[i].id = s->dom[i].id;
		ix->e[i].pos = (uint32_t)i;
		if (i && s->dom[i - 1].id > s->dom[i].id)
			sorted = false;
	}
	ix->n = s->ndom;
	/* Sources hand over samples sorted by id; sort only when one did not. */
	if (!sorted)
		qsort(ix->e, ix->n, sizeof(*ix->e), cmp_ent);
}

static bool ent_below(const void *elem, const void *key)
{
	return ((const struct rec_ent *)elem)->id < *(const uint32_t *)key;
}

const struct xg_dom *rec_index_find(const struct rec_index *ix, const struct xg_sample *s, uint32_t id)
{
	size_t i = xg_lower_bound(ix->e, ix->n, sizeof(*ix->e), &id, ent_below);
	return i < ix->n && ix->e[i].id == id ? &s->dom[ix->e[i].pos] : NULL;
}

void rec_index_free(struct rec_index *ix)
{
	free(ix->e);
	memset(ix, 0, sizeof(*ix));
}

bool rec_prev_bind(struct rec_prev *p, const struct xg_sample *prev, const struct xg_sample *cur)
{
	if (!p->have)
		return true;
	if (!prev || prev == cur || prev->ndom != p->ndom || prev->host.mono_ns != p->mono)
		return false;
	p->base = prev;
	rec_index_build(&p->ix, prev);
	return true;
}

void rec_prev_keep(struct rec_prev *p, const struct xg_sample *s)
{
	p->have = true;
	p->ndom = s->ndom;
	p->mono = s->host.mono_ns;
}

void rec_prev_free(struct rec_prev *p)
{
	rec_index_free(&p->ix);
	memset(p, 0, sizeof(*p));
}

void rec_vcpu_owner(const struct xg_sample *s, uint32_t *owner)
{
	for (size_t i = 0; i < s->nvcpu; i++)
		owner[i] = UINT32_MAX;
	for (size_t d = 0; d < s->ndom; d++) {
		const struct xg_dom *x = &s->dom[d];
		for (uint64_t k = x->vcpu_first; k < (uint64_t)x->vcpu_first + x->vcpu_count && k < s->nvcpu; k++)
			if (owner[k] == UINT32_MAX)
				owner[k] = (uint32_t)d;
	}
}

const struct xg_vcpu *rec_vcpu_base(const struct xg_sample *s, const uint32_t *owner, size_t i,
                                    const struct xg_sample *prev, const struct rec_index *pix)
{
	if (owner[i] == UINT32_MAX)
		return NULL;
	const struct xg_dom *d = &s->dom[owner[i]];
	const struct xg_dom *pd = rec_index_find(pix, prev, d->id);
	size_t off = i - d->vcpu_first;
	if (!pd || off >= pd->vcpu_count || (uint64_t)pd->vcpu_first + off >= prev->nvcpu)
		return NULL;
	return &prev->vcpu[pd->vcpu_first + off];
}

const struct xg_sock *rec_sock_base(const struct xg_dom *pd, const struct xg_sample *prev, uint32_t off)
{
	if (!pd || off >= pd->sock_count || (uint64_t)pd->sock_first + off >= prev->nsock)
		return NULL;
	return &prev->sock[pd->sock_first + off];
}

void rec_waits_values(const struct xg_waits *w, uint64_t v[REC_WAIT_VALUES])
{
	uint64_t *p = v;
	*p++ = w->total_ns;
	*p++ = w->ntop;
	for (int i = 0; i < XG_BEHIND_TOP; i++) {
		*p++ = w->top[i].who;
		*p++ = w->top[i].ns;
	}
	*p++ = w->nlast;
	for (int i = 0; i < XG_BEHIND_TOP; i++) {
		*p++ = w->last[i].who;
		*p++ = w->last[i].ns;
	}
	*p++ = w->count;
	*p++ = w->sum_ns;
	for (int i = 0; i <= XG_WAIT_LE_N; i++)
		*p++ = w->bucket[i];
}

void rec_waits_from(struct xg_waits *w, const uint64_t v[REC_WAIT_VALUES])
{
	const uint64_t *p = v;
	w->total_ns = *p++;
	w->ntop = (uint32_t)*p++;
	for (int i = 0; i < XG_BEHIND_TOP; i++) {
		w->top[i].who = (uint32_t)*p++;
		w->top[i].ns = *p++;
	}
	w->nlast = (uint32_t)*p++;
	for (int i = 0; i < XG_BEHIND_TOP; i++) {
		w->last[i].who = (uint32_t)*p++;
		w->last[i].ns = *p++;
	}
	w->count = *p++;
	w->sum_ns = *p++;
	for (int i = 0; i <= XG_WAIT_LE_N; i++)
		w->bucket[i] = *p++;
}
