// SPDX-License-Identifier: GPL-2.0-or-later
/* The accounting's tables: one entry per (domain, vCPU), found through a
 * direct index by domid and vCPU id, and one per pCPU, each added when a
 * record first names it. Both sets of rules (xentrace_account.c and
 * xenalyze's, xentrace_compat.c) fill them; neither calls the other
 * through here. */
#include "xentrace_acct_rules.h"

#include <stdlib.h>
#include <string.h>

static void index_free(struct xt_acct *a);

void xt_acct_init(struct xt_acct *a, enum xt_mode mode)
{
	memset(a, 0, sizeof(*a));
	a->mode = mode;
}

void xt_acct_free(struct xt_acct *a)
{
	xt_behind_free(a);
	free(a->v);
	index_free(a);
	free(a->p);
	memset(a, 0, sizeof(*a));
}

/* Points the direct index for (dom, vcpu) at v[i]. */
static void index_put(struct xt_acct *a, uint32_t dom, uint32_t vcpu, size_t i)
{
	if (dom > 0xffffu)
		return;   /* not indexed: see xt_acct_vcpu_add */
	if (dom >= a->ndix) {
		size_t cap = a->ndix;
		xg_grow(&a->dix, &cap, (size_t)dom + 1, sizeof(*a->dix));
		memset(a->dix + a->ndix, 0, (cap - a->ndix) * sizeof(*a->dix));
		a->ndix = cap;
	}
	struct xt_dom_ix *d = &a->dix[dom];
	if (vcpu >= d->cap) {
		size_t cap = d->cap;
		xg_grow(&d->ix, &cap, (size_t)vcpu + 1, sizeof(*d->ix));
		memset(d->ix + d->cap, 0, (cap - d->cap) * sizeof(*d->ix));
		d->cap = (uint32_t)cap;
	}
	d->ix[vcpu] = (uint32_t)i + 1;
}

static void reindex(struct xt_acct *a)
{
	for (size_t d = 0; d < a->ndix; d++)
		if (a->dix[d].cap)
			memset(a->dix[d].ix, 0, a->dix[d].cap * sizeof(*a->dix[d].ix));
	for (size_t i = 0; i < a->nv; i++)
		index_put(a, a->v[i].dom, a->v[i].vcpu, i);
}

static void index_free(struct xt_acct *a)
{
	for (size_t d = 0; d < a->ndix; d++)
		free(a->dix[d].ix);
	free(a->dix);
	a->dix = NULL;
	a->ndix = 0;
}

size_t xt_acct_vcpu_add(struct xt_acct *a, uint32_t dom, uint32_t vcpu)
{
	vcpu &= 0xffffu;   /* vCPU ids are 16 bits in every record */
	if (dom < a->ndix && vcpu < a->dix[dom].cap && a->dix[dom].ix[vcpu])
		return a->dix[dom].ix[vcpu] - 1;
	/* Records carry 16-bit domids; a caller's larger id is looked up by
	 * a search rather than growing the table to it. */
	if (dom > 0xffffu)
		for (size_t i = 0; i < a->nv; i++)
			if (a->v[i].dom == dom && a->v[i].vcpu == vcpu)
				return i;
	xg_grow(&a->v, &a->vcap, a->nv + 1, sizeof(*a->v));
	struct xt_vcpu_acct *v = &a->v[a->nv++];
	memset(v, 0, sizeof(*v));
	v->dom = dom;
	v->vcpu = (uint16_t)vcpu;
	v->state = XT_NSTATES;
	v->xs = XT_CS_INIT;
	v->xp = -1;
	v->ran_pcpu = -1;
	v->lo_wrong = XT_CS_INIT;
	index_put(a, dom, (uint16_t)vcpu, a->nv - 1);
	return a->nv - 1;
}

struct xt_pcpu_acct *xt_acct_pcpu_add(struct xt_acct *a, uint32_t p)
{
	while (p >= a->np) {
		xg_grow(&a->p, &a->pcap, a->np + 1, sizeof(*a->p));
		struct xt_pcpu_acct *pc = &a->p[a->np++];
		memset(pc, 0, sizeof(*pc));
		pc->current = pc->dflt = -1;
		pc->seen_valid_schedule = true;
	}
	return &a->p[p];
}

static int cmp_vcpu(const void *x, const void *y)
{
	const struct xt_vcpu_acct *a = x, *b = y;
	if (a->dom != b->dom)
		return a->dom < b->dom ? -1 : 1;
	return (a->vcpu > b->vcpu) - (a->vcpu < b->vcpu);
}

void xt_acct_sort(struct xt_acct *a)
{
	/* pCPU "current" indices would dangle: only call once accounting is done. */
	if (a->nv > 1)
		qsort(a->v, a->nv, sizeof(*a->v), cmp_vcpu);
	for (size_t i = 0; i < a->np; i++)
		a->p[i].current = a->p[i].dflt = -1;
	reindex(a);
}
