// SPDX-License-Identifier: GPL-2.0-or-later
/* The column table. Everything that names or shows a
 * column (TUI, batch outputs, help screen, man page table, exporter) reads
 * this table. */
#include "xgtop/model/columns.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#define C(id_, hdr, key_, met, w, u, g, prio, desc, help_) \
	[id_] = { id_, hdr, key_, met, w, u, g, prio, desc, help_ }

/* The sample field a column is computed from, as the exporter names it. */
#define F(f) (&xg_field_metric[XG_F_##f])
#define P(where, ev) (&xg_pmu_metric[XG_PMU_##where][XG_PMU_##ev])
#define FIX(fam) (&xg_fixed_metric[XG_MF_##fam])

const struct xg_coldef xg_columns[XG_COL_COUNT] = {
	C(XG_COL_HOST, "HOST", "host", FIX(HOST), 16, XG_UNIT_TEXT, XG_GRP_HOST, 1, false,
	  "Pool view (--source remote): the host the domain runs on, as named in the URL or --hosts file. A trailing ? marks a host that did not answer this refresh: its rows are from its last answer and its rates are '-' (the reason: --explain, h)."),
	C(XG_COL_ID, "ID", "id", FIX(DOMAIN), 5, XG_UNIT_NONE, XG_GRP_BASE, 3, false,
	  "Domain id (Xen domid; cgroup inode or process-group leader pid on Linux)."),
	C(XG_COL_NAME, "NAME", "name", FIX(DOMAIN), 16, XG_UNIT_TEXT, XG_GRP_BASE, 0, false,
	  "Domain name (Xen), cgroup path or leader command (Linux). Control characters and invalid UTF-8 are shown as \\xNN."),
	C(XG_COL_STATE, "STATE", "state", FIX(DOMAIN_STATE), 6, XG_UNIT_TEXT, XG_GRP_BASE, 9, false,
	  "Flags d s b c p r (dying, shutdown, blocked, crashed, paused, running), '-' where clear, as in xentop."),
	C(XG_COL_CPU_PCT, "CPU%", "cpu_pct", F(CPU_NS), 6, XG_UNIT_PCT, XG_GRP_BASE, 1, true,
	  "100 * delta(cpu_ns) / delta(t_ns): CPU used in the interval, 100 % = one pCPU fully busy (as xentop; not divided by vCPUs)."),
	C(XG_COL_CPU_S, "CPU(s)", "cpu_s", F(CPU_NS), 9, XG_UNIT_SEC, XG_GRP_BASE, 8, true,
	  "cpu_ns / 1e9: total CPU seconds used since the domain started (since the group's processes started on Linux)."),
	C(XG_COL_VCPU, "VCPU", "vcpus", F(VCPUS), 4, XG_UNIT_NONE, XG_GRP_BASE, 7, true,
	  "vCPUs online (Xen), threads (Linux)."),
	C(XG_COL_MEM, "MEM", "mem_bytes", F(MEM), 6, XG_UNIT_BYTES, XG_GRP_BASE, 2, true,
	  "Memory in use, bytes (Xen: tot_pages * page size; Linux: cgroup memory.current or RSS)."),
	C(XG_COL_MEM_PCT, "MEM%", "mem_pct", F(MEM), 5, XG_UNIT_PCT, XG_GRP_BASE, 5, true,
	  "100 * MEM / host memory total."),
	C(XG_COL_MAXMEM, "MAXMEM", "maxmem_bytes", F(MAXMEM), 6, XG_UNIT_BYTES, XG_GRP_BASE, 10, true,
	  "Memory limit, bytes ('nolim' when there is none)."),
	C(XG_COL_NET_RX, "NET-RX/s", "net_rx_bps", F(NET_RX_BYTES), 8, XG_UNIT_BPS, XG_GRP_NET, 11, true,
	  "delta(bytes received by the guest) / delta(t), bytes/s, summed over interfaces (guest view; xentop's NETTX)."),
	C(XG_COL_NET_TX, "NET-TX/s", "net_tx_bps", F(NET_TX_BYTES), 8, XG_UNIT_BPS, XG_GRP_NET, 11, true,
	  "delta(bytes sent by the guest) / delta(t), bytes/s (guest view; xentop's NETRX)."),
	C(XG_COL_NET_RXP, "PKT-RX/s", "net_rx_pps", F(NET_RX_PKTS), 8, XG_UNIT_PER_S, XG_GRP_NET, 13, true,
	  "delta(packets received by the guest) / delta(t), packets/s."),
	C(XG_COL_NET_TXP, "PKT-TX/s", "net_tx_pps", F(NET_TX_PKTS), 8, XG_UNIT_PER_S, XG_GRP_NET, 13, true,
	  "delta(packets sent by the guest) / delta(t), packets/s."),
	C(XG_COL_DISK_RD, "RD-IO/s", "disk_rd_iops", F(DISK_RD_OPS), 7, XG_UNIT_PER_S, XG_GRP_DISK, 14, true,
	  "delta(read requests) / delta(t), requests/s, summed over block devices."),
	C(XG_COL_DISK_WR, "WR-IO/s", "disk_wr_iops", F(DISK_WR_OPS), 7, XG_UNIT_PER_S, XG_GRP_DISK, 14, true,
	  "delta(write requests) / delta(t), requests/s."),
	C(XG_COL_DISK_RDB, "DISK-RD/s", "disk_rd_bps", F(DISK_RD_BYTES), 9, XG_UNIT_BPS, XG_GRP_DISK, 12, true,
	  "delta(bytes read) / delta(t), bytes/s (Xen: sectors * 512)."),
	C(XG_COL_DISK_WRB, "DISK-WR/s", "disk_wr_bps", F(DISK_WR_BYTES), 9, XG_UNIT_BPS, XG_GRP_DISK, 12, true,
	  "delta(bytes written) / delta(t), bytes/s (Xen: sectors * 512)."),
	C(XG_COL_RUN, "RUN%", "run_pct", F(RUN_NS), 5, XG_UNIT_PCT, XG_GRP_SCHED, 6, true,
	  "100 * delta(running ns) / delta(vCPU-time ns), where vCPU-time = running + waiting + blocked (+ offline where measured) summed over the domain's vCPUs (threads on Linux)."),
	C(XG_COL_WAIT, "WAIT%", "wait_pct", F(WAIT_NS), 5, XG_UNIT_PCT, XG_GRP_SCHED, 4, true,
	  "100 * delta(runnable-but-waiting ns) / delta(vCPU-time ns): time ready to run but not given a CPU (Xen runstate runnable; Linux schedstat run_delay)."),
	C(XG_COL_BLK, "BLK%", "blk_pct", F(BLK_NS), 5, XG_UNIT_PCT, XG_GRP_SCHED, 6, true,
	  "100 * delta(blocked ns) / delta(vCPU-time ns): time idle, waiting for an event or I/O."),
	C(XG_COL_OFF, "OFF%", "off_pct", F(OFF_NS), 5, XG_UNIT_PCT, XG_GRP_SCHED, 15, true,
	  "100 * delta(offline ns) / delta(vCPU-time ns): vCPU down or paused (Xen only)."),
	C(XG_COL_LLC_REF, "LLC-REF/s", "llc_ref_ps", F(LLC_REF), 9, XG_UNIT_PER_S, XG_GRP_CACHE, 16, true,
	  "delta(LLC references) / delta(t), events/s; counts scaled by time_enabled/time_running when multiplexed. A trailing * marks figures a Xen guest reported about itself (xgtop --agent)."),
	C(XG_COL_LLC_MISS, "LLC-MISS/s", "llc_miss_ps", F(LLC_MISS), 10, XG_UNIT_PER_S, XG_GRP_CACHE, 5, true,
	  "delta(LLC misses) / delta(t), events/s (scaled)."),
	C(XG_COL_HIT, "HIT%", "hit_pct", F(LLC_REF), 5, XG_UNIT_PCT, XG_GRP_CACHE, 7, true,
	  "100 * (1 - delta(LLC misses) / delta(LLC references)); '-' when there were no references."),
	C(XG_COL_MPKI, "MPKI", "mpki", F(INSTR), 6, XG_UNIT_RATIO, XG_GRP_CACHE, 16, true,
	  "1000 * delta(LLC misses) / delta(instructions): misses per thousand instructions."),
	C(XG_COL_L3_OCC, "L3-OCC", "l3_occ_bytes", F(L3_OCC), 6, XG_UNIT_BYTES, XG_GRP_CMT, 17, true,
	  "L3 cache occupancy, bytes (Intel CMT through Xen PSR; needs psr=cmt), summed over sockets; with the cache breakdown (m, --nosumcache) a 'socket N' row under the domain shows each socket's occupancy."),
	C(XG_COL_MEM_BW, "MEM-BW", "mem_bw_bps", F(MBM_TOTAL), 7, XG_UNIT_BPS, XG_GRP_CMT, 17, true,
	  "delta(MBM total bytes) / delta(t), bytes/s (Intel MBM through Xen PSR), summed over sockets; with the cache breakdown a 'socket N' row shows delta(that socket's MBM total bytes) / delta(t)."),
	C(XG_COL_MISS_GU, "MISS-GU/s", "miss_guest_user_ps", P(GUEST_USER, MISS), 9, XG_UNIT_PER_S, XG_GRP_CACHE_BD, 16, true,
	  "LLC misses/s counted in guest user mode."),
	C(XG_COL_MISS_GK, "MISS-GK/s", "miss_guest_kernel_ps", P(GUEST_KERNEL, MISS), 9, XG_UNIT_PER_S, XG_GRP_CACHE_BD, 16, true,
	  "LLC misses/s counted in guest kernel mode."),
	C(XG_COL_MISS_H, "MISS-H/s", "miss_host_ps", P(HOST, MISS), 8, XG_UNIT_PER_S, XG_GRP_CACHE_BD, 16, true,
	  "LLC misses/s counted in the host kernel or hypervisor on the domain's behalf."),
	C(XG_COL_HIT_GU, "HIT-GU%", "hit_guest_user_pct", P(GUEST_USER, REF), 7, XG_UNIT_PCT, XG_GRP_CACHE_BD, 16, true,
	  "100 * (1 - misses/references) in guest user mode."),
	C(XG_COL_HIT_GK, "HIT-GK%", "hit_guest_kernel_pct", P(GUEST_KERNEL, REF), 7, XG_UNIT_PCT, XG_GRP_CACHE_BD, 16, true,
	  "100 * (1 - misses/references) in guest kernel mode."),
	C(XG_COL_HIT_H, "HIT-H%", "hit_host_pct", P(HOST, REF), 6, XG_UNIT_PCT, XG_GRP_CACHE_BD, 16, true,
	  "100 * (1 - misses/references) in the host kernel or hypervisor."),
	C(XG_COL_EMU, "EMU%", "emu_pct", F(EMU_NS), 5, XG_UNIT_PCT, XG_GRP_VM, 6, true,
	  "100 * delta(emulator ns) / delta(t_ns): CPU of a VM's threads that are not vCPUs (QEMU's main loop, I/O threads, vhost workers), 100 % = one pCPU; CPU% = the vCPU rows' CPU% + EMU%."),
	C(XG_COL_EXITS, "EXITS/s", "vm_exits_ps", F(VM_EXITS), 7, XG_UNIT_PER_S, XG_GRP_VM, 8, true,
	  "delta(exits from guest mode) / delta(t), exits/s, summed over the VM's vCPUs (KVM statistic 'exits')."),
	C(XG_COL_POLL, "POLL%", "halt_poll_pct", F(HALT_POLL_NS), 5, XG_UNIT_PCT, XG_GRP_VM, 8, true,
	  "100 * delta(halt_poll_success_ns + halt_poll_fail_ns) / delta(t_ns): host CPU the VM's vCPU threads burned polling while the guest was idle (KVM halt polling), 100 % = one pCPU; part of CPU% and RUN%."),
	C(XG_COL_SWAP, "SWAP", "swap_bytes", F(SWAP), 6, XG_UNIT_BYTES, XG_GRP_VM, 10, true,
	  "Bytes of the VM's memory swapped out on the host (VmSwap of its processes)."),
	C(XG_COL_CPU_PSI, "CPU-P%", "cpu_pressure_pct", F(PSI_CPU_SOME), 6, XG_UNIT_PCT, XG_GRP_PSI, 9, true,
	  "100 * delta(cpu.pressure some total) / delta(t): share of the interval in which at least one task of the domain's cgroup was runnable but waiting for a CPU (Linux PSI; the file counts us). CPU-F% is the full line: all its non-idle tasks at once."),
	C(XG_COL_MEM_PSI, "MEM-P%", "memory_pressure_pct", F(PSI_MEM_SOME), 6, XG_UNIT_PCT, XG_GRP_PSI, 9, true,
	  "100 * delta(memory.pressure some total) / delta(t): share of the interval in which at least one task of the cgroup stalled on memory (reclaim, swap-in, refaulting its working set; Linux PSI)."),
	C(XG_COL_IO_PSI, "IO-P%", "io_pressure_pct", F(PSI_IO_SOME), 5, XG_UNIT_PCT, XG_GRP_PSI, 9, true,
	  "100 * delta(io.pressure some total) / delta(t): share of the interval in which at least one task of the cgroup waited for block I/O (Linux PSI)."),
	C(XG_COL_CPU_PSI_FULL, "CPU-F%", "cpu_pressure_full_pct", F(PSI_CPU_FULL), 6, XG_UNIT_PCT, XG_GRP_PSI, 16, true,
	  "100 * delta(cpu.pressure full total) / delta(t): share of the interval in which all non-idle tasks of the cgroup waited for a CPU at once (Linux 5.13 or later; '-' before)."),
	C(XG_COL_MEM_PSI_FULL, "MEM-F%", "memory_pressure_full_pct", F(PSI_MEM_FULL), 6, XG_UNIT_PCT, XG_GRP_PSI, 16, true,
	  "100 * delta(memory.pressure full total) / delta(t): share of the interval in which all non-idle tasks of the cgroup stalled on memory at once: time lost outright."),
	C(XG_COL_IO_PSI_FULL, "IO-F%", "io_pressure_full_pct", F(PSI_IO_FULL), 5, XG_UNIT_PCT, XG_GRP_PSI, 16, true,
	  "100 * delta(io.pressure full total) / delta(t): share of the interval in which all non-idle tasks of the cgroup waited for I/O at once."),
	C(XG_COL_BEHIND, "BEHIND", "behind", F(BEHIND_NS), 14, XG_UNIT_TEXT, XG_GRP_WAITS, 11, false,
	  "Who the domain waited behind: the top culprit of the waits that ended in the interval and its share of their WAIT, 100 * behind_top_ns / behind_wait_ns (e.g. 'batch7 62%'); 'idle' when the pCPU was idle, 'xen' when Xen itself ran there (between two vCPUs, or nothing known), on Linux 'host' (a task of no domain, or a process gone before the refresh). Rule (Xen live trace): each instant of a wait goes to whoever ran on the pCPU the vCPU ran on next, so the parts add up to the WAIT; on Linux (BPF on sched_switch, as root) to whoever ran on the CPU whose run queue the thread waited in. CSV/JSON key behind holds the name alone, behind_pct the share; '-' where no scheduler trace is read (Linux without root or BPF, Xen without the trace, older recordings) or no wait ended in the interval."),
	C(XG_COL_BEHIND_PCT, "BEHIND%", "behind_pct", F(BEHIND_NS), 7, XG_UNIT_PCT, XG_GRP_WAITS, 16, true,
	  "100 * behind_top_ns / behind_wait_ns: the top culprit's (BEHIND's) share of the WAIT of the waits that ended in the interval, %."),
	C(XG_COL_WAIT_P50, "WAIT-P50", "wait_p50_ms", F(WAIT_P50_NS), 8, XG_UNIT_MS, XG_GRP_WAITS, 12, true,
	  "Run-queue latency: the median length of the domain's waits (runnable -> running) that ended in the interval, ms (Xen live trace, Linux BPF; from a log2 histogram with 8 sub-buckets per octave, within 1/8 of an octave)."),
	C(XG_COL_WAIT_P99, "WAIT-P99", "wait_p99_ms", F(WAIT_P99_NS), 8, XG_UNIT_MS, XG_GRP_WAITS, 12, true,
	  "Run-queue latency: the 99th percentile of the length of those waits, ms."),
	C(XG_COL_VICTIM, "VICTIM", "victim", FIX(CACHE_VICTIM), 7, XG_UNIT_NONE, XG_GRP_CONTENTION, 17, true,
	  "Cache victim (CPI2 rule): in how many of the last 5 windows the domain's cycles per instruction, delta(cycles) / delta(instructions) over the window (delta(LLC misses) / delta(instructions) when cycles are not counted), exceeded its own baseline, max(mean + 2 sigma, mean * 1.1) of the 20 windows before them; 'yes 3/5' once 3 or more (a VICTIM), 'no 1/5' below. A window is one refresh; the settings key contention (window= sigma= hits= baseline= min_rise= min_r=) changes the rule. Its suspects (same-socket neighbours by the correlation of their LLC misses/s, else MEM-BW, with its CPI): the detail pane (Enter) and xgtop report --contention. Batch keys victim (1 when 3 or more, else 0) and victim_windows (the count), present when the source counts instructions at the first output (not in a pool); exporter gauge xgtop_domain_cache_victim (1/0, absent without counters or while learning). '-' (empty, null) while the baseline is learned (5 windows at least) or without counters."),
	C(XG_COL_TREND, "TREND", "trend", NULL, 10, XG_UNIT_TEXT, XG_GRP_TREND, 4, false,
	  "Full-screen view only (T): the sort column's last values from the history (--history), one character per sample, newest on the right, scaled from 0 to the largest shown (RUN% WAIT% BLK% OFF% HIT% from 0 to 100); CPU%'s when the history does not keep the sort column; blank where not measured. Not a sort key, not in batch output."),
};

/* Short names users type after --sort. */
static const struct { const char *alias; enum xg_col col; } aliases[] = {
	{ "cpu", XG_COL_CPU_PCT }, { "mem", XG_COL_MEM }, { "net", XG_COL_NET_RX },
	{ "disk", XG_COL_DISK_RDB }, { "run", XG_COL_RUN }, { "wait", XG_COL_WAIT },
	{ "blk", XG_COL_BLK }, { "blocked", XG_COL_BLK }, { "off", XG_COL_OFF },
	{ "miss", XG_COL_LLC_MISS }, { "misses", XG_COL_LLC_MISS }, { "hit", XG_COL_HIT },
	{ "refs", XG_COL_LLC_REF }, { "vcpu", XG_COL_VCPU }, { "time", XG_COL_CPU_S },
};

int col_lookup(const char *name)
{
	if (!name)
		return -1;
	for (int i = 0; i < XG_COL_COUNT; i++)
		if (!strcasecmp(name, xg_columns[i].key) || !strcasecmp(name, xg_columns[i].header))
			return i;
	for (size_t i = 0; i < XG_ARRAY_LEN(aliases); i++)
		if (!strcasecmp(name, aliases[i].alias))
			return (int)aliases[i].col;
	return -1;
}

/* Unit and group names as --explain, --list-columns (hence the man page)
 * and the help screen print them. */
static const char *const unit_names[] = {
	[XG_UNIT_NONE] = "count", [XG_UNIT_TEXT] = "text", [XG_UNIT_PCT] = "%",
	[XG_UNIT_SEC] = "s", [XG_UNIT_BYTES] = "bytes", [XG_UNIT_BPS] = "bytes/s",
	[XG_UNIT_PER_S] = "1/s", [XG_UNIT_RATIO] = "ratio",
	[XG_UNIT_MS] = "ms",
};

static const char *const group_names[] = {
	[XG_GRP_BASE] = "base", [XG_GRP_NET] = "net", [XG_GRP_DISK] = "disk",
	[XG_GRP_SCHED] = "sched", [XG_GRP_CACHE] = "cache", [XG_GRP_CACHE_BD] = "cache-breakdown",
	[XG_GRP_CMT] = "cmt", [XG_GRP_HOST] = "host", [XG_GRP_VM] = "vm", [XG_GRP_PSI] = "pressure", [XG_GRP_WAITS] = "waits",
	[XG_GRP_CONTENTION] = "contention",
	[XG_GRP_TREND] = "trend",
};

const char *col_unit_name(enum xg_unit u)
{
	return (size_t)u < XG_ARRAY_LEN(unit_names) && unit_names[u] ? unit_names[u] : "";
}

const char *col_group_name(enum xg_colgroup g)
{
	return (size_t)g < XG_ARRAY_LEN(group_names) && group_names[g] ? group_names[g] : "";
}
