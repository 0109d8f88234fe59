// SPDX-License-Identifier: GPL-2.0-or-later
/* The theme (tui_theme.c) on this terminal: each part of the screen gets
 * a colour pair with its colours fitted to what the terminal has (the
 * nearest of 8 or 16 when it lacks 256), and its attributes. Without
 * colour (NO_COLOR set, a monochrome terminal) every theme is the mono
 * theme: attributes only, warn underlined, crit reverse and bold. */
#include "tui_state.h"

#include <curses.h>
#include <stdio.h>
#include <stdlib.h>

static bool no_color(void)
{
	const char *s = getenv("NO_COLOR");
	return s && *s;
}

/* xterm's 256 colours as RGB: 16 system colours, a 6x6x6 cube, 24 greys. */
static void xterm_rgb(int c, int rgb[3])
{
	static const int sys[16][3] = {
		{ 0, 0, 0 }, { 205, 0, 0 }, { 0, 205, 0 }, { 205, 205, 0 }, { 0, 0, 238 }, { 205, 0, 205 },
		{ 0, 205, 205 }, { 229, 229, 229 }, { 127, 127, 127 }, { 255, 0, 0 }, { 0, 255, 0 },
		{ 255, 255, 0 }, { 92, 92, 255 }, { 255, 0, 255 }, { 0, 255, 255 }, { 255, 255, 255 },
	};
	static const int level[6] = { 0, 95, 135, 175, 215, 255 };
	if (c < 16) {
		for (int i = 0; i < 3; i++)
			rgb[i] = sys[c][i];
	} else if (c < 232) {
		c -= 16;
		rgb[0] = level[c / 36];
		rgb[1] = level[c / 6 % 6];
		rgb[2] = level[c % 6];
	} else {
		rgb[0] = rgb[1] = rgb[2] = 8 + 10 * (c - 232);
	}
}

/* Colour c (xterm-256, -1 default) as this terminal can show it. */
static short fit_color(int c)
{
	if (c < 0 || COLORS >= 256 || c < (COLORS >= 16 ? 16 : 8))
		return (short)c;
	int have = COLORS >= 16 ? 16 : 8, rgb[3], best = 0;
	long best_d = -1;
	xterm_rgb(c, rgb);
	for (int k = 0; k < have; k++) {
		int o[3];
		xterm_rgb(k, o);
		long d = 0;
		for (int i = 0; i < 3; i++)
			d += (long)(rgb[i] - o[i]) * (rgb[i] - o[i]);
		if (best_d < 0 || d < best_d) {
			best_d = d;
			best = k;
		}
	}
	return (short)best;
}

void tui_color_init(struct tui *t)
{
	struct tui_theme th;
	char warn[512];
	tui_theme_load(t->e->view.theme, &th, warn, sizeof(warn));
	if (warn[0]) {
		char had[sizeof(t->msg)];
		snprintf(had, sizeof(had), "%s", t->msg);
		if (had[0])
			tui_set_msg(t, true, "%s; %s", warn, had);
		else
			tui_set_msg(t, true, "%s", warn);
	}
	t->color = !no_color() && has_colors();
	if (!t->color)
		tui_theme_mono(&th);
	else {
		start_color();
		use_default_colors();
	}
	for (int k = 0; k < TUI_EL_COUNT; k++) {
		const struct tui_style *s = &th.el[k];
		t->el[k] = s->attr;
		if (!t->color || (s->fg < 0 && s->bg < 0))
			continue;
		init_pair((short)(1 + k), fit_color(s->fg), fit_color(s->bg));
		t->el[k] |= (chtype)COLOR_PAIR(1 + k);
	}
}

chtype tui_level_attr(const struct tui *t, enum xg_level lv)
{
	switch (lv) {
	case XG_LEVEL_WARN: return t->el[TUI_EL_WARN];
	case XG_LEVEL_CRIT: return t->el[TUI_EL_CRIT];
	default: return 0;
	}
}

chtype tui_meter_attr(const struct tui *t, enum xg_level lv)
{
	return lv == XG_LEVEL_OK ? t->el[TUI_EL_METER] : tui_level_attr(t, lv);
}
