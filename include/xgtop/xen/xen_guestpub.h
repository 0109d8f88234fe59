/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Guest-reported cache counters on Xen. `xgtop --agent` runs inside a guest,
 * counts that guest's events with perf and writes cumulative values under
 * the guest's own xenstore directory data/xgtop/; dom0's Xen source reads
 * them per domain. A guest is untrusted: every value is parsed with bounded
 * length, digits only, and folded into dom0's own monotonic totals (a
 * counter that goes backwards or an agent that restarts is a new baseline,
 * never a negative rate). Keys and rules: doc/cmt-agent.md. */
#ifndef XGTOP_GUESTPUB_H
#define XGTOP_GUESTPUB_H

#include "xgtop/model/sample.h"

#define XG_GP_DIR "data/xgtop"      /* relative to /local/domain/<domid> */
#define XG_GP_VERSION 1
#define XG_GP_VAL_MAX 96            /* longest accepted value, bytes */

enum xen_gp_key {
	XG_GP_K_VERSION,    /* "1" */
	XG_GP_K_EPOCH,      /* agent start (ns since 1970): changes when it restarts */
	XG_GP_K_TIME,       /* guest CLOCK_MONOTONIC ns at the write */
	XG_GP_K_INTERVAL,   /* ms between writes */
	XG_GP_K_REF,        /* cumulative counts, absent when not counted */
	XG_GP_K_MISS,
	XG_GP_K_INSTR,
	XG_GP_K_CYCLES,
	XG_GP_K_EVENTS,     /* what the counts are (printable ASCII label) */
	XG_GP_K_WHY,        /* the agent's reason when a counter is absent (never shown by dom0) */
	XG_GP_NKEYS
};
/* Key names: "version", "epoch", "time_ns", "interval_ms", "llc_ref",
 * "llc_miss", "instr", "cycles", "events", "why". */
extern const char *const xen_gp_key[XG_GP_NKEYS];

/* One publication. */
struct xg_guestpub {
	uint64_t epoch, time_ns, interval_ms;
	uint64_t v[XG_PMU_EVENT_COUNT];
	uint8_t have;                    /* bit per enum xg_pmu_event */
	char events[XG_GP_VAL_MAX];
	char why[XG_GP_VAL_MAX];
};

/* Parses the values read from xenstore (val[k] NULL = key absent; not
 * necessarily NUL-terminated). Returns NULL, or why the publication is
 * rejected as a whole. A bad label is replaced, not fatal. */
const char *xen_gp_parse(struct xg_guestpub *out, const char *const val[XG_GP_NKEYS],
		     const size_t len[XG_GP_NKEYS]);
/* The agent's side: val[k] gets the text of key k, "" for a key to remove. */
void xen_gp_format(const struct xg_guestpub *p, char val[XG_GP_NKEYS][XG_GP_VAL_MAX]);

/* dom0's continuity for one domain's agent. */
struct xg_gp_state {
	bool started;
	uint64_t epoch, time_ns;
	uint64_t last[XG_PMU_EVENT_COUNT];
	uint64_t total[XG_PMU_EVENT_COUNT];  /* dom0's monotonic totals */
	uint8_t have;
	uint64_t changed_ns;                 /* dom0 time the agent last wrote */
	uint64_t interval_ms;
};

/* Folds a publication read at dom0 monotonic time now_ns into st. Returns
 * NULL when st->total is valid for this sample, else the reason. */
const char *xen_gp_fold(struct xg_gp_state *st, const struct xg_guestpub *p, uint64_t now_ns);
/* Fills d's XG_F_LLC_REF .. XG_F_CYCLES from st (after a NULL xen_gp_fold)
 * and marks d guest-reported. */
void xen_gp_fill(struct xg_sample *s, struct xg_dom *d, const struct xg_gp_state *st);

#define XG_GP_WHY_RESET "guest agent restarted or its counters went back: new baseline"
#define XG_GP_WHY_STALE "guest agent stopped updating data/xgtop (stale values)"
#define XG_GP_WHY_ABSENT "the guest agent does not count this event " \
			 "(its reason: data/xgtop/why in the guest's xenstore)"
#define XG_GP_WHY_NOAGENT "Xen has no per-domain PMU (Xenoprof removed in 4.22, vPMU is " \
			  "guest-local): run xgtop --agent in the guest for guest-reported figures"

#ifdef HAVE_XEN
struct xsc;
struct xg_gpreader;
/* Reads /local/domain/<id>/data/xgtop/ of every domain of a sample through
 * xs (xen_xsclient.h; the caller owns it, and it must outlive the reader). */
struct xg_gpreader *xen_gpr_open(struct xsc *xs);
/* Fills the PMU fields of every domain of s (listed in id order). When
 * xenstore fails (xen_xs_why), the domains it has not read show that reason
 * and their totals carry on once it answers again. */
void xen_gpr_collect(struct xg_gpreader *r, struct xg_sample *s, uint64_t now_ns);
void xen_gpr_close(struct xg_gpreader *r);
/* The most one domain cost in one refresh, since the reader opened. */
struct xen_gpr_stats {
	uint64_t max_dom_reqs;     /* xenstore reads */
	uint64_t max_dom_bytes;    /* bytes of their answers */
};
void xen_gpr_stats(const struct xg_gpreader *r, struct xen_gpr_stats *st);
#endif

#endif
