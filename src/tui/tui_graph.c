// SPDX-License-Identifier: GPL-2.0-or-later
/* Sparklines and graphs from the history: one cell per sample, newest on
 * the right, eighth-block characters in a UTF-8 locale and a few ASCII
 * marks elsewhere. A value that was not measured is a blank, never a low
 * bar. */
#include "tui_state.h"

#include <curses.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* Eighths of a cell, 1..8 (0 = blank). */
static const char *const blocks[9] = {
	" ", "\u2581", "\u2582", "\u2583", "\u2584", "\u2585", "\u2586", "\u2587", "\u2588",
};
/* The same levels in ASCII, by how much ink each mark has. */
static const char ascii_levels[9] = { ' ', '_', '.', ',', '-', '=', '+', '*', '#' };
/* Inside a graph of several rows, a partly filled cell. */
static const char ascii_part[9] = { ' ', '.', '.', '.', ':', ':', ':', ':', '#' };

float tui_graph_top(enum xg_col c, const float *v, size_t n)
{
	switch (c) {
	case XG_COL_RUN: case XG_COL_WAIT: case XG_COL_BLK: case XG_COL_OFF:
	case XG_COL_HIT: case XG_COL_HIT_GU: case XG_COL_HIT_GK: case XG_COL_HIT_H:
		return 100.0f;
	default:
		break;
	}
	float top = NAN;
	for (size_t i = 0; i < n; i++)
		if (!isnan(v[i]) && (isnan(top) || v[i] > top))
			top = v[i];
	return top;
}

/* Eighths (0..8 * rows) that value x fills in a graph of rows rows. A
 * measured value above 0 shows at least one eighth. */
static int eighths(float x, float top, int rows)
{
	if (isnan(x) || x <= 0 || !(top > 0))
		return 0;
	int e = (int)lroundf(x / top * (float)(8 * rows));
	if (e < 1)
		e = 1;
	return e > 8 * rows ? 8 * rows : e;
}

/* A sparkline cell: -1 for a value not measured (a blank), else 1..8
 * eighths; a measured 0 is the lowest bar. */
static int spark_level(float x, float top)
{
	if (isnan(x))
		return -1;
	int e = eighths(x, top, 1);
	return e < 1 ? 1 : e;
}

void tui_spark(const struct tui *t, const float *v, size_t n, float top, char *out, size_t cap)
{
	size_t o = 0;
	for (size_t i = 0; i < n; i++) {
		int e = spark_level(v[i], top);
		char one[2] = { e < 0 ? ' ' : ascii_levels[e], 0 };
		const char *cell = t->utf8 && e > 0 ? blocks[e] : one;
		size_t l = strlen(cell);
		if (o + l + 1 > cap)
			break;
		memcpy(out + o, cell, l);
		o += l;
	}
	if (cap)
		out[o] = 0;
}

/* The TREND values of row r: the last up to w samples of the sort column
 * (or CPU% when the history does not keep it) into v; their count. */
static size_t trend_values(const struct tui *t, const struct xg_row *r, int w, float *v, float *top)
{
	const struct xg_history *h = t->e->hist;
	if (!h || !row_is_dom(r) || w <= 0)
		return 0;
	enum xg_col c = t->e->view.sort_col;
	int k = hist_slot(c);
	if (k < 0) {
		c = XG_COL_CPU_PCT;
		k = hist_slot(c);
	}
	size_t n = hist_values(h, hist_find(h, r), k, v, (size_t)w);
	*top = tui_graph_top(c, v, n);
	return n;
}

void tui_trend_cell(const struct tui *t, const struct xg_row *r, int w, char *buf, size_t cap)
{
	float v[TUI_NAME_MAX_W], top = 0;
	if (w > (int)XG_ARRAY_LEN(v))
		w = (int)XG_ARRAY_LEN(v);
	size_t n = trend_values(t, r, w, v, &top);
	buf[0] = 0;
	if (!n || cap < (size_t)w - n + 4 * n + 1)
		return;
	memset(buf, ' ', (size_t)w - n);
	tui_spark(t, v, n, top, buf + w - n, cap - ((size_t)w - n));
}

void tui_trend_draw(const struct tui *t, int y, int x, int w, const struct xg_row *r, bool selected)
{
	float v[TUI_NAME_MAX_W], top = 0;
	cchar_t cell[TUI_NAME_MAX_W];
	if (w > (int)XG_ARRAY_LEN(v))
		w = (int)XG_ARRAY_LEN(v);
	size_t n = trend_values(t, r, w, v, &top), pad = (size_t)w - n;
	if (!n)
		return;
	chtype at = t->el[selected ? TUI_EL_SELECT : TUI_EL_GRAPH];
	/* Wide characters straight into cells: no UTF-8 to decode per
	 * refresh and row (the bytes through addstr cost as much as the
	 * rest of the row). */
	for (size_t i = 0; i < (size_t)w; i++) {
		int e = i < pad ? -1 : spark_level(v[i - pad], top);
		wchar_t wc[2] = { e > 0 ? (wchar_t)(0x2580 + e) : L' ', 0 };
		setcchar(&cell[i], wc, at & ~A_COLOR, (short)PAIR_NUMBER(at), NULL);
	}
	mvadd_wchnstr(y, x, cell, w);
}

void tui_graph_draw(const struct tui *t, int y, int x, int h, const float *v, size_t n, float top,
		    int ymin, int ymax)
{
	attrset(t->el[TUI_EL_GRAPH]);
	for (int row = 0; row < h; row++) {
		int yy = y + h - 1 - row;   /* row 0 is the bottom line */
		if (yy < ymin || yy >= ymax)
			continue;
		for (size_t i = 0; i < n && x + (int)i < COLS; i++) {
			int e = eighths(v[i], top, h) - 8 * row;
			if (e <= 0)
				continue;
			if (e > 8)
				e = 8;
			if (t->utf8)
				mvaddstr(yy, x + (int)i, blocks[e]);
			else
				mvaddch(yy, x + (int)i, (chtype)(unsigned char)ascii_part[e]);
		}
	}
	attrset(A_NORMAL);
}
