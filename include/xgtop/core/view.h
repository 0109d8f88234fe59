/* SPDX-License-Identifier: GPL-2.0-or-later */
/* View state as data: sort column, direction, filter, toggles, freeze,
 * delay. Kept apart from ncurses so it is unit-testable; the TUI maps keys
 * to view changes and draws what view_apply selects. */
#ifndef XGTOP_VIEW_H
#define XGTOP_VIEW_H

#include <regex.h>
#include "xgtop/core/config.h"
#include "xgtop/core/metrics.h"

struct xg_view {
	enum xg_col sort_col;
	bool reverse;               /* flip the column's natural order */
	bool has_filter;
	regex_t filter;
	char filter_text[256];
	char **vmnames;             /* --vmfile: only these names, NULL = all */
	size_t nvmnames;
	bool show_net, show_disk, show_sched, show_cache, sumcache, show_vcpus;
	bool show_vm;               /* the source's domains are VMs (XG_H_VMS) */
	bool frozen;
	double delay_s;
	/* rows selected by view_apply, in display order (indexes into table) */
	size_t *order;
	size_t norder, order_cap;
	struct sort_key *keys;      /* scratch for numeric sorts */
	size_t keys_cap;
};

void view_init(struct xg_view *v, const struct xg_config *cfg);
void view_free(struct xg_view *v);
/* Compiles and sets a name filter (extended regex, case-insensitive);
 * "" clears it. On a bad regex returns -1 with err set and keeps the old one. */
int view_set_filter(struct xg_view *v, const char *re, struct xg_err *err);
/* Reads --vmfile (one name per line, # comments, blank lines ignored). */
int view_load_vmfile(struct xg_view *v, const char *path, struct xg_err *err);
/* Is column c shown under the current toggles? */
bool view_col_visible(const struct xg_view *v, enum xg_col c);
/* Socket rows under each domain: the cache columns are on and broken
 * down (`c` on, `m` / --nosumcache). */
bool view_socket_rows(const struct xg_view *v);
/* The sub-rows (enum xg_rows) the view shows, for metrics_compute_rows. */
unsigned view_row_kinds(const struct xg_view *v);
/* Moves the sort column to the next/previous visible column. */
void view_sort_step(struct xg_view *v, int dir);
/* Filters and sorts t into v->order: domain rows by the sort column
 * (numeric, `-` values last), each followed by its socket rows and vCPU
 * rows when shown, in table order. */
void view_apply(struct xg_view *v, const struct xg_table *t);
/* Compares two rows by column c in its natural order (for tests). */
int view_compare(const struct xg_row *a, const struct xg_row *b, enum xg_col c);

#endif
