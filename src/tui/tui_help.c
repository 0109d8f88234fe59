// SPDX-License-Identifier: GPL-2.0-or-later
/* The help screen: every key (from the key table), every column with its
 * formula and unit, and why the values on screen that show `-` could not be
 * measured. A mode of the main loop: sampling goes on while it is open and
 * each refresh rebuilds it, so the reasons follow the rows on screen. */
#include "tui_state.h"
#include "xgtop/view/reasons.h"

#include <curses.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct lines {
	char **v;
	size_t n, cap;
};

static void lines_add(struct lines *L, const char *fmt, ...) XG_PRINTF(2, 3);
static void lines_add(struct lines *L, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	xg_grow(&L->v, &L->cap, L->n + 1, sizeof(*L->v));
	L->v[L->n++] = xg_strdup(buf);
}

static void lines_free(struct lines *L)
{
	for (size_t i = 0; i < L->n; i++)
		free(L->v[i]);
	free(L->v);
	memset(L, 0, sizeof(*L));
}

/* Adds text after a prefix, wrapped at width with following lines indented
 * by the prefix's width. The text is ASCII (column help, reasons). */
static void lines_wrap(struct lines *L, const char *prefix, const char *text, int width)
{
	int indent = (int)strlen(prefix), room = width - indent;
	const char *p = text;
	bool first = true;

	if (room < 20)
		room = 20;
	while (*p || first) {
		int cut = tui_wrap_cut(p, room);
		lines_add(L, "%-*s%.*s", indent, first ? prefix : "", cut, p);
		p += cut;
		while (*p == ' ')
			p++;
		first = false;
	}
}

/* Distinct (column, reason) pairs behind the `-` cells on screen. */
static void add_reasons(struct lines *L, const struct tui *t, int width)
{
	const struct xg_view *v = &t->e->view;
	struct xg_table *tb = &t->e->table;
	bool cols[XG_COL_COUNT] = { false };
	struct xg_reasons R;

	for (int j = 0; j < t->lay.n; j++)
		cols[t->lay.col[j]] = true;
	reasons_init(&R, false);
	for (int i = 0; i < t->list_h && t->top + (size_t)i < v->norder; i++) {
		size_t k = v->order[t->top + (size_t)i];
		reasons_add_row(&R, tb, engine_row(t->e, k), cols);
	}
	reasons_sort(&R);
	lines_add(L, "Why values on screen show \"-\"");
	if (!R.n)
		lines_add(L, "  none: every value on screen was measured");
	for (size_t s = 0; s < R.n; s++) {
		const struct xg_reason *p = &R.v[s];
		char name[TUI_CELL_BYTES], prefix[32], text[1024], sub[32];
		/* Reasons may come from a recording: escape them like names. */
		char why[512];
		tui_name_fit(name, sizeof(name), p->example->name, 24);
		tui_name_fit(why, sizeof(why), p->why, 120);
		snprintf(prefix, sizeof(prefix), "  %-10s ", xg_columns[p->col].header);
		if (row_label(p->example, sub, sizeof(sub)))
			snprintf(text, sizeof(text), "%s (%u row%s, e.g. %s %s)", why, p->count,
				 p->count == 1 ? "" : "s", name, sub + 2);
		else
			snprintf(text, sizeof(text), "%s (%u row%s, e.g. %s)", why, p->count,
				 p->count == 1 ? "" : "s", name);
		lines_wrap(L, prefix, text, width);
	}
	if (R.more)
		lines_add(L, "  (" XG_WHY_MORE ")");
}

/* The meters under the summary lines, and what the colours mean, with
 * the thresholds in force. */
static void add_meters_help(struct lines *L, const struct tui *t, int width)
{
	const struct xg_thresholds *thr = &t->e->view.thr;
	char text[512];
	lines_add(L, "Meters and colours");
	lines_wrap(L, "  ", "Meters (t): each pCPU's busy share over the interval, as a bar, or, when there "
		   "are too many for four lines of bars, as a heat strip: one cell per pCPU, from the lowest "
		   "block (under 12.5 %) to a full one (87.5 % and over; . : - = + * # @ outside UTF-8), ? "
		   "when not measured; each strip line starts with its first pCPU's number. Then memory used/total, "
		   "the host's waiting share (with w: all domains' waiting time over their vCPU time) and "
		   "the pCPUs' average.", width);
	snprintf(text, sizeof(text), "Cells and meters past a threshold: warn and crit, as theme %s "
		 "shows them (default: warn orange and bold, crit a reversed orange-red block; mono, or "
		 "without colour or with NO_COLOR: underlined, and reverse bold). Themes: --theme or theme "
		 "= in the settings file: default, light, mono, safe, or a file of yours in "
		 "$XDG_CONFIG_HOME/xgtop/themes/ (man xgtop, THEMES). "
		 "Thresholds (settings file: threshold.NAME = WARN CRIT, or off):", t->e->view.theme);
	lines_wrap(L, "  ", text, width);
	for (int r = 0; r < XG_RULE_COUNT; r++) {
		char prefix[40], lim[32];
		threshold_format(thr, (enum xg_rule)r, lim, sizeof(lim));
		snprintf(prefix, sizeof(prefix), "    %-10s ", xg_rules[r].key);
		snprintf(text, sizeof(text), "%s: %s%s", xg_rules[r].help, thr->off[r] ? "" : "warn, crit ",
			 lim);
		lines_wrap(L, prefix, text, width);
	}
}

/* Rows that hold still (core/view_stable.c), with the floors in force. */
static void add_order_help(struct lines *L, const struct tui *t, int width)
{
	const struct xg_view *v = &t->e->view;
	char text[1024];
	lines_add(L, "Row order (stable order %s: --stable-order, stable-order in the settings file)",
		  v->stable ? "on" : "off");
	snprintf(text, sizeof(text), "%s A row moves past its neighbour only when the two differ by more "
		 "than 10 %% of the larger value and by more than a floor: %g point of a percentage, %g s, "
		 "%g MiB, %g KiB/s, %g per second, %g of a ratio (MPKI); counts and ids by a whole step. So "
		 "two domains close to each other keep their places, and one that pulls clearly ahead moves "
		 "at once. A new sort column, r, a filter, Ctrl-L and space (freeze) give the exact order at "
		 "once; text columns (NAME, STATE) always sort exactly; batch output and -o formats keep the "
		 "exact order.", v->stable ? "On:" : "Off now; when on:",
		 view_stable_floor(XG_UNIT_PCT), view_stable_floor(XG_UNIT_SEC),
		 view_stable_floor(XG_UNIT_BYTES) / (1024.0 * 1024.0), view_stable_floor(XG_UNIT_BPS) / 1024.0,
		 view_stable_floor(XG_UNIT_PER_S), view_stable_floor(XG_UNIT_RATIO));
	lines_wrap(L, "  ", text, width);
}

/* One screen's keys, from its key table. */
static void add_keys(struct lines *L, const struct tui_keymap *m, int width)
{
	char keys[64], prefix[80], help[512];
	lines_add(L, "%s", "");
	lines_add(L, "%s", m->title);
	for (size_t i = 0; i < m->n; i++) {
		tui_binding_keys(&m->b[i], keys, sizeof(keys));
		snprintf(prefix, sizeof(prefix), "  %-9s ", keys);
		lines_wrap(L, prefix, tui_binding_help(m, &m->b[i], help, sizeof(help)), width);
	}
	if (m->other_help)
		lines_wrap(L, "  other     ", m->other_help, width);
}

static void help_build(struct lines *L, const struct tui *t, int width)
{
	const struct xg_view *v = &t->e->view;

	lines_add(L, "xgtop %s help: keys, columns, and why values are missing", XG_VERSION);
	lines_wrap(L, "  ", "Sampling goes on while this screen, the sort menu or a prompt is open; "
		   "only space (freeze) stops it.", width);
	for (int m = 0; m < TUI_MODE_COUNT && t->screens; m++)
		add_keys(L, t->screens[m].keys, width);
	lines_add(L, "%s", "");
	lines_add(L, "Summary lines");
	lines_wrap(L, "  ", "Line 1: hypervisor (source) and host name, physical CPUs, memory used/total, "
		   "clock; for a replay, \"replay\" and the time the sample was recorded.", width);
	lines_wrap(L, "  ", "Line 2: domains by state, the sum of their CPU%, and (with the cache columns) "
		   "the events they count, or why nothing counts them.", width);
	lines_wrap(L, "  ", "Line 3: the measured interval between the two samples shown, the delay asked "
		   "for, xgtop's own CPU time per refresh in ms, trace records lost (when a trace is "
		   "read), the sort column and direction, the filter and the rows it selects.", width);
	lines_add(L, "%s", "");
	add_order_help(L, t, width);
	lines_add(L, "%s", "");
	add_meters_help(L, t, width);
	lines_add(L, "%s", "");
	lines_add(L, "Columns (* = on screen, + = on but no room at this width; unit in brackets; "
		  "delta() = change over the interval)");
	for (int c = 0; c < XG_COL_COUNT; c++) {
		const struct xg_coldef *d = &xg_columns[c];
		char prefix[64], mark = ' ';
		if (view_col_visible(v, (enum xg_col)c) || c == XG_COL_NAME) {
			mark = '+';
			for (int j = 0; j < t->lay.n; j++)
				if (t->lay.col[j] == (enum xg_col)c)
					mark = '*';
		}
		snprintf(prefix, sizeof(prefix), "%c %-10s [%s] ", mark, d->header, col_unit_name(d->unit));
		/* Pad to a common indent so the formulas line up. */
		char pad[64];
		snprintf(pad, sizeof(pad), "%-24s", prefix);
		lines_wrap(L, pad, d->help ? d->help : "", width);
	}
	lines_add(L, "%s", "");
	add_reasons(L, t, width);
}

/* Lines of help on screen: all but the hint line. */
static size_t help_height(void)
{
	return LINES - 1 > 1 ? (size_t)LINES - 1 : 1;
}

void tui_help_open(struct tui *t)
{
	t->help.top = 0;
	t->mode = TUI_MODE_HELP;
}

void tui_help_draw(struct tui *t)
{
	struct lines L = { 0 };
	size_t h = help_height();
	struct tui_help *hs = &t->help;

	help_build(&L, t, COLS > 40 ? COLS - 1 : 40);
	size_t maxtop = L.n > h ? L.n - h : 0;
	if (hs->top > maxtop)
		hs->top = maxtop;
	erase();
	for (size_t i = 0; i < h && hs->top + i < L.n; i++) {
		const char *line = L.v[hs->top + i];
		bool title = line[0] && line[0] != ' ' && line[0] != '*' && line[0] != '+';
		if (title)
			attron(A_BOLD);
		tui_put((int)i, 0, line, COLS);
		if (title)
			attroff(A_BOLD);
	}
	t->cols = COLS;
	tui_keymap_hints(t, &tui_help_keys);
	wnoutrefresh(stdscr);
	lines_free(&L);
}

static unsigned act_scroll(struct tui *t, const struct tui_binding *b, int key)
{
	(void)b;
	size_t h = help_height();
	tui_scroll(&t->help.top, key, h > 1 ? h - 1 : 1);
	return TUI_DONE;
}

static unsigned help_other(struct tui *t, int rc, wint_t ch)
{
	(void)t, (void)rc, (void)ch;
	return TUI_BACK;
}

static const struct tui_binding help_bindings[] = {
	{ { KEY_UP, KEY_DOWN, 'k', 'j' }, "Up Down PgUp PgDn Home End", "scroll", "scroll by a line",
	  act_scroll, 0 },
	{ { KEY_PPAGE, KEY_NPAGE }, NULL, NULL, "scroll by a page", act_scroll, 0 },
	{ { TUI_CTRL('U'), TUI_CTRL('D') }, NULL, NULL, "scroll by half a page", act_scroll, 0 },
	{ { KEY_HOME, KEY_END, TUI_KEY_TWICE('g'), 'G' }, NULL, NULL, "the top / the end", act_scroll, 0 },
	{ { 'q', TUI_KEY_ESC }, "q", "back", "back to the list", tui_act_back, 0 },
};

const struct tui_keymap tui_help_keys = {
	.title = "Keys in the help screen",
	.b = help_bindings,
	.n = XG_ARRAY_LEN(help_bindings),
	.other = help_other,
	.other_help = "any other key goes back as well",
	.other_hint = "back",
};
