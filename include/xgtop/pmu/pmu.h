/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Hardware (or software) event counting per domain on Linux, through
 * perf_event_open(2), with events named and encoded by libpfm4.
 *
 * A domain is a key chosen by the caller (cgroup inode, process-group id,
 * VM id). It is counted either per CPU through its cgroup v2 directory, or
 * per thread through a set of tids. Each counting unit (one CPU of a cgroup,
 * or one thread) holds one perf group per "where" slice, so the reference
 * and miss counters (and instructions, cycles) are always scheduled
 * together and one read() returns them all. pmu_read() turns the groups
 * into cumulative, multiplex-scaled counts in a host sample, or marks the
 * fields invalid with the precise reason. Rules and reasons: doc/pmu.md. */
#ifndef XGTOP_PMU_H
#define XGTOP_PMU_H

#include "xgtop/model/config.h"
#include "xgtop/model/sample.h"

#include <sys/types.h>

struct xg_pmu;

/* Attach flags. */
enum {
	/* The domain is a virtual machine (QEMU/KVM threads or its cgroup):
	 * with the breakdown on, split guest user / guest kernel / host with
	 * exclude_host/exclude_guest. Otherwise user mode counts as "guest
	 * user" (the domain's own code) and kernel mode as "host". */
	XG_PMU_VM = 1u << 0,
	/* Tasks (pmu_sync_tasks) only: also count the descendants a task creates
	 * after the attach (perf inherit). Do not attach those separately. */
	XG_PMU_INHERIT = 1u << 1,
};

/* Chooses the events (cfg->events, or the default pair for this CPU plus
 * instructions and cycles), raises the soft RLIMIT_NOFILE to the hard
 * limit, and checks which events this host can count. Fails (NULL, err
 * set) only for an unusable --events list; a host without a PMU still gets
 * a handle whose reads mark every field invalid with the reason. */
struct xg_pmu *pmu_open(const struct xg_config *cfg, struct xg_err *err);
void pmu_close(struct xg_pmu *p);

/* Counts the cgroup v2 directory dir_fd (the caller may close it after the
 * call) on every online CPU. A domain key is either a cgroup or a set of
 * tasks, not both. On failure the domain exists in an error state that
 * pmu_read reports; -1 and err set. */
int pmu_attach_cgroup(struct xg_pmu *p, uint64_t key, int dir_fd, unsigned flags,
		      struct xg_err *err);
/* Counts everything that runs on every online CPU (the whole machine: an
 * agent inside a guest counting that guest). Needs CAP_PERFMON or
 * perf_event_paranoid <= 0, like a cgroup. */
int pmu_attach_system(struct xg_pmu *p, uint64_t key, unsigned flags, struct xg_err *err);
/* The same by path: rel relative to root_fd ("" = root_fd itself), or an
 * absolute or cwd-relative path. Cheap when the domain is already counted
 * (no open), so a source may call it for every domain every refresh; a
 * failure that would repeat (permissions, no PMU) is not retried. */
int pmu_attach_cgroup_at(struct xg_pmu *p, uint64_t key, int root_fd, const char *rel,
			 unsigned flags, struct xg_err *err);
/* Makes the domain's thread set exactly tids[0..n): attaches new ones
 * (a thread that exited before the call is not an error: nothing added),
 * reads and closes the ones that are gone (their counts stay in the
 * domain's totals). One call per domain per refresh. */
int pmu_sync_tasks(struct xg_pmu *p, uint64_t key, const pid_t *tids, size_t n, unsigned flags,
		   struct xg_err *err);
/* Forgets every domain not attached, synced or read since the previous
 * sweep (closes its counters, drops its totals): call once at the end of
 * each refresh so vanished domains release their counters. */
void pmu_sweep(struct xg_pmu *p);

/* Reads the domain's groups (one read() each) and fills d: XG_F_LLC_REF,
 * XG_F_LLC_MISS, XG_F_INSTR, XG_F_CYCLES (cumulative since the attach,
 * scaled) and, when the breakdown is counted, d->pmu[where][event] with
 * d->pmu_valid. What cannot be measured is dom_invalid with the reason. */
void pmu_read(struct xg_pmu *p, uint64_t key, struct xg_sample *s, struct xg_dom *d);

/* What the cache columns count on this host, one line ("LLC references and
 * misses: Intel architectural events ..."). */
const char *pmu_label(const struct xg_pmu *p);
/* The event counted for ev (fully qualified libpfm4 name), or NULL. */
const char *pmu_event_name(const struct xg_pmu *p, enum xg_pmu_event ev);
/* Why ev is not counted on this host, or NULL when it is. */
const char *pmu_event_why(const struct xg_pmu *p, enum xg_pmu_event ev);
/* Counters open (file descriptors), for diagnostics and the benchmark. */
size_t pmu_nfds(const struct xg_pmu *p);

/* ---- pmu_math.c: pure arithmetic on recorded counter values ---- */

/* One read of a perf group: raw values and the group's times. */
struct xg_pmu_raw {
	uint64_t v[XG_PMU_EVENT_COUNT];
	uint64_t enabled, running;   /* ns */
};

enum xg_pmu_scale_rc {
	XG_PMU_EXACT,       /* counted the whole interval (or the domain never ran) */
	XG_PMU_SCALED,      /* multiplexed: estimate = delta x enabled / running */
	XG_PMU_UNKNOWN,     /* enabled but never running: no estimate possible */
	XG_PMU_BACKWARDS,   /* a value or time went down: not the same counter */
};

/* Scales the interval prev -> cur of n values: out[i] = Δv[i]·Δenabled /
 * Δrunning. Scaling each interval (not the cumulative values) keeps the
 * totals monotonic while the multiplexing ratio changes. */
enum xg_pmu_scale_rc pmu_scale_delta(const struct xg_pmu_raw *prev, const struct xg_pmu_raw *cur,
				     unsigned n, double out[]);
/* Why an interval with outcome rc leaves the figures unknown, or NULL when
 * it was measured (exact or scaled). */
const char *pmu_interval_why(enum xg_pmu_scale_rc rc);
/* Parses a CPU list ("0-3,8,10-11\n") into cpus (at most max); returns the
 * count, or -1 when malformed or too long. */
int pmu_parse_cpulist(const char *s, int *cpus, int max);

/* The reason text for a perf_event_open / read failure: errnum, whether
 * the event is a hardware one, whether the target is a cgroup (CPU-wide),
 * the value of perf_event_paranoid (INT_MIN unknown) and the soft
 * RLIMIT_NOFILE (0 unknown). */
void pmu_errno_why(char *buf, size_t n, int errnum, const char *event, bool hw, bool cgroup,
		   int paranoid, uint64_t nofile);
#define XG_PMU_WHY_BUSY "counter never scheduled (PMU busy: another tool holds the counters?)"
#define XG_PMU_WHY_BACKWARDS "a counter went backwards: interval dropped"
#define XG_PMU_WHY_NOPFM "built without libpfm4: rebuild with libpfm4-dev, or name perf events with --events"

#endif
