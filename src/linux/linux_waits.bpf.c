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
 * adds the parts to (waiting thread, culprit) slots, and the wait's length
 * to a (waiting thread, length bucket) slot, in a table of this CPU's
 * (waits_abi.h): plain memory, no hash to update (a hash update per
 * switch was half the program's time, and reading and emptying a hash
 * each refresh cost more than the program). Each CPU has two tables,
 * written in turns: user space moves the program to the other one (gen),
 * runs lw_sync on every CPU so that none still writes the last, reads it,
 * and leaves it: its slots are free again at the next turn. No event
 * crosses to user space.
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

/* Each CPU's two tables (waits_abi.h): CPU c's table t is elements
 * (2 c + t) * elems.. of one array that user space sizes (max_entries)
 * and maps into its memory, so it reads them without a copy. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__uint(max_entries, 2 * LW_ELEMS_MAX);
	__type(key, __u32);
	__type(value, struct lw_elem);
} tables SEC(".maps");

/* The current interval and the tables' size (user space sets them). */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct lw_ctl);
} ctl SEC(".maps");

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

/* Adds to the slot of (tid, what) in this CPU's table of interval cur
 * (its tables have elems elements): a to its a; b to its b for a length,
 * b is the culprit's cgroup otherwise (set when the slot is taken). A
 * global function: the verifier checks it once, not at each of its
 * callers. */
__noinline int charge(__u32 tid, __u32 what, __u64 a, __u64 b, __u64 cur_elems)
{
	__u32 cur = (__u32)cur_elems, elems = (__u32)(cur_elems >> 32);
	/* a multiplicative hash, onto 0..elems * LW_ELEM_SLOTS - 1 by its high bits */
	__u32 h = (tid ^ (what * 0x9e3779b1u)) * 0x85ebca6bu;
	__u32 at = (__u32)(((__u64)h * elems) >> (32 - LW_ELEM_BITS));
	__u32 key = (bpf_get_smp_processor_id() * 2 + (cur & 1)) * elems + at / LW_ELEM_SLOTS;
	struct lw_elem *e = bpf_map_lookup_elem(&tables, &key);
	if (!e)
		return 0;
	for (__u32 i = 0; i < LW_PROBE; i++) {
		struct lw_slot *s = &e->s[(at + i) & (LW_ELEM_SLOTS - 1)];
		if (s->gen != cur) {   /* free: take it */
			s->tid = tid;
			s->what = what;
			s->gen = cur;
			s->a = a;
			s->b = b;
			return 0;
		}
		if (s->tid == tid && s->what == what) {
			s->a += a;
			if (what & LW_LEN)
				s->b += b;
			return 0;
		}
	}
	if (what & LW_LEN)
		stat_add(LW_STAT_LOST_WAITS, a);
	else
		stat_add(LW_STAT_LOST_NS, a);
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
	struct lw_ctl *c = bpf_map_lookup_elem(&ctl, &zero);
	if (!c)
		return 0;
	/* gen and elems, read once */
	__u64 ce = (__u64)*(volatile __u32 *)&c->elems << 32 | *(volatile __u32 *)&c->gen;
	__u32 tid = (__u32)next->pid;
	__u64 len = now - since;
	charge(tid, LW_LEN | lw_bucket_of(len, msb64(len)), 1, len, ce);
	/* back through the log, newest first, until the wait's start */
	__u64 end = now;
	for (__u32 i = 0; i < LW_LOG && i < h && end > since; i++) {
		struct seg *g = &l->seg[(h - 1 - i) & (LW_LOG - 1)];
		if (g->start >= end)
			break;   /* the log wrapped: older than it keeps */
		__u64 from = g->start > since ? g->start : since;
		charge(tid, g->who.tgid, end - from, g->who.cgid, ce);
		end = from;
	}
	if (end > since) {   /* older than the log: nobody known */
		charge(tid, LW_TGID_UNKNOWN, end - since, 0, ce);
		stat_add(LW_STAT_BEYOND_LOG, 1);
	}
	return 0;
}

/* Does nothing, on the CPU user space names: not attached, user space
 * runs it on each CPU in turn (BPF_PROG_TEST_RUN with
 * BPF_F_TEST_RUN_ON_CPU) after it moved to the next interval. It runs in
 * an interrupt there, and sched_switch runs with interrupts off, so once
 * it has run, no program on that CPU still writes the last interval's
 * table: user space can read it. */
SEC("raw_tp")
int lw_sync(void *ctx)
{
	(void)ctx;
	return 0;
}
