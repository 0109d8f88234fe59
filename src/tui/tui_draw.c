// SPDX-License-Identifier: GPL-2.0-or-later
/* Drawing the monitor screen: summary, status, header, the visible rows and
 * the key hints. Only the rows on screen are formatted, into stack buffers,
 * so a refresh costs the same for 10 or 10,000 domains. */
#include "tui_state.h"
#include "xgtop/compute/cell.h"
#include "xgtop/core/format.h"
#include "xgtop/view/triage.h"

#include <curses.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

/* Rows used above the list (summary x3, triage, status, header) and below (hints). */
#define TUI_TOP_LINES 6
#define TUI_BOTTOM_LINES 1

static bool col_left_aligned(enum xg_col c)
{
	return xg_columns[c].unit == XG_UNIT_TEXT;
}

/* Sticky widest name seen on screen: the NAME column only grows while the
 * screen shows the same kind of rows, so scrolling does not jitter. */
static int name_pref_w(struct tui *t)
{
	const struct xg_view *v = &t->e->view;
	const struct xg_table *tb = &t->e->table;
	char buf[TUI_CELL_BYTES];
	int pref = (int)strlen(xg_columns[XG_COL_NAME].header);

	/* The rows on screen: a source that computes remotely is asked for
	 * every figure of these only. */
	t->e->screen_first = t->top;
	t->e->screen_rows = t->list_h > 0 ? (size_t)t->list_h : 0;
	for (int i = 0; i < t->list_h; i++) {
		size_t k = t->top + (size_t)i;
		if (k >= v->norder)
			break;
		const struct xg_row *r = &tb->rows[v->order[k]];
		int w = row_label(r, buf, sizeof(buf)) ? (int)strlen(buf)
						       : tui_name_fit(buf, sizeof(buf), r->name, TUI_NAME_MAX_W);
		if (w > pref)
			pref = w;
	}
	return pref;
}

/* Where the list goes on this screen (below the meters the screen has
 * room for), the first row on it, and which columns fit its width. */
static void screen_layout(struct tui *t)
{
	struct xg_view *v = &t->e->view;

	getmaxyx(stdscr, t->rows, t->cols);
	/* The meters take what the list can spare: it keeps three rows. */
	t->meters_h = tui_meters_height(t, t->rows - TUI_TOP_LINES - TUI_BOTTOM_LINES - 3);
	t->status_y = 4 + t->meters_h;
	t->header_y = 5 + t->meters_h;
	t->list_y = TUI_TOP_LINES + t->meters_h;
	t->list_h = t->rows - t->list_y - TUI_BOTTOM_LINES;
	if (t->list_h < 0)
		t->list_h = 0;
	size_t maxtop = v->norder > (size_t)t->list_h ? v->norder - (size_t)t->list_h : 0;
	if (t->top > maxtop)
		t->top = maxtop;
	tui_sel_sync(t, true);

	int pref = name_pref_w(t);
	if (pref > t->name_sticky)
		t->name_sticky = pref;
	tui_layout(v, t->cols, t->name_sticky, &t->lay);
}

int tui_col_at(const struct tui *t, int x)
{
	for (int i = 0; i < t->lay.n; i++)
		if (x >= t->lay.x[i] && x <= t->lay.x[i] + t->lay.w[i])
			return (int)t->lay.col[i];
	return -1;
}

static bool sorted_descending(const struct xg_view *v)
{
	return xg_columns[v->sort_col].descending != v->reverse;
}

static const char *sort_mark(const struct tui *t)
{
	bool down = sorted_descending(&t->e->view);
	if (t->utf8)
		return down ? "\u25bc" : "\u25b2";
	return down ? "v" : "^";
}

/* Line 1: the host, or the recording and when it was made. */
static void draw_host(const struct tui *t, const struct xg_host *h)
{
	const struct xg_engine *e = t->e;
	char line[1024], a[64], b[64], host[TUI_CELL_BYTES], hyp[TUI_CELL_BYTES];
	size_t o = 0;

	/* Host strings come from the source (or a recording): escape them
	 * like names. */
	tui_name_fit(host, sizeof(host), h ? h->hostname : "", 32);
	tui_name_fit(hyp, sizeof(hyp), h ? h->hypervisor : "", 32);
	if (t->replay) {
		char when[64] = "?";
		if (h && h->real_ns) {
			time_t sec = (time_t)(h->real_ns / 1000000000ull);
			struct tm tm;
			if (localtime_r(&sec, &tm))
				strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S %Z", &tm);
		}
		o += (size_t)snprintf(line + o, sizeof(line) - o, "xgtop replay  recorded %s  %s on %s",
				      when, hyp[0] ? hyp : "?", host[0] ? host : "?");
	} else {
		char src[TUI_CELL_BYTES];
		if (t->at && h) {   /* a time-series source at a past time (--at, Left) */
			time_t sec = (time_t)(h->real_ns / 1000000000ull);
			struct tm tm;
			char when[64] = "?";
			if (localtime_r(&sec, &tm))
				strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S %Z", &tm);
			o += (size_t)snprintf(line + o, sizeof(line) - o, "NOT LIVE: figures of %s (L: live)  ", when);
		}
		tui_name_fit(src, sizeof(src), h ? h->source : "", 16);
		o += (size_t)snprintf(line + o, sizeof(line) - o, "xgtop  %s (%s) on %s",
				      hyp[0] ? hyp : "?", src[0] ? src : e->ops ? e->ops->name : "?",
				      host[0] ? host : "?");
	}
	if (h && h->sched[0]) {
		char sch[TUI_CELL_BYTES];
		tui_name_fit(sch, sizeof(sch), h->sched, 16);
		o += (size_t)snprintf(line + o, sizeof(line) - o, "  sched %s", sch);
	}
	if (h && host_has(h, XG_H_PCPUS))
		o += (size_t)snprintf(line + o, sizeof(line) - o, "  pCPUs %u", h->pcpus);
	if (h && host_has(h, XG_H_MEM) && h->mem_total) {
		fmt_size(a, sizeof(a),
			 (double)(h->mem_total - (h->mem_free < h->mem_total ? h->mem_free : h->mem_total)));
		fmt_size(b, sizeof(b), (double)h->mem_total);
		o += (size_t)snprintf(line + o, sizeof(line) - o, "  mem %s/%s used", a, b);
	} else {
		o += (size_t)snprintf(line + o, sizeof(line) - o, "  mem -");
	}
	if (!t->replay) {
		time_t now = time(NULL);
		struct tm tm;
		if (localtime_r(&now, &tm) && strftime(a, sizeof(a), "%H:%M:%S", &tm))
			snprintf(line + o, sizeof(line) - o, "  %s", a);
	}
	tui_put(0, 0, line, t->cols);
}

/* Line 2: the domains by state. */
static void draw_domains(const struct tui *t, const struct xg_host *h, const struct xg_summary *s)
{
	char line[1024];
	size_t o = (size_t)snprintf(line, sizeof(line),
				    "Domains %u: %u running, %u blocked, %u paused, %u crashed, %u dying, "
				    "%u shutdown  CPU total %.1f%%",
				    s->ndom, s->nrunning, s->nblocked, s->npaused, s->ncrashed, s->ndying,
				    s->nshutdown, s->cpu_pct_total);
	/* Name the events only when something counts them; else say why not
	 * (a host without a PMU would otherwise describe events no cell shows). */
	const char *why = h && t->e->view.show_cache ? sample_cache_uncounted(t->e->table.cur) : NULL;
	char ev[4 * sizeof(h->cache_events)];
	if (why) {
		tui_name_fit(ev, sizeof(ev), why, (int)sizeof(h->cache_events));
		snprintf(line + o, sizeof(line) - o, "  cache not counted: %s", ev);
	} else if (h && h->cache_events[0] && t->e->view.show_cache) {
		tui_name_fit(ev, sizeof(ev), h->cache_events, (int)sizeof(h->cache_events));
		snprintf(line + o, sizeof(line) - o, "  cache counts %s", ev);
	}
	tui_put(1, 0, line, t->cols);
}

/* Line 3: the interval, our own cost, the sort, the filter. */
static void draw_interval(const struct tui *t, const struct xg_host *h, const struct xg_summary *s)
{
	const struct xg_engine *e = t->e;
	char line[1024];
	size_t o = 0;

	if (s->interval_s > 0)
		o += (size_t)snprintf(line + o, sizeof(line) - o, "Interval %.2fs", s->interval_s);
	else
		o += (size_t)snprintf(line + o, sizeof(line) - o, "Interval -");
	o += (size_t)snprintf(line + o, sizeof(line) - o, " (delay %gs)", e->view.delay_s);
	if (s->self_cpu_ms >= 0)
		o += (size_t)snprintf(line + o, sizeof(line) - o, "  self %.2f ms/refresh", s->self_cpu_ms);
	else
		o += (size_t)snprintf(line + o, sizeof(line) - o, "  self - ms/refresh");
	if (h && host_has(h, XG_H_LOST))
		o += (size_t)snprintf(line + o, sizeof(line) - o, "  trace lost %llu",
				      (unsigned long long)h->lost_records);
	o += (size_t)snprintf(line + o, sizeof(line) - o, "  sort %s%s",
			      xg_columns[e->view.sort_col].header, sort_mark(t));
	if (e->view.has_filter) {
		/* --filter may carry any bytes: escape like a name. */
		char re[TUI_CELL_BYTES];
		tui_name_fit(re, sizeof(re), e->view.filter_text, TUI_NAME_MAX_W);
		o += (size_t)snprintf(line + o, sizeof(line) - o, "  filter /%s/", re);
	}
	snprintf(line + o, sizeof(line) - o, "  rows %zu", e->view.norder);
	tui_put(2, 0, line, t->cols);
}

/* Line 4: what stands out now (view/triage.h); the numbers: --explain. */
static void draw_triage(const struct tui *t)
{
	struct xg_triage tr;
	char line[sizeof(tr.line) + 16];
	if (!t->e->table.cur)
		return;
	triage_compute(&tr, &t->e->table, &t->e->view, t->e->susp);
	snprintf(line, sizeof(line), "Triage: %s", tr.line);
	bool any = false;
	for (int p = 0; p < XG_TRI_COUNT; p++)
		any |= tr.hit[p];
	if (any)
		attron(A_BOLD);
	tui_put(3, 0, line, t->cols);
	if (any)
		attroff(A_BOLD);
}

static void draw_summary(const struct tui *t)
{
	const struct xg_table *tb = &t->e->table;
	const struct xg_host *h = tb->cur ? &tb->cur->host : NULL;

	draw_host(t, h);
	draw_domains(t, h, &tb->sum);
	draw_interval(t, h, &tb->sum);
	draw_triage(t);
}

void tui_draw_status(struct tui *t)
{
	int x = 0;
	if (t->eof) {
		attron(A_BOLD);
		tui_put(t->status_y, x, "end of recording (q quits)", t->cols - x);
		attroff(A_BOLD);
		x += 28;
	}
	if (t->e->view.frozen) {
		attron(A_REVERSE | A_BOLD);
		tui_put(t->status_y, x, "FROZEN", t->cols - x);
		attroff(A_REVERSE | A_BOLD);
		tui_put(t->status_y, x + 6, " (space resumes, . steps)", t->cols - x - 6);
		x += 33;
	}
	if (t->msg[0]) {
		attrset(t->msg_err ? t->el[TUI_EL_ERR] : A_NORMAL);
		tui_put(t->status_y, x, t->msg, t->cols - x);
		attrset(A_NORMAL);
	}
}

static void draw_header(struct tui *t)
{
	const struct tui_layout *L = &t->lay;
	const struct xg_view *v = &t->e->view;
	char buf[64];

	attrset(t->el[TUI_EL_HEADER]);
	mvhline(t->header_y, 0, ' ', t->cols);
	for (int i = 0; i < L->n; i++) {
		enum xg_col c = L->col[i];
		const char *h = xg_columns[c].header;
		int len = (int)strlen(h), w = L->w[i];
		int x = L->x[i] + 1 + (col_left_aligned(c) || len >= w ? 0 : w - len);
		bool sorted = c == v->sort_col;
		if (sorted)
			attron(A_BOLD);
		snprintf(buf, sizeof(buf), "%s", h);
		tui_put(t->header_y, x, buf, w);
		if (sorted) {
			/* The mark sits just left of the header text. */
			tui_put(t->header_y, x - 1, sort_mark(t), 1);
			attroff(A_BOLD);
		}
	}
	attrset(A_NORMAL);
}


static bool ascii_only(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s >= 0x80)
			return false;
	return true;
}

/* A cell that is not plain ASCII (a name, a sparkline), written over the
 * row after it in one call. */
struct wide_cell {
	int x, w;
	chtype at;
	char text[TUI_CELL_BYTES];
};

/* The text of column c for row r into buf; false when the cell stays blank. */
static bool cell_text(const struct tui *t, const struct xg_row *r, enum xg_col c, int w, char *buf,
		      size_t n)
{
	if (c == XG_COL_NAME) {
		if (!row_label(r, buf, n))
			tui_name_fit(buf, n, r->name, w);
		return true;
	}
	if (c == XG_COL_TREND) {
		tui_trend_cell(t, r, w, buf, n);
		return buf[0] != 0;
	}
	if (!row_is_dom(r) && (c == XG_COL_ID || c == XG_COL_HOST))
		return false;  /* the domain row above carries the id */
	if (!row_col_applies(r, c))
		return false;  /* blank: a socket row has no CPU, no disk ... */
	col_format(c, r, buf, n);
	size_t len = strlen(buf);
	if (c == XG_COL_HOST && r->host_stale && w > 0 && len > (size_t)w && (size_t)w < n) {
		buf[w - 1] = '?';   /* a cut host name keeps its mark */
		buf[w] = 0;
	}
	return true;
}

/* Puts a plain ASCII cell into line: numbers right-aligned, and `#` signs
 * for a number too wide (its leading digits would read as a smaller one). */
static void put_ascii(chtype *line, int width, int x, int w, char *buf, bool left, chtype at)
{
	int len = (int)strlen(buf);
	if (!left && len > w && w < TUI_CELL_BYTES) {
		memset(buf, '#', (size_t)w);
		buf[w] = 0;
		len = w;
	}
	if (!left && len < w)
		x += w - len;
	for (int q = 0; q < len && q < w && x + q < width; q++)
		line[x + q] = (chtype)(unsigned char)buf[q] | at;
}

static void draw_row(struct tui *t, int y, const struct xg_row *r, chtype rowat, int width)
{
	const struct tui_layout *L = &t->lay;
	const struct xg_view *v = &t->e->view;
	chtype line[TUI_ROW_MAX];
	struct wide_cell wide[2];
	int nwide = 0, trend = -1;

	for (int x = 0; x < width; x++)
		line[x] = ' ' | rowat;
	for (int j = 0; j < L->n; j++) {
		enum xg_col c = L->col[j];
		int w = L->w[j], x = L->x[j] + 1;
		chtype lv = tui_level_attr(t, threshold_cell(&v->thr, r, c));
		/* One colour pair per cell: the level's, else the row's. */
		chtype at = (c == v->sort_col ? A_BOLD : 0) | (lv & A_COLOR ? rowat & ~A_COLOR : rowat) | lv;
		char buf[TUI_CELL_BYTES];
		if (c == XG_COL_TREND && t->utf8) {
			trend = j;   /* drawn as wide characters afterwards */
			continue;
		}
		if (!cell_text(t, r, c, w, buf, sizeof(buf)))
			continue;
		if (!ascii_only(buf) && nwide < 2) {
			/* Multibyte: drawn over the cell afterwards. */
			wide[nwide] = (struct wide_cell){ x, w, at, "" };
			memcpy(wide[nwide++].text, buf, sizeof(buf));
			continue;
		}
		put_ascii(line, width, x, w, buf, col_left_aligned(c), at);
	}
	mvaddchnstr(y, 0, line, width);
	if (trend >= 0 && L->x[trend] + 1 + L->w[trend] <= width)
		tui_trend_draw(t, y, L->x[trend] + 1, L->w[trend], r, rowat != 0);
	for (int i = 0; i < nwide; i++) {
		attrset(wide[i].at);
		tui_put(y, wide[i].x, wide[i].text, wide[i].w);
		attrset(A_NORMAL);
	}
}

/* Which row a list line shows, to tell when it shows another one. A
 * collision (a pool's hosts may repeat an id) only means the line is
 * patched, as any line is. */
static uint64_t line_key(const struct xg_row *r)
{
	return (uint64_t)r->id << 32 | (uint64_t)(uint16_t)(r->vcpu + 1) << 16 |
	       (uint16_t)(r->socket << 1 | r->sock_row);
}

static void draw_rows(struct tui *t)
{
	const struct xg_view *v = &t->e->view;
	int width = t->lay.width < t->cols ? t->lay.width : t->cols;

	if (width > TUI_ROW_MAX)
		width = TUI_ROW_MAX;
	if (t->list_h > 0 && (size_t)t->list_h > t->line_cap) {
		size_t had = t->line_cap;
		xg_grow(&t->line_row, &t->line_cap, (size_t)t->list_h, sizeof(*t->line_row));
		memset(t->line_row + had, 0xff, (t->line_cap - had) * sizeof(*t->line_row));
	}
	/* The rows on screen: a source that computes remotely is asked for
	 * every figure of these only. */
	t->e->screen_first = t->top;
	t->e->screen_rows = t->list_h > 0 ? (size_t)t->list_h : 0;
	for (int i = 0; i < t->list_h; i++) {
		size_t k = t->top + (size_t)i;
		if (k >= v->norder)
			break;
		chtype rowat = t->sel.on && k == t->sel.pos ? t->el[TUI_EL_SELECT] : 0;
		const struct xg_row *r = engine_row(t->e, v->order[k]);
		/* A line that now shows another row is written whole: patched,
		 * it cost a cursor movement for every run of unchanged blanks
		 * (about 8 per line, each a terminfo string ncurses formats). */
		if (t->line_row[i] != line_key(r))
			wredrawln(stdscr, t->list_y + i, 1);
		t->line_row[i] = line_key(r);
		draw_row(t, t->list_y + i, r, rowat, width);
	}
}

WINDOW *tui_overlay(const struct tui *t, int n, int width, int sel, int *top, int *h, int *w,
		    const char *title)
{
	*h = LINES - t->list_y - 3;
	if (*h > n)
		*h = n;
	if (*h < 1)
		*h = 1;
	*w = COLS < width ? COLS : width;
	if (sel < *top)
		*top = sel;
	if (sel >= *top + *h)
		*top = sel - *h + 1;
	WINDOW *win = newwin(*h + 2, *w, t->list_y < LINES ? t->list_y : 0, 0);
	if (!win)
		return NULL;
	box(win, 0, 0);
	mvwaddnstr(win, 0, 2, title, *w - 4);
	return win;
}

void tui_draw_hints(const struct tui *t, const char *const *pairs, size_t n)
{
	int x = 0, y = LINES - 1;
	if (y < 0)
		return;
	move(y, 0);
	clrtoeol();
	for (size_t i = 0; i + 1 < n && x < t->cols; i += 2) {
		int kl = (int)strlen(pairs[i]), ll = (int)strlen(pairs[i + 1]);
		attron(A_REVERSE);
		tui_put(y, x, pairs[i], t->cols - x);
		attroff(A_REVERSE);
		tui_put(y, x + kl + 1, pairs[i + 1], t->cols - x - kl - 1);
		x += kl + ll + 3;
	}
}

void tui_draw_screen(struct tui *t)
{
	screen_layout(t);
	erase();
	draw_summary(t);
	tui_meters_draw(t, 4);
	tui_draw_status(t);
	if (t->rows > t->header_y)
		draw_header(t);
	draw_rows(t);
}
