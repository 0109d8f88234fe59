/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Private to the TUI files (tui.c, tui_draw.c, tui_help.c, tui_prompt.c):
 * the screen state they share. Nothing else includes this. */
#ifndef XGTOP_TUI_PRIV_H
#define XGTOP_TUI_PRIV_H

#include <signal.h>
#include <stddef.h>
#include <wchar.h>

#include "xgtop/engine/engine.h"

/* Key codes beyond ncurses' own, returned by tui_key(). */
#define TUI_KEY_TIMEOUT (-1)   /* the wait ran out with no key */
#define TUI_KEY_QUIT    (-2)   /* SIGINT/SIGTERM/SIGHUP arrived */

/* The longest NAME column we widen to before cutting names. */
#define TUI_NAME_MAX_W 40
/* Display buffer for one cell: a cut name is at most TUI_NAME_MAX_W
 * columns, each at most 4 bytes (UTF-8) or an escape \xNN. */
#define TUI_CELL_BYTES (TUI_NAME_MAX_W * 4 + 8)

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

struct tui {
	struct xg_engine *e;
	bool utf8;            /* the locale's codeset is UTF-8: ▲▼ and wide names */
	bool color;           /* colours allowed (terminal has them, NO_COLOR unset) */
	bool replay;          /* the source is a recording */
	bool eof;             /* the recording ended: keep the last frame */
	bool quit;
	bool fatal;           /* the terminal failed: msg says how */
	int rows, cols;       /* terminal size at the last layout */
	size_t top;           /* first entry of view.order on screen */
	int name_sticky;      /* widest name seen since the last reset */
	int list_y, list_h;   /* where the domain rows go */
	int header_y, status_y;
	struct tui_layout lay;
	char msg[256];        /* transient status message, "" = none */
	bool msg_err;
	uint64_t next_due;    /* monotonic ns of the next sample */
	int sig_fd;           /* read end of the signal self-pipe */
};

/* tui.c */
/* Waits up to timeout_ms (-1 = forever) for a key. Returns the key (a
 * character in *wch with ret OK, or a KEY_* code with ret KEY_CODE_YES),
 * TUI_KEY_TIMEOUT or TUI_KEY_QUIT. Resizes are handled inside (the caller
 * gets KEY_RESIZE and should redraw). */
int tui_key(struct tui *t, int timeout_ms, wint_t *wch);
void tui_set_msg(struct tui *t, bool is_err, const char *fmt, ...)
	XG_PRINTF(3, 4);

/* tui_draw.c */
void tui_layout(struct tui *t);
void tui_draw(struct tui *t);
/* The column whose cell covers screen column x, or -1. */
int tui_col_at(const struct tui *t, int x);
/* Makes raw (a domain name) safe and at most maxw columns wide: control
 * bytes and invalid or unprintable sequences become \xNN. Writes at most
 * n bytes (NUL included) to out and returns the width in columns. */
int tui_name_fit(char *out, size_t n, const char *raw, int maxw);
/* Writes s at (y, x), at most maxw columns, never past the right edge. */
void tui_put(int y, int x, const char *s, int maxw);
/* Draws the bottom line of key hints from pairs {"key", "label", ...}. */
void tui_draw_hints(const struct tui *t, const char *const *pairs, size_t n);

/* tui_help.c */
/* Shows the scrollable help screen until a key other than a scroll key.
 * Returns TUI_KEY_QUIT if a terminating signal came, else 0. */
int tui_help(struct tui *t);
/* The sort column menu (`o`, F6). Returns TUI_KEY_QUIT or 0. */
int tui_sort_menu(struct tui *t);

/* tui_prompt.c */
/* Reads a line on the status row, starting from the text in buf. Returns 1
 * on Enter (buf holds the line), 0 on Esc, TUI_KEY_QUIT on a signal. */
int tui_prompt(struct tui *t, const char *label, char *buf, size_t n);

#endif
