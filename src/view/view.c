// SPDX-License-Identifier: GPL-2.0-or-later
/* View state: which rows and columns, in what order. No ncurses here. */
#include "xgtop/view/view.h"
#include "view_sort.h"
#include "view_stable.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void view_init(struct xg_view *v, const struct xg_config *cfg)
{
	memset(v, 0, sizeof(*v));
	/* -o xentop reproduces xentop -b, whose rows come in name order. */
	v->sort_col = cfg->output == XG_OUT_XENTOP ? XG_COL_NAME : XG_COL_CPU_PCT;
	v->show_net = !cfg->nonet;
	v->show_disk = !cfg->nodisk;
	v->show_sched = !cfg->notrace;
	v->show_cache = !cfg->nocache;
	v->sumcache = !cfg->nosumcache;
	v->show_vcpus = cfg->vcpus;
	v->show_meters = true;
	view_cols_reset(v);
	thresholds_defaults(&v->thr);
	susp_cfg_defaults(&v->susp);
	v->reverse = cfg->reverse;
	v->delay_s = cfg->delay_s;
	v->stable = cfg->stable_order != 0;
	snprintf(v->theme, sizeof(v->theme), "%s", view_theme_name_ok(cfg->theme) ? cfg->theme : "default");
	if (cfg->sort) {
		int c = col_lookup(cfg->sort);
		if (c >= 0 && view_sortable((enum xg_col)c))
			v->sort_col = (enum xg_col)c;
	}
}

void view_free(struct xg_view *v)
{
	if (v->has_filter)
		regfree(&v->filter);
	for (size_t i = 0; i < v->nvmnames; i++)
		free(v->vmnames[i]);
	free(v->vmnames);
	free(v->order);
	view_sort_free(v);
	view_stable_free(v);
	memset(v, 0, sizeof(*v));
}

int view_set_filter(struct xg_view *v, const char *re, struct xg_err *err)
{
	if (!re || !*re) {
		if (v->has_filter)
			regfree(&v->filter);
		v->has_filter = false;
		v->filter_text[0] = 0;
		return 0;
	}
	regex_t nre;
	int rc = regcomp(&nre, re, REG_EXTENDED | REG_ICASE | REG_NOSUB);
	if (rc) {
		char msg[128];
		regerror(rc, &nre, msg, sizeof(msg));
		return xg_fail(err, "bad filter regex '%s': %s", re, msg);
	}
	if (v->has_filter)
		regfree(&v->filter);
	v->filter = nre;
	v->has_filter = true;
	snprintf(v->filter_text, sizeof(v->filter_text), "%s", re);
	return 0;
}

int view_load_vmfile(struct xg_view *v, const char *path, struct xg_err *err)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return xg_fail_errno(err, errno, "--vmfile %s", path);
	char line[512];
	size_t cap = v->nvmnames;
	while (fgets(line, sizeof(line), f)) {
		char *s = line + strspn(line, " \t");
		s[strcspn(s, "\r\n")] = 0;
		size_t n = strlen(s);
		while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
			s[--n] = 0;
		if (!n || *s == '#')
			continue;
		xg_grow(&v->vmnames, &cap, v->nvmnames + 1, sizeof(*v->vmnames));
		v->vmnames[v->nvmnames++] = xg_strdup(s);
	}
	bool bad = ferror(f);
	fclose(f);
	if (bad)
		return xg_fail(err, "--vmfile %s: read error", path);
	if (!v->nvmnames)
		return xg_fail(err, "--vmfile %s: no domain names in the file", path);
	return 0;
}

bool view_col_visible(const struct xg_view *v, enum xg_col c)
{
	return !view_col_hidden(v, c) && view_group_visible(v, c);
}

bool view_group_visible(const struct xg_view *v, enum xg_col c)
{
	switch (xg_columns[c].group) {
	case XG_GRP_NET: return v->show_net;
	case XG_GRP_DISK: return v->show_disk;
	case XG_GRP_SCHED: return v->show_sched;
	case XG_GRP_CACHE: return v->show_cache && v->sumcache;
	case XG_GRP_CACHE_BD: return v->show_cache && !v->sumcache;
	case XG_GRP_CMT: return v->show_cache;
	case XG_GRP_HOST: return v->show_host;
	case XG_GRP_VM: return v->show_vm;
	case XG_GRP_PSI: return v->show_psi;
	case XG_GRP_WAITS: return v->show_sched && v->show_waits;
	case XG_GRP_CONTENTION: return v->contention_live && v->show_cache;
	case XG_GRP_TREND: return v->show_trend;
	default: return true;
	}
}

bool view_socket_rows(const struct xg_view *v)
{
	return v->show_cache && !v->sumcache;
}

unsigned view_row_kinds(const struct xg_view *v)
{
	return (v->show_vcpus ? XG_ROWS_VCPUS : 0u) | (view_socket_rows(v) ? XG_ROWS_SOCKETS : 0u);
}

static int col_pos(const struct xg_view *v, enum xg_col c)
{
	for (int i = 0; i < XG_COL_COUNT; i++)
		if (v->col_order[i] == c)
			return i;
	return 0;
}

void view_sort_step(struct xg_view *v, int dir)
{
	int p = col_pos(v, v->sort_col);
	for (int i = 0; i < XG_COL_COUNT; i++) {
		p = (p + (dir < 0 ? XG_COL_COUNT - 1 : 1)) % XG_COL_COUNT;
		if (view_col_visible(v, v->col_order[p]) && view_sortable(v->col_order[p])) {
			v->sort_col = v->col_order[p];
			return;
		}
	}
}

void view_cols_reset(struct xg_view *v)
{
	for (int c = 0; c < XG_COL_COUNT; c++)
		v->col_order[c] = (enum xg_col)c;
	v->col_hidden = 0;
}

void view_cols_order(struct xg_view *v, const enum xg_col *list, size_t n)
{
	uint64_t placed = 0;
	int k = 0;
	bool host_listed = false;
	for (size_t i = 0; i < n; i++)
		host_listed |= list[i] == XG_COL_HOST;
	if (!host_listed) {
		placed |= 1ull << XG_COL_HOST;
		v->col_order[k++] = XG_COL_HOST;
	}
	for (size_t i = 0; i < n; i++)
		if (list[i] < XG_COL_COUNT && !((placed >> list[i]) & 1)) {
			placed |= 1ull << list[i];
			v->col_order[k++] = list[i];
		}
	for (int c = 0; c < XG_COL_COUNT; c++)
		if (!((placed >> c) & 1))
			v->col_order[k++] = (enum xg_col)c;
}

void view_col_move(struct xg_view *v, enum xg_col c, int dir)
{
	int p = col_pos(v, c), q = dir < 0 ? p - 1 : p + 1;
	if (q < 0 || q >= XG_COL_COUNT)
		return;
	v->col_order[p] = v->col_order[q];
	v->col_order[q] = c;
}

/* The sort column went out of sight: CPU% in its natural order (NAME when
 * CPU% is hidden too; NAME itself never goes). */
static void sort_fallback(struct xg_view *v)
{
	if (view_col_visible(v, v->sort_col) || v->sort_col == XG_COL_NAME)
		return;
	v->sort_col = view_col_visible(v, XG_COL_CPU_PCT) ? XG_COL_CPU_PCT : XG_COL_NAME;
	v->reverse = false;
}

bool view_col_set_hidden(struct xg_view *v, enum xg_col c, bool hide)
{
	if (c == XG_COL_NAME || c >= XG_COL_COUNT)
		return false;
	if (hide)
		v->col_hidden |= 1ull << c;
	else
		v->col_hidden &= ~(1ull << c);
	sort_fallback(v);
	return true;
}

bool view_sortable(enum xg_col c)
{
	return col_has_value(c);
}

void view_sort_by(struct xg_view *v, enum xg_col c)
{
	if (c != v->sort_col && view_sortable(c)) {
		v->sort_col = c;
		v->reverse = false;
	}
}

void view_sort_toggle(struct xg_view *v, enum xg_col c)
{
	if (c == v->sort_col)
		v->reverse = !v->reverse;
	else
		view_sort_by(v, c);
}

static bool *toggle_flag(struct xg_view *v, enum xg_toggle g)
{
	switch (g) {
	case XG_TOGGLE_DISK: return &v->show_disk;
	case XG_TOGGLE_NET: return &v->show_net;
	case XG_TOGGLE_CACHE: return &v->show_cache;
	case XG_TOGGLE_SUMCACHE: return &v->sumcache;
	case XG_TOGGLE_SCHED: return &v->show_sched;
	case XG_TOGGLE_VCPUS: return &v->show_vcpus;
	case XG_TOGGLE_METERS: return &v->show_meters;
	case XG_TOGGLE_TREND: return &v->show_trend;
	case XG_TOGGLE_COUNT: break;
	}
	return NULL;
}

bool view_toggle(struct xg_view *v, enum xg_toggle g)
{
	bool *flag = toggle_flag(v, g);
	if (!flag)
		return false;
	*flag = !*flag;
	sort_fallback(v);
	return *flag;
}

bool view_toggle_get(const struct xg_view *v, enum xg_toggle g)
{
	const bool *flag = toggle_flag((struct xg_view *)v, g);
	return flag && *flag;
}

void view_toggle_set(struct xg_view *v, enum xg_toggle g, bool on)
{
	if (view_toggle_get(v, g) != on)
		view_toggle(v, g);
}

bool view_delay_valid(double d)
{
	return d >= XG_DELAY_MIN_S && d <= XG_DELAY_MAX_S;   /* false for NaN */
}

/* Round values rather than doublings. */
static const double delay_ladder[] = { 0.1, 0.2, 0.5, 1, 1.5, 2, 3, 5, 10, 15, 30, 60, 120, 300 };

double view_delay_step(double d, int dir)
{
	size_t n = XG_ARRAY_LEN(delay_ladder);
	if (dir > 0) {
		for (size_t i = 0; i < n; i++)
			if (delay_ladder[i] > d + 1e-9)
				return delay_ladder[i];
		return d;
	}
	for (size_t i = n; i-- > 0;)
		if (delay_ladder[i] < d - 1e-9)
			return delay_ladder[i];
	return d;
}

static bool row_selected(const struct xg_view *v, const struct xg_row *r)
{
	/* In a pool the filter also picks hosts by name. */
	if (v->has_filter && regexec(&v->filter, r->name ? r->name : "", 0, NULL, 0) &&
	    (!r->host || regexec(&v->filter, r->host, 0, NULL, 0)))
		return false;
	if (v->vmnames) {
		for (size_t i = 0; i < v->nvmnames; i++)
			if (!strcmp(v->vmnames[i], r->name ? r->name : ""))
				return true;
		return false;
	}
	return true;
}

static bool child_shown(const struct xg_row *r, bool vcpus, bool socks)
{
	return r->sock_row ? socks : vcpus;
}

void view_apply(struct xg_view *v, const struct xg_table *t)
{
	xg_grow(&v->order, &v->order_cap, t->n ? t->n : 1, sizeof(*v->order));
	v->show_host = t->cur && t->cur->npeer;
	size_t n = 0;
	for (size_t i = 0; i < t->ndom_rows; i++)
		if (row_selected(v, &t->rows[i]))
			v->order[n++] = i;
	view_stable_sort(v, t, n);   /* the exact sort, or rows held still */
	bool vcpus = v->show_vcpus, socks = view_socket_rows(v);
	if ((vcpus || socks) && t->n > t->ndom_rows) {
		/* Expand from the end so each domain is followed by its shown
		 * sub-rows (the table may hold kinds the view hides now). */
		size_t total = n;
		for (size_t i = 0; i < n; i++) {
			const struct xg_row *d = &t->rows[v->order[i]];
			for (uint32_t k = 0; k < d->child_count; k++)
				total += child_shown(&t->rows[d->child_first + k], vcpus, socks);
		}
		size_t o = total;
		for (size_t i = n; i-- > 0;) {
			const struct xg_row *d = &t->rows[v->order[i]];
			for (uint32_t k = d->child_count; k-- > 0;)
				if (child_shown(&t->rows[d->child_first + k], vcpus, socks))
					v->order[--o] = d->child_first + k;
			v->order[--o] = v->order[i];
		}
		n = total;
	}
	v->norder = n;
}
