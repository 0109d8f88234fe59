/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Private to src/linux: what the wait-attribution BPF program
 * (linux_waits.bpf.c) and its loader (linux_waits.c) share: the layout of
 * its maps' keys and values, and the histogram's buckets. */
#ifndef XGTOP_SRC_LINUX_WAITS_ABI_H
#define XGTOP_SRC_LINUX_WAITS_ABI_H

#include <linux/types.h>

#define LW_LOG 128              /* segments each CPU remembers (a power of two) */
#define LW_PAIRS_MAX 16384      /* (thread, culprit) pairs per refresh: user space
                                   walks every bucket of the hash at each read */
#define LW_TGID_UNKNOWN 0xffffffffu  /* before the log's memory: nobody known */

/* Who ran on a CPU: a process (tgid, 0 = the CPU was idle) and its cgroup
 * v2 id (the cgroup directory's inode number; 0 for idle). */
struct lw_who {
	__u32 tgid;
	__u32 pad;
	__u64 cgid;
};
/* A waiting thread and one culprit process: the key of what it waited
 * behind it (8 bytes: the hash of a key this short is the cheapest). */
struct lw_pair {
	__u32 tid;
	__u32 tgid;
};

/* Wait lengths in ns: log2 octaves cut in 8 (as Xen's histograms, doc
 * linux-source.md), up to 2^36 ns (68 s); longer ones count in the last. */
#define LW_SUB_BITS 3
#define LW_SUB (1u << LW_SUB_BITS)
#define LW_MSB_MAX 35
#define LW_BUCKETS ((LW_MSB_MAX - LW_SUB_BITS + 2) * LW_SUB)
/* What a thread waited behind one culprit: ns, and the lengths of the
 * waits that ended behind it (each wait counts once, with the culprit it
 * waited behind last: one pair to update per switch, not two), with their
 * sum (the latency histogram's _sum). */
struct lw_part {
	__u64 ns;
	__u64 cgid;             /* the culprit's cgroup when the entry was made */
	__u64 len_ns;           /* the lengths counted in n[], summed */
	__u32 n[LW_BUCKETS];
};
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
	LW_STAT_LOST_NS,        /* ns of waits not kept: the pair hash was full */
	LW_STAT_LOST_WAITS,     /* waits not counted: the same */
	LW_STAT_BEYOND_LOG,     /* waits longer than the CPU's log remembers */
	LW_STAT_COUNT
};

#endif
