// SPDX-License-Identifier: GPL-2.0-or-later
/* The remote source: one refresh fetches every host at once, parses each
 * answer into that host's own sample, and merges the hosts' last samples
 * into one, each domain tagged with its host. A host that did not answer
 * keeps its last domains, marked stale with the reason. An answer whose
 * sample is the one already shown (the exporter has not refreshed yet) is
 * asked for again shortly, within the time limit, so that every refresh
 * brings each live host's next sample. */
#include "xgtop/remote/remote_source.h"
#include "remote_parts.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct rm_host {
	struct rm_target t;
	struct rm_fetch f;
	struct xg_sample last;      /* its last answer */
	bool have_last, fresh;      /* fresh: last came in this refresh */
	uint64_t last_ok_real;      /* our wall clock when it came */
	char why[256];              /* why it is stale */
};

struct xg_source {
	struct rm_client *client;
	struct rm_host *h;
	size_t n;
	const struct xg_config *cfg;
	char hostname[64];
};

static void remote_close(struct xg_source *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->n; i++) {
		rm_fetch_free(s->client, &s->h[i].f);
		sample_free(&s->h[i].last);
	}
	free(s->h);
	rm_client_close(s->client);
	free(s);
}

static int remote_open(struct xg_source **out, const struct xg_config *cfg, struct xg_err *err)
{
	struct rm_target *t = NULL;
	size_t n = 0;
	int rc = 0;
	if (cfg->remote_urls)
		rc = rm_url_list(cfg->remote_urls, &t, &n, err);
	if (!rc && cfg->hosts_file)
		rc = rm_url_file(cfg->hosts_file, &t, &n, err);
	if (!rc && !n)
		rc = xg_fail(err, "--source remote needs URLs (http://HOST:PORT,...) or --hosts FILE");
	if (!rc && cfg->cacert && access(cfg->cacert, R_OK) < 0)
		rc = xg_fail_errno(err, errno, "--cacert %s", cfg->cacert);
	struct rm_client *client = rc ? NULL : rm_client_open(err);
	if (rc || !client) {
		free(t);
		return -1;
	}
	struct xg_source *s = xg_calloc(1, sizeof(*s));
	s->client = client;
	s->h = xg_calloc(n, sizeof(*s->h));
	s->n = n;
	s->cfg = cfg;
	for (size_t i = 0; i < n; i++) {
		s->h[i].t = t[i];
		if (cfg->cacert && !t[i].ca_file[0])
			snprintf(s->h[i].t.ca_file, sizeof(s->h[i].t.ca_file), "%s", cfg->cacert);
		sample_init(&s->h[i].last);
		rm_fetch_init(&s->h[i].f, &s->h[i].t);
	}
	free(t);
	if (gethostname(s->hostname, sizeof(s->hostname) - 1))
		snprintf(s->hostname, sizeof(s->hostname), "?");
	*out = s;
	return 0;
}

/* Half the refresh interval (at most 10 s): a host that hangs stretches a
 * refresh by that much, whatever the number of such hosts. */
static uint64_t time_limit_ns(const struct xg_source *s)
{
	double t = s->cfg->delay_s * 0.5;
	return (uint64_t)((t > 10 ? 10 : t < 0.04 ? 0.04 : t) * 1e9);
}

/* Takes host h's answer: its next sample, or a reason. false: the same
 * sample as last time, worth asking again. */
static bool take_answer(struct rm_host *h, struct xg_sample *tmp)
{
	struct xg_err err = { 0 };
	if (h->f.phase != RM_DONE) {
		snprintf(h->why, sizeof(h->why), "no answer: %s", h->f.why);
		return true;
	}
	sample_clear(tmp);
	if (rm_map_text(h->f.body, h->f.body_len, tmp, &err) < 0) {
		snprintf(h->why, sizeof(h->why), "its answer is not usable: %.220s", err.msg);
		return true;
	}
	if (h->have_last && tmp->host.mono_ns == h->last.host.mono_ns) {
		snprintf(h->why, sizeof(h->why), "it answered with the sample already shown (its exporter "
			 "refreshes less often than this view: raise -d)");
		return false;
	}
	if (h->have_last && tmp->host.mono_ns < h->last.host.mono_ns) {
		/* Restarted, or another exporter now answers there: no interval
		 * spans the two. */
		h->have_last = false;
	}
	sample_copy(&h->last, tmp);
	h->have_last = h->fresh = true;
	h->last_ok_real = xg_now_real_ns();
	return true;
}

static void sleep_ns(uint64_t ns)
{
	struct timespec ts = { (time_t)(ns / 1000000000u), (long)(ns % 1000000000u) };
	nanosleep(&ts, NULL);
}

static void fetch_round(struct xg_source *s)
{
	const uint64_t limit = time_limit_ns(s), t0 = xg_now_mono_ns(), retry = 50000000;
	struct rm_fetch **want = xg_calloc(s->n, sizeof(*want));
	struct xg_sample tmp;
	sample_init(&tmp);
	/* Each fetch keeps its buffer and resolved address from round to
	 * round (a fresh rm_fetch_init here leaked both every refresh). */
	for (size_t i = 0; i < s->n; i++) {
		s->h[i].fresh = false;
		want[i] = &s->h[i].f;
	}
	size_t nw = s->n;
	for (;;) {
		uint64_t used = xg_now_mono_ns() - t0;
		rm_fetch_all(s->client, want, nw, used < limit ? limit - used : 0);
		size_t again = 0;
		for (size_t i = 0; i < nw; i++) {
			struct rm_host *h = (struct rm_host *)((char *)want[i] - offsetof(struct rm_host, f));
			if (!take_answer(h, &tmp))
				want[again++] = want[i];
		}
		nw = again;
		if (!nw || xg_now_mono_ns() - t0 + retry >= limit)
			break;
		sleep_ns(retry);
	}
	sample_free(&tmp);
	free(want);
}

/* The why of host h, in out's reason table. */
static uint8_t stale_reason(struct xg_sample *out, const struct rm_host *h)
{
	char text[400], when[32] = "none";
	if (h->last_ok_real) {
		time_t t = (time_t)(h->last_ok_real / 1000000000u);
		struct tm tm;
		strftime(when, sizeof(when), "%H:%M:%S", localtime_r(&t, &tm));
	}
	snprintf(text, sizeof(text), "host %s: %.250s (last new sample: %s)", h->t.name, h->why, when);
	return sample_reason(out, text);
}

/* Copies host h's last domains into out, tagged with index hi; their
 * reasons move to out's table. */
static void merge_host(struct xg_sample *out, const struct xg_sample *in, uint16_t hi)
{
	uint8_t map[XG_REASON_MAX] = { 0 };
	for (size_t r = 1; r < in->nreason; r++)
		map[r] = sample_reason(out, in->reason[r]);
	for (size_t i = 0; i < in->ndom; i++) {
		const struct xg_dom *src = &in->dom[i];
		struct xg_dom *d = sample_add_dom(out, src->id);
		uint32_t vfirst = d->vcpu_first;
		*d = *src;
		d->host = hi;
		d->vcpu_first = vfirst;
		d->vcpu_count = d->sock_count = 0;
		d->wait_ix = 0;
		for (int f = 0; f < XG_F_COUNT; f++)
			d->why[f] = map[src->why[f] ? src->why[f] : in->host_why[f]];
		if (src->vcpu_count)
			memcpy(sample_add_vcpus(out, d, src->vcpu_count), sample_vcpus(in, src),
			       src->vcpu_count * sizeof(struct xg_vcpu));
		if (src->sock_count)
			memcpy(sample_add_socks(out, d, src->sock_count), sample_socks(in, src),
			       src->sock_count * sizeof(struct xg_sock));
		const struct xg_waits *w = sample_waits(in, src);
		if (w)
			*sample_add_waits(out, d) = *w;
	}
}

/* The pool's own line: this host's clocks, the hosts' sums. */
static void pool_host(struct xg_source *s, struct xg_sample *out)
{
	size_t up = 0;
	for (size_t i = 0; i < s->n; i++)
		up += s->h[i].fresh;
	char text[64];
	snprintf(text, sizeof(text), "pool of %zu hosts, %zu answering", s->n, up);
	rm_pool_line(out, "remote", s->hostname, text,
		     "pool view: the hosts' exporters publish no per-pCPU times");
}

static int remote_collect(struct xg_source *s, struct xg_sample *out, struct xg_err *err)
{
	(void)err;
	fetch_round(s);
	for (size_t i = 0; i < s->n; i++) {
		struct rm_host *h = &s->h[i];
		struct xg_peer *p = sample_add_peer(out, h->t.name);
		if (h->have_last) {
			p->host = h->last.host;
			merge_host(out, &h->last, (uint16_t)i);
		}
		p->stale = !h->fresh;
		if (p->stale)
			p->why = stale_reason(out, h);
	}
	pool_host(s, out);
	return XG_COLLECT_OK;
}

static bool remote_probe(void)
{
	return false;   /* never picked by --source auto */
}

const struct xg_source_ops source_remote_ops = {
	.name = "remote",
	.probe = remote_probe,
	.open = remote_open,
	.collect = remote_collect,
	.close = remote_close,
};
