/* SPDX-License-Identifier: GPL-2.0-or-later */
/* View state as data: sort column, direction, filter, toggles, freeze,
 * delay. Kept apart from ncurses so it is unit-testable; the TUI maps keys
 * to view changes and draws what view_apply selects. */
#ifndef XGTOP_VIEW_H
#define XGTOP_VIEW_H

#include <regex.h>
#include "xgtop/model/config.h"
#include "xgtop/compute/metrics.h"
#include "xgtop/compute/suspects.h"
#include "xgtop/view/thresholds.h"

/* The refresh interval's bounds, for -d and the TUI prompt alike. */
#define XG_DELAY_MIN_S 0.05
#define XG_DELAY_MAX_S 86400.0
/* The same bounds for messages (tests/unit/view/test_view.c keeps them equal). */
#define XG_DELAY_RANGE "0.05 to 86400"

/* What the d, n, c, m, w, v and t keys switch (and --nodisk & co. preset). */
enum xg_toggle {
	XG_TOGGLE_DISK,
	XG_TOGGLE_NET,
	XG_TOGGLE_CACHE,
	XG_TOGGLE_SUMCACHE,   /* cache figures summed, or broken down */
	XG_TOGGLE_SCHED,
	XG_TOGGLE_VCPUS,
	XG_TOGGLE_METERS,     /* the full-screen view's header meters */
	XG_TOGGLE_TREND,      /* the TREND column of the full-screen view */
	XG_TOGGLE_COUNT
};

struct xg_view {
	enum xg_col sort_col;
	bool reverse;               /* flip the column's natural order */
	bool has_filter;
	regex_t filter;
	char filter_text[256];
	char **vmnames;             /* --vmfile: only these names, NULL = all */
	size_t nvmnames;
	bool show_net, show_disk, show_sched, show_cache, sumcache, show_vcpus;
	bool show_meters;
	bool show_trend;            /* the TREND column (g): full-screen view only */
	/* The column chooser: every column once, in display order, and the
	 * ones it hides on top of the group toggles above. The TUI, text
	 * output and the W report follow both; CSV and JSON keep table order
	 * and the groups only, so scripts see stable fields. */
	enum xg_col col_order[XG_COL_COUNT];
	uint64_t col_hidden;        /* bit per enum xg_col; never NAME */
	struct xg_thresholds thr;   /* when cells and meters are coloured */
	bool show_host;             /* HOST column: set by view_apply when the rows
	                               come from a pool of hosts */
	bool show_vm;               /* the source's domains are VMs (XG_H_VMS) */
	bool show_psi;              /* the source reads pressure (XG_H_PSI) */
	bool show_waits;            /* the source attributes waits (XG_H_WAITS) */
	/* The VICTIM column: the full-screen view sets contention_live (with
	 * `c` it follows the cache toggle); batch output leaves it out, so
	 * its formats keep their fields. */
	bool contention_live;
	struct xg_susp_cfg susp;    /* the CPI2 rule's settings (contention.*) */
	bool frozen;
	double delay_s;
	/* Rows that hold still (core/view_stable.c): a row passes its
	 * neighbour only when the two differ by more than a margin. stable
	 * is the setting (--stable-order, stable-order in the settings file);
	 * only a view that sets stable_live (the full-screen view) uses it,
	 * so batch output and -o formats keep the exact order. stable_reset:
	 * the next view_apply gives the exact order (Ctrl-L, a freeze). */
	bool stable, stable_live, stable_reset;
	struct xg_stable *stab;
	/* The full-screen view's colour theme by name (--theme, theme in the
	 * settings file): default, light, mono, safe or a user theme file's. */
	char theme[64];
	/* rows selected by view_apply, in display order (indexes into table) */
	size_t *order;
	size_t norder, order_cap;
	/* The sort's scratch (view/view_sort.c), and its last result: the
	 * domain rows it was given (table order) and their order. */
	struct sort_key *keys;      /* numeric sorts: part of the key, and the row */
	size_t keys_cap;
	uint64_t *full;             /* numeric sorts: each row's whole key, by row */
	size_t full_cap;
	size_t *picked, *sorted;
	size_t nsorted, picked_cap, sorted_cap;
};

void view_init(struct xg_view *v, const struct xg_config *cfg);
void view_free(struct xg_view *v);
/* Compiles and sets a name filter (extended regex, case-insensitive);
 * "" clears it. On a bad regex returns -1 with err set and keeps the old one. */
int view_set_filter(struct xg_view *v, const char *re, struct xg_err *err);
/* Reads --vmfile (one name per line, # comments, blank lines ignored). */
int view_load_vmfile(struct xg_view *v, const char *path, struct xg_err *err);
/* Is column c shown: not hidden by the chooser, its group switched on? */
bool view_col_visible(const struct xg_view *v, enum xg_col c);
/* Is c's group switched on (d n c m w)? What CSV and JSON follow. */
bool view_group_visible(const struct xg_view *v, enum xg_col c);
_Static_assert(XG_COL_COUNT <= 64, "col_hidden has one bit per column");
static inline bool view_col_hidden(const struct xg_view *v, enum xg_col c)
{
	return (v->col_hidden >> c) & 1;
}
/* Hides or shows c in the chooser; false (nothing changed) for NAME,
 * which never goes. Hiding the sort column sorts by CPU% as a toggle does. */
bool view_col_set_hidden(struct xg_view *v, enum xg_col c, bool hide);
/* Moves c one place left (dir < 0) or right in the display order. */
void view_col_move(struct xg_view *v, enum xg_col c, int dir);
/* Puts the n columns of list first, in that order (repeats ignored); the
 * others follow in table order. HOST, unless the list places it, stays in
 * front: a list saved before the pool view existed, or written by hand for
 * one host, does not push the pool's HOST column to the far right. */
void view_cols_order(struct xg_view *v, const enum xg_col *list, size_t n);
/* Table order, nothing hidden. */
void view_cols_reset(struct xg_view *v);
/* Socket rows under each domain: the cache columns are on and broken
 * down (`c` on, `m` / --nosumcache). */
bool view_socket_rows(const struct xg_view *v);
/* The sub-rows (enum xg_rows) the view shows, for metrics_compute_rows. */
unsigned view_row_kinds(const struct xg_view *v);
/* Moves the sort column to the next/previous visible column in display
 * order. */
void view_sort_step(struct xg_view *v, int dir);
/* Can the rows be sorted by c? Not by TREND, a drawing. */
bool view_sortable(enum xg_col c);
/* Sorts by c in its natural order; already the sort column, c keeps its
 * direction. Not sortable: nothing changes. */
void view_sort_by(struct xg_view *v, enum xg_col c);
/* Sorts by c, or reverses the order when c is already the sort column. */
void view_sort_toggle(struct xg_view *v, enum xg_col c);
/* Flips one toggle and returns its new state. When that hides the sort
 * column, the view sorts by CPU% (natural order) rather than by something
 * the user cannot see. */
bool view_toggle(struct xg_view *v, enum xg_toggle g);
/* The state of one toggle; setting it hides the sort column as a flip would. */
bool view_toggle_get(const struct xg_view *v, enum xg_toggle g);
void view_toggle_set(struct xg_view *v, enum xg_toggle g, bool on);
/* Is name a theme name we accept: letters, digits, '-', '_' and '.' (not
 * leading), at most 63 bytes, so that it names a file in the themes
 * directory and nothing else? */
bool view_theme_name_ok(const char *name);
/* Is d (seconds) a refresh interval we accept? */
bool view_delay_valid(double d);
/* The next longer (dir > 0) or shorter refresh interval on the + / - ladder
 * 0.1 .. 300 s; d itself when there is none further that way. */
double view_delay_step(double d, int dir);
/* The least difference that lets a row pass its neighbour in a view that
 * holds rows still, in the sort column's unit (10 % of the larger value
 * counts when it is more). */
double view_stable_floor(enum xg_unit u);
/* Filters and sorts t into v->order: domain rows by the sort column
 * (numeric, `-` values last; held still when v->stable_live, see
 * view_stable_floor), each followed by its socket rows and vCPU
 * rows when shown, in table order. */
void view_apply(struct xg_view *v, const struct xg_table *t);

#endif
