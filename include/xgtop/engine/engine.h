/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One refresh of the pipeline: source -> sample -> recorder -> metrics ->
 * table. The TUI and batch mode both drive it; the view and sinks then
 * select and show rows. */
#ifndef XGTOP_ENGINE_H
#define XGTOP_ENGINE_H

#include "xgtop/model/config.h"
#include "xgtop/compute/history.h"
#include "xgtop/compute/metrics.h"
#include "xgtop/compute/suspects.h"
#include "xgtop/record/record.h"
#include "xgtop/model/source.h"
#include "xgtop/view/view.h"

struct xg_engine {
	const struct xg_config *cfg;
	const struct xg_source_ops *ops;
	struct xg_source *src;
	struct xg_recorder *rec;
	struct xg_sample sample[2];     /* current and the one before it */
	int cur;                        /* index of the current one */
	bool have_cur;                  /* sample[cur] is the one the next follows */
	bool have_prev;                 /* sample[!cur] is the one before sample[cur] */
	uint64_t nsamples;              /* taken so far; a replay: the current one's number + 1 */
	struct xg_history *hist;        /* NULL: no history kept (batch) */
	/* The caller computes the deferred columns of the rows it reads
	 * (table_fill_row): the full-screen view, which shows a screenful of
	 * 10,000 domains. The table then computes for every domain only what
	 * the sort, the history and the summary need. */
	bool rows_on_demand;
	/* With rows_on_demand: the rows the screen shows (the view's order
	 * from screen_first, screen_rows of them), so that a source that
	 * computes remotely is asked for every figure of those rows only. */
	size_t screen_first, screen_rows;
	/* And every field of those (the detail pane shows one whole), not
	 * only those of the columns shown. */
	bool rows_every_field;
	struct xg_dom_key *want_keys;
	size_t want_cap;
	struct xg_table table;
	/* Cache victims and suspects, judged every refresh once
	 * engine_suspects_on asked for them (the full-screen view, --explain,
	 * report --contention), with the view's contention settings. */
	struct xg_suspects *susp;
	struct xg_view view;
	uint64_t self_cpu_last;         /* to measure our own cost per refresh */
	bool eof;
	char end_notice[256];           /* set at eof when the source has one */
	char notice[600];               /* for the user at start (settings file
	                                   warnings): the TUI's status line,
	                                   standard error in batch mode */
	/* Called after every refresh with engine_step's result (the exporter
	 * publishes from here); set after engine_open. */
	void (*on_refresh)(void *ctx, const struct xg_engine *e, int rc);
	void *on_refresh_ctx;
};

/* Opens the source the config names (and the recorder). */
int engine_open(struct xg_engine *e, const struct xg_config *cfg, struct xg_err *err);
/* Takes one sample, appends it to the recording, computes the table and
 * applies the view. Returns 0, 1 at end of a replay/trace, -1 on error. */
int engine_step(struct xg_engine *e, struct xg_err *err);
/* Judges cache victims from now on, with e->view.susp's rule. */
void engine_suspects_on(struct xg_engine *e);
/* Keeps the figures of the last want samples from now on (the TUI). */
void engine_history_on(struct xg_engine *e, unsigned want);
/* A replay: makes sample number index (0 = the first) the current one
 * again, with the one before it for the rates and the history up to it,
 * as if played up to there. -1 with err when the source cannot (live
 * sources) or while recording (the recording would repeat samples). */
int engine_seek(struct xg_engine *e, uint64_t index, struct xg_err *err);
/* A source that reads a time-series database (the Prometheus source):
 * the figures from the next step on are of time t (Unix seconds; 0 =
 * live), and the history kept so far is dropped (it is of another time).
 * false when the source shows only now. */
bool engine_set_time(struct xg_engine *e, double t);
/* The same: a domain's graphs from the source (struct xg_range); -1 with
 * err when it keeps no history of its own. */
int engine_range(struct xg_engine *e, struct xg_range *r, float *out, struct xg_err *err);
/* The columns the table may defer now (its `defer`): with rows_on_demand,
 * all but the sort column and the history's; else none. Public for the
 * TUI bench, which times a refresh's stages one by one as the engine runs
 * them. */
uint64_t engine_deferred(const struct xg_engine *e);
/* Row i of the current table, every column computed: what the full-screen
 * view draws, after the table deferred the columns nobody sorts by. */
const struct xg_row *engine_row(struct xg_engine *e, size_t i);
/* The current table with every row complete: for a reader of all rows
 * (the `W` report). */
const struct xg_table *engine_rows_complete(struct xg_engine *e);
/* Re-applies the view to the current table (after a key changed it). */
void engine_reapply(struct xg_engine *e);
/* Nanoseconds to wait before the next step: the delay for live sources,
 * the recorded gap divided by --speed for replays. */
uint64_t engine_wait_ns(struct xg_engine *e);
/* Closes the --record file and opens it again under its name (log
 * rotation: the old file may have been renamed). Without --record, 0. */
int engine_reopen_record(struct xg_engine *e, struct xg_err *err);
void engine_close(struct xg_engine *e);

#endif
