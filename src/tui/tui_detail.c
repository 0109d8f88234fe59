// SPDX-License-Identifier: GPL-2.0-or-later
/* The detail pane (Enter): the selected domain's figures over time as
 * graphs from the history, its vCPUs, disk, network and cache figures, and
 * where each figure comes from. A mode of the one loop: sampling goes on,
 * and the pane follows the domain (not the row) while it is there. The
 * content is a list of lines drawn from detail.top; it is laid out twice
 * per draw, once to count the lines (for scrolling) and once on screen. */
#include "tui_state.h"
#include "xgtop/compute/cell.h"
#include "xgtop/compute/waits.h"

#include <curses.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

/* The graphs, in this order. */
static const enum xg_col graph_cols[] = {
	XG_COL_CPU_PCT, XG_COL_RUN, XG_COL_WAIT, XG_COL_BLK, XG_COL_MEM,
	XG_COL_NET_RX, XG_COL_NET_TX, XG_COL_DISK_RDB, XG_COL_DISK_WRB,
	XG_COL_LLC_MISS, XG_COL_HIT, XG_COL_MEM_BW,
};
static const enum xg_col disk_cols[] = {
	XG_COL_DISK_RD, XG_COL_DISK_WR, XG_COL_DISK_RDB, XG_COL_DISK_WRB,
};
static const enum xg_col net_cols[] = {
	XG_COL_NET_RX, XG_COL_NET_TX, XG_COL_NET_RXP, XG_COL_NET_TXP,
};
static const enum xg_col cache_cols[] = {
	XG_COL_LLC_REF, XG_COL_LLC_MISS, XG_COL_HIT, XG_COL_MPKI, XG_COL_L3_OCC, XG_COL_MEM_BW,
};
static const enum xg_col cache_bd_cols[] = {
	XG_COL_MISS_GU, XG_COL_MISS_GK, XG_COL_MISS_H, XG_COL_HIT_GU, XG_COL_HIT_GK, XG_COL_HIT_H,
};
static const enum xg_col psi_some_cols[] = { XG_COL_CPU_PSI, XG_COL_MEM_PSI, XG_COL_IO_PSI };
static const enum xg_col psi_full_cols[] = { XG_COL_CPU_PSI_FULL, XG_COL_MEM_PSI_FULL, XG_COL_IO_PSI_FULL };
static const enum xg_col wait_cols[] = { XG_COL_BEHIND, XG_COL_WAIT_P50, XG_COL_WAIT_P99 };
static const enum xg_col vcpu_cols[] = {
	XG_COL_CPU_PCT, XG_COL_RUN, XG_COL_WAIT, XG_COL_BLK, XG_COL_OFF,
};

/* Screen lines [y0, y1) show list lines detail.top on; dry only counts. */
struct pane {
	struct tui *t;
	const struct xg_table *tb;   /* rows with the domain's vCPU rows */
	const struct xg_row *r;      /* the domain's row in tb */
	const struct xg_dom *d;
	int line, y0, y1;
	bool dry;
};

/* The screen line of the current list line, or -1 when off screen. */
static int pane_y(const struct pane *p)
{
	int y = p->y0 + p->line - (int)p->t->detail.top;
	return p->dry || y < p->y0 || y >= p->y1 ? -1 : y;
}

static void pane_text(struct pane *p, attr_t at, const char *fmt, ...) XG_PRINTF(3, 4);
static void pane_text(struct pane *p, attr_t at, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	int y = pane_y(p);
	if (y >= 0) {
		attrset(at);
		tui_put(y, 0, buf, COLS);
		attrset(A_NORMAL);
	}
	p->line++;
}

/* text wrapped at the screen width: the first line after lead, the
 * others after as many blanks. */
static void pane_wrap(struct pane *p, const char *lead, const char *text)
{
	int indent = (int)strlen(lead), room = COLS - indent;
	if (room < 20)
		room = 20;
	for (bool first = true; *text; first = false) {
		int cut = tui_wrap_cut(text, room);
		pane_text(p, A_NORMAL, "%-*s%.*s", indent, first ? lead : "", cut, text);
		text += cut;
		while (*text == ' ')
			text++;
	}
}

/* Column c's unit formatting for any value. */
static void fmt_value(enum xg_col c, double x, char *buf, size_t n)
{
	struct xg_row r;
	memset(&r, 0, sizeof(r));
	r.vcpu = -1;
	r.v[c] = x;
	r.valid = 1ull << c;
	col_format(c, &r, buf, n);
}

/* "HDR value  HDR value ..." for the columns of one row. */
static void pane_figures(struct pane *p, const struct xg_row *r, const char *lead,
			 const enum xg_col *cols, size_t n)
{
	char line[512], v[TUI_CELL_BYTES];
	size_t o = (size_t)snprintf(line, sizeof(line), "%s", lead);
	for (size_t i = 0; i < n && o < sizeof(line); i++) {
		col_format(cols[i], r, v, sizeof(v));
		o += (size_t)snprintf(line + o, sizeof(line) - o, "  %s %s", xg_columns[cols[i]].header, v);
	}
	pane_text(p, A_NORMAL, "%s", line);
}

static void pane_heading(struct pane *p, const char *fmt, const char *arg)
{
	pane_text(p, A_NORMAL, "%s", "");
	pane_text(p, A_BOLD, fmt, arg);
}

static void fmt_clock(uint64_t real_ns, const char *how, char *buf, size_t n)
{
	time_t sec = (time_t)(real_ns / 1000000000ull);
	struct tm tm;
	if (!real_ns || !localtime_r(&sec, &tm) || !strftime(buf, n, how, &tm))
		snprintf(buf, n, "?");
}

/* Who the domain is: id, generation, uuid, state, vCPUs, memory. */
static void pane_identity(struct pane *p)
{
	const struct xg_dom *d = p->d;
	char uuid[40], vc[32], mem[32], max[32];
	const uint8_t *h = d->handle;
	bool zero = true;
	for (int i = 0; i < 16; i++)
		zero = zero && !h[i];
	snprintf(uuid, sizeof(uuid), zero ? "-" : "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
		 h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7], h[8], h[9], h[10], h[11], h[12], h[13],
		 h[14], h[15]);
	col_format(XG_COL_VCPU, p->r, vc, sizeof(vc));
	col_format(XG_COL_MEM, p->r, mem, sizeof(mem));
	col_format(XG_COL_MAXMEM, p->r, max, sizeof(max));
	pane_text(p, A_NORMAL, "id %u  generation %u  uuid %s  state %s  vCPUs %s  MEM %s  MAXMEM %s",
		  d->id, d->gen, uuid, p->r->state, vc, mem, max);
}

/* A graph's points: one per column of the pane. */
static size_t pane_width(void)
{
	size_t w = COLS > 2 ? (size_t)COLS - 1 : 1;
	return w < TUI_ROW_MAX ? w : TUI_ROW_MAX;
}

static void pane_history(struct pane *p)
{
	const struct xg_history *h = p->t->e->hist;
	char a[64], b[64], about[512];
	if (tui_range_fetch(p->t, p->d, graph_cols, XG_ARRAY_LEN(graph_cols), pane_width()) &&
	    tui_range_about(p->t, about, sizeof(about))) {
		pane_text(p, A_NORMAL, "%s", about);
		return;
	}
	if (!h) {
		pane_text(p, A_NORMAL, "No history (--history 0): no graphs, current figures only.");
		return;
	}
	fmt_clock(hist_time(h, h->n ? h->n - 1 : 0), "%Y-%m-%d %H:%M:%S", a, sizeof(a));
	fmt_clock(hist_time(h, 0), "%H:%M:%S", b, sizeof(b));
	pane_text(p, A_NORMAL, "History: %llu of %u samples kept, %s .. %s. Graphs: one column per "
		  "sample, newest on the right, from 0 to the scale shown.", (unsigned long long)h->n,
		  h->cap, a, b);
}

/* One graph: a label with the figure now and the range shown, then the
 * graph; a figure never measured in the window gets its reason instead. */
static void pane_graph(struct pane *p, size_t k, int rows)
{
	enum xg_col c = graph_cols[k];
	const struct xg_history *h = p->t->e->hist;
	const struct tui_detail *td = &p->t->detail;
	float v[TUI_ROW_MAX];
	char now[TUI_CELL_BYTES], lo[32], hi[32], top_s[32], over[64];
	size_t w = pane_width(), n;
	if (td->got && td->ncols == XG_ARRAY_LEN(graph_cols) && td->n <= TUI_ROW_MAX) {
		n = td->n;   /* from the server's range query */
		memcpy(v, td->got + k * n, n * sizeof(*v));
		snprintf(over, sizeof(over), "over %s", tui_zooms[td->zoom].label);
	} else {
		n = hist_values(h, hist_find(h, p->r), hist_slot(c), v, w);
		snprintf(over, sizeof(over), "over the last %zu samples", n);
	}
	float mn = NAN, mx = NAN;
	for (size_t i = 0; i < n; i++) {
		if (isnan(v[i]))
			continue;
		mn = isnan(mn) || v[i] < mn ? v[i] : mn;
		mx = isnan(mx) || v[i] > mx ? v[i] : mx;
	}
	col_format(c, p->r, now, sizeof(now));
	const char *hdr = xg_columns[c].header;
	if (isnan(mx)) {
		const char *why = row_why(&p->t->e->table, p->r, c);
		pane_text(p, A_BOLD, "%-10s %s  (not measured%s%s)", hdr, now, why ? ": " : "", why ? why : "");
		return;
	}
	float top = tui_graph_top(c, v, n);
	fmt_value(c, mn, lo, sizeof(lo));
	fmt_value(c, mx, hi, sizeof(hi));
	fmt_value(c, top, top_s, sizeof(top_s));
	pane_text(p, A_BOLD, "%-10s now %s  min %s  max %s  %s  (scale 0 .. %s)", hdr, now, lo, hi, over, top_s);
	if (!p->dry)
		tui_graph_draw(p->t, p->y0 + p->line - (int)p->t->detail.top, (int)(w - n), rows, v, n, top,
			       p->y0, p->y1);
	p->line += rows;
}

static void pane_graphs(struct pane *p)
{
	int rows = LINES >= 50 ? 4 : LINES >= 30 ? 3 : LINES >= 20 ? 2 : 1;
	if (!p->t->e->hist && !p->t->detail.got)
		return;
	pane_text(p, A_NORMAL, "%s", "");
	for (size_t i = 0; i < XG_ARRAY_LEN(graph_cols); i++)
		pane_graph(p, i, rows);
}

static void pane_vcpus(struct pane *p)
{
	char label[32];
	pane_heading(p, "%s", "vCPUs: CPU% and each runstate's share of the vCPU's time in the last interval");
	size_t shown = 0;
	for (uint32_t k = 0; k < p->r->child_count; k++) {
		const struct xg_row *vr = &p->tb->rows[p->r->child_first + k];
		if (vr->vcpu < 0)
			continue;
		snprintf(label, sizeof(label), "  vCPU %-3d %-7s", (int)vr->vcpu, vr->state);
		pane_figures(p, vr, label, vcpu_cols, XG_ARRAY_LEN(vcpu_cols));
		shown++;
	}
	if (!shown)
		pane_text(p, A_NORMAL, "  (the source gives no per-vCPU figures for this domain)");
}

/* Disk and network: the sample holds sums over the devices, and says how
 * many there are. */
static void pane_sums(struct pane *p, const char *what, enum xg_field count, const char *things,
		      const enum xg_col *cols, size_t n)
{
	char head[160], many[32] = "?";
	if (dom_has(p->d, count))
		snprintf(many, sizeof(many), "%llu", (unsigned long long)p->d->v[count]);
	snprintf(head, sizeof(head), "%s (%s: %s; the source gives their sums, not figures per device)",
		 what, things, many);
	pane_heading(p, "%s", head);
	pane_figures(p, p->r, " ", cols, n);
}

static void pane_devices(struct pane *p)
{
	pane_sums(p, "Disk", XG_F_VBDS, "block devices", disk_cols, XG_ARRAY_LEN(disk_cols));
	pane_sums(p, "Network", XG_F_NETS, "interfaces", net_cols, XG_ARRAY_LEN(net_cols));
}

static void pane_cache(struct pane *p)
{
	const struct xg_host *h = &p->t->e->table.cur->host;
	char ev[4 * sizeof(h->cache_events)];
	tui_name_fit(ev, sizeof(ev), h->cache_events, (int)sizeof(h->cache_events));
	pane_heading(p, "Cache: counts %s", ev[0] ? ev : "(the source does not name the events)");
	pane_figures(p, p->r, " ", cache_cols, XG_ARRAY_LEN(cache_cols));
	pane_figures(p, p->r, "  by where:", cache_bd_cols, XG_ARRAY_LEN(cache_bd_cols));
	if (p->r->guest_reported)
		pane_text(p, A_NORMAL, "  * figures the guest published about itself (xgtop --agent in the guest)");
}

/* Linux pressure of the domain's cgroup: some beside full, where the
 * source reads pressure at all. */
static void pane_pressure(struct pane *p)
{
	if (!p->t->e->view.show_psi)
		return;
	pane_heading(p, "%s", "Pressure (share of the interval in which tasks of its cgroup stalled)");
	pane_figures(p, p->r, "  some (at least one task):", psi_some_cols, XG_ARRAY_LEN(psi_some_cols));
	pane_figures(p, p->r, "  full (all non-idle tasks):", psi_full_cols, XG_ARRAY_LEN(psi_full_cols));
}

/* The domain's culprits, biggest first: name, seconds, share of the
 * whole; 'other' for the rest. */
static void pane_ranked(struct pane *p, const struct xg_sample *s, bool since_start, const char *title)
{
	struct xg_wait_rank r[XG_WAIT_RANKS];
	uint64_t whole;
	size_t n = waits_ranked(s, p->d, since_start, r, &whole);
	if (!n) {
		pane_text(p, A_NORMAL, "%s none (no wait ended)", title);
		return;
	}
	pane_text(p, A_NORMAL, "%s %.3f s of WAIT", title, (double)whole / 1e9);
	for (size_t i = 0; i < n; i++) {
		char buf[32], name[4 * XG_NAME_MAX + 1];
		const char *raw = r[i].other ? "other" : waits_culprit(s, p->d, r[i].who, buf, sizeof(buf));
		tui_name_fit(name, sizeof(name), raw, 24);
		pane_text(p, A_NORMAL, "    %-24s %10.3f s %6.1f %%", name, (double)r[i].ns / 1e9, 100.0 * r[i].share);
	}
}

/* The interval's waits per length bucket, as bars scaled to the fullest
 * bucket, from the first to the last bucket with any. */
static void pane_lengths(struct pane *p, const struct xg_sample *prev, const struct xg_sample *cur)
{
	uint64_t h[XG_WAIT_LE_N + 1], max = 0;
	if (!waits_hist(prev, cur, p->d, h))
		return;
	int lo = -1, hi = -1;
	for (int b = 0; b <= XG_WAIT_LE_N; b++) {
		if (!h[b])
			continue;
		lo = lo < 0 ? b : lo;
		hi = b;
		max = h[b] > max ? h[b] : max;
	}
	if (lo < 0) {
		pane_text(p, A_NORMAL, "%s", "  wait lengths in the interval: none ended in running");
		return;
	}
	pane_text(p, A_NORMAL, "%s", "  wait lengths in the interval (waits shorter than):");
	for (int b = lo; b <= hi; b++) {
		char bound[16], bar[41];
		bool rest = b == XG_WAIT_LE_N;   /* the longer ones */
		waits_bound_text((unsigned)(rest ? b - 1 : b), bound, sizeof(bound));
		int len = (int)((h[b] * 40 + max - 1) / max);
		memset(bar, '#', (size_t)len);
		bar[len] = 0;
		pane_text(p, A_NORMAL, "    %s %-8s %8llu %s", rest ? ">=" : "< ", bound, (unsigned long long)h[b], bar);
	}
}

/* Whom its waits of the interval were behind, and how long they were,
 * where the source attributes waits (Xen's live trace). */
static void pane_waits(struct pane *p)
{
	if (!p->t->e->view.show_waits)
		return;
	pane_heading(p, "%s", "Waits that ended in the interval (Xen scheduler trace)");
	pane_figures(p, p->r, "  behind, latency:", wait_cols, XG_ARRAY_LEN(wait_cols));
	const struct xg_engine *e = p->t->e;
	const struct xg_sample *cur = &e->sample[e->cur];
	const char *why = sample_waits_why(cur, p->d);
	if (why) {
		pane_text(p, A_NORMAL, "  ranked culprits, wait lengths: - (%s)", why);
		return;
	}
	pane_ranked(p, cur, false, "  behind in the interval:");
	pane_ranked(p, cur, true, "  behind since the source began:");
	pane_lengths(p, e->have_prev ? &e->sample[!e->cur] : NULL, cur);
}

/* Is it a cache victim (the CPI2 rule), and whom do its neighbours' cache
 * misses point at? */
static void pane_contention(struct pane *p)
{
	const struct xg_suspects *s = p->t->e->susp;
	const struct xg_susp_dom *d = s ? suspects_of(s, p->r->dom_index) : NULL;
	char rule[160], v[TUI_CELL_BYTES], name[4 * XG_NAME_MAX + 8];
	if (!d || s->cur != p->t->e->table.cur)
		return;
	susp_cfg_format(&s->cfg, rule, sizeof(rule));
	pane_heading(p, "Cache contention (CPI2 rule: %s)", rule);
	col_format(XG_COL_VICTIM, p->r, v, sizeof(v));
	if (d->hits < 0) {
		const char *why = row_why(&p->t->e->table, p->r, XG_COL_VICTIM);
		pane_text(p, A_NORMAL, "  VICTIM %s: %s", v, why ? why : "no verdict");
		return;
	}
	pane_text(p, A_NORMAL, "  VICTIM %s: %s %.3f now, baseline mean %.3f sd %.3f, threshold %.3f", v,
		  susp_metric_name(d->metric), d->now, d->mean, d->sd, d->thr);
	if (!d->victim)
		return;
	if (d->socket >= 0)
		pane_text(p, A_NORMAL, "  suspects on socket %d, by r of their %s with its %s:", d->socket,
			  susp_press_name(d->press ? d->press : XG_SUSP_MISS), susp_metric_name(d->metric));
	else
		pane_text(p, A_NORMAL, "  socket unknown: every neighbour is a candidate, by r:");
	if (!d->nsusp)
		pane_text(p, A_NORMAL, "    no neighbour with cache counters");
	for (unsigned k = 0; k < d->nsusp; k++) {
		const struct xg_suspect *x = &d->susp[k];
		const struct xg_dom *sd = &p->t->e->table.cur->dom[x->dom];
		tui_name_fit(name, sizeof(name), sd->name, 32);
		char r[16] = "-";
		if (isfinite(x->r))
			snprintf(r, sizeof(r), "%.2f", x->r);
		pane_text(p, x->flagged ? A_BOLD : A_NORMAL, "    %-8s %-32s r=%-5s high in %u of its %d outlier windows%s",
			  x->flagged ? "SUSPECT" : "-", name, r, x->together, d->hits,
			  x->sock_unknown ? " (socket unknown)" : "");
	}
}

/* Every column the pane shows: its formula, and why it is `-` here. */
static void pane_sources(struct pane *p)
{
	static const enum xg_col *const groups[] = { graph_cols, disk_cols, net_cols, cache_cols, cache_bd_cols,
		wait_cols, psi_some_cols, psi_full_cols };
	static const size_t sizes[] = { XG_ARRAY_LEN(graph_cols), XG_ARRAY_LEN(disk_cols),
		XG_ARRAY_LEN(net_cols), XG_ARRAY_LEN(cache_cols), XG_ARRAY_LEN(cache_bd_cols),
		XG_ARRAY_LEN(wait_cols), XG_ARRAY_LEN(psi_some_cols), XG_ARRAY_LEN(psi_full_cols) };
	/* the wait columns where the source attributes waits, pressure where
	 * it reads pressure (the last groups) */
	size_t ngroups = XG_ARRAY_LEN(groups) - (p->t->e->view.show_psi ? 0 : 2);
	bool waits = p->t->e->view.show_waits;
	bool done[XG_COL_COUNT] = { false };
	char lead[64];
	pane_heading(p, "%s", "Where the figures come from");
	for (size_t g = 0; g < ngroups; g++) {
		if (groups[g] == wait_cols && !waits)
			continue;
		for (size_t i = 0; i < sizes[g]; i++) {
			enum xg_col c = groups[g][i];
			if (done[c])
				continue;
			done[c] = true;
			snprintf(lead, sizeof(lead), "  %-12s", xg_columns[c].header);
			pane_wrap(p, lead, xg_columns[c].help);
			const char *why = row_why(&p->t->e->table, p->r, c);
			if (why)
				pane_wrap(p, "                - here: ", why);
		}
	}
}

/* The domain's rows, with its vCPU rows: the engine's table when it has
 * them (v on), else the pane's own from the same two samples. */
static struct xg_table *pane_table(struct tui *t)
{
	struct xg_engine *e = t->e;
	if (e->table.row_kinds & XG_ROWS_VCPUS)
		return &e->table;
	const struct xg_sample *prev = e->have_prev ? &e->sample[!e->cur] : NULL;
	metrics_compute_rows(prev, &e->sample[e->cur], XG_ROWS_VCPUS, &t->detail.tb);
	if (e->susp)
		suspects_mark_rows(e->susp, &t->detail.tb);
	return &t->detail.tb;
}

static void pane_body(struct pane *p)
{
	pane_identity(p);
	pane_history(p);
	pane_graphs(p);
	pane_vcpus(p);
	pane_devices(p);
	pane_cache(p);
	pane_pressure(p);
	pane_waits(p);
	pane_contention(p);
	pane_sources(p);
}

static void draw_title(struct tui *t, const char *name)
{
	const struct xg_host *h = t->e->table.cur ? &t->e->table.cur->host : NULL;
	char when[64] = "", line[512];
	if (h)
		fmt_clock(t->at ? (uint64_t)(t->at * 1e9) : h->real_ns, "%Y-%m-%d %H:%M:%S %Z", when, sizeof(when));
	snprintf(line, sizeof(line), "xgtop details: %s  %s %s", name,
		 t->replay ? "recorded" : t->at ? "NOT LIVE: as of" : "at", when);
	attrset(t->el[TUI_EL_HEADER]);
	mvhline(0, 0, ' ', COLS);
	tui_put(0, 0, line, COLS);
	attrset(A_NORMAL);
}

void tui_detail_draw(struct tui *t)
{
	char name[TUI_CELL_BYTES];
	const struct xg_dom *d = tui_sel_dom(t);

	erase();
	tui_name_fit(name, sizeof(name), t->sel.name, TUI_NAME_MAX_W);
	draw_title(t, name);
	t->status_y = 1;
	tui_draw_status(t);
	if (!d) {
		mvaddstr(3, 0, "This domain is not in the sample on screen: it left, or its id now names "
			 "another domain. Esc returns to the list.");
	} else {
		struct xg_table *tb = pane_table(t);
		size_t i = (size_t)(d - tb->cur->dom);
		/* Its own table (vCPU rows) is computed whole; the engine's
		 * completes the row it hands out. */
		const struct xg_row *r = tb == &t->e->table ? engine_row(t->e, i) : &tb->rows[i];
		struct pane p = { t, tb, r, d, 0, 2, LINES - 1, true };
		pane_body(&p);
		int room = p.y1 - p.y0;
		size_t last = p.line > room ? (size_t)(p.line - room) : 0;
		if (t->detail.top > last)
			t->detail.top = last;
		p.line = 0;
		p.dry = false;
		pane_body(&p);
	}
	tui_keymap_hints(t, &tui_detail_keys);
	wnoutrefresh(stdscr);
}

void tui_detail_open(struct tui *t)
{
	if (!t->e->view.norder) {
		tui_set_msg(t, false, "no domain to show");
		return;
	}
	if (!t->sel.on || !tui_sel_sync(t, true))
		tui_sel_set(t, t->top);
	t->detail.top = 0;
	t->mode = TUI_MODE_DETAIL;
}

static unsigned act_scroll(struct tui *t, const struct tui_binding *b, int key)
{
	(void)b;
	tui_scroll(&t->detail.top, key, LINES > 4 ? (size_t)LINES - 4 : 1);
	return TUI_DONE;
}

static unsigned detail_other(struct tui *t, int rc, wint_t ch)
{
	if (rc == KEY_CODE_YES && ch == KEY_MOUSE) {
		MEVENT ev;
		getmouse(&ev);   /* take it off the queue: the pane has nothing to click */
		return TUI_DONE;
	}
	tui_set_msg(t, false, "Esc returns to the list (h there shows the keys)");
	return TUI_DONE;
}

/* Time and the terminal work as in the list (tui_actions.c): the pane
 * follows the sample shown. */
static const struct tui_binding detail_bindings[] = {
	{ { TUI_KEY_ESC, 'q', '\r', '\n', KEY_ENTER }, "Esc", "back", "back to the list", tui_act_back, 0 },
	{ { KEY_UP, KEY_DOWN, 'k', 'j' }, "Up/Dn", "scroll", "scroll by a line", act_scroll, 0 },
	{ { KEY_PPAGE, KEY_NPAGE }, NULL, NULL, "scroll by a page", act_scroll, 0 },
	{ { TUI_CTRL('U'), TUI_CTRL('D') }, NULL, NULL, "scroll by half a page", act_scroll, 0 },
	{ { KEY_HOME, KEY_END, TUI_KEY_TWICE('g'), 'G' }, NULL, NULL, "the top / the end", act_scroll, 0 },
	{ { ',', KEY_LEFT }, "Left/Right", "step", "a replay: step one sample back and freeze; "
	  "--source prometheus: move the whole view back in time by the zoom's step (5m: 1 min, 1h: "
	  "10 min, 6h: 1 h, 1d: 4 h, 7d: 1 day)", tui_act_step_back, 0 },
	{ { '.', KEY_RIGHT }, NULL, NULL, "step one sample forward (while frozen, or in a replay); "
	  "--source prometheus: forward in time, up to live", tui_act_step, 0 },
	{ { 'z', 'Z' }, "zZ", "zoom", "--source prometheus: the graphs over a longer / shorter "
	  "period (5m 1h 6h 1d 7d) from the server's range queries, one point per column; other "
	  "sources graph the history in memory (one column per sample, --history) and say so",
	  tui_act_zoom, 0 },
	{ { 'L' }, "L", "live", "--source prometheus: back to live from a past time", tui_act_live, 0 },
	{ { ' ' }, "space", "freeze", "freeze the display (a replay pauses); space again resumes",
	  tui_act_freeze, 0 },
	{ { 'Q' }, "Q", "quit", "quit", tui_act_quit, 0 },
	{ { TUI_CTRL('L') }, NULL, NULL, "redraw the screen", tui_act_redraw, 0 },
};

const struct tui_keymap tui_detail_keys = {
	.title = "Keys in the detail pane",
	.b = detail_bindings,
	.n = XG_ARRAY_LEN(detail_bindings),
	.other = detail_other,
	.fresh_msg = true,
};
