// SPDX-License-Identifier: GPL-2.0-or-later
/* The header meters under the summary lines: one per pCPU, as bars while
 * they fit in a few lines and as a heat strip (one character per pCPU,
 * taller and hotter when busier) beyond that, then a line with memory,
 * the host's waiting share (with the scheduler columns) and the pCPUs'
 * average. Drawn from what metrics computed: one cell per pCPU. */
#include "tui_state.h"
#include "xgtop/core/format.h"

#include <curses.h>
#include <stdio.h>
#include <string.h>

#define BAR_INNER_MIN 10      /* "|||  12.5%" */
#define BAR_W_MAX 40          /* a few pCPUs get bars this wide, not the whole line */
#define BAR_LINES_MAX 4       /* more pCPU lines than this: a heat strip */
#define METER_COLS_MAX 1024

static int digits(size_t n)
{
	int d = 1;
	while (n >= 10) {
		n /= 10;
		d++;
	}
	return d;
}

/* Heat strip: per line a power of two of groups of `group` cells (so lines
 * start at round pCPU numbers), a blank between groups; fewer blanks, then
 * none, when that needs too many lines. */
static void strip_layout(size_t n, int cols, int max_lines, struct tui_meter_layout *L)
{
	static const int groups[] = { 16, 8, 0 };
	int room = cols - L->label_w;
	L->strip = true;
	for (size_t g = 0; g < XG_ARRAY_LEN(groups) && room > 0; g++) {
		int per = room;
		if (groups[g]) {
			int k = (room + 1) / (groups[g] + 1), p2 = 1;
			while (p2 * 2 <= k)
				p2 *= 2;
			per = k ? p2 * groups[g] : 0;
		}
		if (per < 1 || (n + (size_t)per - 1) / (size_t)per > (size_t)max_lines)
			continue;
		L->group = groups[g];
		L->per_line = per;
		L->lines = (int)((n + (size_t)per - 1) / (size_t)per);
		L->shown = (int)n;
		return;
	}
	/* A tiny screen: what fits, the line below says how many are left out. */
	L->group = 0;
	L->per_line = room > 0 ? room : 1;
	L->lines = max_lines;
	L->shown = (size_t)L->per_line * (size_t)max_lines < n ? L->per_line * max_lines : (int)n;
}

void tui_meter_layout(size_t n, int cols, int max_lines, struct tui_meter_layout *L)
{
	memset(L, 0, sizeof(*L));
	if (!n || max_lines < 1 || cols < 8)
		return;
	if (cols > METER_COLS_MAX)
		cols = METER_COLS_MAX;
	int lw = digits(n - 1);
	int fit = (cols + 1) / (lw + 3 + BAR_INNER_MIN);
	size_t lines = fit ? (n + (size_t)fit - 1) / (size_t)fit : SIZE_MAX;
	if (lines <= BAR_LINES_MAX && lines <= (size_t)max_lines) {
		L->lines = (int)lines;
		L->per_line = (int)((n + lines - 1) / lines);
		L->cell_w = (cols + 1) / L->per_line;
		if (L->cell_w > BAR_W_MAX)
			L->cell_w = BAR_W_MAX;
		L->label_w = lw;
		L->shown = (int)n;
		return;
	}
	L->label_w = lw + 1;   /* "128:" */
	strip_layout(n, cols, max_lines, L);
}

int tui_meters_height(const struct tui *t, int room)
{
	const struct xg_table *tb = &t->e->table;
	struct tui_meter_layout L;
	if (!t->e->view.show_meters || room < 1)
		return 0;
	tui_meter_layout(tb->npcpu, t->cols, room - 1, &L);
	return L.lines + 1;
}

/* A bar of w columns at x: label, '[', the fill for frac (0..1), text at
 * the right end inside, ']'. Fill and text take the attribute at. */
static void bar(chtype *line, int x, int w, const char *label, double frac, const char *text, chtype at)
{
	int lw = (int)strlen(label), inner = w - lw - 2, tl = (int)strlen(text);
	if (inner < 1)
		return;
	int fill = frac > 0 ? (int)(frac * inner + 0.5) : 0, start = inner - tl;
	for (int i = 0; i < lw; i++)
		line[x + i] = (chtype)(unsigned char)label[i];
	line[x + lw] = '[';
	for (int i = 0; i < inner; i++) {
		bool in_text = i >= start && i - start < tl;
		chtype ch = in_text ? (chtype)(unsigned char)text[i - start] : i < fill ? '|' : ' ';
		line[x + lw + 1 + i] = ch | (in_text || i < fill ? at : 0);
	}
	line[x + lw + 1 + inner] = ']';
}

static void clear_line(chtype *line, int n)
{
	for (int i = 0; i < n; i++)
		line[i] = ' ';
}

static enum xg_level pcpu_level(const struct tui *t, const struct xg_pcpu_load *p)
{
	return p->valid ? threshold_level(&t->e->view.thr, XG_RULE_PCPU, p->busy_pct) : XG_LEVEL_OK;
}

static void draw_bars(const struct tui *t, int y, const struct tui_meter_layout *L, int cols)
{
	const struct xg_table *tb = &t->e->table;
	chtype line[METER_COLS_MAX];
	for (int l = 0; l < L->lines; l++) {
		clear_line(line, cols);
		for (int k = 0; k < L->per_line; k++) {
			size_t i = (size_t)l * (size_t)L->per_line + (size_t)k;
			if (i >= tb->npcpu)
				break;
			const struct xg_pcpu_load *p = &tb->pcpu[i];
			char label[16], text[16];
			snprintf(label, sizeof(label), "%*u", L->label_w, p->id);
			snprintf(text, sizeof(text), p->valid ? "%.1f%%" : "-", p->busy_pct);
			bar(line, k * L->cell_w, L->cell_w - 1, label, p->valid ? p->busy_pct / 100 : 0, text,
			    tui_meter_attr(t, pcpu_level(t, p)));
		}
		mvaddchnstr(y + l, 0, line, cols);
	}
}

/* Eight heights of a cell for 0-12.5 % .. 87.5-100 % busy. */
static const wchar_t ramp_utf8[] = L"\u2581\u2582\u2583\u2584\u2585\u2586\u2587\u2588";
static const wchar_t ramp_ascii[] = L".:-=+*#@";

static void draw_strip(const struct tui *t, int y, const struct tui_meter_layout *L, int cols)
{
	const struct xg_table *tb = &t->e->table;
	const wchar_t *ramp = t->utf8 ? ramp_utf8 : ramp_ascii;
	cchar_t cells[METER_COLS_MAX];
	for (int l = 0; l < L->lines; l++) {
		size_t first = (size_t)l * (size_t)L->per_line;
		char label[16];
		int x = snprintf(label, sizeof(label), "%*u:", L->label_w - 1,
				 first < tb->npcpu ? tb->pcpu[first].id : 0);
		for (int i = 0; i < x; i++)
			setcchar(&cells[i], (wchar_t[]){ (wchar_t)label[i], 0 }, A_NORMAL, 0, NULL);
		for (int k = 0; k < L->per_line && first + (size_t)k < (size_t)L->shown && x < cols; k++) {
			if (L->group && k && k % L->group == 0)
				setcchar(&cells[x++], L" ", A_NORMAL, 0, NULL);
			const struct xg_pcpu_load *p = &tb->pcpu[first + (size_t)k];
			int lv = p->busy_pct >= 100 ? 7 : (int)(p->busy_pct * 8 / 100);
			wchar_t wc[2] = { p->valid ? ramp[lv < 0 ? 0 : lv] : L'?', 0 };
			chtype at = tui_meter_attr(t, pcpu_level(t, p));
			if (x < cols)
				setcchar(&cells[x++], wc, at & ~A_COLOR, (short)PAIR_NUMBER(at), NULL);
		}
		mvadd_wchnstr(y + l, 0, cells, x);
	}
}

/* The text after the memory and waiting bars: the pCPUs' average and
 * how many are at the crit level, or why there are no pCPU meters. */
static void pcpu_summary(const struct tui *t, const struct tui_meter_layout *L, char *buf, size_t n)
{
	const struct xg_table *tb = &t->e->table;
	const struct xg_thresholds *thr = &t->e->view.thr;
	double sum = 0, max = 0;
	size_t valid = 0, hot = 0;
	for (size_t i = 0; i < tb->npcpu; i++) {
		if (!tb->pcpu[i].valid)
			continue;
		valid++;
		sum += tb->pcpu[i].busy_pct;
		max = tb->pcpu[i].busy_pct > max ? tb->pcpu[i].busy_pct : max;
		hot += pcpu_level(t, &tb->pcpu[i]) == XG_LEVEL_CRIT;
	}
	const char *why = !tb->npcpu ? table_why_text(tb, tb->pcpu_why) : NULL;
	if (why) {
		char esc[256];
		tui_name_fit(esc, sizeof(esc), why, 120);   /* reasons may come from a recording */
		snprintf(buf, n, "pCPU meters: - (%s)", esc);
		return;
	}
	int o = valid ? snprintf(buf, n, "pCPU busy: avg %.1f%%, max %.1f%%", sum / (double)valid, max)
		      : snprintf(buf, n, "pCPU busy: -");
	if (valid && !thr->off[XG_RULE_PCPU] && o > 0 && (size_t)o < n)
		o += snprintf(buf + o, n - (size_t)o, ", %zu at %g%% or more", hot, thr->crit[XG_RULE_PCPU]);
	if (L->shown < (int)tb->npcpu && o > 0 && (size_t)o < n)
		snprintf(buf + o, n - (size_t)o, " (%zu not shown: no room)", tb->npcpu - (size_t)L->shown);
}

static void draw_host_line(const struct tui *t, int y, const struct tui_meter_layout *L, int cols)
{
	const struct xg_table *tb = &t->e->table;
	const struct xg_host *h = tb->cur ? &tb->cur->host : NULL;
	chtype line[METER_COLS_MAX];
	char used[32], total[32], text[80], rest[512];
	int w = cols / 3 < 34 ? cols / 3 : 34, x = 0;
	clear_line(line, cols);
	if (h && host_has(h, XG_H_MEM) && h->mem_total) {
		uint64_t u = h->mem_total - (h->mem_free < h->mem_total ? h->mem_free : h->mem_total);
		fmt_size(used, sizeof(used), (double)u);
		fmt_size(total, sizeof(total), (double)h->mem_total);
		snprintf(text, sizeof(text), "%s/%s", used, total);
		bar(line, 0, w, "Mem", (double)u / (double)h->mem_total, text, tui_meter_attr(t, XG_LEVEL_OK));
	} else {
		bar(line, 0, w, "Mem", 0, "-", 0);
	}
	x = w + 2;
	if (t->e->view.show_sched && x + 16 < cols) {
		double wp = tb->sum.wait_pct;
		snprintf(text, sizeof(text), wp >= 0 ? "%.1f%%" : "-", wp);
		enum xg_level lv = wp >= 0 ? threshold_level(&t->e->view.thr, XG_RULE_WAIT, wp) : XG_LEVEL_OK;
		bar(line, x, 18, "WAIT", wp > 0 ? wp / 100 : 0, text, tui_meter_attr(t, lv));
		x += 20;
	}
	pcpu_summary(t, L, rest, sizeof(rest));
	for (int i = 0; rest[i] && x + i < cols; i++)
		line[x + i] = (chtype)(unsigned char)rest[i];
	mvaddchnstr(y, 0, line, cols);
}

void tui_meters_draw(const struct tui *t, int y)
{
	const struct xg_table *tb = &t->e->table;
	struct tui_meter_layout L;
	int cols = t->cols < METER_COLS_MAX ? t->cols : METER_COLS_MAX;
	if (t->meters_h < 1 || !tb->cur)
		return;
	tui_meter_layout(tb->npcpu, cols, t->meters_h - 1, &L);
	if (L.strip)
		draw_strip(t, y, &L, cols);
	else
		draw_bars(t, y, &L, cols);
	draw_host_line(t, y + L.lines, &L, cols);
}
