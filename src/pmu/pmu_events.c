// SPDX-License-Identifier: GPL-2.0-or-later
/* Which events the cache columns count, and their perf_event_attr
 * encodings (libpfm4 when built with it, a table of perf generic names
 * otherwise). The choices and their labels are documented in doc/pmu.md. */
#include "pmu_evset.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#ifdef HAVE_PFM
#include "xgtop/core/dynlib.h"
#include <perfmon/pfmlib_perf_event.h>
#ifndef PFM_SO
#define PFM_SO "libpfm.so"
#endif
#endif

enum xg_pmu_vendor pmu_vendor_parse(const char *cpuinfo)
{
	const char *p = strstr(cpuinfo, "vendor_id");
	if (!p)
		return XG_VENDOR_OTHER;
	p += strcspn(p, ":\n");
	if (*p != ':')
		return XG_VENDOR_OTHER;
	p++;
	while (*p == ' ' || *p == '\t')
		p++;
	if (!strncmp(p, "GenuineIntel", 12))
		return XG_VENDOR_INTEL;
	if (!strncmp(p, "AuthenticAMD", 12) || !strncmp(p, "HygonGenuine", 12))
		return XG_VENDOR_AMD;
	return XG_VENDOR_OTHER;
}

/* The names perf(1) accepts for generic events, so --events works in a
 * build without libpfm4 and when libpfm4 is forced onto one PMU model. */
static const struct {
	const char *name;
	uint32_t type;
	uint64_t config;
} generic[] = {
	{ "cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
	{ "cpu-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
	{ "instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS },
	{ "cache-references", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES },
	{ "cache-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES },
	{ "branches", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
	{ "branch-instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
	{ "branch-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES },
	{ "bus-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BUS_CYCLES },
	{ "ref-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_REF_CPU_CYCLES },
	{ "cpu-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK },
	{ "task-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK },
	{ "page-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS },
	{ "faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS },
	{ "minor-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MIN },
	{ "major-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MAJ },
	{ "context-switches", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ "cs", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ "cpu-migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS },
	{ "migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS },
	{ "alignment-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_ALIGNMENT_FAULTS },
	{ "emulation-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_EMULATION_FAULTS },
};

bool pmu_generic_encode(const char *name, struct perf_event_attr *attr)
{
	for (size_t i = 0; i < XG_ARRAY_LEN(generic); i++)
		if (!strcasecmp(name, generic[i].name)) {
			memset(attr, 0, sizeof(*attr));
			attr->size = sizeof(*attr);
			attr->type = generic[i].type;
			attr->config = generic[i].config;
			return true;
		}
	return false;
}

static bool is_hw_type(uint32_t type)
{
	/* Dynamic PMU types (>= PERF_TYPE_MAX) are CPU or uncore PMUs. */
	return type == PERF_TYPE_HARDWARE || type == PERF_TYPE_HW_CACHE || type == PERF_TYPE_RAW ||
	       type >= PERF_TYPE_MAX;
}

#ifdef HAVE_PFM
/* libpfm4 is loaded only while the events are chosen: nothing else needs
 * it, and its event tables make it slow to load (every start of xgtop
 * paid for it when it was linked in). */
struct pfm_api {
	void *so;
	__typeof__(pfm_initialize) *pfm_initialize;
	__typeof__(pfm_terminate) *pfm_terminate;
	__typeof__(pfm_get_os_event_encoding) *pfm_get_os_event_encoding;
	__typeof__(pfm_strerror) *pfm_strerror;
	bool ready;
	char why[sizeof(((struct xg_err *)0)->msg)];   /* when not loaded */
};

#define PFM_FN(fn) XG_DL_FN(struct pfm_api, fn)
static const struct xg_dl_fn pfm_fns[] = {
	PFM_FN(pfm_initialize) PFM_FN(pfm_terminate) PFM_FN(pfm_get_os_event_encoding) PFM_FN(pfm_strerror)
};

static void pfm_load(struct pfm_api *pfm)
{
	struct xg_err e = { 0 };
	memset(pfm, 0, sizeof(*pfm));
	pfm->so = xg_dl_load(PFM_SO, "libpfm4", pfm_fns, XG_ARRAY_LEN(pfm_fns), pfm, &e);
	if (pfm->so)
		pfm->ready = pfm->pfm_initialize() == PFM_SUCCESS;
	else
		snprintf(pfm->why, sizeof(pfm->why), "%s", e.msg);
}

static void pfm_unload(struct pfm_api *pfm)
{
	/* Its tables would be left allocated (and lost) once it is unloaded. */
	if (pfm->ready)
		pfm->pfm_terminate();
	xg_dl_close(pfm->so);
}

/* Why only perf's generic names can be encoded, or NULL. */
static const char *pfm_missing(const struct pfm_api *pfm)
{
	return pfm->so ? NULL : pfm->why;
}

/* 0 (PFM_SUCCESS) or a libpfm4 error code. */
static int pfm_encode(const struct pfm_api *pfm, const char *name, struct perf_event_attr *attr)
{
	if (!pfm->so)
		return PFM_ERR_NOINIT;
	if (!pfm->ready)
		return PFM_ERR_NOINIT;
	pfm_perf_encode_arg_t arg;
	memset(&arg, 0, sizeof(arg));
	memset(attr, 0, sizeof(*attr));
	arg.attr = attr;
	arg.size = sizeof(arg);
	int rc = pfm->pfm_get_os_event_encoding(name, PFM_PLM0 | PFM_PLM3, PFM_OS_PERF_EVENT_EXT, &arg);
	attr->size = sizeof(*attr);
	return rc;
}

static void pfm_why(const struct pfm_api *pfm, int rc, const char *name, char *why, size_t whyn)
{
	snprintf(why, whyn, "event '%s': %s (libpfm4)", name, pfm->pfm_strerror(rc));
}
#else
struct pfm_api {
	char unused;
};
static void pfm_load(struct pfm_api *pfm) { (void)pfm; }
static void pfm_unload(struct pfm_api *pfm) { (void)pfm; }
static const char *pfm_missing(const struct pfm_api *pfm)
{
	(void)pfm;
	return "built without libpfm4";
}
static int pfm_encode(const struct pfm_api *pfm, const char *name, struct perf_event_attr *attr)
{
	(void)pfm, (void)name, (void)attr;
	return -1;
}
static void pfm_why(const struct pfm_api *pfm, int rc, const char *name, char *why, size_t whyn)
{
	(void)pfm, (void)rc, (void)why, (void)whyn, (void)name;
}
#endif

/* Encodes name into e (libpfm4 first, then perf's generic names); on
 * failure writes why and returns false. */
static bool encode(const struct pfm_api *pfm, struct pmu_ev *e, const char *name, char *why,
                   size_t whyn)
{
	snprintf(e->name, sizeof(e->name), "%s", name);
	int rc = pfm_encode(pfm, name, &e->attr);
	if (rc && !pmu_generic_encode(name, &e->attr)) {
		if (pfm_missing(pfm))
			snprintf(why, whyn, "event '%s' unknown: %.120s, so only perf generic names (cycles, "
				 "instructions, cache-misses, page-faults ...) are known", name,
				 pfm_missing(pfm));
		else
			pfm_why(pfm, rc, name, why, whyn);
		return false;
	}
	/* libpfm4 excludes guest mode by default; a QEMU/KVM thread's guest
	 * time belongs to its domain, so count both unless the user chose
	 * with :mg= / :mh=. */
	if (!strcasestr(name, ":mg=") && !strcasestr(name, ":mh=")) {
		e->attr.exclude_guest = 0;
		e->attr.exclude_host = 0;
	}
	e->attr.disabled = 0;
	e->hw = is_hw_type(e->attr.type);
	e->present = true;
	return true;
}

struct pair {
	const char *ref, *miss, *label;
};

static const struct pair intel_pairs[] = {
	{ "ix86arch::LLC_REFERENCES", "ix86arch::LLC_MISSES",
	  "LLC references and misses: Intel architectural events LLC_REFERENCES (2EH/4FH) and "
	  "LLC_MISSES (2EH/41H); demand, code and RFO traffic, hardware prefetch excluded" },
	/* CPUID leaf 0xA hidden (some VMs): the kernel maps its generic
	 * events to the same two codes on Intel. */
	{ "cache-references", "cache-misses",
	  "LLC references and misses: Intel architectural events 2EH/4FH and 2EH/41H, through "
	  "the kernel's cache-references/cache-misses mapping" },
};

static const struct pair amd_pairs[] = {
	{ "amd64_fam19h_zen4::ANY_DATA_CACHE_FILLS_FROM_SYSTEM:LOCAL_CCX:NEAR_CACHE_NEAR_FAR:"
	  "DRAM_IO_NEAR:FAR_CACHE_NEAR_FAR:DRAM_IO_FAR:ALT_MEM_NEAR_FAR",
	  "amd64_fam19h_zen4::ANY_DATA_CACHE_FILLS_FROM_SYSTEM:NEAR_CACHE_NEAR_FAR:DRAM_IO_NEAR:"
	  "FAR_CACHE_NEAR_FAR:DRAM_IO_FAR:ALT_MEM_NEAR_FAR",
	  "AMD Zen4 event 0x44 (L1D fills by source): references = fills from beyond the L2, "
	  "misses = fills not served by the core's own CCX (L3)" },
	{ "amd64_fam19h_zen3::ANY_DATA_CACHE_FILLS_FROM_SYSTEM:INT_CACHE:EXT_CACHE_LCL:"
	  "MEM_IO_LCL:EXT_CACHE_RMT:MEM_IO_RMT",
	  "amd64_fam19h_zen3::ANY_DATA_CACHE_FILLS_FROM_SYSTEM:EXT_CACHE_LCL:MEM_IO_LCL:"
	  "EXT_CACHE_RMT:MEM_IO_RMT",
	  "AMD Zen3 event 0x44 (L1D fills by source): references = fills from beyond the L2, "
	  "misses = fills not served by the core's own CCX (L3)" },
	{ "amd64_fam17h_zen2::DATA_CACHE_REFILLS_FROM_SYSTEM:LS_MABRESP_LCL_CACHE:"
	  "LS_MABRESP_LCL_DRAM:LS_MABRESP_RMT_CACHE:LS_MABRESP_RMT_DRAM",
	  "amd64_fam17h_zen2::DATA_CACHE_REFILLS_FROM_SYSTEM:LS_MABRESP_LCL_DRAM:"
	  "LS_MABRESP_RMT_CACHE:LS_MABRESP_RMT_DRAM",
	  "AMD Zen2 event 0x43 (L1D fills by source): references = fills from beyond the L2, "
	  "misses = fills from DRAM or a remote node's cache" },
	{ "cache-references", "cache-misses",
	  "cache references and misses, vendor-defined level (on AMD Zen the kernel counts L2 "
	  "requests and L2 misses, not L3)" },
};

static const struct pair other_pairs[] = {
	{ "cache-references", "cache-misses",
	  "cache references and misses, vendor-defined level (the kernel's generic "
	  "cache-references/cache-misses)" },
};

static int select_default(const struct pfm_api *pfm, struct pmu_evset *set,
                          enum xg_pmu_vendor vendor, struct xg_err *err)
{
	const struct pair *pairs = other_pairs;
	size_t n = XG_ARRAY_LEN(other_pairs);
	if (vendor == XG_VENDOR_INTEL) {
		pairs = intel_pairs;
		n = XG_ARRAY_LEN(intel_pairs);
	} else if (vendor == XG_VENDOR_AMD) {
		pairs = amd_pairs;
		n = XG_ARRAY_LEN(amd_pairs);
	}
	if (pfm_missing(pfm)) {
#ifdef HAVE_PFM
		snprintf(set->why_all, sizeof(set->why_all), "%.200s: name perf events with --events",
			 pfm_missing(pfm));
#else
		snprintf(set->why_all, sizeof(set->why_all), "%s", XG_PMU_WHY_NOPFM);
#endif
		snprintf(set->label, sizeof(set->label), "not counted: %.*s",
			 (int)(sizeof(set->label) - 14), set->why_all);
		return 0;
	}
	char why[256];
	for (size_t i = 0; i < n; i++) {
		struct pmu_ev r = { 0 }, m = { 0 };
		if (!encode(pfm, &r, pairs[i].ref, why, sizeof(why)) ||
		    !encode(pfm, &m, pairs[i].miss, why, sizeof(why)))
			continue;
		set->ev[XG_PMU_REF] = r;
		set->ev[XG_PMU_MISS] = m;
		snprintf(set->label, sizeof(set->label), "%s", pairs[i].label);
		break;
	}
	if (!set->ev[XG_PMU_REF].present)
		return xg_fail(err, "no cache event pair could be encoded: %s", why);
	if (!encode(pfm, &set->ev[XG_PMU_INSTR], "instructions", why, sizeof(why)) ||
	    !encode(pfm, &set->ev[XG_PMU_CYCLES], "cycles", why, sizeof(why)))
		return xg_fail(err, "%s", why);
	return 0;
}

/* Trims blanks at both ends in place. */
static char *trim(char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	size_t n = strlen(s);
	while (n && isspace((unsigned char)s[n - 1]))
		s[--n] = 0;
	return s;
}

static int select_list(const struct pfm_api *pfm, struct pmu_evset *set, const char *list,
                       struct xg_err *err)
{
	char buf[1024], why[256];
	if (strlen(list) >= sizeof(buf))
		return xg_fail(err, "--events: list too long");
	snprintf(buf, sizeof(buf), "%s", list);
	int items = 1;
	for (const char *c = list; *c; c++)
		items += *c == ',';
	if (items > XG_PMU_EVENT_COUNT)
		return xg_fail(err, "--events: at most %d events (references, misses, "
				    "instructions, cycles)", XG_PMU_EVENT_COUNT);
	char *save = NULL, *tok;
	int i = 0;
	/* strtok_r would skip empty items; walk the commas by hand. */
	for (tok = buf; tok; tok = save, i++) {
		save = strchr(tok, ',');
		if (save)
			*save++ = 0;
		char *name = trim(tok);
		if (!*name)
			return xg_fail(err, "--events: empty event name in '%s'", list);
		if (!strcmp(name, "-"))
			continue;
		if (!encode(pfm, &set->ev[i], name, why, sizeof(why)))
			return xg_fail(err, "--events: %s", why);
	}
	/* Slots after the list keep the default instructions and cycles, so
	 * MPKI and IPC stay available with a custom cache pair. */
	for (; i < XG_PMU_EVENT_COUNT; i++) {
		if (i < XG_PMU_INSTR)
			continue;
		const char *dfl = i == XG_PMU_INSTR ? "instructions" : "cycles";
		if (!encode(pfm, &set->ev[i], dfl, why, sizeof(why)))
			return xg_fail(err, "%s", why);
	}
	snprintf(set->label, sizeof(set->label), "events named by --events: references = %.100s, "
		 "misses = %.100s",
		 set->ev[XG_PMU_REF].present ? set->ev[XG_PMU_REF].name : "(none)",
		 set->ev[XG_PMU_MISS].present ? set->ev[XG_PMU_MISS].name : "(none)");
	return 0;
}

int pmu_events_select(struct pmu_evset *set, const char *list, enum xg_pmu_vendor vendor,
		      struct xg_err *err)
{
	memset(set, 0, sizeof(*set));
	set->vendor = vendor;
	struct pfm_api pfm;
	pfm_load(&pfm);
	int rc = list && *list ? select_list(&pfm, set, list, err)
			       : select_default(&pfm, set, vendor, err);
	pfm_unload(&pfm);
	if (rc)
		return rc;
	for (int i = 0; i < XG_PMU_EVENT_COUNT; i++) {
		struct pmu_ev *e = &set->ev[i];
		if (e->present || e->why[0])
			continue;
		if (set->why_all[0])
			snprintf(e->why, sizeof(e->why), "%s", set->why_all);
		else
			snprintf(e->why, sizeof(e->why), "not counted: --events named no event for it");
	}
	return 0;
}
