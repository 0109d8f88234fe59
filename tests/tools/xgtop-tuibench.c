// SPDX-License-Identifier: GPL-2.0-or-later
/* xgtop-tuibench: the CPU cost of one TUI refresh without the source:
 * metrics between two samples, filter and sort, and drawing the screen
 * (into a virtual terminal of the given size, output to /dev/null). Reads
 * three samples of a recording and alternates between the two intervals
 * they make, so every refresh has new numbers to draw. */
#include <curses.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "../../src/tui/tui_priv.h"

static void usage(void)
{
	fprintf(stderr, "usage: xgtop-tuibench [--rows N] [--cols N] [--refreshes N] [--no-meters] RECORDING\n");
	exit(2);
}

int main(int argc, char **argv)
{
	const char *path = NULL;
	uint64_t rows = 60, cols = 200, n = 200;
	bool meters = true;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--no-meters")) {
			meters = false;
			continue;
		}
		uint64_t *dst = !strcmp(argv[i], "--rows") ? &rows : !strcmp(argv[i], "--cols") ? &cols :
				!strcmp(argv[i], "--refreshes") ? &n : NULL;
		if (dst) {
			if (i + 1 >= argc || !xg_parse_u64(argv[++i], dst) || !*dst)
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
	struct xg_sample s[3];
	config_defaults(&cfg);
	cfg.replay = path;
	cfg.speed = 0;
	if (engine_open(&e, &cfg, &err) < 0) {
		fprintf(stderr, "xgtop-tuibench: %s\n", err.msg);
		return 1;
	}
	for (int k = 0; k < 3; k++) {
		sample_init(&s[k]);
		if (engine_step(&e, &err) != 0) {
			fprintf(stderr, "xgtop-tuibench: %s: need 3 samples%s%s\n", path, err.msg[0] ? ": " : "",
				err.msg);
			return 1;
		}
		sample_copy(&s[k], &e.sample[e.cur]);
	}

	setlocale(LC_CTYPE, "C.UTF-8");
	FILE *out = fopen("/dev/null", "w");
	SCREEN *scr = out ? newterm("xterm-256color", out, stdin) : NULL;
	if (!scr) {
		fprintf(stderr, "xgtop-tuibench: cannot start a virtual xterm-256color screen\n");
		return 1;
	}
	resizeterm((int)rows, (int)cols);
	struct tui t = { .e = &e, .utf8 = true, .replay = true, .sig_fd = -1 };
	tui_color_init(&t);   /* threshold colours as on a real terminal */
	e.view.show_meters = meters;

	uint64_t tm = 0, ts = 0, td = 0;
	for (uint64_t i = 0; i < n; i++) {
		const struct xg_sample *prev = &s[i % 2], *cur = &s[i % 2 + 1];
		uint64_t a = xg_self_cpu_ns();
		metrics_compute(prev, cur, e.view.show_vcpus, &e.table);
		uint64_t b = xg_self_cpu_ns();
		view_apply(&e.view, &e.table);
		uint64_t c = xg_self_cpu_ns();
		tui_table_draw(&t);
		doupdate();
		uint64_t d = xg_self_cpu_ns();
		tm += b - a;
		ts += c - b;
		td += d - c;
	}
	/* The meters' own part of the draw (into the screen buffer; their
	 * share of the terminal output is in the draw figure only). */
	uint64_t m0 = xg_self_cpu_ns();
	for (uint64_t i = 0; i < n; i++)
		tui_meters_draw(&t, 3);
	uint64_t tmeters = xg_self_cpu_ns() - m0;
	endwin();
	delscreen(scr);
	fclose(out);
	printf("domains %zu  pCPUs %zu  meters %s (%d lines)  screen %llux%llu  refreshes %llu\n",
	       e.table.ndom_rows, e.table.npcpu, e.view.show_meters ? "on" : "off", t.meters_h,
	       (unsigned long long)cols, (unsigned long long)rows, (unsigned long long)n);
	printf("metrics %.3f ms  filter+sort %.3f ms  draw %.3f ms  total %.3f ms CPU per refresh\n",
	       (double)tm / 1e6 / (double)n, (double)ts / 1e6 / (double)n, (double)td / 1e6 / (double)n,
	       (double)(tm + ts + td) / 1e6 / (double)n);
	printf("of the draw, the meters %.3f ms per refresh (without their terminal output)\n",
	       (double)tmeters / 1e6 / (double)n);
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	/* Not the program's figure: this tool keeps three extra samples. */
	printf("bench tool peak resident memory %.1f MB (3 extra samples; xgtop's own figure below)\n",
	       (double)ru.ru_maxrss / 1024.0);
	for (int k = 0; k < 3; k++)
		sample_free(&s[k]);
	engine_close(&e);
	return 0;
}
