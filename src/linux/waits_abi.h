/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Private to src/linux: what the wait-attribution BPF program
 * (linux_waits.bpf.c) and its loader (linux_waits.c) share: the layout of
 * its maps' keys and values, and the histogram's buckets. */
#ifndef XGTOP_SRC_LINUX_WAITS_ABI_H
#define XGTOP_SRC_LINUX_WAITS_ABI_H

#include <linux/types.h>

#define LW_LOG 128              /* segments each CPU remembers (a power of two) */
#define LW_TGID_UNKNOWN 0xffffffffu  /* before the log's memory: nobody known */

/* Who ran on a CPU: a process (tgid, 0 = the CPU was idle) and its cgroup
 * v2 id (the cgroup directory's inode number; 0 for idle). */
struct lw_who {
	__u32 tgid;
	__u32 pad;
	__u64 cgid;
};

/* What one CPU gathered in one refresh interval, in a table of slots
 * keyed by (waiting thread, what): what is a culprit process (a tgid, 0
 * for idle, LW_TGID_UNKNOWN), or LW_LEN | b for the waits of length
 * bucket b that ended on this CPU. Each CPU has two tables, written in
 * turns: the program writes table gen & 1, and a slot whose gen is not
 * the current one is free, so no table is ever emptied. A table is
 * elems elements of an array (lw_ctl; user space sizes it by the number
 * of CPUs, lw_elems_for), LW_ELEM_SLOTS slots each (32 KB); a key lives
 * in one element, at one of LW_PROBE slots from where its hash falls. */
#define LW_ELEM_BITS 10
#define LW_ELEM_SLOTS (1u << LW_ELEM_BITS)
#define LW_ELEMS_MAX 8
#define LW_PROBE 8
#define LW_LEN 0x80000000u
/* What user space tells the program: the interval now (gen, from 1: a
 * slot never taken has gen 0) and the elements of each table. */
struct lw_ctl {
	__u32 gen;
	__u32 elems;
};
/* Elements per table on a host of ncpu CPUs: 8 (8,192 slots, 512 KB a CPU
 * for its two tables) up to 32 CPUs, fewer above, so that all the tables
 * together stay within 16 MB up to 256 CPUs, and at least 1 (64 KB a CPU). */
static inline __u32 lw_elems_for(int ncpu)
{
	__u32 e = ncpu > 0 ? 256u / (__u32)ncpu : LW_ELEMS_MAX;
	return e < 1 ? 1 : e > LW_ELEMS_MAX ? LW_ELEMS_MAX : e;
}
struct lw_slot {
	__u32 tid;              /* the waiting thread (never 0, the idle task) */
	__u32 what;
	__u32 gen;              /* the interval it belongs to */
	__u32 pad;
	__u64 a;                /* a culprit: ns behind it; a length: waits */
	__u64 b;                /* a culprit: its cgroup when the slot was taken;
				   a length: the waits' lengths summed, ns */
};
struct lw_elem {
	struct lw_slot s[LW_ELEM_SLOTS];
};

/* Wait lengths in ns: log2 octaves cut in 8 (as Xen's histograms, doc
 * linux-source.md), up to 2^36 ns (68 s); longer ones count in the last. */
#define LW_SUB_BITS 3
#define LW_SUB (1u << LW_SUB_BITS)
#define LW_MSB_MAX 35
#define LW_BUCKETS ((LW_MSB_MAX - LW_SUB_BITS + 2) * LW_SUB)
/* The bucket of ns, whose highest set bit is msb. */
static inline __u32 lw_bucket_of(__u64 ns, unsigned msb)
{
	if (ns < LW_SUB)
		return (__u32)ns;
	if (msb > LW_MSB_MAX)
		return LW_BUCKETS - 1;
	return (msb - LW_SUB_BITS + 1) * LW_SUB + (__u32)((ns >> (msb - LW_SUB_BITS)) & (LW_SUB - 1));
}

enum lw_stat {
	LW_STAT_LOST_NS,        /* ns of waits not kept: the CPU's table was full there */
	LW_STAT_LOST_WAITS,     /* waits not counted: the same */
	LW_STAT_BEYOND_LOG,     /* waits longer than the CPU's log remembers */
	LW_STAT_COUNT
};

#endif
