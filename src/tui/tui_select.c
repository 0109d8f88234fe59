// SPDX-License-Identifier: GPL-2.0-or-later
/* The selected row. It is kept by who it is (the domain's id, handle,
 * generation and name, and which of its rows), not by its place, so it
 * follows its domain when a new sample or a new sort reorders the list;
 * the list scrolls to keep it on screen, as htop does. */
#include "tui_state.h"

#include <string.h>

static const struct xg_dom *row_dom(const struct tui *t, const struct xg_row *r)
{
	const struct xg_sample *s = t->e->table.cur;
	return s && r->dom_index < s->ndom ? &s->dom[r->dom_index] : NULL;
}

static bool same_dom(const struct tui_sel *s, const struct xg_dom *d)
{
	return d && d->host == s->host && d->id == s->id && d->gen == s->gen &&
	       !memcmp(d->handle, s->handle, sizeof(s->handle)) && !strcmp(d->name, s->name);
}

static bool same_sub(const struct tui_sel *s, const struct xg_row *r)
{
	return r->vcpu == s->vcpu && r->sock_row == s->sock_row && (!r->sock_row || r->socket == s->socket);
}

static void remember(struct tui *t, size_t pos)
{
	const struct xg_view *v = &t->e->view;
	struct tui_sel *s = &t->sel;
	const struct xg_row *r = &t->e->table.rows[v->order[pos]];
	const struct xg_dom *d = row_dom(t, r);
	s->on = d != NULL;
	s->pos = pos;
	if (!d)
		return;
	s->id = d->id;
	s->gen = d->gen;
	s->host = d->host;
	memcpy(s->handle, d->handle, sizeof(s->handle));
	memcpy(s->name, d->name, sizeof(s->name));
	s->vcpu = r->vcpu;
	s->sock_row = r->sock_row;
	s->socket = r->socket;
}

/* The index in view.order of the selected row, or of its domain's row
 * when that sub-row is not shown now; -1 when the domain is not there. */
static long find(const struct tui *t)
{
	const struct xg_view *v = &t->e->view;
	const struct xg_row *rows = t->e->table.rows;
	const struct tui_sel *s = &t->sel;
	if (s->pos < v->norder) {
		const struct xg_row *r = &rows[v->order[s->pos]];
		if (r->id == s->id && same_sub(s, r) && same_dom(s, row_dom(t, r)))
			return (long)s->pos;
	}
	long dom_at = -1;
	for (size_t i = 0; i < v->norder; i++) {
		const struct xg_row *r = &rows[v->order[i]];
		if (r->id != s->id || !same_dom(s, row_dom(t, r)))
			continue;
		if (same_sub(s, r))
			return (long)i;
		if (row_is_dom(r))
			dom_at = (long)i;
	}
	return dom_at;
}

static void keep_visible(struct tui *t)
{
	size_t h = t->list_h > 0 ? (size_t)t->list_h : 1;
	if (t->sel.pos < t->top)
		t->top = t->sel.pos;
	else if (t->sel.pos >= t->top + h)
		t->top = t->sel.pos - h + 1;
}

const struct xg_row *tui_sel_sync(struct tui *t, bool adopt)
{
	const struct xg_view *v = &t->e->view;
	if (!t->sel.on || !v->norder)
		return NULL;
	long at = find(t);
	if (at < 0) {
		if (!adopt)
			return NULL;
		remember(t, t->sel.pos < v->norder ? t->sel.pos : v->norder - 1);
	} else if ((size_t)at != t->sel.pos || !same_sub(&t->sel, &t->e->table.rows[v->order[at]])) {
		remember(t, (size_t)at);
	}
	keep_visible(t);
	return &t->e->table.rows[v->order[t->sel.pos]];
}

void tui_sel_set(struct tui *t, size_t pos)
{
	size_t n = t->e->view.norder;
	if (!n)
		return;
	remember(t, pos < n ? pos : n - 1);
	keep_visible(t);
}

void tui_sel_move(struct tui *t, long delta)
{
	if (!t->sel.on || !tui_sel_sync(t, true)) {
		tui_sel_set(t, t->top);
		return;
	}
	size_t pos = t->sel.pos;
	if (delta < 0)
		pos = (size_t)-delta > pos ? 0 : pos - (size_t)-delta;
	else
		pos += (size_t)delta;
	tui_sel_set(t, pos);
}

/* The domain of pool host `host` with id `id` in s, sorted by (host, id). */
static const struct xg_dom *find_dom(const struct xg_sample *s, uint16_t host, uint32_t id)
{
	size_t lo = 0, hi = s->ndom;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct xg_dom *m = &s->dom[mid];
		if (m->host < host || (m->host == host && m->id < id))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < s->ndom && s->dom[lo].host == host && s->dom[lo].id == id ? &s->dom[lo] : NULL;
}

const struct xg_dom *tui_sel_dom(const struct tui *t)
{
	const struct xg_sample *s = t->e->table.cur;
	if (!t->sel.on || !s)
		return NULL;
	const struct xg_dom *d = find_dom(s, t->sel.host, t->sel.id);
	return same_dom(&t->sel, d) ? d : NULL;
}
