/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Private to the TUI files: the screen state they share, the modes and
 * their key tables. Nothing else includes this (but tests and the refresh
 * bench). Calls go one way: tui.c (terminal, the loop) -> the modes
 * (tui_list.c, tui_help.c, tui_menu.c, tui_columns.c, tui_prompt.c,
 * tui_detail.c) -> tui_actions.c, tui_keymap.c, tui_draw.c, tui_select.c,
 * tui_graph.c, tui_text.c; no mode waits for keys itself. */
#ifndef XGTOP_TUI_STATE_H
#define XGTOP_TUI_STATE_H

#include <curses.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <wchar.h>

#include "xgtop/engine/engine.h"

/* The longest NAME column we widen to before cutting names. */
#define TUI_NAME_MAX_W 40
/* Display buffer for one cell: a cut name is at most TUI_NAME_MAX_W
 * columns, each at most 4 bytes (UTF-8) or an escape \xNN. */
#define TUI_CELL_BYTES (TUI_NAME_MAX_W * 4 + 8)
/* The widest row the column table can make (every column, the widest
 * name) fits this; a row is assembled and written in one call. */
#define TUI_ROW_MAX 512

/* Which columns fit the terminal, where each starts and how wide it is.
 * Each cell is one separator column followed by `w` text columns; the
 * sort indicator replaces the separator. */
struct tui_layout {
	enum xg_col col[XG_COL_COUNT];
	int x[XG_COL_COUNT];
	int w[XG_COL_COUNT];
	int n;
	int width;
	int dropped;          /* visible columns left out for lack of room */
};

/* What the screen is showing; the one loop in tui.c draws the current mode
 * and hands it each key. Sampling goes on in every mode. In the order the
 * help screen and the docs list their keys. */
enum tui_mode {
	TUI_MODE_TABLE,       /* the domain list (tui_list.c) */
	TUI_MODE_HELP,        /* the help screen (tui_help.c) */
	TUI_MODE_MENU,        /* the sort column menu (tui_menu.c) */
	TUI_MODE_COLUMNS,     /* the column chooser (tui_columns.c) */
	TUI_MODE_PROMPT,      /* a line of input on the status row (tui_prompt.c) */
	TUI_MODE_DETAIL,      /* one domain's figures over time (tui_detail.c) */
	TUI_MODE_COUNT
};

/* The selected row, by who it is, so it follows its domain when the
 * order changes: the domain's identity (as metrics tells domains apart)
 * and which of its rows (the domain's own, a vCPU's or a socket's). */
struct tui_sel {
	bool on;              /* set by the first move; until then no row is */
	size_t pos;           /* its index in view.order when last found */
	uint32_t id, gen;
	uint16_t host;        /* the pool host (xg_dom.host) */
	uint8_t handle[16];
	char name[XG_NAME_MAX];
	int32_t vcpu;         /* -1: not a vCPU row */
	uint8_t sock_row;
	uint32_t socket;
};

/* The parts of the screen a theme styles (tui_theme.c); tui_color.c
 * gives each its colour pair, number 1 + the part. */
enum tui_el {
	TUI_EL_HEADER,        /* the column titles */
	TUI_EL_METER,         /* the fill of the header meters' bars and strip */
	TUI_EL_WARN,          /* a cell or meter at the warn level */
	TUI_EL_CRIT,          /* ... at the crit level */
	TUI_EL_SELECT,        /* the selected row */
	TUI_EL_GRAPH,         /* sparklines (TREND) and the detail pane's graphs */
	TUI_EL_ERR,           /* an error on the status line */
	TUI_EL_COUNT
};
/* One part's look: xterm-256 colour numbers (-1: the terminal's own) and
 * attributes. */
struct tui_style {
	short fg, bg;
	attr_t attr;
};
struct tui_theme {
	char name[64];
	struct tui_style el[TUI_EL_COUNT];
};

struct tui;

/* What a key's action changed, for the loop to act on once (as htop's
 * reaction flags): an action changes its own screen's state and returns
 * these for what is shared. TUI_DONE: the next frame shows the change. */
enum tui_react {
	TUI_DONE = 0,
	TUI_REFILTER = 1 << 0,   /* the view changed: filter and sort the rows again */
	TUI_RELAYOUT = 1 << 1,   /* other columns or rows: NAME's width is found afresh */
	TUI_REDRAW = 1 << 2,     /* repaint the whole terminal (it may be garbled) */
	TUI_BACK = 1 << 3,       /* leave this screen for the list */
	TUI_QUIT = 1 << 4,       /* end the monitor */
	TUI_SAMPLE = 1 << 5,     /* take a sample now, whatever the schedule */
};

/* One key binding: the keys, what they do, and how they are documented.
 * The key names everywhere (help screen, --help, the docs checked by
 * tests/docs/test_keys.sh) come from the codes, so dispatch and docs
 * cannot disagree. Characters are bound as themselves, other keys by
 * their KEY_* code. */
struct tui_binding {
	int keys[6];          /* characters or KEY_* codes, 0-terminated */
	const char *hint;     /* key text in the bottom hint line, NULL = not there */
	const char *label;    /* its word in the hint line */
	const char *help;     /* one line for the help screen and --help */
	/* Returns enum tui_react flags; key is the one pressed. */
	unsigned (*act)(struct tui *t, const struct tui_binding *b, int key);
	int arg;              /* for act: e.g. which toggle */
};

/* One screen's keys (tmux gives each mode its own key table). */
struct tui_keymap {
	const char *title;    /* its heading in the help screen and the docs */
	const struct tui_binding *b;
	size_t n;
	/* Keys the table does not hold, as the terminal gave them (wide
	 * characters too); NULL: they do nothing. */
	unsigned (*other)(struct tui *t, int rc, wint_t ch);
	/* What other does, documented as the key "other" (NULL: not listed),
	 * and its word in the hint line after "any other key" (NULL: none). */
	const char *other_help, *other_hint;
	bool fresh_msg;       /* a key clears the status message first */
	/* Writes the help line of a binding whose help is NULL: one made
	 * from data (the delay ladder's ends, say). */
	void (*help_fmt)(const struct tui_binding *b, char *buf, size_t n);
};

/* A mode: how it draws and its keys. */
struct tui_screen {
	void (*draw)(struct tui *t);
	const struct tui_keymap *keys;
	bool over_table;      /* drawn over the domain list */
};

/* Each screen's own state. */
struct tui_help {
	size_t top;           /* first help line on screen */
};

/* Called when a prompt ends: ok is true on Enter (buf holds the line),
 * false on Esc. Returns enum tui_react flags. */
typedef unsigned tui_prompt_done(struct tui *t, bool ok, const char *buf);

struct tui_prompt {
	const char *label;
	char buf[256];
	size_t cap;           /* bytes the answer may take, NUL included */
	tui_prompt_done *done;
};

struct tui_menu {
	enum xg_col cols[XG_COL_COUNT];
	int n, sel, top;
};

struct tui_colsel {
	int sel, top;         /* position in view.col_order */
};

struct tui_detail {
	size_t top;           /* first line of the pane on screen */
	struct xg_table tb;   /* the pane's rows: with every vCPU's */
	/* The graphs from the server (tui_time.c), fetched once per sample,
	 * zoom, time and domain: got[c * n + i]. */
	unsigned zoom;        /* index of tui_zooms */
	float *got;
	size_t n, ncols;
	double from, step;
	uint64_t got_sample;  /* e->nsamples when fetched, 0 = never */
	struct xg_dom_key got_key;
	unsigned got_zoom;
	size_t got_w;
	char got_err[160];
};

/* The session: the engine, the terminal and the schedule, the status
 * line, the domain list (the screen every other one is drawn over or
 * returns to: its geometry places the overlays and its selection is what
 * the detail pane shows), then each other screen's own state. */
struct tui {
	struct xg_engine *e;
	const struct tui_screen *screens;  /* by mode (tui.c): the help screen lists their keys */
	bool utf8;            /* the locale's codeset is UTF-8: ▲▼ and wide names */
	bool color;           /* colours allowed (terminal has them, NO_COLOR unset) */
	chtype el[TUI_EL_COUNT];   /* the theme's attributes (and pair) per part */
	bool replay;          /* the source is a recording */
	double at;            /* the view's past time (a time-series source), Unix s; 0 = live */
	double at_before;     /* the time before a move not yet shown (a refresh failed: back to it) */
	bool time_moved;      /* at changed, no refresh since */
	bool eof;             /* the recording ended: keep the last frame */
	bool fatal;           /* the terminal failed: msg says how */
	enum tui_mode mode;
	char msg[256];        /* transient status message, "" = none */
	bool msg_err;
	bool msg_retry;       /* msg is a failed refresh's: gone after one that works */
	uint64_t last_step;   /* monotonic ns of the last sample */
	uint64_t next_due;    /* monotonic ns of the next sample */
	int sig_fd;           /* read end of the signal self-pipe */
	int prefix;           /* the first key of a TUI_KEY_TWICE pair, 0 = none */
	char find[128];       /* the last F3 search (tui_find.c) */

	int rows, cols;       /* terminal size at the last layout */
	size_t top;           /* first entry of view.order on screen */
	int name_sticky;      /* widest name seen since the last reset */
	int list_y, list_h;   /* where the domain rows go */
	int meters_h;         /* header meter lines (tui_meters.c), 0 = none */
	int header_y, status_y;
	struct tui_layout lay;
	struct tui_sel sel;
	uint64_t *line_row;   /* per list line: which row it showed (line_key) */
	size_t line_cap;

	struct tui_help help;
	struct tui_menu menu;
	struct tui_colsel colsel;
	struct tui_prompt prompt;
	struct tui_detail detail;
};

/* tui_keymap.c: what every key table shares. */
/* The key's name as documented ("q", "space", "PgUp", "Ctrl-L", "Esc"...). */
const char *tui_key_name(int key, char *buf, size_t n);
/* The names of a binding's keys, separated by blanks ("h ?"). */
void tui_binding_keys(const struct tui_binding *b, char *buf, size_t n);
/* The help line of binding b of keymap m (written into buf when it is
 * made from data). */
const char *tui_binding_help(const struct tui_keymap *m, const struct tui_binding *b, char *buf,
			     size_t n);
/* Hands a key, as get_wch gave it, to the keymap's binding for it (or to
 * its other keys' action) and returns enum tui_react flags. */
unsigned tui_keymap_key(struct tui *t, const struct tui_keymap *m, int rc, wint_t ch);
/* Draws the bottom line of key hints of the keymap's bindings. */
void tui_keymap_hints(const struct tui *t, const struct tui_keymap *m);
/* The keymap's keys as --help lists them, under heading. */
void tui_keymap_usage(FILE *f, const struct tui_keymap *m, const char *heading);

/* Keys the tables bind by code. */
#define TUI_KEY_ESC 27
#define TUI_CTRL(c) ((c) & 0x1f)
/* A character pressed twice in a row (vim's `g g`), named "c c": a table
 * that binds it but not c alone waits for the second press. Above every
 * KEY_* code. */
#define TUI_KEY_TWICE(c) (0x10000 | (c))
/* The movement a vim key stands for in the screens that move or scroll:
 * k Up, j Down, g g Home, G End, Ctrl-U / Ctrl-D half a page up / down
 * (TUI_KEY_HALF_UP / _DOWN); any other key is itself. */
#define TUI_KEY_HALF_UP (-10)
#define TUI_KEY_HALF_DOWN (-11)
int tui_key_alias(int key);

/* tui_actions.c: what more than one screen does with a key. Leaves the
 * screen for the list: */
unsigned tui_act_back(struct tui *t, const struct tui_binding *b, int key);
/* Scrolls a screen whose first line on screen is *top by a line, a page
 * of page lines (half of it: Ctrl-U / Ctrl-D), or to the top or the end
 * (its draw clamps the end); vim's keys as tui_key_alias reads them. */
void tui_scroll(size_t *top, int key, size_t page);
/* Time and the terminal, bound in the list and the detail pane: */
unsigned tui_act_quit(struct tui *t, const struct tui_binding *b, int key);
unsigned tui_act_freeze(struct tui *t, const struct tui_binding *b, int key);
unsigned tui_act_step(struct tui *t, const struct tui_binding *b, int key);
unsigned tui_act_step_back(struct tui *t, const struct tui_binding *b, int key);

/* tui_time.c: a time-series source's (--source prometheus) past times
 * and the detail pane's graphs from its range queries. */
struct tui_zoom {
	const char *label;    /* "5m" */
	double span, move;    /* the graphs' span; what Left/Right move, s */
};
extern const struct tui_zoom tui_zooms[5];
/* Left/Right with such a source: the view dir (-1, 1) moves of the zoom. */
unsigned tui_time_move(struct tui *t, int dir);
unsigned tui_act_live(struct tui *t, const struct tui_binding *b, int key);
/* A refresh failed (err): after a move in time, the view goes back to the
 * time before it and the status line says why (true); else false, and
 * the failure is the session's. */
bool tui_time_failed(struct tui *t, const struct xg_err *err);
unsigned tui_act_zoom(struct tui *t, const struct tui_binding *b, int key);
/* The graphs of cols of domain d from the server, w points each, into
 * t->detail (fetched again only for another sample, zoom, time, domain
 * or width); false when the source keeps no history of its own (the pane
 * then draws its history in memory). */
bool tui_range_fetch(struct tui *t, const struct xg_dom *d, const enum xg_col *cols, size_t ncols, size_t w);
/* The pane's line about the graphs from the server, or false. */
bool tui_range_about(const struct tui *t, char *buf, size_t n);
unsigned tui_act_redraw(struct tui *t, const struct tui_binding *b, int key);

/* tui_find.c: F3, the selection to the next name that matches (no filter). */
unsigned tui_act_find(struct tui *t, const struct tui_binding *b, int key);

/* tui_list.c: the domain list's keys and actions. */
extern const struct tui_keymap tui_list_keys;
void tui_table_draw(struct tui *t);

/* tui_text.c: text on the terminal, for every screen. */
void tui_set_msg(struct tui *t, bool is_err, const char *fmt, ...)
	XG_PRINTF(3, 4);
/* Makes raw (a domain name) safe and at most maxw columns wide: control
 * bytes and invalid or unprintable sequences become \xNN. Writes at most
 * n bytes (NUL included) to out and returns the width in columns. */
int tui_name_fit(char *out, size_t n, const char *raw, int maxw);
/* Writes s at (y, x), at most maxw columns, never past the right edge. */
void tui_put(int y, int x, const char *s, int maxw);
/* How many bytes of text go on a line of room columns: up to the last
 * blank that fits, or (none) cut at room but not inside a UTF-8 sequence.
 * The text is ASCII or UTF-8 of single-width characters. */
int tui_wrap_cut(const char *text, int room);

/* tui_layout.c: which columns fit cols terminal columns, in the view's
 * column order: NAME always, then the visible columns while they fit,
 * the highest priority number dropped first. NAME is at most name_pref
 * wide (the widest name to show), and never narrower than its table width
 * or name_pref, whichever is less. */
void tui_layout(const struct xg_view *v, int cols, int name_pref, struct tui_layout *L);

/* tui_draw.c: the domain list screen. */
/* The status line (end of recording, FROZEN, the message) at status_y. */
void tui_draw_status(struct tui *t);
/* Draws the domain list screen without the hint line, not yet refreshed. */
void tui_draw_screen(struct tui *t);
/* The column whose cell covers screen column x, or -1. */
int tui_col_at(const struct tui *t, int x);
/* A boxed window over the domain list for a list of n items (the sort
 * menu, the column chooser): at most width columns, titled, as many items
 * high as fit (*h), *top moved so that item sel is in view; *w is its
 * width. NULL when it cannot be made. The caller fills and deletes it. */
WINDOW *tui_overlay(const struct tui *t, int n, int width, int sel, int *top, int *h, int *w,
		    const char *title);
/* Draws the bottom line of key hints from pairs {"key", "label", ...}. */
void tui_draw_hints(const struct tui *t, const char *const *pairs, size_t n);

/* tui_help.c: the help screen. */
extern const struct tui_keymap tui_help_keys;
void tui_help_open(struct tui *t);
void tui_help_draw(struct tui *t);

/* tui_menu.c: the sort column menu (`o`, F6). */
extern const struct tui_keymap tui_menu_keys;
void tui_menu_open(struct tui *t);
void tui_menu_draw(struct tui *t);

/* tui_prompt.c: one line of input on the status row. */
/* Starts a prompt with label, the answer preset to init and at most cap
 * bytes (NUL included, at most sizeof(prompt.buf)); done gets the outcome. */
void tui_prompt_open(struct tui *t, const char *label, const char *init, size_t cap,
		     tui_prompt_done *done);
extern const struct tui_keymap tui_prompt_keys;
void tui_prompt_draw(struct tui *t);

/* tui_report.c: the `W` report file. */
void tui_write_report(struct tui *t);

/* tui_select.c: the selected row. */
/* Finds the selection in the current order again (its domain may have
 * moved) and scrolls so it is on screen. When its row is gone, adopt
 * takes the row now at its place instead (the list), else it stays lost
 * (the detail pane says so). Returns the row, or NULL. */
const struct xg_row *tui_sel_sync(struct tui *t, bool adopt);
/* Selects entry pos of view.order (clamped). */
void tui_sel_set(struct tui *t, size_t pos);
/* Moves the selection by delta rows; the first move selects the top row
 * on screen. */
void tui_sel_move(struct tui *t, long delta);
/* The domain (in the current sample) of the selection, or NULL. */
const struct xg_dom *tui_sel_dom(const struct tui *t);

/* tui_graph.c: sparklines and graphs from the history, in block
 * characters, or ASCII outside a UTF-8 locale. */
/* The top of the scale for column c over v[0..n): 100 for shares of time
 * and hit ratios, else the largest value (NaN: nothing measured). */
float tui_graph_top(enum xg_col c, const float *v, size_t n);
/* One line of n cells for v[0..n) from 0 to top; a NaN is a blank. Writes
 * at most cap bytes (NUL included) to out. */
void tui_spark(const struct tui *t, const float *v, size_t n, float top, char *out, size_t cap);
/* The TREND cell of row r: at most w cells, right-aligned in buf. */
void tui_trend_cell(const struct tui *t, const struct xg_row *r, int w, char *buf, size_t cap);
/* The same, drawn at (y, x) in a UTF-8 locale (reverse video: selected). */
void tui_trend_draw(const struct tui *t, int y, int x, int w, const struct xg_row *r, bool selected);
/* Draws v[0..n) as h rows of cells at (y, x) going down, from 0 to top;
 * lines outside [ymin, ymax) are skipped (the pane scrolls). */
void tui_graph_draw(const struct tui *t, int y, int x, int h, const float *v, size_t n, float top,
		    int ymin, int ymax);

/* tui_detail.c: the detail pane (Enter). */
extern const struct tui_keymap tui_detail_keys;
/* Opens the pane on the selection (the top row's when none). */
void tui_detail_open(struct tui *t);
void tui_detail_draw(struct tui *t);
/* tui_theme.c: the theme named name (view.theme): a built-in one or the
 * user's file; on any problem the default theme and one line in warn. */
void tui_theme_load(const char *name, struct tui_theme *th, char *warn, size_t n);
void tui_theme_mono(struct tui_theme *th);

/* tui_color.c: the theme fitted to the terminal (its 8, 16 or 256
 * colours; attributes only without colour or with NO_COLOR) into t->el,
 * and the attributes of a threshold level. */
void tui_color_init(struct tui *t);
chtype tui_level_attr(const struct tui *t, enum xg_level lv);
/* A meter's fill at level lv: the level's look, else the theme's meters. */
chtype tui_meter_attr(const struct tui *t, enum xg_level lv);

/* tui_meters.c: the header meters (one per pCPU, memory, waiting share). */
struct tui_meter_layout {
	bool strip;           /* one character cell per pCPU instead of bars */
	int per_line;         /* pCPUs per line */
	int lines;            /* pCPU lines; the memory line follows them */
	int label_w;          /* columns of the pCPU number before a bar / a strip line */
	int cell_w;           /* bars: columns per bar, the blank after it included */
	int group;            /* strip: cells between blanks (0 = no blanks) */
	int shown;            /* pCPUs that fit (fewer than n only on a tiny screen) */
};
/* Where n pCPU meters go in cols columns and at most max_lines lines. */
void tui_meter_layout(size_t n, int cols, int max_lines, struct tui_meter_layout *L);
/* Lines the meters take on this screen (0: off, or no room). */
int tui_meters_height(const struct tui *t, int room);
/* Draws them from line y on. */
void tui_meters_draw(const struct tui *t, int y);

/* tui_columns.c: the column chooser (`C`, F2). */
extern const struct tui_keymap tui_columns_keys;
void tui_columns_open(struct tui *t);
void tui_columns_draw(struct tui *t);

#endif
