// SPDX-License-Identifier: GPL-2.0-or-later
/* The replay source: plays a recording back through the same pipeline as a
 * live source. It reads one sample ahead so it can tell the engine how long
 * the recorded gap before the next sample was. To step back it notes where
 * each gzip member starts (a member's first sample is stored whole) and
 * reads again from the last member start before the sample wanted. */
#include "xgtop/record/record.h"
#include "xgtop/record/replay_source.h"

#include <stdio.h>
#include <stdlib.h>

/* A place reading can start again: a gzip member and its first sample. */
struct replay_mark {
	uint64_t off, index;
};

struct xg_source {
	struct xg_reader *rd;
	struct xg_sample next;       /* the sample collect() returns next */
	uint64_t next_index;         /* its number, 0 = the recording's first */
	struct xg_sample spare;      /* the sample before next, while seeking */
	struct replay_mark *mark;    /* member starts seen, in file order */
	size_t nmark, mark_cap;
	int next_rc;                 /* 0 have it, 1 end, -1 error in next_err */
	struct xg_err next_err;
	uint64_t last_mono, last_real;
	bool have_last;
	char *path;
	char notice[256];
};

static void replay_close(struct xg_source *s)
{
	if (!s)
		return;
	reader_close(s->rd);
	sample_free(&s->next);
	sample_free(&s->spare);
	free(s->mark);
	free(s->path);
	free(s);
}

static bool replay_probe(void)
{
	return false;   /* only on request: --replay FILE or --source replay */
}

/* prev: the sample read last (the reader decodes against it). */
static void read_ahead(struct xg_source *s, const struct xg_sample *prev)
{
	s->next_rc = reader_next(s->rd, prev, &s->next, &s->next_err);
	if (s->next_rc)
		return;
	uint64_t off = reader_member_offset(s->rd);
	if (!s->nmark || off > s->mark[s->nmark - 1].off) {
		xg_grow(&s->mark, &s->mark_cap, s->nmark + 1, sizeof(*s->mark));
		s->mark[s->nmark++] = (struct replay_mark){ off, s->next_index };
	}
}

static int replay_open(struct xg_source **out, const struct xg_config *cfg, struct xg_err *err)
{
	if (!cfg->replay || !*cfg->replay)
		return xg_fail(err, "--source replay needs a recording: --replay FILE");
	struct xg_source *s = xg_calloc(1, sizeof(*s));
	s->rd = reader_open(cfg->replay, err);
	if (!s->rd) {
		free(s);
		return -1;
	}
	sample_init(&s->next);
	sample_init(&s->spare);
	s->path = xg_strdup(cfg->replay);
	read_ahead(s, NULL);
	if (s->next_rc < 0) {
		*err = s->next_err;
		replay_close(s);
		return -1;
	}
	*out = s;
	return 0;
}

static int replay_collect(struct xg_source *s, struct xg_sample *out, struct xg_err *err)
{
	if (s->next_rc < 0) {
		*err = s->next_err;
		return XG_COLLECT_ERROR;
	}
	if (s->next_rc > 0)
		return XG_COLLECT_EOF;
	/* Hand over the buffers instead of copying thousands of domains. */
	struct xg_sample t = *out;
	*out = s->next;
	s->next = t;
	s->last_mono = out->host.mono_ns;
	s->last_real = out->host.real_ns;
	s->have_last = true;
	s->next_index++;
	read_ahead(s, out);
	return XG_COLLECT_OK;
}

/* Reads from the last member start at or before index up to index: the
 * samples before it are decoded (each is stored against the one before)
 * and dropped. */
static int replay_seek(struct xg_source *s, uint64_t index, struct xg_err *err)
{
	size_t m = 0;
	while (m + 1 < s->nmark && s->mark[m + 1].index <= index)
		m++;
	if (!s->nmark || s->mark[m].index > index)
		return xg_fail(err, "%s: sample %llu was never read, cannot go back to it", s->path,
			       (unsigned long long)index);
	struct xg_reader *rd = reader_open_at(s->path, s->mark[m].off, err);
	if (!rd)
		return -1;
	reader_close(s->rd);
	s->rd = rd;
	s->next_index = s->mark[m].index;
	s->have_last = false;
	read_ahead(s, NULL);
	while (s->next_rc == 0 && s->next_index < index) {
		struct xg_sample t = s->spare;
		s->spare = s->next;
		s->next = t;
		s->next_index++;
		read_ahead(s, &s->spare);
	}
	if (s->next_rc < 0) {
		*err = s->next_err;
		return -1;
	}
	return 0;
}

static uint64_t replay_next_gap_ns(struct xg_source *s)
{
	if (!s->have_last || s->next_rc != 0)
		return 0;
	uint64_t mono = s->next.host.mono_ns, real = s->next.host.real_ns;
	if (mono <= s->last_mono)
		return 0;
	uint64_t gap = mono - s->last_mono;
	/* A recording appended to by another run (or after a reboot) has an
	 * unrelated monotonic clock; when the wall clock disagrees by more
	 * than a second and 10 %, say "no recorded gap" so the engine uses its
	 * delay instead of sleeping for hours. */
	if (real < s->last_real)
		return 0;
	uint64_t rgap = real - s->last_real;
	uint64_t diff = rgap > gap ? rgap - gap : gap - rgap;
	if (diff > 1000000000ull && diff > gap / 10)
		return 0;
	return gap;
}


static bool replay_at_end(struct xg_source *s)
{
	return s->next_rc > 0;
}

static const char *replay_end_notice(struct xg_source *s)
{
	unsigned torn = reader_torn(s->rd);
	if (s->next_rc <= 0 || !torn)
		return NULL;
	snprintf(s->notice, sizeof(s->notice), "%s: the last sample was incomplete (recording "
	         "interrupted mid-write) and was skipped", s->path);
	return s->notice;
}

const struct xg_source_ops source_replay_ops = {
	.name = "replay",
	.probe = replay_probe,
	.open = replay_open,
	.collect = replay_collect,
	.next_gap_ns = replay_next_gap_ns,
	.at_end = replay_at_end,
	.close = replay_close,
	.end_notice = replay_end_notice,
	.seek = replay_seek,
};
