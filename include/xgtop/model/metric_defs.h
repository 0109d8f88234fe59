/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The exporter's vocabulary: the Prometheus name, type and base unit of
 * every per-domain field of a sample (xg_field_metric, indexed like enum
 * xg_field), of every PMU breakdown slot, and of the families that are not
 * one field (identity, host, vCPU, socket, the collector itself). Columns
 * point at the entry their figure is computed from (xg_coldef.metric), so
 * the screen, CSV and the exporter read the same field, and the pool view
 * parses an exporter's output with this same table. doc/exporter.md lists
 * it for people. */
#ifndef XGTOP_METRIC_DEFS_H
#define XGTOP_METRIC_DEFS_H

#include "xgtop/model/sample.h"

enum xg_mtype {
	XG_MT_COUNTER,  /* samples are NAME_total */
	XG_MT_GAUGE,    /* samples are NAME */
	XG_MT_INFO,     /* samples are NAME_info, value 1, identity in labels */
	XG_MT_HISTOGRAM, /* samples are NAME_bucket{le}, NAME_sum, NAME_count */
};

struct xg_metric {
	const char *name;     /* family name, ending in its base unit (_seconds, _bytes) */
	enum xg_mtype type;
	uint8_t decimals;     /* 9: the field counts ns and is published as seconds */
	bool inf_at_max;      /* UINT64_MAX means "no limit": published as +Inf */
	const char *label;    /* the label that sets it apart in a family shared by
	                         several fields ("state=\"running\""), or NULL */
	const char *help;     /* HELP text; NULL for the later members of a shared family */
};

/* Per-domain fields, indexed by enum xg_field: every field has an entry. */
extern const struct xg_metric xg_field_metric[XG_F_COUNT];
/* The PMU breakdown (label mode="guest_user" ...), [where][event]. */
extern const struct xg_metric xg_pmu_metric[XG_PMU_WHERE_COUNT][XG_PMU_EVENT_COUNT];

/* Families that are not one sample field. */
enum xg_mfam {
	XG_MF_BUILD,            /* info {version} */
	XG_MF_HOST,             /* info {source, hypervisor, version, hostname, scheduler, cache_events} */
	XG_MF_HOST_PCPUS,
	XG_MF_HOST_CPU_HZ,
	XG_MF_HOST_MEM,
	XG_MF_HOST_MEM_FREE,
	XG_MF_HOST_DOMAINS,     /* {state}: domains under their first flag in xentop's priority */
	XG_MF_HOST_DOMAINS_CPU, /* its domains' CPU time, summed by the exporter across samples */
	XG_MF_HOST_DOMAINS_RS,  /* {state}: their runstate times, likewise */
	XG_MF_SAMPLE_TIME,      /* wall clock of the sample the figures belong to */
	XG_MF_SAMPLE_MONO,      /* the host's monotonic clock at that sample */
	XG_MF_LOST,             /* trace records lost */
	XG_MF_SELF_CPU,         /* this xgtop process's CPU time */
	XG_MF_REFRESHES,
	XG_MF_ERRORS,           /* {collector} */
	XG_MF_UP,               /* {collector} */
	XG_MF_DOMAIN,           /* info {domain, uuid, domid, source} */
	XG_MF_DOMAIN_STATE,     /* {state}: 1 when that state flag is set */
	XG_MF_GUEST_REPORTED,
	XG_MF_VCPU_ONLINE,      /* {vcpu} */
	XG_MF_VCPU_CPU,         /* {vcpu} */
	XG_MF_VCPU_RUNSTATE,    /* {vcpu, state} */
	XG_MF_SOCK_L3_OCC,      /* {socket} */
	XG_MF_SOCK_MBM_TOTAL,   /* {socket} */
	XG_MF_SOCK_MBM_LOCAL,   /* {socket} */
	XG_MF_WAIT_BEHIND,      /* {behind}: a domain's top culprits and 'other' */
	XG_MF_WAIT_LATENCY,     /* histogram of the waits' lengths */
	XG_MF_CACHE_VICTIM,     /* 1: a cache victim by the CPI2 rule, 0: judged, not one */
	XG_MF_COUNT
};
extern const struct xg_metric xg_fixed_metric[XG_MF_COUNT];

/* Label values: runstates (label state), PMU modes (label mode), state
 * flags in xentop's letter order d s b c p r (label state), and the
 * collectors whose health is published (label collector). */
extern const char *const xg_runstate_label[XG_RS_COUNT];
extern const char *const xg_pmu_mode_label[XG_PMU_WHERE_COUNT];
#define XG_STATE_FLAGS 6
extern const char *const xg_state_label[XG_STATE_FLAGS];
/* The flags in xentop's priority, as its summary line counts a domain with
 * several (once, under the first): running, blocked, paused, shutdown,
 * crashed, dying (enum xg_state bits; xg_totals.nstate's order). */
extern const unsigned xg_state_priority[XG_STATE_FLAGS];
/* The label of xg_state_priority[k] (state="running" for k 0). */
const char *xg_state_priority_label(int k);

enum xg_collector { XG_CL_SOURCE, XG_CL_SCHED, XG_CL_PMU, XG_CL_CMT, XG_CL_COUNT };
extern const char *const xg_collector_label[XG_CL_COUNT];
/* The domain fields a sub-collector fills (0 for the source itself). */
uint64_t collector_fields(enum xg_collector c);

#endif
