// SPDX-License-Identifier: GPL-2.0-or-later
/* Wait attribution and run-queue latency in the kernel (libbpf, CO-RE on
 * the kernel's BTF), for the Linux source (src/linux/linux_waits.c loads
 * it). A task's wait on a CPU's run queue runs from when it was queued
 * there (woken, preempted, or moved there) until it runs; each part of it
 * is charged to whatever ran on that CPU meanwhile. One program, on
 * sched_switch: the kernel already stamps each queued task with the run
 * queue's clock when it joins the queue (sched_info.last_queued, kept for
 * /proc/PID/schedstat's run_delay, and cleared when the task leaves the
 * queue, so a task moved to another CPU is stamped again there), so
 * neither wakeups nor migrations need a program of their own (a first
 * version with them cost 2.7 % of a core at 50,000 switches/s). Each CPU
 * keeps a short log of who ran there since when, on the same clock; at a
 * switch, the task switched to looks back through it over its wait and
 * adds the parts to (waiting thread, culprit) pairs, and the wait's length
 * to the histogram of its last culprit's pair. The pairs gather in a small
 * per-CPU cache first (the same pairs recur: a hash update per switch was
 * half the program's time), which spills a pair into the hash when
 * another takes its slot; before each read, user space runs lw_flush on
 * every CPU, which empties that CPU's cache into the hash. No event
 * crosses to user space: it reads and empties the hash once per refresh.
 * The rule and its limits are in doc/linux-source.md ("Wait attribution"). */
#include <linux/types.h>
#include <linux/bpf.h>
#include <stdbool.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>

#include "waits_abi.h"

/* The kernel's structures, only the fields read here: CO-RE relocates
 * each access against /sys/kernel/btf/vmlinux when the object loads. */
struct kernfs_node { __u64 id; } __attribute__((preserve_access_index));
struct cgroup { struct kernfs_node *kn; } __attribute__((preserve_access_index));
struct css_set { struct cgroup *dfl_cgrp; } __attribute__((preserve_access_index));
struct sched_info { unsigned long long last_queued; } __attribute__((preserve_access_index));
struct rq { __u64 clock; } __attribute__((preserve_access_index));
struct cfs_rq { struct rq *rq; } __attribute__((preserve_access_index));
struct sched_entity { struct cfs_rq *cfs_rq; } __attribute__((preserve_access_index));
struct task_struct {
	int pid, tgid;
	struct sched_entity se;
	struct sched_info sched_info;
	struct css_set *cgroups;
} __attribute__((preserve_access_index));

char LICENSE[] SEC("license") = "GPL";

/* One CPU's recent past: who ran since when (run queue clock). cur is
 * the task running now; seg[] the ones before it, newest at head - 1. */
struct seg {
	__u64 start;
	struct lw_who who;
};
struct cpu_log {
	__u64 cur_start;
	struct lw_who cur;
	__u64 head;
	struct seg seg[LW_LOG];
};
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct cpu_log);
} cpu_logs SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, LW_PAIRS_MAX);
	__type(key, struct lw_pair);
	__type(value, struct lw_part);
} behind SEC(".maps");

/* A new entry, made here: too big for the stack. Its counts stay 0. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct lw_part);
} scratch SEC(".maps");

#define LW_SLOTS 16             /* pairs each CPU's cache holds (a power of two) */

/* The slot of a pair: a multiplicative hash of it. */
static __always_inline __u32 lw_slot_of(__u32 tid, __u32 tgid)
{
	return ((tid ^ (tgid * 0x9e3779b1u)) * 0x85ebca6bu) >> 28 & (LW_SLOTS - 1);
}

/* Each CPU's cache of pairs, direct-mapped by the pair: the ns and wait
 * lengths gathered since the pair last spilled into the hash, the lengths
 * in a histogram of its own, of 16-bit counts (a count about to wrap
 * spills the pair first), of which buckets lo..hi are in use. A slot with
 * tid 0 is free (tid 0, the idle task, never waits here). */
struct slot {
	struct lw_pair k;
	__u64 cgid;
	__u64 ns;
	__u64 len_ns;
	__u16 lo, hi;
	__u16 n[LW_BUCKETS];
};
struct pair_cache {
	struct slot slot[LW_SLOTS];
};
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct pair_cache);
} pair_cache SEC(".maps");

/* Counters of what could not be kept (the maps were full). */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, LW_STAT_COUNT);
	__type(key, __u32);
	__type(value, __u64);
} stats SEC(".maps");

static __always_inline void stat_add(__u32 k, __u64 v)
{
	__u64 *p = bpf_map_lookup_elem(&stats, &k);
	if (p)
		*p += v;
}

static __always_inline void who_of(struct task_struct *t, struct lw_who *w)
{
	if (t->pid == 0) {   /* each CPU's idle task */
		w->tgid = 0;
		w->cgid = 0;
		return;
	}
	w->tgid = (__u32)t->tgid;
	w->cgid = t->cgroups->dfl_cgrp->kn->id;
}

static __always_inline unsigned msb64(__u64 v)
{
	unsigned r = 0;
	if (v >> 32) { v >>= 32; r += 32; }
	if (v >> 16) { v >>= 16; r += 16; }
	if (v >> 8) { v >>= 8; r += 8; }
	if (v >> 4) { v >>= 4; r += 4; }
	if (v >> 2) { v >>= 2; r += 2; }
	if (v >> 1) r += 1;
	return r;
}

/* The k-th bucket of slot s's lo..hi, or LW_BUCKETS past hi. The empty
 * asm keeps clang from turning the callers' index into a pointer the
 * verifier cannot bound. */
static __always_inline __u32 bucket_at(const struct slot *s, __u32 k)
{
	__u32 j = s->lo + k;
	__asm__ volatile("" : "+r"(j));
	return j <= s->hi && j < LW_BUCKETS ? j : LW_BUCKETS;
}

/* Spills slot i of this CPU's cache into the hash and frees it. A global
 * function: the verifier checks it once, not at each of its callers. */
__noinline int spill(__u32 i)
{
	__u32 zero = 0;
	struct pair_cache *pc = bpf_map_lookup_elem(&pair_cache, &zero);
	if (!pc)
		return 0;
	struct slot *s = &pc->slot[i & (LW_SLOTS - 1)];   /* the mask: for the verifier */
	if (!s->k.tid)
		return 0;
	struct lw_pair k = s->k;
	struct lw_part *v = bpf_map_lookup_elem(&behind, &k);
	if (!v) {
		struct lw_part *fresh = bpf_map_lookup_elem(&scratch, &zero);
		if (!fresh)
			return 0;
		fresh->cgid = s->cgid;
		bpf_map_update_elem(&behind, &k, fresh, BPF_NOEXIST);
		v = bpf_map_lookup_elem(&behind, &k);
	}
	if (v) {
		for (__u32 k = 0; k < LW_BUCKETS; k++) {
			__u32 j = bucket_at(s, k);
			if (j >= LW_BUCKETS)
				break;
			v->n[j] += s->n[j];
			s->n[j] = 0;
		}
		v->ns += s->ns;
		v->len_ns += s->len_ns;
	} else {
		__u64 waits = 0;
		for (__u32 k = 0; k < LW_BUCKETS; k++) {
			__u32 j = bucket_at(s, k);
			if (j >= LW_BUCKETS)
				break;
			waits += s->n[j];
			s->n[j] = 0;
		}
		stat_add(LW_STAT_LOST_NS, s->ns);
		stat_add(LW_STAT_LOST_WAITS, waits);
	}
	s->k.tid = 0;
	return 0;
}

static __always_inline void claim(struct slot *s, __u32 tid, __u32 tgid, __u64 cgid)
{
	s->k.tid = tid;
	s->k.tgid = tgid;
	s->cgid = cgid;
	s->ns = 0;
	s->len_ns = 0;
	s->lo = LW_BUCKETS;   /* no bucket in use: n[] is all 0 */
	s->hi = 0;
}

/* Adds ns behind (tgid, cgid) to tid's waits; len, when not 0, is the
 * length of the wait that ends now (counted in its histogram). Global, as
 * spill: the log walk calls it at each step. */
__noinline int charge(__u32 tid, __u32 tgid, __u64 cgid, __u64 ns, __u64 len)
{
	__u32 zero = 0;
	struct pair_cache *pc = bpf_map_lookup_elem(&pair_cache, &zero);
	if (!pc)
		return 0;
	__u32 i = lw_slot_of(tid, tgid);
	struct slot *s = &pc->slot[i];
	if (s->k.tid != tid || s->k.tgid != tgid) {
		if (s->k.tid)
			spill(i);
		claim(s, tid, tgid, cgid);
	}
	s->ns += ns;
	if (!len)
		return 0;
	__u32 b = lw_bucket_of(len, msb64(len));
	if (b >= LW_BUCKETS)
		return 0;
	if (s->n[b] == 0xffff) {   /* the count would wrap: spill, and start again */
		spill(i);
		claim(s, tid, tgid, cgid);
	}
	s->n[b]++;
	if (b < s->lo)
		s->lo = (__u16)b;
	if (b > s->hi)
		s->hi = (__u16)b;
	s->len_ns += len;
	return 0;
}

SEC("tp_btf/sched_switch")
int BPF_PROG(lw_switch, bool preempt, struct task_struct *prev, struct task_struct *next)
{
	__u32 zero = 0;
	struct cpu_log *l = bpf_map_lookup_elem(&cpu_logs, &zero);
	if (!l)
		return 0;
	/* the run queue's clock, updated by __schedule() just before: found
	 * through next's CFS run queue on this CPU, which every task has
	 * (the kernel's per-CPU run queues are not a symbol BPF can always
	 * resolve: not without CONFIG_KALLSYMS_ALL) */
	__u64 now = next->se.cfs_rq->rq->clock;
	/* prev's turn ends: it joins the log, next's begins */
	__u64 h = l->head;
	struct seg *s = &l->seg[h & (LW_LOG - 1)];
	s->start = l->cur_start;
	s->who = l->cur;
	if (!l->cur_start) {   /* the first switch seen here: who ran before is not known */
		s->who.tgid = LW_TGID_UNKNOWN;
		s->who.cgid = 0;
	}
	l->head = ++h;
	l->cur_start = now;
	who_of(next, &l->cur);

	__u64 since = next->sched_info.last_queued;
	if (!next->pid || !since || since >= now)
		return 0;
	__u32 tid = (__u32)next->pid;
	__u64 len = now - since;
	/* back through the log, newest first, until the wait's start */
	__u64 end = now;
	for (__u32 i = 0; i < LW_LOG && i < h && end > since; i++) {
		struct seg *g = &l->seg[(h - 1 - i) & (LW_LOG - 1)];
		if (g->start >= end)
			break;   /* the log wrapped: older than it keeps */
		__u64 from = g->start > since ? g->start : since;
		charge(tid, g->who.tgid, g->who.cgid, end - from, end == now ? len : 0);
		end = from;
	}
	if (end > since) {   /* older than the log: nobody known */
		charge(tid, LW_TGID_UNKNOWN, 0, end - since, end == now ? len : 0);
		stat_add(LW_STAT_BEYOND_LOG, 1);
	}
	return 0;
}

/* Empties this CPU's cache into the hash: not attached, user space runs it
 * on each CPU in turn (BPF_PROG_TEST_RUN with BPF_F_TEST_RUN_ON_CPU) before
 * it reads the hash. It runs in an interrupt there, so never inside the
 * sched_switch program of the same CPU. */
SEC("raw_tp")
int lw_flush(void *ctx)
{
	(void)ctx;
	for (__u32 i = 0; i < LW_SLOTS; i++)
		spill(i);
	return 0;
}
