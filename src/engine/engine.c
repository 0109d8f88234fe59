// SPDX-License-Identifier: GPL-2.0-or-later
/* One refresh: collect, record, compute, select. Shared by the TUI, batch
 * mode and --explain so all of them show the same numbers. */
#include "xgtop/engine/engine.h"
#include "xgtop/model/columns.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *source_name(const struct xg_config *cfg)
{
	if (cfg->replay)
		return "replay";
	if (cfg->trace_file)
		return "trace";
	return cfg->source;
}

int engine_open(struct xg_engine *e, const struct xg_config *cfg, struct xg_err *err)
{
	memset(e, 0, sizeof(*e));
	e->cfg = cfg;
	sample_init(&e->sample[0]);
	sample_init(&e->sample[1]);
	view_init(&e->view, cfg);
	e->ops = source_find(source_name(cfg), err);
	if (!e->ops)
		return -1;
	if (e->ops->open(&e->src, cfg, err) < 0) {
		e->src = NULL;
		return -1;
	}
	if (cfg->record) {
		e->rec = recorder_open(cfg->record, err);
		if (!e->rec)
			return -1;
	}
	e->self_cpu_last = xg_self_cpu_ns();
	return 0;
}

static int at_eof(struct xg_engine *e)
{
	const char *n = e->ops->end_notice ? e->ops->end_notice(e->src) : NULL;
	snprintf(e->end_notice, sizeof(e->end_notice), "%s", n ? n : "");
	e->eof = true;
	return 1;
}

/* The fields the rows on screen are asked for: those of the columns
 * shown, and those the triage line reads of them (RUN%, WAIT%, VCPU;
 * the pressure's where the source reads it); every field while the
 * detail pane shows one domain whole (rows_every_field). */
static uint64_t shown_fields(const struct xg_engine *e)
{
	const struct xg_view *v = &e->view;
	if (e->rows_every_field)
		return ~0ull;
	uint64_t f = col_fields(XG_COL_WAIT) | col_fields(XG_COL_VCPU);
	if (v->show_psi)
		f |= col_fields(XG_COL_MEM_PSI) | col_fields(XG_COL_IO_PSI);
	for (int c = 0; c < XG_COL_COUNT; c++)
		if (view_col_visible(v, (enum xg_col)c))
			f |= col_fields((enum xg_col)c);
	return f;
}

/* Tells the source what the view shows next: in the full-screen view,
 * once the table has a sorted order (two samples), the rows on screen
 * (and half a screen on either side, for small moves) with the fields
 * of the columns shown, and their vCPUs when those show (the vCPU rows,
 * the detail pane); of every domain the fields sorting by the sort
 * column needs (col_fields: WAIT% all four runstates; the summary
 * line's totals over every domain the source computes itself); before
 * that, what sorting needs of all (every field of 10,000 domains is more
 * than a server answers within a refresh); elsewhere everything. */
static void tell_wanted(struct xg_engine *e)
{
	struct xg_wanted w = { .all = true };
	if (e->rows_on_demand)
		w = (struct xg_wanted){ .fields = col_fields(e->view.sort_col),
					    .state = e->view.sort_col == XG_COL_STATE };
	if (e->rows_on_demand && e->have_prev && e->screen_rows) {
		const struct xg_view *v = &e->view;
		const struct xg_sample *cur = &e->sample[e->cur];
		size_t margin = e->screen_rows / 2 + 1;
		size_t from = e->screen_first > margin ? e->screen_first - margin : 0;
		size_t to = e->screen_first + e->screen_rows + margin;
		if (to > v->norder)
			to = v->norder;
		size_t n = 0;
		if (to > from)
			xg_grow(&e->want_keys, &e->want_cap, to - from, sizeof(*e->want_keys));
		for (size_t k = from; k < to; k++) {
			const struct xg_row *r = &e->table.rows[v->order[k]];
			if (r->dom_index >= cur->ndom)
				continue;
			const struct xg_dom *d = &cur->dom[r->dom_index];
			e->want_keys[n++] = (struct xg_dom_key){ .host = d->host, .id = d->id };
		}
		w = (struct xg_wanted){ .fields = col_fields(v->sort_col), .state = v->sort_col == XG_COL_STATE,
				       .keys = e->want_keys, .nkeys = n, .row_fields = shown_fields(e),
				       .row_vcpus = v->show_vcpus || e->rows_every_field };
	}
	e->ops->set_wanted(e->src, &w);
}

/* Collects the next sample into the free slot and records it (record).
 * Returns 0, 1 at the end of a replay/trace, -1 on error. */
static int take(struct xg_engine *e, bool record, struct xg_err *err)
{
	/* At the end of a recording, stop before clearing the slot that holds
	 * the previous sample: the views still recompute from it (v key). */
	if (e->eof || (e->ops->at_end && e->ops->at_end(e->src)))
		return at_eof(e);
	int next = e->have_cur ? !e->cur : e->cur;
	struct xg_sample *s = &e->sample[next];
	sample_clear(s);
	if (e->ops->set_trace)
		e->ops->set_trace(e->src, e->view.show_sched);
	if (e->ops->set_wanted)
		tell_wanted(e);
	int rc = e->ops->collect(e->src, s, err);
	if (rc == XG_COLLECT_EOF)
		return at_eof(e);
	if (rc != XG_COLLECT_OK)
		return -1;
	if (!s->host.mono_ns)
		s->host.mono_ns = xg_now_mono_ns();
	if (!s->host.real_ns)
		s->host.real_ns = xg_now_real_ns();
	sample_sort(s);
	/* VM columns appear once a source (or a recording) says its domains
	 * are VMs; they stay, so columns do not come and go with the VMs */
	if (host_has(&s->host, XG_H_VMS))
		e->view.show_vm = true;
	if (host_has(&s->host, XG_H_PSI))   /* the same for pressure */
		e->view.show_psi = true;
	if (host_has(&s->host, XG_H_WAITS))   /* and for the wait columns */
		e->view.show_waits = true;
	const struct xg_sample *prev = e->have_cur ? &e->sample[e->cur] : NULL;
	if (record && e->rec && recorder_append(e->rec, prev, s, err) < 0)
		return -1;
	e->cur = next;
	e->have_prev = e->have_cur;
	e->have_cur = true;
	e->nsamples++;
	return 0;
}

uint64_t engine_deferred(const struct xg_engine *e)
{
	if (!e->rows_on_demand)
		return 0;
	return ~((1ull << e->view.sort_col) | (e->hist ? hist_cols() : 0));
}

const struct xg_row *engine_row(struct xg_engine *e, size_t i)
{
	table_fill_row(&e->table, i);
	return &e->table.rows[i];
}

const struct xg_table *engine_rows_complete(struct xg_engine *e)
{
	table_fill(&e->table);
	return &e->table;
}

/* The rows of the current sample, into the history when one is kept. */
static void compute(struct xg_engine *e)
{
	const struct xg_sample *prev = e->have_prev ? &e->sample[!e->cur] : NULL;
	e->table.defer = engine_deferred(e);
	metrics_compute_rows(prev, &e->sample[e->cur], view_row_kinds(&e->view), &e->table);
	if (e->susp) {
		suspects_update(e->susp, &e->table);
		suspects_mark_rows(e->susp, &e->table);
	}
	if (e->hist)
		hist_add(e->hist, e->nsamples - 1, &e->table);
}

/* The monitor's own cost: everything it did since the last refresh
 * (drawing included), whatever source it reads. */
static void self_cost(struct xg_engine *e)
{
	uint64_t now = xg_self_cpu_ns();
	e->table.sum.self_cpu_ms = (double)(now - e->self_cpu_last) / 1e6;
	e->self_cpu_last = now;
}

static int step(struct xg_engine *e, struct xg_err *err)
{
	int rc = take(e, true, err);
	if (rc)
		return rc;
	compute(e);
	self_cost(e);
	view_apply(&e->view, &e->table);
	return 0;
}

int engine_step(struct xg_engine *e, struct xg_err *err)
{
	int rc = step(e, err);
	if (e->on_refresh)
		e->on_refresh(e->on_refresh_ctx, e, rc);
	return rc;
}

void engine_suspects_on(struct xg_engine *e)
{
	if (e->susp)
		return;
	e->susp = xg_calloc(1, sizeof(*e->susp));
	suspects_init(e->susp, &e->view.susp);
}

void engine_history_on(struct xg_engine *e, unsigned want)
{
	if (e->hist || !want)
		return;
	e->hist = xg_calloc(1, sizeof(*e->hist));
	hist_init(e->hist, want);
}

bool engine_set_time(struct xg_engine *e, double t)
{
	if (!e->ops->set_time)
		return false;
	e->ops->set_time(e->src, t);
	if (e->hist)
		hist_clear(e->hist);
	return true;
}

int engine_range(struct xg_engine *e, struct xg_range *r, float *out, struct xg_err *err)
{
	if (!e->ops->range)
		return xg_fail(err, "%s", "the source keeps no history of its own");
	return e->ops->range(e->src, r, out, err);
}

int engine_seek(struct xg_engine *e, uint64_t index, struct xg_err *err)
{
	if (!e->ops->seek)
		return xg_fail(err, "only a replay can step back");
	if (e->rec)
		return xg_fail(err, "no stepping back while --record writes: the recording would repeat samples");
	/* Read from where the history window (or the pair of samples the rates
	 * need) starts; the rows are computed only where they are kept. */
	uint64_t keep = e->hist ? e->hist->cap : 1;
	uint64_t start = index > keep ? index - keep : 0;
	if (e->ops->seek(e->src, start, err) < 0)
		return -1;
	e->eof = false;
	e->end_notice[0] = 0;
	e->have_cur = e->have_prev = false;
	e->nsamples = start;
	if (e->hist)
		hist_clear(e->hist);
	if (e->susp)
		suspects_clear(e->susp);
	for (uint64_t i = start; i <= index; i++) {
		int rc = take(e, false, err);
		if (rc)
			return rc < 0 ? -1 : xg_fail(err, "the recording ended before sample %llu",
						     (unsigned long long)index + 1);
		if (i == index || (e->hist && i + e->hist->cap > index))
			compute(e);
	}
	self_cost(e);
	view_apply(&e->view, &e->table);
	return 0;
}

void engine_reapply(struct xg_engine *e)
{
	if (!e->nsamples)
		return;
	/* Per-vCPU and per-socket rows are computed only when shown;
	 * recompute from the two samples we hold when a toggle asks for rows
	 * the table lacks. */
	const struct xg_sample *cur = &e->sample[e->cur];
	unsigned lack = view_row_kinds(&e->view) & ~e->table.row_kinds;
	if (((lack & XG_ROWS_VCPUS) && cur->nvcpu) || ((lack & XG_ROWS_SOCKETS) && cur->nsock)) {
		const struct xg_sample *prev = e->have_prev ? &e->sample[!e->cur] : NULL;
		struct xg_summary keep = e->table.sum;
		e->table.defer = engine_deferred(e);
		metrics_compute_rows(prev, cur, e->table.row_kinds | lack, &e->table);
		e->table.sum = keep;
		if (e->susp)
			suspects_mark_rows(e->susp, &e->table);
	}
	/* A new sort column may be one the rows deferred. */
	table_fill_cols(&e->table, 1ull << e->view.sort_col);
	view_apply(&e->view, &e->table);
}

uint64_t engine_wait_ns(struct xg_engine *e)
{
	if (e->ops->next_gap_ns) {
		uint64_t gap = e->ops->next_gap_ns(e->src);
		if (gap) {
			if (e->cfg->speed <= 0)
				return 0;
			return (uint64_t)((double)gap / e->cfg->speed);
		}
	}
	return (uint64_t)(e->view.delay_s * 1e9);
}

int engine_reopen_record(struct xg_engine *e, struct xg_err *err)
{
	if (!e->cfg->record)
		return 0;
	struct xg_err close_err = { 0 };
	int rc = e->rec ? recorder_close(e->rec, &close_err) : 0;
	/* A fresh recorder starts a new file: the next append needs no
	 * previous sample. */
	e->rec = recorder_open(e->cfg->record, err);
	if (!e->rec)
		return -1;
	if (rc < 0) {
		*err = close_err;
		return -1;
	}
	return 0;
}

void engine_close(struct xg_engine *e)
{
	if (e->rec) {
		struct xg_err ignored;
		recorder_close(e->rec, &ignored);
	}
	if (e->src && e->ops)
		e->ops->close(e->src);
	sample_free(&e->sample[0]);
	sample_free(&e->sample[1]);
	table_free(&e->table);
	free(e->want_keys);
	view_free(&e->view);
	if (e->hist)
		hist_free(e->hist);
	free(e->hist);
	if (e->susp)
		suspects_free(e->susp);
	free(e->susp);
	memset(e, 0, sizeof(*e));
}
