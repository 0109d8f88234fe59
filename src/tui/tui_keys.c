// SPDX-License-Identifier: GPL-2.0-or-later
/* The key table and the table mode (the domain list). Each binding carries
 * its keys, its action and its help line, so one table drives dispatch,
 * the hint line, the help screen's Keys section and --help's Keys list.
 * Actions only change state: sampling is the loop's (tui.c), drawing is
 * tui_draw.c's, and other modes are opened by setting t->mode. */
#include "tui_priv.h"
#include "xgtop/tui/tui.h"

#include <curses.h>
#include <stdio.h>
#include <string.h>

static void act_quit(struct tui *t, const struct tui_binding *b, int key)
{
	(void)b, (void)key;
	t->quit = true;
}

static void act_help(struct tui *t, const struct tui_binding *b, int key)
{
	(void)b, (void)key;
	t->mode = TUI_MODE_HELP;
	t->help_top = 0;
}

static void act_sort_step(struct tui *t, const struct tui_binding *b, int key)
{
	(void)b;
	view_sort_step(&t->e->view, key == '<' ? -1 : 1);
	engine_reapply(t->e);
}

static void act_sort_menu(struct tui *t, const struct tui_binding *b, int key)
{
	(void)b, (void)key;
	tui_menu_open(t);
}

static void act_columns(struct tui *t, const struct tui_binding *b, int key)
{
	(void)b, (void)key;
	tui_columns_open(t);
}

static void act_click(struct tui *t, const struct tui_binding *b, int key)
{
	(void)b, (void)key;
	MEVENT ev;
	if (getmouse(&ev) != OK || !(ev.bstate & (BUTTON1_CLICKED | BUTTON1_PRESSED)))
		return;
	if (ev.y >= t->list_y && ev.y < t->list_y + t->list_h &&
	    t->top + (size_t)(ev.y - t->list_y) < t->e->view.norder) {
		tui_sel_set(t, t->top + (size_t)(ev.y - t->list_y));
		return;
	}
	if (ev.y != t->header_y)
		return;
	int c = tui_col_at(t, ev.x);
	if (c < 0)
		return;
	view_sort_toggle(&t->e->view, (enum xg_col)c);
	engine_reapply(t->e);
}

static void act_reverse(struct tui *t, const struct tui_binding *b, int key)
{
	(void)b, (void)key;
	t->e->view.reverse = !t->e->view.reverse;
	engine_reapply(t->e);
}

static void filter_done(struct tui *t, bool ok, const char *buf)
{
	struct xg_view *v = &t->e->view;
	struct xg_err ferr = { 0 };

	if (!ok) {
		tui_set_msg(t, false, "filter unchanged");
		return;
	}
	if (view_set_filter(v, buf, &ferr) < 0) {
		tui_set_msg(t, true, "bad filter: %s", ferr.msg);
		return;
	}
	engine_reapply(t->e);
	t->top = 0;
	t->name_sticky = 0;
	if (buf[0])
		tui_set_msg(t, false, "filter /%s/: %zu rows", buf, v->norder);
	else
		tui_set_msg(t, false, "filter cleared");
}

static void act_filter(struct tui *t, const struct tui_binding *b, int key)
{
	(void)b, (void)key;
	const struct xg_view *v = &t->e->view;
	tui_prompt_open(t, "Filter names (regex, empty clears): ", v->has_filter ? v->filter_text : "",
			sizeof(v->filter_text), filter_done);
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

static void act_toggle(struct tui *t, const struct tui_binding *b, int key)
{
	(void)key;
	struct xg_view *v = &t->e->view;
	enum xg_toggle g = (enum xg_toggle)b->arg;
	bool on = view_toggle(v, g);

	engine_reapply(t->e);
	if (g == XG_TOGGLE_SUMCACHE)
		tui_set_msg(t, false, "cache counters %s%s", on ? "summed" : "by where they happened",
			    v->show_cache ? "" : " (c shows the cache columns)");
	else
		tui_set_msg(t, false, "%s %s", toggle_what[g], on ? "on" : "off");
	if (g == XG_TOGGLE_VCPUS)
		t->name_sticky = 0;
}

static void act_freeze(struct tui *t, const struct tui_binding *b, int key)
{
	(void)b, (void)key;
	struct xg_view *v = &t->e->view;
	v->frozen = !v->frozen;
	if (!v->frozen && !t->eof && !t->replay)
		/* Live data: catch up now instead of showing a stale frame. */
		t->next_due = xg_now_mono_ns();
}

static void act_step_back(struct tui *t, const struct tui_binding *b, int key)
{
	(void)b, (void)key;
	struct xg_engine *e = t->e;
	struct xg_err err = { 0 };
	if (!t->replay) {
		tui_set_msg(t, false, "stepping back needs a recording (--replay FILE)");
		return;
	}
	if (e->nsamples < 2) {
		tui_set_msg(t, false, "at the first sample of the recording");
		return;
	}
	if (engine_seek(e, e->nsamples - 2, &err) < 0) {
		tui_set_msg(t, true, "%s", err.msg);
		return;
	}
	/* Stay there: playing on would step forward again at once. */
	e->view.frozen = true;
	t->eof = false;
}

static void act_step(struct tui *t, const struct tui_binding *b, int key)
{
	(void)b, (void)key;
	if (t->eof)
		tui_set_msg(t, false, "end of recording: nothing more to step");
	else if (t->e->view.frozen || t->replay)
		t->step_now = true;
	else
		tui_set_msg(t, false, "'.' steps while frozen (space) or in a replay");
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

static void act_delay_step(struct tui *t, const struct tui_binding *b, int key)
{
	(void)b;
	set_delay(t, view_delay_step(t->e->view.delay_s, key == '+' ? 1 : -1));
}

static void delay_done(struct tui *t, bool ok, const char *buf)
{
	double d;
	if (!ok)
		return;
	if (!xg_parse_double(buf, &d) || !view_delay_valid(d))
		tui_set_msg(t, true, "bad delay '%s': give seconds from " XG_DELAY_RANGE ", e.g. 0.5", buf);
	else
		set_delay(t, d);
}

static void act_delay_ask(struct tui *t, const struct tui_binding *b, int key)
{
	(void)b, (void)key;
	char now[32];
	snprintf(now, sizeof(now), "%g", t->e->view.delay_s);
	tui_prompt_open(t, "Delay in seconds: ", now, sizeof(now), delay_done);
}

static void act_report(struct tui *t, const struct tui_binding *b, int key)
{
	(void)b, (void)key;
	tui_write_report(t);
}

static void act_move(struct tui *t, const struct tui_binding *b, int key)
{
	(void)b;
	long page = t->list_h > 1 ? t->list_h - 1 : 1;
	switch (key) {
	case KEY_UP: tui_sel_move(t, -1); break;
	case KEY_DOWN: tui_sel_move(t, 1); break;
	case KEY_PPAGE: tui_sel_move(t, -page); break;
	case KEY_NPAGE: tui_sel_move(t, page); break;
	case KEY_HOME: tui_sel_set(t, 0); break;
	case KEY_END: tui_sel_set(t, t->e->view.norder ? t->e->view.norder - 1 : 0); break;
	default: break;
	}
}

static void act_detail(struct tui *t, const struct tui_binding *b, int key)
{
	(void)b, (void)key;
	tui_detail_open(t);
}

static void act_redraw(struct tui *t, const struct tui_binding *b, int key)
{
	(void)t, (void)b, (void)key;
	clearok(curscr, TRUE);
}

#define CTRL(c) ((c) & 0x1f)

/* In help screen order. The texts are what the user reads; the README's
 * Keys table, the man page's KEYS section and doc/tui.md list the same
 * keys (tests/docs/test_keys.sh). */
const struct tui_binding tui_bindings[] = {
	{ { 'q', 'Q' }, "q", "quit",
	  "quit (Ctrl-C, SIGTERM and SIGHUP also quit and restore the terminal)", act_quit, 0 },
	{ { 'h', '?' }, "h", "help",
	  "the help screen: keys, every column with its unit and formula, why values show -",
	  act_help, 0 },
	{ { '<', '>' }, "<>", "sort", "sort by the visible column left / right of the current one",
	  act_sort_step, 0 },
	{ { 'o', KEY_F(6) }, NULL, NULL, "choose the sort column from a menu", act_sort_menu, 0 },
	{ { 'C', KEY_F(2) }, NULL, NULL, "the column chooser: show, hide and reorder columns (space "
	  "shows or hides, [ and ] or F7 and F8 move, r resets; kept in the settings file)",
	  act_columns, 0 },
	{ { KEY_MOUSE }, NULL, NULL, "click a column header to sort by it; click it again to reverse; "
	  "click a row to select it", act_click, 0 },
	{ { 'r' }, "r", "reverse", "reverse the sort order", act_reverse, 0 },
	{ { '/' }, "/", "filter", "filter domains by name: extended regex, case-insensitive; "
	  "Enter applies, Esc cancels, an empty line clears", act_filter, 0 },
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
	  act_freeze, 0 },
	{ { '.', KEY_RIGHT }, NULL, NULL, "step one sample forward (while frozen, or in a replay)",
	  act_step, 0 },
	{ { ',', KEY_LEFT }, NULL, NULL, "a replay: step one sample back and freeze (the summary shows "
	  "the recorded time)", act_step_back, 0 },
	{ { '+', '-' }, "+-", "delay", "longer / shorter refresh interval (0.1 s .. 300 s)",
	  act_delay_step, 0 },
	{ { 's' }, NULL, NULL, "type the refresh interval in seconds (fractions allowed, "
	  XG_DELAY_RANGE ")", act_delay_ask, 0 },
	{ { 'W' }, "W", "report", "write the current view to xgtop-report-YYYYmmdd-HHMMSS.txt in the "
	  "current directory", act_report, 0 },
	{ { KEY_UP, KEY_DOWN }, NULL, NULL, "move the selection by a row (the first press selects the "
	  "top row; it follows its domain when the order changes; the list scrolls to keep it on "
	  "screen)", act_move, 0 },
	{ { KEY_PPAGE, KEY_NPAGE }, NULL, NULL, "move the selection by a page", act_move, 0 },
	{ { KEY_HOME, KEY_END }, NULL, NULL, "select the first / last row", act_move, 0 },
	{ { '\r', '\n', KEY_ENTER }, "Enter", "details", "details of the selected domain: its figures "
	  "over time as graphs, its vCPUs, disk, network and cache figures and where each comes "
	  "from; Esc (or q, Enter) returns, Up/Down/PgUp/PgDn/Home/End scroll, Left/Right step a "
	  "replay", act_detail, 0 },
	{ { 'g' }, NULL, NULL, "show / hide the TREND column: the sort column's last values as a "
	  "sparkline", act_toggle, XG_TOGGLE_TREND },
	{ { CTRL('L') }, NULL, NULL, "redraw the screen", act_redraw, 0 },
};
const size_t tui_nbindings = XG_ARRAY_LEN(tui_bindings);

const char *tui_key_name(int key, char *buf, size_t n)
{
	switch (key) {
	case ' ': return "space";
	case '\r': case '\n': case KEY_ENTER: return "Enter";
	case KEY_UP: return "Up";
	case KEY_DOWN: return "Down";
	case KEY_LEFT: return "Left";
	case KEY_RIGHT: return "Right";
	case KEY_PPAGE: return "PgUp";
	case KEY_NPAGE: return "PgDn";
	case KEY_HOME: return "Home";
	case KEY_END: return "End";
	case KEY_MOUSE: return "click";
	default: break;
	}
	if (key > 0 && key < 0x20)
		snprintf(buf, n, "Ctrl-%c", key + '@');
	else if (key > 0x20 && key < 0x7f)
		snprintf(buf, n, "%c", key);
	else if (key >= KEY_F(1) && key <= KEY_F(24))
		snprintf(buf, n, "F%d", key - KEY_F0);
	else
		snprintf(buf, n, "key %d", key);
	return buf;
}

void tui_binding_keys(const struct tui_binding *b, char *buf, size_t n)
{
	size_t o = 0;
	const char *last = "";
	buf[0] = 0;
	for (size_t i = 0; i < XG_ARRAY_LEN(b->keys) && b->keys[i] && o < n; i++) {
		char one[16];
		const char *name = tui_key_name(b->keys[i], one, sizeof(one));
		if (!strcmp(name, last))
			continue;   /* \r, \n and the keypad's Enter are one key */
		o += (size_t)snprintf(buf + o, n - o, "%s%s", i ? " " : "", name);
		last = name == one ? "" : name;
	}
}

/* The Keys list of --help: one binding a line, its help wrapped at 79
 * columns under itself. */
void tui_keys_usage(FILE *f)
{
	/* At least two blanks after the keys: tests/docs/test_keys.sh reads
	 * the names up to there. */
	enum { KEYS_W = 10, INDENT = 2 + KEYS_W + 2, WIDTH = 79 };
	fputs("Keys (full screen):\n", f);
	for (size_t i = 0; i < tui_nbindings; i++) {
		char keys[64];
		const char *p = tui_bindings[i].help;
		tui_binding_keys(&tui_bindings[i], keys, sizeof(keys));
		fprintf(f, "  %-*s  ", KEYS_W, keys);
		for (bool first = true; *p; first = false) {
			int cut = tui_wrap_cut(p, WIDTH - INDENT);
			fprintf(f, "%*s%.*s\n", first ? 0 : INDENT, "", cut, p);
			p += cut;
			while (*p == ' ')
				p++;
		}
	}
}

void tui_table_draw(struct tui *t)
{
	const char *pairs[2 * XG_ARRAY_LEN(tui_bindings)];
	size_t n = 0;

	tui_draw_screen(t);
	for (size_t i = 0; i < tui_nbindings; i++) {
		if (!tui_bindings[i].hint)
			continue;
		pairs[n++] = tui_bindings[i].hint;
		pairs[n++] = tui_bindings[i].label;
	}
	if (t->rows > t->list_y)
		tui_draw_hints(t, pairs, n);
	wnoutrefresh(stdscr);
}

const struct tui_binding *tui_binding_of(int k)
{
	for (size_t i = 0; k > 0 && i < tui_nbindings; i++) {
		const struct tui_binding *b = &tui_bindings[i];
		for (size_t j = 0; j < XG_ARRAY_LEN(b->keys) && b->keys[j]; j++)
			if (b->keys[j] == k)
				return b;
	}
	return NULL;
}

void tui_table_key(struct tui *t, int rc, wint_t ch)
{
	/* A wide character is no key of ours, whatever its code. */
	int k = rc == KEY_CODE_YES ? (int)ch : ch < 0x80 ? (int)ch : -1;

	t->msg[0] = 0;
	const struct tui_binding *b = tui_binding_of(k);
	if (b) {
		b->act(t, b, k);
		return;
	}
	if (rc == KEY_CODE_YES)
		return;   /* a function key we do not use: say nothing, as before */
	tui_set_msg(t, false, "unknown key (h shows the keys)");
}
