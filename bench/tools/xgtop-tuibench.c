// SPDX-License-Identifier: GPL-2.0-or-later
/* xgtop-tuibench: the CPU cost of one TUI refresh without the source:
 * metrics between two samples, the history (--history N samples, 0 = off;
 * the TREND column is drawn from it), filter and sort, and drawing the
 * screen with the header meters (--no-meters: without) and the threshold
 * colours of a real terminal (into a virtual terminal of the given size,
 * output to /dev/null), and of the drawing what ncurses' own update of the
 * terminal took.
 * Reads the first NS samples of a recording and goes through the
 * intervals they make in turn, so every refresh has new numbers to draw
 * and follows the one before (as the monitor's do), but at the wrap. Then
 * the memory of the history once it holds all its samples, and how much of
 * the process the kernel backs with huge pages. */
#include <curses.h>
#include <locale.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "../../src/tui/tui_state.h"

/* Samples kept: enough that the wrap back to the first interval (which
 * does not follow the one before) is one refresh in NS - 1. */
#define NS 4

static void usage(void)
{
	fprintf(stderr, "usage: xgtop-tuibench [--rows N] [--cols N] [--refreshes N] [--history N] [--no-meters]\n"
		"                      [--stable-order on|off] RECORDING\n");
	exit(2);
}

/* How much of the process the kernel gave huge pages (xg_advise_huge asks
 * for them for the large arrays), and its setting for them. */
static void print_huge_pages(void)
{
	char line[256], mode[64] = "unknown";
	unsigned long kb = 0;
	FILE *f = fopen("/proc/self/smaps_rollup", "r");
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "AnonHugePages: %lu kB", &kb) == 1)
			break;
	if (f)
		fclose(f);
	f = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");
	if (f && fgets(line, sizeof(line), f)) {
		const char *a = strchr(line, '['), *b = a ? strchr(a, ']') : NULL;
		if (b)
			snprintf(mode, sizeof(mode), "%.*s", (int)(b - a - 1), a + 1);
	}
	if (f)
		fclose(f);
	printf("transparent huge pages: %.1f MB of the process (the kernel's setting: %s)\n", (double)kb / 1024.0,
	       mode);
}

/* Times metrics (+ history), filter and sort, and drawing for n refreshes. */
static int bench_refresh(struct xg_engine *e, struct xg_sample *s, uint64_t rows, uint64_t cols,
			 uint64_t n)
{
	setlocale(LC_CTYPE, "C.UTF-8");
	FILE *out = fopen("/dev/null", "w");
	SCREEN *scr = out ? newterm("xterm-256color", out, stdin) : NULL;
	if (!scr) {
		fprintf(stderr, "xgtop-tuibench: cannot start a virtual xterm-256color screen\n");
		return -1;
	}
	resizeterm((int)rows, (int)cols);
	/* As the monitor does (tui.c): no write per cursor movement. */
	endwin();
	doupdate();
	struct tui t = { .e = e, .utf8 = true, .replay = true, .sig_fd = -1 };
	tui_color_init(&t);   /* threshold colours as on a real terminal */
	uint64_t tm = 0, th = 0, ts = 0, td = 0, tu = 0, tc = 0, seq = e->nsamples;
	engine_suspects_on(e);   /* the cache victims, as the monitor judges them */
	/* Fill the history first (its ring is allocated and faulted in once):
	 * the figure is the steady state, a full ring rolling on. */
	uint64_t warm = e->hist ? e->hist->want + 1 : 1;
	for (uint64_t i = 0; i < warm + n; i++) {
		if (i == warm)
			tm = th = ts = td = tu = tc = 0;
		const struct xg_sample *prev = &s[i % (NS - 1)], *cur = &s[i % (NS - 1) + 1];
		uint64_t a = xg_self_cpu_ns();
		e->table.defer = engine_deferred(e);   /* as the monitor computes its rows */
		metrics_compute_rows(prev, cur, e->view.show_vcpus ? XG_ROWS_VCPUS : 0, &e->table);
		uint64_t b0 = xg_self_cpu_ns();
		suspects_update(e->susp, &e->table);
		suspects_mark_rows(e->susp, &e->table);
		uint64_t b = xg_self_cpu_ns();
		tc += b - b0;
		if (e->hist)
			hist_add(e->hist, seq++, &e->table);
		uint64_t c = xg_self_cpu_ns();
		view_apply(&e->view, &e->table);
		uint64_t d = xg_self_cpu_ns();
		tui_table_draw(&t);
		uint64_t u = xg_self_cpu_ns();   /* the update starts */
		doupdate();
		uint64_t f = xg_self_cpu_ns();
		tu += f - u;
		tm += b0 - a;
		th += c - b;
		ts += d - c;
		td += f - d;
	}
	/* The meters' own part of the draw (into the screen buffer; their
	 * share of the terminal output is in the draw figure only). */
	uint64_t m0 = xg_self_cpu_ns();
	for (uint64_t i = 0; i < n; i++)
		tui_meters_draw(&t, 4);
	uint64_t tmeters = xg_self_cpu_ns() - m0;
	endwin();
	delscreen(scr);
	fclose(out);
	free(t.line_row);
	double k = 1e6 * (double)n;
	printf("domains %zu  pCPUs %zu  meters %s (%d lines)  screen %llux%llu  refreshes %llu  history %s\n",
	       e->table.ndom_rows, e->table.npcpu, e->view.show_meters ? "on" : "off", t.meters_h,
	       (unsigned long long)cols, (unsigned long long)rows, (unsigned long long)n,
	       e->hist ? "on (and the TREND column)" : "off");
	printf("metrics %.3f ms  suspects %.3f ms  history %.3f ms  filter+sort %.3f ms  draw %.3f ms  total %.3f ms  "
	       "ncurses %.3f ms CPU per refresh (ncurses: its update of the terminal, part of the draw)\n",
	       (double)tm / k, (double)tc / k, (double)th / k, (double)ts / k, (double)td / k,
	       (double)(tm + tc + th + ts + td) / k, (double)tu / k);
	printf("of the draw, the meters %.3f ms per refresh (without their terminal output)\n",
	       (double)tmeters / k);
	print_huge_pages();
	return 0;
}

/* The history once full: what it says it holds, and what the heap grew by
 * while it filled (blocks are allocated as domains arrive). */
static void history_memory(struct xg_engine *e, struct xg_sample *s)
{
	struct xg_history *h = e->hist;
	unsigned want = h->want;
	hist_free(h);
	struct mallinfo2 m0 = mallinfo2();
	hist_init(h, want);
	for (uint64_t i = 0; i < h->cap; i++) {
		metrics_compute_rows(&s[i % (NS - 1)], &s[i % (NS - 1) + 1], 0, &e->table);
		hist_add(h, i, &e->table);
	}
	struct mallinfo2 m1 = mallinfo2();
	double grew = (double)(m1.uordblks + m1.hblkhd) - (double)(m0.uordblks + m0.hblkhd);
	printf("history of %zu domains x %u samples (of %u asked; budget %u MiB): %.1f MB held, heap grew %.1f MB\n",
	       h->ndom, h->cap, h->want, XG_HIST_BUDGET >> 20, (double)hist_bytes(h) / 1e6, grew / 1e6);
}

int main(int argc, char **argv)
{
	const char *path = NULL;
	uint64_t rows = 60, cols = 200, n = 200, hist = XG_HIST_DEFAULT;
	bool meters = true, stable = true;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--no-meters")) {
			meters = false;
			continue;
		}
		if (!strcmp(argv[i], "--stable-order")) {
			if (i + 1 >= argc || (strcmp(argv[i + 1], "on") && strcmp(argv[i + 1], "off")))
				usage();
			stable = !strcmp(argv[++i], "on");
			continue;
		}
		uint64_t *dst = !strcmp(argv[i], "--rows") ? &rows : !strcmp(argv[i], "--cols") ? &cols :
				!strcmp(argv[i], "--refreshes") ? &n : !strcmp(argv[i], "--history") ? &hist : NULL;
		if (dst) {
			if (i + 1 >= argc || !xg_parse_u64(argv[++i], dst) || (!*dst && dst != &hist))
				usage();
		} else if (argv[i][0] == '-' || path) {
			usage();
		} else {
			path = argv[i];
		}
	}
	if (!path)
		usage();

	struct xg_config cfg;
	struct xg_engine e;
	struct xg_err err = { 0 };
	struct xg_sample s[NS];
	config_defaults(&cfg);
	cfg.replay = path;
	cfg.speed = 0;
	if (engine_open(&e, &cfg, &err) < 0) {
		fprintf(stderr, "xgtop-tuibench: %s\n", err.msg);
		return 1;
	}
	for (int k = 0; k < NS; k++) {
		sample_init(&s[k]);
		if (engine_step(&e, &err) != 0) {
			fprintf(stderr, "xgtop-tuibench: %s: need %d samples%s%s\n", path, NS, err.msg[0] ? ": " : "",
				err.msg);
			return 1;
		}
		sample_copy(&s[k], &e.sample[e.cur]);
	}

	if (hist) {
		engine_history_on(&e, (unsigned)hist);
		e.view.show_trend = true;
	}
	e.view.show_meters = meters;
	e.rows_on_demand = true;
	e.view.stable_live = true;   /* rows that hold still, as tui_run has them */
	e.view.stable = stable;
	if (bench_refresh(&e, s, rows, cols, n) < 0)
		return 1;
	if (hist)
		history_memory(&e, s);
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	/* Not the program's figure: this tool keeps three extra samples. */
	printf("bench tool peak resident memory %.1f MB (%d extra samples; xgtop's own figure below)\n",
	       (double)ru.ru_maxrss / 1024.0, NS);
	for (int k = 0; k < NS; k++)
		sample_free(&s[k]);
	engine_close(&e);
	return 0;
}
