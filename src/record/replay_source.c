// SPDX-License-Identifier: GPL-2.0-or-later
/* The replay source: plays a recording back through the same pipeline as a
 * live source. It reads one sample ahead so it can tell the engine how long
 * the recorded gap before the next sample was. */
#include "xgtop/record/record.h"
#include "xgtop/core/source.h"

#include <stdio.h>
#include <stdlib.h>

struct xg_source {
	struct xg_reader *rd;
	struct xg_sample next;       /* the sample collect() returns next */
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
	read_ahead(s, out);
	return XG_COLLECT_OK;
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
};
