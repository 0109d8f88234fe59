// SPDX-License-Identifier: GPL-2.0-or-later
/* Debug tool for the Linux source: collects twice (DELAY seconds apart),
 * prints each domain's raw counters, reasons, the run/wait/blocked split of
 * the interval and the cost of the second collect.
 * Usage: xgtop-linux-dump [vm|cgroup|process|auto] [DELAY] [ID...]
 *        xgtop-linux-dump bench [vm|cgroup|process|auto] [N] [GAP_MS]
 *        xgtop-linux-dump cgmap [PID...]
 * bench: N collects, GAP_MS apart (default 0: back to back), prints the
 * mean CPU cost of one. cgmap: walks the cgroup.procs files as cgroup mode
 * does and compares where it places each process (or each PID, printing
 * both paths) with the process's /proc/PID/cgroup; exits 1 if one differs. */
#include "../../src/linux/linux_domain.h"
#include "xgtop/core/osread.h"
#include "xgtop/model/source.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

extern const struct xg_source_ops source_linux_ops;

static void field(const struct xg_sample *s, const struct xg_dom *d, enum xg_field f)
{
	if (dom_has(d, f))
		printf(" %s=%llu", field_name(f), (unsigned long long)d->v[f]);
	else
		printf(" %s=- (%s)", field_name(f), dom_why(s, d, f) ? dom_why(s, d, f) : "no reason");
}

static double pct(uint64_t a, uint64_t b, uint64_t total)
{
	return total ? 100.0 * (double)(b - a) / (double)total : 0;
}

/* id is one of argv[first..], or there are none */
static bool wanted(uint32_t id, int first, int argc, char **argv)
{
	if (argc <= first)
		return true;
	for (int i = first; i < argc; i++)
		if (strtoul(argv[i], NULL, 10) == id)
			return true;
	return false;
}

/* Processes and threads in /proc now (what one collect walks). */
static void count_tasks(size_t *np, size_t *nt)
{
	*np = *nt = 0;
	DIR *d = opendir("/proc");
	struct dirent *e;
	while (d && (e = readdir(d))) {
		if (e->d_name[0] < '1' || e->d_name[0] > '9')
			continue;
		char path[300];
		snprintf(path, sizeof(path), "/proc/%s/task", e->d_name);
		DIR *t = opendir(path);
		if (!t)
			continue;
		(*np)++;
		struct dirent *f;
		while ((f = readdir(t)))
			if (f->d_name[0] != '.')
				(*nt)++;
		closedir(t);
	}
	if (d)
		closedir(d);
}

static enum xg_group group_of(const char *s)
{
	return !strcmp(s, "cgroup") ? XG_GROUP_CGROUP : !strcmp(s, "process") ? XG_GROUP_PROCESS
		: !strcmp(s, "vm") ? XG_GROUP_VM : XG_GROUP_AUTO;
}

static int bench(int argc, char **argv)
{
	struct xg_config cfg;
	config_defaults(&cfg);
	cfg.group = group_of(argc > 2 ? argv[2] : "auto");
	int n = argc > 3 ? atoi(argv[3]) : 50;
	struct xg_err err = { 0 };
	struct xg_source *src;
	if (source_linux_ops.open(&src, &cfg, &err) < 0) {
		fprintf(stderr, "open: %s\n", err.msg);
		return 1;
	}
	struct xg_sample s;
	sample_init(&s);
	long gap_ms = argc > 4 ? atol(argv[4]) : 0;
	struct timespec gap = { gap_ms / 1000, gap_ms % 1000 * 1000000L };
	source_linux_ops.collect(src, &s, &err);   /* warm: buffers grow once */
	uint64_t c0 = xg_self_cpu_ns(), w0 = xg_now_mono_ns(), slept = 0;
	for (int i = 0; i < n; i++) {
		if (gap_ms > 0) {
			/* what the host does in between is in the next collect,
			 * as with a monitor's refresh interval */
			uint64_t t = xg_now_mono_ns();
			nanosleep(&gap, NULL);
			slept += xg_now_mono_ns() - t;
		}
		sample_clear(&s);
		if (source_linux_ops.collect(src, &s, &err) != XG_COLLECT_OK) {
			fprintf(stderr, "collect: %s\n", err.msg);
			return 1;
		}
	}
	uint64_t cpu = xg_self_cpu_ns() - c0, wall = xg_now_mono_ns() - w0 - slept;
	size_t np, nt;
	count_tasks(&np, &nt);
	printf("%d collects: %zu processes, %zu threads, %zu domains, %zu vcpu rows: "
	       "%.0f us CPU, %.0f us wall per collect (%.1f us CPU per thread)\n",
	       n, np, nt, s.ndom, s.nvcpu, cpu / 1e3 / n, wall / 1e3 / n, cpu / 1e3 / n / (double)(nt ? nt : 1));
	sample_free(&s);
	source_linux_ops.close(src);
	return 0;
}

/* The walk against /proc/PID/cgroup, read after it (a process that moved
 * in between shows as a difference: run it on a quiet tree). */
static int cgmap_check(int argc, char **argv)
{
	struct lx_cgroup cg;
	struct lx_cgmap m;
	struct xg_err err = { 0 };
	if (lx_cgroup_open(&cg, &err) < 0 || cg.root_fd < 0) {
		fprintf(stderr, "no cgroup v2 mount at the root of our cgroup namespace\n");
		return 77;
	}
	lx_cgmap_open(&m);
	lx_cgmap_walk(&m, cg.root_fd, SIZE_MAX);   /* whatever the counts */
	if (!m.walked) {
		fprintf(stderr, "no walk: /proc is not our pid namespace's\n");
		return 77;
	}
	size_t placed = 0, unplaced = 0, differ = 0;
	DIR *d = opendir("/proc");
	struct dirent *e;
	while (d && (e = readdir(d))) {
		uint32_t pid;
		char path[300], buf[4096], mine[256], theirs[256];
		const char *p;
		size_t n;
		if (!lx_parse_id(e->d_name, &pid) || !wanted(pid, 2, argc, argv))
			continue;
		snprintf(path, sizeof(path), "%s/cgroup", e->d_name);
		if (xg_read_at(dirfd(d), path, buf, sizeof(buf)) <= 0 || !lx_parse_cgroup_path(buf, &p, &n))
			continue;
		snprintf(theirs, sizeof(theirs), "%.*s", (int)n, p);
		bool in = lx_cgmap_path(&m, pid, mine, sizeof(mine));
		placed += in;
		unplaced += !in;
		differ += in && strcmp(mine, theirs);
		if (argc > 2 || (in && strcmp(mine, theirs)))
			printf("pid %u: walk %s, /proc %s\n", pid, in ? mine : "-", theirs);
	}
	if (d)
		closedir(d);
	printf("cgmap: %zu cgroups, %zu processes placed, %zu left to /proc, %zu differ\n", m.nnode,
	       placed, unplaced, differ);
	lx_cgmap_close(&m);
	lx_cgroup_close(&cg);
	return differ ? 1 : 0;
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "bench"))
		return bench(argc, argv);
	if (argc > 1 && !strcmp(argv[1], "cgmap"))
		return cgmap_check(argc, argv);
	struct xg_config cfg;
	config_defaults(&cfg);
	cfg.group = group_of(argc > 1 ? argv[1] : "auto");
	double delay = argc > 2 ? atof(argv[2]) : 1.0;
	struct xg_err err = { 0 };
	struct xg_source *src;
	if (source_linux_ops.open(&src, &cfg, &err) < 0) {
		fprintf(stderr, "open: %s\n", err.msg);
		return 1;
	}
	struct xg_sample a, b;
	sample_init(&a);
	sample_init(&b);
	if (source_linux_ops.collect(src, &a, &err) != XG_COLLECT_OK) {
		fprintf(stderr, "collect: %s\n", err.msg);
		return 1;
	}
	struct timespec ts = { (time_t)delay, (long)((delay - (double)(time_t)delay) * 1e9) };
	nanosleep(&ts, NULL);
	uint64_t c0 = xg_self_cpu_ns();
	if (source_linux_ops.collect(src, &b, &err) != XG_COLLECT_OK) {
		fprintf(stderr, "collect: %s\n", err.msg);
		return 1;
	}
	uint64_t cost = xg_self_cpu_ns() - c0;
	uint64_t dt = b.host.mono_ns - a.host.mono_ns;
	printf("host source=%s hv=\"%s\" host=%s pcpus=%u khz=%llu mem=%llu/%llu ndom=%zu nvcpu=%zu dt_ns=%llu\n",
	       b.host.source, b.host.hypervisor, b.host.hostname, b.host.pcpus,
	       (unsigned long long)b.host.cpu_khz, (unsigned long long)b.host.mem_free,
	       (unsigned long long)b.host.mem_total, b.ndom, b.nvcpu, (unsigned long long)dt);
	for (size_t i = 0; i < b.ndom; i++) {
		const struct xg_dom *d = &b.dom[i];
		if (!wanted(d->id, 3, argc, argv))
			continue;
		const struct xg_dom *p = sample_find(&a, d->id);
		printf("dom %u \"%s\" state=%#x", d->id, d->name, d->state);
		static const enum xg_field show[] = { XG_F_CPU_NS, XG_F_VCPUS, XG_F_MEM, XG_F_MAXMEM,
			XG_F_DISK_RD_BYTES, XG_F_DISK_WR_BYTES, XG_F_DISK_RD_OPS, XG_F_DISK_WR_OPS,
			XG_F_RUN_NS, XG_F_WAIT_NS, XG_F_BLK_NS, XG_F_OFF_NS, XG_F_NET_RX_BYTES, XG_F_LLC_REF,
			XG_F_L3_OCC, XG_F_VCPUS_MAX, XG_F_EMU_NS, XG_F_VM_EXITS, XG_F_HALT_POLL_NS, XG_F_SWAP };
		for (size_t k = 0; k < XG_ARRAY_LEN(show); k++)
			field(&b, d, show[k]);
		if (p && !memcmp(p->handle, d->handle, 16) && dom_has(d, XG_F_RUN_NS) && dom_has(p, XG_F_RUN_NS)) {
			uint64_t tot = (d->v[XG_F_RUN_NS] - p->v[XG_F_RUN_NS]) +
				       (d->v[XG_F_WAIT_NS] - p->v[XG_F_WAIT_NS]) +
				       (d->v[XG_F_BLK_NS] - p->v[XG_F_BLK_NS]);
			printf(" | RUN%%=%.1f WAIT%%=%.1f BLK%%=%.1f threadtime/dt=%.2f CPU%%=%.1f",
			       pct(p->v[XG_F_RUN_NS], d->v[XG_F_RUN_NS], tot),
			       pct(p->v[XG_F_WAIT_NS], d->v[XG_F_WAIT_NS], tot),
			       pct(p->v[XG_F_BLK_NS], d->v[XG_F_BLK_NS], tot), (double)tot / (double)dt,
			       dom_has(d, XG_F_CPU_NS) && dom_has(p, XG_F_CPU_NS)
				       ? pct(p->v[XG_F_CPU_NS], d->v[XG_F_CPU_NS], dt) : -1.0);
			if (dom_has(d, XG_F_DISK_WR_BYTES) && dom_has(p, XG_F_DISK_WR_BYTES))
				printf(" WR_Bps=%.0f", (double)(d->v[XG_F_DISK_WR_BYTES] - p->v[XG_F_DISK_WR_BYTES]) * 1e9 / (double)dt);
		}
		printf("\n");
		const struct xg_vcpu *v = sample_vcpus(&b, d);
		for (uint32_t k = 0; k < d->vcpu_count && k < 8; k++)
			printf("  vcpu %u cpu=%llu run=%llu wait=%llu blk=%llu valid=%#x\n", v[k].id,
			       (unsigned long long)v[k].cpu_ns, (unsigned long long)v[k].sched_ns[0],
			       (unsigned long long)v[k].sched_ns[1], (unsigned long long)v[k].sched_ns[2], v[k].valid);
	}
	printf("second collect: %zu domains, %zu vcpu rows, %llu us CPU\n", b.ndom, b.nvcpu,
	       (unsigned long long)(cost / 1000));
	sample_free(&a);
	sample_free(&b);
	source_linux_ops.close(src);
	return 0;
}
