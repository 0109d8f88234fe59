// SPDX-License-Identifier: GPL-2.0-or-later
/* Colours and the attributes of threshold levels. The two levels differ
 * by more than hue, so that nobody has to tell two colours apart: warn is
 * orange text, crit an orange-red block (reverse video), both bold. Orange
 * and red-orange against the default colours avoid the red/green pairs
 * that colour-blind users (about 1 in 12 men) confuse. Without colour
 * (NO_COLOR, monochrome terminals) the levels are attributes only: warn
 * underlined, crit reverse and bold. */
#include "tui_priv.h"

#include <curses.h>
#include <stdlib.h>

static bool no_color(void)
{
	const char *s = getenv("NO_COLOR");
	return s && *s;
}

void tui_color_init(struct tui *t)
{
	t->color = false;
	if (no_color() || !has_colors())
		return;
	start_color();
	use_default_colors();
	bool many = COLORS >= 256;
	init_pair(TUI_PAIR_ERR, COLOR_RED, -1);
	/* xterm 214 (#ffaf00) and 166 (#d75f00): orange and red-orange; on
	 * eight colours yellow and magenta, which differ for every kind of
	 * colour blindness. */
	init_pair(TUI_PAIR_WARN, many ? 214 : COLOR_YELLOW, -1);
	init_pair(TUI_PAIR_CRIT, many ? 166 : COLOR_MAGENTA, -1);
	t->color = true;
}

chtype tui_level_attr(const struct tui *t, enum xg_level lv)
{
	switch (lv) {
	case XG_LEVEL_WARN:
		return t->color ? (chtype)COLOR_PAIR(TUI_PAIR_WARN) | A_BOLD : A_UNDERLINE;
	case XG_LEVEL_CRIT:
		return (t->color ? (chtype)COLOR_PAIR(TUI_PAIR_CRIT) : 0) | A_REVERSE | A_BOLD;
	default:
		return 0;
	}
}
