/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Internals shared by pmu_events.c (choosing and encoding events) and
 * pmu_count.c (opening and reading them). Only the PMU module and its
 * tests include this. */
#ifndef XGTOP_PMU_EVSET_H
#define XGTOP_PMU_EVSET_H

#include "xgtop/pmu/pmu.h"

#include <linux/perf_event.h>

enum xg_pmu_vendor { XG_VENDOR_OTHER, XG_VENDOR_INTEL, XG_VENDOR_AMD };

struct pmu_ev {
	bool present;                /* named (by default or by --events) */
	char name[160];              /* fully qualified name */
	struct perf_event_attr attr; /* encoding, exclude_* already settled */
	bool hw;                     /* a CPU PMU event (honours guest/host filters) */
	int err;                     /* errno when not countable here, 0 = ok */
	char why[320];               /* reason when not countable */
};

struct pmu_evset {
	struct pmu_ev ev[XG_PMU_EVENT_COUNT];  /* indexed by enum xg_pmu_event */
	enum xg_pmu_vendor vendor;
	char label[320];             /* what the cache columns count */
	char why_all[320];           /* reason nothing can be counted, "" = none */
};

/* Vendor from /proc/cpuinfo's vendor_id text. */
enum xg_pmu_vendor pmu_vendor_parse(const char *cpuinfo);
/* Fills set from list (NULL = the default for vendor). Unknown names and
 * bad lists fail with err set. */
int pmu_events_select(struct pmu_evset *set, const char *list, enum xg_pmu_vendor vendor,
		      struct xg_err *err);
/* Encodes one perf generic name ("page-faults", "cycles") without libpfm4;
 * false when it is not one of them. */
bool pmu_generic_encode(const char *name, struct perf_event_attr *attr);

#endif
