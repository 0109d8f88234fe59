// SPDX-License-Identifier: GPL-2.0-or-later
/* Time with a source that reads a time-series database (--source
 * prometheus): Left/Right move the whole view back and forward (the
 * source's queries then ask for that time), L returns to live, and z / Z
 * zoom the detail pane's graphs, which come from the server's range
 * queries over any period it keeps. Other sources show only now: the
 * keys say so, and the graphs show the history kept in memory. */
#include "tui_state.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

const struct tui_zoom tui_zooms[5] = {
	{ "5m", 300, 60 }, { "1h", 3600, 600 }, { "6h", 6 * 3600, 3600 },
	{ "1d", 86400, 4 * 3600 }, { "7d", 7 * 86400, 86400 },
};

static bool has_time(const struct tui *t)
{
	return t->e->ops && t->e->ops->set_time;
}

static void when_text(double at, char *buf, size_t n)
{
	time_t tt = (time_t)at;
	struct tm tm;
	strftime(buf, n, "%Y-%m-%d %H:%M:%S", localtime_r(&tt, &tm));
}

static unsigned go_to(struct tui *t, double at)
{
	double now = (double)xg_now_real_ns() / 1e9;
	if (!t->time_moved)
		t->at_before = t->at;
	t->time_moved = true;
	t->at = at >= now - 1 ? 0 : at;
	engine_set_time(t->e, t->at);
	char when[64];
	when_text(t->at, when, sizeof(when));
	if (t->at)
		tui_set_msg(t, false, "not live: the fleet as of %s (Left/Right move %s, L: live)", when,
			    tui_zooms[t->detail.zoom].label);
	else
		tui_set_msg(t, false, "%s", "live");
	return TUI_SAMPLE;
}

unsigned tui_time_move(struct tui *t, int dir)
{
	double now = (double)xg_now_real_ns() / 1e9;
	double move = tui_zooms[t->detail.zoom].move;
	if (dir > 0 && !t->at) {
		tui_set_msg(t, false, "%s", "live already: Right moves forward from a past time");
		return TUI_DONE;
	}
	return go_to(t, (t->at ? t->at : now) + dir * move);
}

bool tui_time_failed(struct tui *t, const struct xg_err *err)
{
	if (!t->time_moved)
		return false;
	char when[64] = "live";
	t->time_moved = false;
	t->at = t->at_before;
	engine_set_time(t->e, t->at);
	if (t->at)
		when_text(t->at, when, sizeof(when));
	tui_set_msg(t, true, "the view stays at %s: %s", when, err->msg);
	return true;
}

unsigned tui_act_live(struct tui *t, const struct tui_binding *b, int key)
{
	(void)b, (void)key;
	if (!has_time(t)) {
		tui_set_msg(t, false, "%s", "L: only --source prometheus moves in time and back to live");
		return TUI_DONE;
	}
	return go_to(t, 0);
}

unsigned tui_act_zoom(struct tui *t, const struct tui_binding *b, int key)
{
	(void)b;
	unsigned z = t->detail.zoom;
	if (key == 'z' && z + 1 < XG_ARRAY_LEN(tui_zooms))
		z++;
	else if (key == 'Z' && z > 0)
		z--;
	t->detail.zoom = z;
	if (!t->e->ops || !t->e->ops->range)
		tui_set_msg(t, false, "zoom %s: only with --source prometheus; here the graphs show the "
			    "history in memory, one column per sample (--history)", tui_zooms[z].label);
	else
		tui_set_msg(t, false, "zoom %s (z longer, Z shorter)", tui_zooms[z].label);
	return TUI_DONE;
}

bool tui_range_fetch(struct tui *t, const struct xg_dom *d, const enum xg_col *cols, size_t ncols, size_t w)
{
	struct tui_detail *p = &t->detail;
	if (!t->e->ops || !t->e->ops->range || !d || !ncols)
		return false;
	struct xg_dom_key key = { .host = d->host, .id = d->id };
	if (p->got_sample == t->e->nsamples && p->got_zoom == p->zoom && p->got_w == w &&
	    p->got_key.host == key.host && p->got_key.id == key.id && p->ncols == ncols)
		return true;
	struct xg_range r = { .key = key, .span = tui_zooms[p->zoom].span, .n = w, .cols = cols, .ncols = ncols };
	free(p->got);
	p->got = xg_calloc((w < 2 ? 2 : w) * ncols, sizeof(float));
	struct xg_err err = { 0 };
	p->got_err[0] = 0;
	if (engine_range(t->e, &r, p->got, &err) < 0)
		snprintf(p->got_err, sizeof(p->got_err), "%.150s", err.msg);
	p->n = r.n;
	p->ncols = ncols;
	p->from = r.from;
	p->step = r.step;
	p->got_sample = t->e->nsamples;
	p->got_zoom = p->zoom;
	p->got_w = w;
	p->got_key = key;
	return true;
}

bool tui_range_about(const struct tui *t, char *buf, size_t n)
{
	const struct tui_detail *p = &t->detail;
	if (!t->e->ops || !t->e->ops->range || !p->got)
		return false;
	char a[64], b[64];
	when_text(p->from, a, sizeof(a));
	when_text(p->from + (double)(p->n - 1) * p->step, b, sizeof(b));
	snprintf(buf, n, "History: from the server, zoom %s (z longer, Z shorter: 5m 1h 6h 1d 7d), %s .. %s, "
		 "one column per %.0f s, newest on the right%s%s%s", tui_zooms[p->zoom].label, a, b, p->step,
		 t->at ? "; NOT LIVE (L returns)" : "", p->got_err[0] ? "; " : "", p->got_err);
	return true;
}
