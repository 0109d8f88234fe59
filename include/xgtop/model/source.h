/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A source fills host samples. Each is a table of functions registered in
 * engine/sources.c, so the rest of the program never knows which one it reads
 * (nvtop's vendor table, htop's platform split). */
#ifndef XGTOP_SOURCE_H
#define XGTOP_SOURCE_H

#include "xgtop/model/columns.h"
#include "xgtop/model/config.h"
#include "xgtop/model/sample.h"

struct xg_source;   /* each implementation defines its own state */

enum xg_collect_rc {
	XG_COLLECT_OK = 0,
	XG_COLLECT_ERROR = -1,
	XG_COLLECT_EOF = 1,   /* replay / trace: nothing more to read */
};

/* A domain of the last sample: its peer (host) index and id. */
struct xg_dom_key {
	uint16_t host;
	uint32_t id;
};

/* What the view will show next (set_wanted): a source that computes
 * remotely (the Prometheus source) asks for every field only of the
 * domains on screen, and for the rest only what sorting needs; it then
 * gives the summary line's totals itself (xg_sample.totals). */
struct xg_wanted {
	bool all;                   /* every field of every domain (batch, the first refreshes) */
	uint64_t fields;            /* bit per enum xg_field: wanted of every domain */
	bool state;                 /* the state of every domain too (sorting by STATE) */
	const struct xg_dom_key *keys;  /* the domains on screen */
	size_t nkeys;
	uint64_t row_fields;        /* bit per enum xg_field: wanted of those (the columns shown) */
	bool row_vcpus;             /* and their vCPUs (vCPU rows, the detail pane) */
};

/* A domain's graphs from a source that keeps their history itself (the
 * Prometheus source: range queries). The caller sets key, span, n, cols
 * and ncols; the source sets the points' times (from + i * step, i < n,
 * to the last). */
struct xg_range {
	struct xg_dom_key key;
	double span;                /* seconds the graphs cover */
	size_t n;                   /* points per graph (the pane's width) */
	const enum xg_col *cols;
	size_t ncols;
	double from, step;          /* set by the source */
};

struct xg_source_ops {
	const char *name;
	/* true when this source can work on this host (used by --source auto) */
	bool (*probe)(void);
	int (*open)(struct xg_source **out, const struct xg_config *cfg, struct xg_err *err);
	/* Fills out (already cleared) with a new sample. Returns enum xg_collect_rc. */
	int (*collect)(struct xg_source *src, struct xg_sample *out, struct xg_err *err);
	/* Recorded/replayed sources: monotonic ns at which the next sample is
	 * due relative to the previous one (0 = live source, use the delay). */
	uint64_t (*next_gap_ns)(struct xg_source *src);
	/* Recorded sources: true when the next collect() would return
	 * XG_COLLECT_EOF, so the engine keeps its last two samples intact
	 * (NULL = never known in advance). */
	bool (*at_end)(struct xg_source *src);
	void (*close)(struct xg_source *src);
	/* Optional, recorded sources: what the user should know once the end
	 * is reached (a skipped torn tail), or NULL. */
	const char *(*end_notice)(struct xg_source *src);
	/* Optional: the view shows the scheduler columns (`w`) or not; a
	 * source may stop collecting what nobody sees. Called before each
	 * collect with the current choice. */
	void (*set_trace)(struct xg_source *src, bool on);
	/* Optional, recorded sources: the next collect() returns sample
	 * number index (0 = the first) again, as read the first time. */
	int (*seek)(struct xg_source *src, uint64_t index, struct xg_err *err);
	/* Optional: what the view shows next; called before each collect.
	 * A source that ignores it fills every field of every domain. */
	void (*set_wanted)(struct xg_source *src, const struct xg_wanted *w);
	/* Optional, a source that reads a time-series database: the time the
	 * next collects' figures are of, Unix seconds; 0 = now (live). */
	void (*set_time)(struct xg_source *src, double t);
	/* Optional, the same: r's columns of r's domain at r->n points ending
	 * at the time the figures are of, into out[c * r->n + i] (NAN where
	 * none). 0 or -1 with err. */
	int (*range)(struct xg_source *src, struct xg_range *r, float *out, struct xg_err *err);
	/* A collect that fails after one succeeded leaves the source as it
	 * was (a server's slow or missing answer, not the host's): the
	 * full-screen view keeps the last figures, says why and asks again
	 * at the next refresh. Batch mode still stops. */
	bool retries;
};

/* The registered sources, NULL-terminated. One compiled out (xen without
 * the Xen libraries) stays listed: its probe fails and its open says why. */
extern const struct xg_source_ops *const xg_sources[];

/* The registered source of that name, or NULL ("auto" is not a source). */
const struct xg_source_ops *source_lookup(const char *name);
/* What --source takes, for a message: "auto, xen, linux, replay or trace". */
void source_names(char *buf, size_t n);
/* Looks a source up by name; "auto" probes xen, then linux. */
const struct xg_source_ops *source_find(const char *name, struct xg_err *err);

#endif
