/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Cache suspects: which domain suffers from a noisy neighbour, and who the
 * neighbour is. Per domain and window (one or more refreshes), its cycles
 * per instruction (CPI; misses per instruction when cycles are not
 * counted), and its pressure on the shared cache: LLC misses/s, else MBM
 * bytes/s. A domain is a VICTIM when its CPI exceeds its own baseline
 * (mean + sigma x standard deviation of the windows before the last
 * `recent`, and at least min_rise % above the mean) in `hits` of the last
 * `recent` windows: the CPI2 rule. Its suspects are its neighbours on the
 * same socket, ranked by the Pearson correlation of their pressure with
 * its CPI over the windows looked at; a suspect is named (flagged) when
 * r >= min_r and its own pressure was above its baseline in at least
 * `hits` of the victim's outlier windows. */
#ifndef XGTOP_SUSPECTS_H
#define XGTOP_SUSPECTS_H

#include "xgtop/compute/metrics.h"

/* Windows kept per domain, at most (baseline + recent). */
#define XG_SUSP_MAXWIN 32
/* The least baseline windows the mean and sigma are taken from. */
#define XG_SUSP_MIN_BASE 5
/* Suspects kept per victim. */
#define XG_SUSP_TOP 5
/* Sockets a domain's home socket is looked for among. */
#define XG_SUSP_SOCKETS 8

struct xg_susp_cfg {
	unsigned window;     /* refreshes per window (default 1) */
	unsigned recent;     /* windows the rule looks at (default 5) */
	unsigned hits;       /* outlier windows among them that make a victim (default 3) */
	unsigned baseline;   /* windows before them the baseline comes from (default 20) */
	double sigma;        /* outlier: above mean + sigma * sd (default 2) */
	double min_rise;     /* ... and above mean * (1 + min_rise / 100) (default 10) */
	double min_r;        /* least correlation of a flagged suspect (default 0.5) */
};

void susp_cfg_defaults(struct xg_susp_cfg *c);
/* Checks a configuration: 0, or -1 with err saying what is wrong. */
int susp_cfg_check(const struct xg_susp_cfg *c, struct xg_err *err);
/* Reads "window=1 sigma=2 hits=3/5 baseline=20 min_rise=10 min_r=0.5"
 * (any of them, any order; the rest keep c's values) into c: the settings
 * key `contention` and `xgtop report --rule`. On a bad value returns -1
 * with err set and leaves c as it was. */
int susp_cfg_parse(struct xg_susp_cfg *c, const char *text, struct xg_err *err);
/* c as susp_cfg_parse reads it, every part given. */
void susp_cfg_format(const struct xg_susp_cfg *c, char *buf, size_t n);

/* What a domain's CPI figure is. */
enum xg_susp_metric { XG_SUSP_NONE, XG_SUSP_CPI, XG_SUSP_MPI };
/* What a neighbour's pressure figure is. */
enum xg_susp_press { XG_SUSP_PNONE, XG_SUSP_MISS, XG_SUSP_MBM };

/* Pearson's correlation of x and y over the n points where both are
 * finite; NAN when fewer than 3 such points or either is constant. */
double susp_pearson(const float *x, const float *y, size_t n);
/* Mean and standard deviation (population) of the finite values of x[0..n);
 * returns how many there were. */
size_t susp_mean_sd(const float *x, size_t n, double *mean, double *sd);
/* The outlier threshold of a baseline: max(mean + sigma * sd, mean * (1 +
 * min_rise / 100)). */
double susp_threshold(const struct xg_susp_cfg *c, double mean, double sd);
/* The CPI2 rule over one domain's windows w[0..n), oldest first: the
 * baseline is the up to c->baseline windows before the last c->recent.
 * Returns the number of the last c->recent windows above the threshold
 * (bit i of *mask set: window n - recent + i), or -1 when the baseline has
 * fewer than XG_SUSP_MIN_BASE measured windows. */
int susp_outliers(const struct xg_susp_cfg *c, const float *w, size_t n, double *mean, double *sd,
		  unsigned *mask);

struct xg_suspect {
	uint32_t dom;        /* index of the neighbour in the current sample */
	double r;            /* correlation of its pressure with the victim's CPI */
	unsigned together;   /* victim's outlier windows where its pressure was high too */
	bool flagged;        /* r >= min_r and together >= hits */
	bool sock_unknown;   /* its socket (or the victim's) is not known */
};

/* One domain's verdict this refresh: 64 bytes, what every domain costs to
 * write each refresh (the suspects are a victim's only). */
struct xg_susp_dom {
	uint8_t metric;               /* enum xg_susp_metric; NONE: nothing to judge (why says why) */
	uint8_t press;                /* enum xg_susp_press */
	uint8_t why;                  /* enum xg_mwhy when there is no verdict */
	bool victim;
	int hits;                     /* outlier windows among the recent ones, -1: learning */
	uint16_t need;                /* learning: windows still needed */
	bool ranked;                  /* susp holds the ranking (suspects_of makes it) */
	int socket;                   /* home socket, -1 unknown */
	unsigned nsusp;
	uint32_t outliers;            /* bit i: the i-th of the recent windows was above thr */
	double now, mean, sd, thr;    /* the last window's CPI, its baseline, the threshold */
	struct xg_suspect *susp;      /* nsusp of them, best first (until the next update) */
};

/* The windows of every domain, carried from refresh to refresh. */
struct xg_susp_slots;
struct xg_suspects {
	struct xg_susp_cfg cfg;
	struct xg_susp_slots *slots; /* per domain: its windows (suspects.c, arrays by slot) */
	uint32_t *map, *map_next;    /* the slot of each domain of the sample, by index */
	size_t nmap, map_cap, map_next_cap;
	uint64_t stamp;              /* refreshes seen */
	uint64_t wins;               /* windows closed */
	unsigned ticks;              /* refreshes into the open window */
	unsigned nwin;               /* windows kept: baseline + recent (<= XG_SUSP_MAXWIN) */
	struct xg_susp_dom *res;     /* per domain of the last table's sample */
	size_t nres, res_cap;
	size_t njudged, nlearning;   /* of res: judged; learning their baseline */
	size_t nvictims;
	uint32_t *victims;           /* the victims' indexes in res, ascending */
	size_t victims_cap;
	struct xg_suspect (*susp)[XG_SUSP_TOP];   /* the suspects of victim res[i] */
	size_t susp_cap;
	const struct xg_sample *cur; /* the sample res refers to */
	size_t nlive;                /* slots that measured a window (LIVE) */
	/* When no domain of the sample can be judged (no domain has counters
	 * and no slot holds a measured window, or a pool): nres is 0 and each
	 * of the nblank domains has the verdict blank, found in O(1). */
	size_t nblank;
	struct xg_susp_dom blank;
};

void suspects_init(struct xg_suspects *s, const struct xg_susp_cfg *cfg);
void suspects_free(struct xg_suspects *s);
/* Forgets every window (a replay stepped back). */
void suspects_clear(struct xg_suspects *s);
/* Adds the interval of t (its two samples) to every domain's open window,
 * closes the window every cfg.window refreshes, and judges every domain. */
void suspects_update(struct xg_suspects *s, const struct xg_table *t);
/* Sets the VICTIM column of t's domain rows from the last update (and
 * t->victim_why, the reason its next rows start with). */
void suspects_mark_rows(const struct xg_suspects *s, struct xg_table *t);
/* The verdict of domain index i of the current sample, or NULL. A victim's
 * suspects are ranked here, the first time they are asked for after an
 * update (a correlation with every neighbour on its socket): the screen
 * asks for the selected one, the triage line for the worst, the report
 * for all; the VICTIM flags need none of it. */
const struct xg_susp_dom *suspects_of(const struct xg_suspects *s, size_t dom_index);
/* The verdicts of cur's domains into out[0..cur->ndom): 1 a victim, 0
 * judged and not one, -1 not judged (no counters, learning, a pool, or s
 * judged another sample). */
void suspects_flags(const struct xg_suspects *s, const struct xg_sample *cur, int8_t *out);
/* The name of a CPI metric / pressure figure, for the outputs. */
const char *susp_metric_name(enum xg_susp_metric m);
const char *susp_press_name(enum xg_susp_press p);

#endif
