// SPDX-License-Identifier: GPL-2.0-or-later
/* What more than one screen does with a key: leave for the list, scroll;
 * and the actions on time and the terminal that the list and the detail
 * pane (which follows the sample shown) both bind: quit, freeze, step a
 * replay, redraw. Here, apart from the screens, so that none reaches into
 * another's key table. */
#include "tui_state.h"

#include <curses.h>
#include <stdint.h>

unsigned tui_act_back(struct tui *t, const struct tui_binding *b, int key)
{
	(void)t, (void)b, (void)key;
	return TUI_BACK;
}

void tui_scroll(size_t *top, int key, size_t page)
{
	size_t half = page > 1 ? page / 2 : 1;
	switch (tui_key_alias(key)) {
	case TUI_KEY_HALF_UP: *top = *top > half ? *top - half : 0; break;
	case TUI_KEY_HALF_DOWN: *top += half; break;
	case KEY_UP: *top -= *top > 0; break;
	case KEY_DOWN: (*top)++; break;
	case KEY_PPAGE: *top = *top > page ? *top - page : 0; break;
	case KEY_NPAGE: *top += page; break;
	case KEY_HOME: *top = 0; break;
	/* Past any end, which the draw clamps; half, so that a Down before
	 * the next draw cannot wrap it round to the top. */
	case KEY_END: *top = SIZE_MAX / 2; break;
	default: break;
	}
}

unsigned tui_act_quit(struct tui *t, const struct tui_binding *b, int key)
{
	(void)t, (void)b, (void)key;
	return TUI_QUIT;
}

unsigned tui_act_freeze(struct tui *t, const struct tui_binding *b, int key)
{
	(void)b, (void)key;
	struct xg_view *v = &t->e->view;
	v->frozen = !v->frozen;
	if (!v->frozen && !t->eof && !t->replay)
		/* Live data: catch up now instead of showing a stale frame. */
		t->next_due = xg_now_mono_ns();
	/* A still picture in the exact order (rows held still move later). */
	v->stable_reset = true;
	return TUI_REFILTER;
}

unsigned tui_act_step_back(struct tui *t, const struct tui_binding *b, int key)
{
	(void)b, (void)key;
	struct xg_engine *e = t->e;
	struct xg_err err = { 0 };
	if (e->ops && e->ops->set_time)
		return tui_time_move(t, -1);
	if (!t->replay) {
		tui_set_msg(t, false, "stepping back needs a recording (--replay FILE)");
		return TUI_DONE;
	}
	if (e->nsamples < 2) {
		tui_set_msg(t, false, "at the first sample of the recording");
		return TUI_DONE;
	}
	if (engine_seek(e, e->nsamples - 2, &err) < 0) {
		tui_set_msg(t, true, "%s", err.msg);
		return TUI_DONE;
	}
	/* Stay there: playing on would step forward again at once. */
	e->view.frozen = true;
	t->eof = false;
	return TUI_DONE;
}

unsigned tui_act_step(struct tui *t, const struct tui_binding *b, int key)
{
	(void)b, (void)key;
	if (t->e->ops && t->e->ops->set_time)
		return tui_time_move(t, 1);
	if (t->eof)
		tui_set_msg(t, false, "end of recording: nothing more to step");
	else if (t->e->view.frozen || t->replay)
		return TUI_SAMPLE;
	else
		tui_set_msg(t, false, "'.' steps while frozen (space) or in a replay");
	return TUI_DONE;
}

unsigned tui_act_redraw(struct tui *t, const struct tui_binding *b, int key)
{
	(void)b, (void)key;
	t->e->view.stable_reset = true;   /* and the exact order */
	return TUI_REDRAW | TUI_REFILTER;
}
