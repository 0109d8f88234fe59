// SPDX-License-Identifier: GPL-2.0-or-later
/* The domain list's key table and its actions. Each binding carries its
 * keys, its action and its help line, so one table drives dispatch, the
 * hint line, the help screen's Keys section and --help's Keys list.
 * Actions change state and return what else changed (enum tui_react):
 * sampling is the loop's (tui.c), drawing is tui_draw.c's, and the other
 * screens are opened through their open functions. */
#include "tui_state.h"

#include <curses.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static unsigned act_help(struct tui *t, const struct tui_binding *b, int key)
{
	(void)b, (void)key;
	tui_help_open(t);
	return TUI_DONE;
}

static unsigned act_sort_step(struct tui *t, const struct tui_binding *b, int key)
{
	(void)b;
	view_sort_step(&t->e->view, key == '<' ? -1 : 1);
	return TUI_REFILTER;
}

static unsigned act_sort_menu(struct tui *t, const struct tui_binding *b, int key)
{
	(void)b, (void)key;
	tui_menu_open(t);
	return TUI_DONE;
}

static unsigned act_columns(struct tui *t, const struct tui_binding *b, int key)
{
	(void)b, (void)key;
	tui_columns_open(t);
	return TUI_DONE;
}

static unsigned act_click(struct tui *t, const struct tui_binding *b, int key)
{
	(void)b, (void)key;
	MEVENT ev;
	if (getmouse(&ev) != OK || !(ev.bstate & (BUTTON1_CLICKED | BUTTON1_PRESSED)))
		return TUI_DONE;
	if (ev.y >= t->list_y && ev.y < t->list_y + t->list_h &&
	    t->top + (size_t)(ev.y - t->list_y) < t->e->view.norder) {
		tui_sel_set(t, t->top + (size_t)(ev.y - t->list_y));
		return TUI_DONE;
	}
	if (ev.y != t->header_y)
		return TUI_DONE;
	int c = tui_col_at(t, ev.x);
	if (c < 0)
		return TUI_DONE;
	view_sort_toggle(&t->e->view, (enum xg_col)c);
	return TUI_REFILTER;
}

static unsigned act_reverse(struct tui *t, const struct tui_binding *b, int key)
{
	(void)b, (void)key;
	t->e->view.reverse = !t->e->view.reverse;
	return TUI_REFILTER;
}

static unsigned filter_done(struct tui *t, bool ok, const char *buf)
{
	struct xg_view *v = &t->e->view;
	struct xg_err ferr = { 0 };

	if (!ok) {
		tui_set_msg(t, false, "filter unchanged");
		return TUI_DONE;
	}
	if (view_set_filter(v, buf, &ferr) < 0) {
		tui_set_msg(t, true, "bad filter: %s", ferr.msg);
		return TUI_DONE;
	}
	/* Now, not by the flag: the message counts the rows it selects. */
	v->stable_reset = true;
	engine_reapply(t->e);
	t->top = 0;
	if (buf[0])
		tui_set_msg(t, false, "filter /%s/: %zu rows", buf, v->norder);
	else
		tui_set_msg(t, false, "filter cleared");
	return TUI_RELAYOUT;
}

static unsigned act_filter(struct tui *t, const struct tui_binding *b, int key)
{
	(void)b, (void)key;
	const struct xg_view *v = &t->e->view;
	tui_prompt_open(t, "Filter names (regex, empty clears): ", v->has_filter ? v->filter_text : "",
			sizeof(v->filter_text), filter_done);
	return TUI_DONE;
}

/* Names for the status message after a toggle. */
static const char *const toggle_what[XG_TOGGLE_COUNT] = {
	[XG_TOGGLE_DISK] = "disk columns",
	[XG_TOGGLE_NET] = "network columns",
	[XG_TOGGLE_CACHE] = "cache columns",
	[XG_TOGGLE_SCHED] = "scheduler columns",
	[XG_TOGGLE_VCPUS] = "vCPU rows",
	[XG_TOGGLE_METERS] = "header meters",
	[XG_TOGGLE_TREND] = "TREND column",
};

static unsigned act_toggle(struct tui *t, const struct tui_binding *b, int key)
{
	(void)key;
	struct xg_view *v = &t->e->view;
	enum xg_toggle g = (enum xg_toggle)b->arg;
	bool on = view_toggle(v, g);

	if (g == XG_TOGGLE_SUMCACHE)
		tui_set_msg(t, false, "cache counters %s%s", on ? "summed" : "by where they happened",
			    v->show_cache ? "" : " (c shows the cache columns)");
	else
		tui_set_msg(t, false, "%s %s", toggle_what[g], on ? "on" : "off");
	/* vCPU rows bring other names ("vCPU 3"): NAME's width starts over. */
	return TUI_REFILTER | (g == XG_TOGGLE_VCPUS ? TUI_RELAYOUT : 0);
}

static void set_delay(struct tui *t, double d)
{
	t->e->view.delay_s = d;
	t->next_due = t->last_step + engine_wait_ns(t->e);
	if (t->replay)
		tui_set_msg(t, false, "delay %gs (a replay follows the recorded pace and --speed)", d);
	else
		tui_set_msg(t, false, "delay %gs", d);
}

static unsigned act_delay_step(struct tui *t, const struct tui_binding *b, int key)
{
	(void)b;
	set_delay(t, view_delay_step(t->e->view.delay_s, key == '+' ? 1 : -1));
	return TUI_DONE;
}


static unsigned delay_done(struct tui *t, bool ok, const char *buf)
{
	double d;
	if (!ok)
		return TUI_DONE;
	if (!xg_parse_double(buf, &d) || !view_delay_valid(d))
		tui_set_msg(t, true, "bad delay '%s': give seconds from " XG_DELAY_RANGE ", e.g. 0.5", buf);
	else
		set_delay(t, d);
	return TUI_DONE;
}

static unsigned act_delay_ask(struct tui *t, const struct tui_binding *b, int key)
{
	(void)b, (void)key;
	char now[32];
	snprintf(now, sizeof(now), "%g", t->e->view.delay_s);
	tui_prompt_open(t, "Delay in seconds: ", now, sizeof(now), delay_done);
	return TUI_DONE;
}

static unsigned act_report(struct tui *t, const struct tui_binding *b, int key)
{
	(void)b, (void)key;
	tui_write_report(t);
	return TUI_DONE;
}

static unsigned act_move(struct tui *t, const struct tui_binding *b, int key)
{
	(void)b;
	long page = t->list_h > 1 ? t->list_h - 1 : 1, half = page > 1 ? page / 2 : 1;
	switch (tui_key_alias(key)) {
	case TUI_KEY_HALF_UP: tui_sel_move(t, -half); break;
	case TUI_KEY_HALF_DOWN: tui_sel_move(t, half); break;
	case KEY_UP: tui_sel_move(t, -1); break;
	case KEY_DOWN: tui_sel_move(t, 1); break;
	case KEY_PPAGE: tui_sel_move(t, -page); break;
	case KEY_NPAGE: tui_sel_move(t, page); break;
	case KEY_HOME: tui_sel_set(t, 0); break;
	case KEY_END: tui_sel_set(t, t->e->view.norder ? t->e->view.norder - 1 : 0); break;
	default: break;
	}
	return TUI_DONE;
}

static unsigned act_detail(struct tui *t, const struct tui_binding *b, int key)
{
	(void)b, (void)key;
	tui_detail_open(t);
	return TUI_DONE;
}

/* In help screen order. The texts are what the user reads; the README's
 * Keys table, the man page's KEYS section and doc/tui.md list the same
 * keys (tests/docs/test_keys.sh). */
static const struct tui_binding list_bindings[] = {
	{ { 'q', 'Q', KEY_F(10) }, "q", "quit",
	  "quit (Ctrl-C, SIGTERM and SIGHUP also quit and restore the terminal)", tui_act_quit, 0 },
	{ { 'h', '?', KEY_F(1) }, "h", "help",
	  "the help screen: keys, every column with its unit and formula, why values show -",
	  act_help, 0 },
	{ { '<', '>' }, "<>", "sort", "sort by the visible column left / right of the current one",
	  act_sort_step, 0 },
	{ { 'o', KEY_F(6) }, NULL, NULL, "choose the sort column from a menu", act_sort_menu, 0 },
	{ { 'C', KEY_F(2) }, NULL, NULL, "the column chooser: show, hide and reorder columns (kept in "
	  "the settings file; its keys are below)",
	  act_columns, 0 },
	{ { KEY_MOUSE }, NULL, NULL, "click a column header to sort by it; click it again to reverse; "
	  "click a row to select it", act_click, 0 },
	{ { 'r' }, "r", "reverse", "reverse the sort order", act_reverse, 0 },
	{ { '/', KEY_F(4) }, "/", "filter", "filter domains by name: extended regex, case-insensitive; "
	  "Enter applies, Esc cancels, an empty line clears", act_filter, 0 },
	{ { KEY_F(3) }, NULL, NULL, "find a name without filtering: extended regex, case-insensitive; "
	  "Enter selects the next row whose name matches (F3 Enter again: the one after)",
	  tui_act_find, 0 },
	{ { 'd' }, "d", "disk", "show / hide the disk columns", act_toggle, XG_TOGGLE_DISK },
	{ { 'n' }, "n", "net", "show / hide the network columns", act_toggle, XG_TOGGLE_NET },
	{ { 'c' }, "c", "cache", "show / hide the cache (PMU, CMT/MBM) columns", act_toggle,
	  XG_TOGGLE_CACHE },
	{ { 'm' }, "m", "sum", "cache counters summed, or broken down into guest user, guest kernel "
	  "and host; broken down, each domain with Intel CMT/MBM figures per socket gets one row per "
	  "socket (\"socket N\": that socket's L3-OCC and MEM-BW; other columns blank)", act_toggle,
	  XG_TOGGLE_SUMCACHE },
	{ { 'w' }, "w", "sched", "show / hide the scheduler columns (RUN% WAIT% BLK% OFF%)", act_toggle,
	  XG_TOGGLE_SCHED },
	{ { 'v' }, "v", "vcpus", "show / hide one row per vCPU under each domain", act_toggle,
	  XG_TOGGLE_VCPUS },
	{ { 't' }, NULL, NULL, "show / hide the header meters: each pCPU's busy share (bars, or a heat "
	  "strip when there are many), memory, and the host's waiting share (with w)", act_toggle,
	  XG_TOGGLE_METERS },
	{ { ' ' }, "space", "freeze", "freeze the display (a replay pauses); space again resumes",
	  tui_act_freeze, 0 },
	{ { '.', KEY_RIGHT }, NULL, NULL, "step one sample forward (while frozen, or in a replay); "
	  "--source prometheus: move the whole view forward in time, up to live", tui_act_step, 0 },
	{ { ',', KEY_LEFT }, NULL, NULL, "a replay: step one sample back and freeze (the summary shows "
	  "the recorded time); --source prometheus: move the whole view back in time (the fleet as of "
	  "then: the summary says NOT LIVE and the time) by the detail pane zoom's step (5m: 1 min)",
	  tui_act_step_back, 0 },
	{ { 'L' }, NULL, NULL, "--source prometheus: back to live from a past time (Left, --at)",
	  tui_act_live, 0 },
	{ { '+', '-' }, "+-", "delay", NULL, act_delay_step, 0 },   /* help: list_help */
	{ { 's' }, NULL, NULL, "type the refresh interval in seconds (fractions allowed, "
	  XG_DELAY_RANGE ")", act_delay_ask, 0 },
	{ { 'W' }, "W", "report", "write the current view to xgtop-report-YYYYmmdd-HHMMSS.txt in the "
	  "current directory", act_report, 0 },
	{ { KEY_UP, KEY_DOWN, 'k', 'j' }, NULL, NULL, "move the selection by a row (the first press selects the "
	  "top row; it follows its domain when the order changes; the list scrolls to keep it on "
	  "screen)", act_move, 0 },
	{ { KEY_PPAGE, KEY_NPAGE }, NULL, NULL, "move the selection by a page", act_move, 0 },
	{ { TUI_CTRL('U'), TUI_CTRL('D') }, NULL, NULL, "move the selection up / down by half a page",
	  act_move, 0 },
	{ { KEY_HOME, KEY_END, TUI_KEY_TWICE('g'), 'G' }, NULL, NULL, "select the first / last row "
	  "(g pressed twice: the first)", act_move, 0 },
	{ { '\r', '\n', KEY_ENTER }, "Enter", "details", "details of the selected domain: its figures "
	  "over time as graphs, its vCPUs, disk, network and cache figures and where each comes "
	  "from (its keys are below)", act_detail, 0 },
	{ { 'T' }, NULL, NULL, "show / hide the TREND column: the sort column's last values as a "
	  "sparkline (was g: NEWS.md)", act_toggle, XG_TOGGLE_TREND },
	{ { TUI_CTRL('L') }, NULL, NULL, "redraw the screen", tui_act_redraw, 0 },
};

static unsigned list_other(struct tui *t, int rc, wint_t ch)
{
	(void)ch;
	if (rc != KEY_CODE_YES)   /* a function key we do not use: say nothing */
		tui_set_msg(t, false, "unknown key (h shows the keys)");
	return TUI_DONE;
}

/* The help lines made from data: + and -, with the ends of the view's
 * delay ladder. */
static void list_help(const struct tui_binding *b, char *buf, size_t n)
{
	if (b->act == act_delay_step)
		snprintf(buf, n, "longer / shorter refresh interval (%g s .. %g s)", view_delay_step(0, 1),
			 view_delay_step(HUGE_VAL, -1));
	else
		snprintf(buf, n, "?");
}

const struct tui_keymap tui_list_keys = {
	.title = "Keys",
	.b = list_bindings,
	.n = XG_ARRAY_LEN(list_bindings),
	.other = list_other,
	.fresh_msg = true,
	.help_fmt = list_help,
};

void tui_table_draw(struct tui *t)
{
	tui_draw_screen(t);
	if (t->rows > t->list_y)
		tui_keymap_hints(t, &tui_list_keys);
	wnoutrefresh(stdscr);
}
