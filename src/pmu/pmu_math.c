// SPDX-License-Identifier: GPL-2.0-or-later
/* Pure arithmetic of PMU counting: multiplex scaling, CPU lists and the
 * wording of failures. No system calls here, so all of it is unit tested on
 * recorded values. The ratios of the counts (HIT%, MPKI) are rates like the
 * others, computed in compute/metrics.c from the samples. */
#include "xgtop/pmu/pmu.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum xg_pmu_scale_rc pmu_scale_delta(const struct xg_pmu_raw *prev, const struct xg_pmu_raw *cur,
				     unsigned n, double out[])
{
	if (cur->enabled < prev->enabled || cur->running < prev->running)
		return XG_PMU_BACKWARDS;
	for (unsigned i = 0; i < n; i++)
		if (cur->v[i] < prev->v[i])
			return XG_PMU_BACKWARDS;
	uint64_t de = cur->enabled - prev->enabled, dr = cur->running - prev->running;
	/* A cgroup or task context that never ran in the interval accrues no
	 * enabled time: its zero counts are exact. */
	if (de == 0 || dr >= de) {
		for (unsigned i = 0; i < n; i++)
			out[i] = (double)(cur->v[i] - prev->v[i]);
		return XG_PMU_EXACT;
	}
	if (dr == 0)
		return XG_PMU_UNKNOWN;
	double f = (double)de / (double)dr;
	for (unsigned i = 0; i < n; i++)
		out[i] = (double)(cur->v[i] - prev->v[i]) * f;
	return XG_PMU_SCALED;
}

const char *pmu_interval_why(enum xg_pmu_scale_rc rc)
{
	switch (rc) {
	case XG_PMU_UNKNOWN: return XG_PMU_WHY_BUSY;
	case XG_PMU_BACKWARDS: return XG_PMU_WHY_BACKWARDS;
	default: return NULL;
	}
}

int pmu_parse_cpulist(const char *s, int *cpus, int max)
{
	int n = 0;
	while (*s && *s != '\n') {
		char *end;
		errno = 0;
		long a = strtol(s, &end, 10), b;
		if (end == s || errno || a < 0 || a > INT_MAX)
			return -1;
		b = a;
		s = end;
		if (*s == '-') {
			s++;
			b = strtol(s, &end, 10);
			if (end == s || errno || b < a || b > INT_MAX)
				return -1;
			s = end;
		}
		for (long c = a; c <= b; c++) {
			if (n >= max)
				return -1;
			cpus[n++] = (int)c;
		}
		if (*s == ',')
			s++;
		else if (*s && *s != '\n')
			return -1;
	}
	return n;
}

void pmu_errno_why(char *buf, size_t n, int errnum, const char *event, bool hw, bool cgroup,
		   int paranoid, uint64_t nofile)
{
	char par[48] = "";
	if (paranoid != INT_MIN)
		snprintf(par, sizeof(par), "kernel.perf_event_paranoid=%d", paranoid);
	else
		snprintf(par, sizeof(par), "kernel.perf_event_paranoid unreadable");
	switch (errnum) {
	case EMFILE:
		if (nofile)
			snprintf(buf, n, "out of file descriptors (EMFILE, limit %llu): raise it with ulimit -n",
				 (unsigned long long)nofile);
		else
			snprintf(buf, n, "out of file descriptors (EMFILE): raise the limit with ulimit -n");
		return;
	case ENFILE:
		snprintf(buf, n, "system out of file descriptors (ENFILE): raise fs.file-max");
		return;
	case EACCES:
	case EPERM:
		/* CPU-wide (cgroup) counting needs paranoid <= 0; per-task
		 * counting of kernel mode needs <= 1; Debian's 3 forbids all. */
		snprintf(buf, n, "permission denied (%s, %s): run as root or with CAP_PERFMON, or set "
			 "kernel.perf_event_paranoid=%d",
			 errnum == EACCES ? "EACCES" : "EPERM", par, cgroup ? 0 : 1);
		return;
	case ENOENT:
	case EOPNOTSUPP:
	case ENODEV:
		if (hw)
			snprintf(buf, n, "no hardware PMU (virtual machine without vPMU?) (%s)",
				 errnum == ENOENT ? "ENOENT" : errnum == ENODEV ? "ENODEV" : "EOPNOTSUPP");
		else
			snprintf(buf, n, "event %s not supported by this kernel (%s)", event,
				 errnum == ENOENT ? "ENOENT" : errnum == ENODEV ? "ENODEV" : "EOPNOTSUPP");
		return;
	case EBUSY:
		snprintf(buf, n, "PMU busy (EBUSY): another tool has exclusive use of the counters");
		return;
	case ESRCH:
		snprintf(buf, n, "task exited (ESRCH)");
		return;
	case EINVAL:
		snprintf(buf, n, "the kernel rejected event %s (EINVAL): too many events for one group, "
			 "or a modifier this PMU lacks", event);
		return;
	case ENOSPC:
		snprintf(buf, n, "no counter left for event %s (ENOSPC)", event);
		return;
	default:
		snprintf(buf, n, "perf_event_open failed for %s: %s (errno %d)", event, strerror(errnum),
			 errnum);
	}
}
