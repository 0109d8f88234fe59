// SPDX-License-Identifier: GPL-2.0-or-later
/* Sparklines and graphs from the history: one cell per sample, newest on
 * the right, eighth-block characters in a UTF-8 locale and a few ASCII
 * marks elsewhere. A value that was not measured is a blank, never a low
 * bar. */
#include "tui_priv.h"

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

void tui_spark(const struct tui *t, const float *v, size_t n, float top, char *out, size_t cap)
{
	size_t o = 0;
	for (size_t i = 0; i < n; i++) {
		char one[2] = { ' ', 0 };
		const char *cell = one;
		if (!isnan(v[i])) {
			/* A measured 0 is the lowest bar: a blank means unmeasured. */
			int e = eighths(v[i], top, 1);
			e = e < 1 ? 1 : e;
			one[0] = ascii_levels[e];
			if (t->utf8)
				cell = blocks[e];
		}
		size_t l = strlen(cell);
		if (o + l + 1 > cap)
			break;
		memcpy(out + o, cell, l);
		o += l;
	}
	if (cap)
		out[o] = 0;
}

void tui_trend_cell(const struct tui *t, const struct xg_row *r, int w, char *buf, size_t cap)
{
	const struct xg_history *h = t->e->hist;
	float v[TUI_NAME_MAX_W];
	buf[0] = 0;
	if (!h || !row_is_dom(r) || w <= 0)
		return;
	if (w > (int)XG_ARRAY_LEN(v))
		w = (int)XG_ARRAY_LEN(v);
	enum xg_col c = t->e->view.sort_col;
	int k = hist_slot(c);
	if (k < 0) {
		c = XG_COL_CPU_PCT;
		k = hist_slot(c);
	}
	size_t n = hist_values(h, hist_find(h, r), k, v, (size_t)w);
	size_t pad = (size_t)w - n;
	if (cap < pad + 4 * n + 1)
		return;
	memset(buf, ' ', pad);
	tui_spark(t, v, n, tui_graph_top(c, v, n), buf + pad, cap - pad);
}

void tui_graph_draw(const struct tui *t, int y, int x, int h, const float *v, size_t n, float top,
		    int ymin, int ymax)
{
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
}
