// SPDX-License-Identifier: GPL-2.0-or-later
/* Prometheus names of the sample's fields and of the families that are not
 * one field. Conventions of node_exporter and the libvirt exporters: base
 * units (seconds, bytes), counters end in _total on the wire, the direction
 * in the name (receive/transmit, read/write), a small closed set of values
 * in a label (state, mode). The names are an interface: append, never
 * rename. */
#include "xgtop/model/metric_defs.h"

#define CTR(n, h) { "xgtop_domain_" n, XG_MT_COUNTER, 0, false, NULL, h }
#define GAU(n, h) { "xgtop_domain_" n, XG_MT_GAUGE, 0, false, NULL, h }
/* A member of a family shared by several fields: the first carries the HELP. */
#define SHARED(n, dec, lab, h) { "xgtop_domain_" n, XG_MT_COUNTER, dec, false, lab, h }

const struct xg_metric xg_field_metric[XG_F_COUNT] = {
	[XG_F_CPU_NS] = { "xgtop_domain_cpu_seconds", XG_MT_COUNTER, 9, false, NULL,
			  "CPU time used by the domain's vCPUs (threads on Linux)." },
	[XG_F_VCPUS] = GAU("vcpus", "vCPUs online (Xen), threads (Linux)."),
	[XG_F_VCPUS_MAX] = GAU("vcpus_max", "vCPUs configured."),
	[XG_F_MEM] = GAU("memory_bytes", "Memory in use."),
	[XG_F_MAXMEM] = { "xgtop_domain_memory_max_bytes", XG_MT_GAUGE, 0, true, NULL,
			  "Memory limit; +Inf when there is none." },
	[XG_F_NETS] = GAU("network_interfaces", "Network interfaces."),
	[XG_F_NET_RX_BYTES] = CTR("network_receive_bytes", "Bytes received by the guest (xentop's NETTX), all interfaces."),
	[XG_F_NET_TX_BYTES] = CTR("network_transmit_bytes", "Bytes sent by the guest (xentop's NETRX), all interfaces."),
	[XG_F_NET_RX_PKTS] = CTR("network_receive_packets", "Packets received by the guest."),
	[XG_F_NET_TX_PKTS] = CTR("network_transmit_packets", "Packets sent by the guest."),
	[XG_F_NET_RX_ERRS] = CTR("network_receive_errors", "Receive errors, as the guest sees them."),
	[XG_F_NET_TX_ERRS] = CTR("network_transmit_errors", "Transmit errors, as the guest sees them."),
	[XG_F_NET_RX_DROP] = CTR("network_receive_drops", "Packets for the guest that were dropped."),
	[XG_F_NET_TX_DROP] = CTR("network_transmit_drops", "Packets from the guest that were dropped."),
	[XG_F_VBDS] = GAU("block_devices", "Block devices."),
	[XG_F_DISK_RD_OPS] = CTR("disk_read_requests", "Read requests, all block devices."),
	[XG_F_DISK_WR_OPS] = CTR("disk_write_requests", "Write requests, all block devices."),
	[XG_F_DISK_RD_BYTES] = CTR("disk_read_bytes", "Bytes read (Xen: sectors times 512)."),
	[XG_F_DISK_WR_BYTES] = CTR("disk_write_bytes", "Bytes written (Xen: sectors times 512)."),
	[XG_F_DISK_OO] = CTR("disk_out_of_requests", "Times the block backend ran out of requests (xentop's VBD_OO)."),
	[XG_F_RUN_NS] = SHARED("runstate_seconds", 9, "state=\"running\"",
			       "vCPU time by scheduler state, summed over the domain's vCPUs: running; runnable "
			       "(ready, waiting for a CPU); blocked; offline (Xen only)."),
	[XG_F_WAIT_NS] = SHARED("runstate_seconds", 9, "state=\"runnable\"", NULL),
	[XG_F_BLK_NS] = SHARED("runstate_seconds", 9, "state=\"blocked\"", NULL),
	[XG_F_OFF_NS] = SHARED("runstate_seconds", 9, "state=\"offline\"", NULL),
	[XG_F_LLC_REF] = CTR("llc_references", "Last-level cache references (scaled when multiplexed)."),
	[XG_F_LLC_MISS] = CTR("llc_misses", "Last-level cache misses (scaled when multiplexed)."),
	[XG_F_INSTR] = CTR("instructions", "Instructions retired (scaled when multiplexed)."),
	[XG_F_CYCLES] = CTR("cpu_cycles", "CPU cycles (scaled when multiplexed)."),
	[XG_F_L3_OCC] = GAU("l3_occupancy_bytes", "L3 cache occupancy (Intel CMT), all sockets."),
	[XG_F_MBM_TOTAL] = CTR("memory_bandwidth_bytes", "Memory traffic (Intel MBM total), all sockets."),
	[XG_F_MBM_LOCAL] = CTR("memory_bandwidth_local_bytes", "Memory traffic to the local node (Intel MBM local), all sockets."),
	[XG_F_SSID] = GAU("ssid", "XSM security identifier (ssidref)."),
	[XG_F_EMU_NS] = { "xgtop_domain_emulator_cpu_seconds", XG_MT_COUNTER, 9, false, NULL,
			  "CPU time of a VM's threads that are not vCPUs (QEMU's main loop, I/O threads); "
			  "part of cpu_seconds." },
	[XG_F_VM_EXITS] = CTR("vm_exits", "Exits from guest mode, all vCPUs (KVM statistic exits)."),
	[XG_F_HALT_POLL_NS] = { "xgtop_domain_halt_poll_seconds", XG_MT_COUNTER, 9, false, NULL,
				"Time the VM's vCPU threads spent halt-polling while the guest was idle (KVM); "
				"part of cpu_seconds." },
	[XG_F_SWAP] = GAU("swap_bytes", "Bytes of the VM's memory swapped out on the host."),
#define PSI(r, k) "resource=\"" r "\",kind=\"" k "\""
	[XG_F_PSI_CPU_SOME] = SHARED("pressure_seconds", 9, PSI("cpu", "some"),
				     "Linux pressure stall time of the domain's cgroup (the total= of its cpu.pressure, "
				     "memory.pressure and io.pressure): kind some = at least one of its tasks stalled "
				     "on the resource, full = all of its non-idle tasks did at once."),
	[XG_F_PSI_CPU_FULL] = SHARED("pressure_seconds", 9, PSI("cpu", "full"), NULL),
	[XG_F_PSI_MEM_SOME] = SHARED("pressure_seconds", 9, PSI("memory", "some"), NULL),
	[XG_F_PSI_MEM_FULL] = SHARED("pressure_seconds", 9, PSI("memory", "full"), NULL),
	[XG_F_PSI_IO_SOME] = SHARED("pressure_seconds", 9, PSI("io", "some"), NULL),
	[XG_F_PSI_IO_FULL] = SHARED("pressure_seconds", 9, PSI("io", "full"), NULL),
#undef PSI
	[XG_F_BEHIND_WAIT_NS] = { "xgtop_domain_wait_attributed_seconds", XG_MT_GAUGE, 9, false, NULL,
				  "Runnable (waiting) time of the waits that ended in the source's last refresh "
				  "interval, all culprits (Xen live scheduler trace)." },
	[XG_F_BEHIND_NS] = { "xgtop_domain_wait_behind_top_seconds", XG_MT_GAUGE, 9, false, NULL,
			     "The part of wait_attributed_seconds spent behind the top culprit." },
	[XG_F_BEHIND_ID] = GAU("wait_behind_top_domid",
			       "The top culprit of the last interval's waits: a domid, 32767 idle, 65536 Xen itself."),
	[XG_F_WAIT_P50_NS] = { "xgtop_domain_wait_p50_seconds", XG_MT_GAUGE, 9, false, NULL,
			       "Median length of the waits (runnable to running) that ended in the last refresh "
			       "interval (Xen live scheduler trace)." },
	[XG_F_WAIT_P99_NS] = { "xgtop_domain_wait_p99_seconds", XG_MT_GAUGE, 9, false, NULL,
			       "99th percentile of the length of those waits." },
};

#define MODE(w) "mode=\"" w "\""
/* One where's four events; the first where's entries carry the HELP texts. */
#define PMU_ROW(w, hr, hm, hi, hc) { \
	[XG_PMU_REF] = SHARED("llc_references_by_mode", 0, MODE(w), hr), \
	[XG_PMU_MISS] = SHARED("llc_misses_by_mode", 0, MODE(w), hm), \
	[XG_PMU_INSTR] = SHARED("instructions_by_mode", 0, MODE(w), hi), \
	[XG_PMU_CYCLES] = SHARED("cpu_cycles_by_mode", 0, MODE(w), hc) }

const struct xg_metric xg_pmu_metric[XG_PMU_WHERE_COUNT][XG_PMU_EVENT_COUNT] = {
	[XG_PMU_GUEST_USER] = PMU_ROW("guest_user",
		"Last-level cache references by where they happened: guest user mode, guest kernel mode, host.",
		"Last-level cache misses by where they happened.",
		"Instructions retired by where they happened.",
		"CPU cycles by where they happened."),
	[XG_PMU_GUEST_KERNEL] = PMU_ROW("guest_kernel", NULL, NULL, NULL, NULL),
	[XG_PMU_HOST] = PMU_ROW("host", NULL, NULL, NULL, NULL),
};

#define FIX(n, t, dec, h) { "xgtop_" n, t, dec, false, NULL, h }

const struct xg_metric xg_fixed_metric[XG_MF_COUNT] = {
	[XG_MF_BUILD] = FIX("build", XG_MT_INFO, 0, "The xgtop that publishes these figures."),
	[XG_MF_HOST] = FIX("host", XG_MT_INFO, 0,
			   "The host: source, hypervisor and its version, host name, scheduler, cache events counted."),
	[XG_MF_HOST_PCPUS] = FIX("host_pcpus", XG_MT_GAUGE, 0, "Physical CPUs."),
	[XG_MF_HOST_CPU_HZ] = FIX("host_cpu_frequency_hertz", XG_MT_GAUGE, 0, "CPU clock."),
	[XG_MF_HOST_MEM] = FIX("host_memory_bytes", XG_MT_GAUGE, 0, "Host memory."),
	[XG_MF_HOST_MEM_FREE] = FIX("host_memory_free_bytes", XG_MT_GAUGE, 0, "Host memory free."),
	[XG_MF_HOST_DOMAINS] = FIX("host_domains", XG_MT_GAUGE, 0,
				   "Domains by state, each counted once, under its first flag in xentop's order "
				   "(running, blocked, paused, shutdown, crashed, dying) as its summary line counts them."),
	[XG_MF_HOST_DOMAINS_CPU] = FIX("host_domains_cpu_seconds", XG_MT_COUNTER, 9,
				       "CPU time of the host's domains: each domain's growth of its CPU time between "
				       "the exporter's samples, summed (a domain adds nothing for the step it is new or "
				       "restarted in)."),
	[XG_MF_HOST_DOMAINS_RS] = FIX("host_domains_runstate_seconds", XG_MT_COUNTER, 9,
				      "vCPU time of the host's domains by scheduler state (running, runnable, blocked, "
				      "offline), summed like host_domains_cpu_seconds."),
	[XG_MF_SAMPLE_TIME] = FIX("sample_time_seconds", XG_MT_GAUGE, 9,
				  "Wall-clock time (since 1970) of the sample these figures come from."),
	[XG_MF_SAMPLE_MONO] = FIX("sample_monotonic_seconds", XG_MT_GAUGE, 9,
				  "The host's monotonic clock at that sample: rates between two scrapes divide by its difference."),
	[XG_MF_LOST] = FIX("trace_lost_records", XG_MT_COUNTER, 0, "Scheduler trace records the hypervisor dropped."),
	[XG_MF_SELF_CPU] = FIX("collector_cpu_seconds", XG_MT_COUNTER, 9,
			       "CPU time of this xgtop process (collection, display and exporter)."),
	[XG_MF_REFRESHES] = FIX("collector_refreshes", XG_MT_COUNTER, 0, "Refreshes that produced a sample."),
	[XG_MF_ERRORS] = FIX("collector_errors", XG_MT_COUNTER, 0,
			     "Failures: refreshes the source could not take (collector=source), or times a "
			     "sub-collector stopped measuring anything after it had (sched, pmu, cmt)."),
	[XG_MF_UP] = FIX("collector_up", XG_MT_GAUGE, 0,
			 "1 when the last refresh worked (source) or measured a figure of at least one domain "
			 "(sched, pmu, cmt), else 0."),
	[XG_MF_DOMAIN] = FIX("domain", XG_MT_INFO, 0, "One per domain: name, uuid (when known), domid, source."),
	[XG_MF_DOMAIN_STATE] = FIX("domain_state", XG_MT_GAUGE, 0,
				   "1 when the domain has that state flag (xentop's d s b c p r), else 0."),
	[XG_MF_GUEST_REPORTED] = FIX("domain_guest_reported", XG_MT_GAUGE, 0,
				     "1 when the cache figures were published by an agent inside the guest."),
	[XG_MF_VCPU_ONLINE] = FIX("vcpu_online", XG_MT_GAUGE, 0, "1 when the vCPU is online."),
	[XG_MF_VCPU_CPU] = FIX("vcpu_cpu_seconds", XG_MT_COUNTER, 9, "CPU time used by the vCPU."),
	[XG_MF_VCPU_RUNSTATE] = FIX("vcpu_runstate_seconds", XG_MT_COUNTER, 9,
				    "vCPU time by scheduler state: running, runnable, blocked, offline."),
	[XG_MF_SOCK_L3_OCC] = FIX("domain_socket_l3_occupancy_bytes", XG_MT_GAUGE, 0,
				  "L3 cache occupancy on one socket (Intel CMT)."),
	[XG_MF_SOCK_MBM_TOTAL] = FIX("domain_socket_memory_bandwidth_bytes", XG_MT_COUNTER, 0,
				     "Memory traffic on one socket (Intel MBM total)."),
	[XG_MF_SOCK_MBM_LOCAL] = FIX("domain_socket_memory_bandwidth_local_bytes", XG_MT_COUNTER, 0,
				     "Local memory traffic on one socket (Intel MBM local)."),
	[XG_MF_WAIT_BEHIND] = FIX("domain_wait_behind_seconds", XG_MT_COUNTER, 9,
				  "Runnable (waiting) time of the domain's ended waits, by whom it waited behind: "
				  "a domid, idle or xen for the 3 largest totals since the exporter's source "
				  "began, other for the rest; the parts add up to all such waits."),
	[XG_MF_WAIT_LATENCY] = FIX("domain_wait_latency_seconds", XG_MT_HISTOGRAM, 9,
				   "Length of the domain's waits (runnable to running)."),
	[XG_MF_CACHE_VICTIM] = FIX("domain_cache_victim", XG_MT_GAUGE, 0,
				   "1 when the domain is a cache victim by the CPI2 rule (its cycles per instruction "
				   "above its own baseline in 3 of the last 5 windows), 0 when judged and not; "
				   "absent without counters or while its baseline is learned."),
};

const char *const xg_runstate_label[XG_RS_COUNT] = { "running", "runnable", "blocked", "offline" };
const char *const xg_pmu_mode_label[XG_PMU_WHERE_COUNT] = { "guest_user", "guest_kernel", "host" };
const char *const xg_state_label[XG_STATE_FLAGS] = {
	"dying", "shutdown", "blocked", "crashed", "paused", "running",
};
const unsigned xg_state_priority[XG_STATE_FLAGS] = {
	XG_ST_RUNNING, XG_ST_BLOCKED, XG_ST_PAUSED, XG_ST_SHUTDOWN, XG_ST_CRASHED, XG_ST_DYING,
};
const char *xg_state_priority_label(int k)
{
	return xg_state_label[__builtin_ctz(xg_state_priority[k])];
}
const char *const xg_collector_label[XG_CL_COUNT] = { "source", "sched", "pmu", "cmt" };

#define BIT(f) (1ull << (f))

uint64_t collector_fields(enum xg_collector c)
{
	switch (c) {
	case XG_CL_SCHED:
		return BIT(XG_F_RUN_NS) | BIT(XG_F_WAIT_NS) | BIT(XG_F_BLK_NS) | BIT(XG_F_OFF_NS);
	case XG_CL_PMU:
		return BIT(XG_F_LLC_REF) | BIT(XG_F_LLC_MISS) | BIT(XG_F_INSTR) | BIT(XG_F_CYCLES);
	case XG_CL_CMT:
		return BIT(XG_F_L3_OCC) | BIT(XG_F_MBM_TOTAL) | BIT(XG_F_MBM_LOCAL);
	default:
		return 0;
	}
}
