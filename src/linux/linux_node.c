// SPDX-License-Identifier: GPL-2.0-or-later
/* Host facts for the Linux source: kernel release, KVM presence, CPUs,
 * clock rate and memory. What does not change is read once at open. */
#include "linux_scan.h"
#include "xgtop/core/osread.h"
#include "xgtop/model/sample.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

/* The nominal clock rate: cpufreq's base or maximum frequency when the
 * kernel exposes it, else the first "cpu MHz" of /proc/cpuinfo. */
static uint64_t read_khz(void)
{
	static const char *const files[] = {
		"/sys/devices/system/cpu/cpu0/cpufreq/base_frequency",
		"/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq",
	};
	char buf[64];
	for (size_t i = 0; i < XG_ARRAY_LEN(files); i++) {
		uint64_t v;
		if (xg_read_at(AT_FDCWD, files[i], buf, sizeof(buf)) > 0 && lx_parse_limit(buf, &v) &&
		    v && v != UINT64_MAX)
			return v;
	}
	/* cpuinfo lists the first CPU first; 16 KiB holds it on any arch */
	size_t cap = 16384;
	char *big = xg_malloc(cap);
	uint64_t khz = 0;
	if (xg_read_at(AT_FDCWD, "/proc/cpuinfo", big, cap) > 0 && !lx_parse_cpu_mhz(big, &khz))
		khz = 0;
	free(big);
	return khz;
}

void lx_node_open(struct lx_node *n)
{
	memset(n, 0, sizeof(*n));
	struct utsname u;
	if (uname(&u) == 0) {
		snprintf(n->hypervisor, sizeof(n->hypervisor), "Linux %.40s%s", u.release,
			 access("/dev/kvm", F_OK) == 0 ? " (KVM)" : "");
		snprintf(n->hostname, sizeof(n->hostname), "%.63s", u.nodename);
	} else {
		snprintf(n->hypervisor, sizeof(n->hypervisor), "Linux");
	}
	n->cpu_khz = read_khz();
	long hz = sysconf(_SC_CLK_TCK);
	n->ticks_per_s = hz > 0 ? (uint64_t)hz : 100;
}

void lx_node_fill(struct lx_node *n, struct xg_host *h)
{
	snprintf(h->source, sizeof(h->source), "linux");
	memcpy(h->hypervisor, n->hypervisor, sizeof(h->hypervisor));
	memcpy(h->hostname, n->hostname, sizeof(h->hostname));
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	if (cpus > 0) {
		h->pcpus = (uint32_t)cpus;
		host_mark(h, XG_H_PCPUS);
	}
	if (n->cpu_khz) {
		h->cpu_khz = n->cpu_khz;
		host_mark(h, XG_H_CPU_KHZ);
	}
	char buf[4096];
	struct lx_meminfo mi;
	if (xg_read_at(AT_FDCWD, "/proc/meminfo", buf, sizeof(buf)) > 0 && lx_parse_meminfo(buf, &mi)) {
		h->mem_total = mi.total;
		h->mem_free = mi.avail;
		n->swap_total = mi.swap_total;
		host_mark(h, XG_H_MEM);
	}
	h->self_cpu_ns = xg_self_cpu_ns();
	host_mark(h, XG_H_SELF_CPU);
}

static uint64_t ticks_ns(const struct lx_node *n, uint64_t ticks)
{
	return (uint64_t)((unsigned __int128)ticks * 1000000000u / n->ticks_per_s);
}

void lx_node_pcpus(const struct lx_node *n, struct xg_sample *out)
{
	FILE *f = fopen("/proc/stat", "re");
	char line[512], why[128];
	if (!f) {
		snprintf(why, sizeof(why), "/proc/stat: %s", strerror(errno));
		out->pcpu_why = sample_reason(out, why);
		return;
	}
	/* The cpu lines come first; the interrupt counts after them can be
	 * long, so stop at the first other line. A line longer than the
	 * buffer is no cpu line (its rest would parse as a line of its own). */
	bool cont = false;
	while (fgets(line, sizeof(line), f)) {
		bool whole = strchr(line, '\n') != NULL, part = cont;
		cont = !whole;
		uint32_t id;
		uint64_t busy, idle;
		if (part)
			continue;
		if (strncmp(line, "cpu", 3))
			break;
		if (!whole || !lx_parse_stat_cpu(line, &id, &busy, &idle))
			continue;
		struct xg_pcpu *p = sample_add_pcpus(out, 1);
		p->id = id;
		p->ns[XG_PC_BUSY] = ticks_ns(n, busy);
		p->ns[XG_PC_IDLE] = ticks_ns(n, idle);
		p->valid = 1u << XG_PC_BUSY | 1u << XG_PC_IDLE;
	}
	fclose(f);
	if (!out->npcpu)
		out->pcpu_why = sample_reason(out, "/proc/stat has no per-CPU lines");
}
