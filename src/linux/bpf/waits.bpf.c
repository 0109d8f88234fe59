// SPDX-License-Identifier: GPL-2.0-or-later
/* Wait attribution and run-queue latency in the kernel (libbpf, CO-RE on
 * the kernel's BTF), for the Linux source (src/linux/linux_waits.c loads
 * it). A task's wait runs from its wakeup (or its preemption) until it
 * runs; each part of it is charged to whatever ran meanwhile on the CPU it
 * was queued on. No event crosses to user space: each CPU keeps a short
 * log of who ran there, and the end of a wait adds its parts to a hash of
 * (waiting thread, culprit) and its length to the thread's histogram,
 * which user space reads and empties once per refresh. The rule and its
 * limits are in doc/linux-source.md ("Wait attribution"). */
#include <linux/types.h>
#include <linux/bpf.h>
#include <stdbool.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>

#include "../waits_abi.h"

/* The kernel's structures, only the fields read here: CO-RE relocates
 * each access against /sys/kernel/btf/vmlinux when the object loads. */
struct kernfs_node { __u64 id; } __attribute__((preserve_access_index));
struct cgroup { struct kernfs_node *kn; } __attribute__((preserve_access_index));
struct css_set { struct cgroup *dfl_cgrp; } __attribute__((preserve_access_index));
struct thread_info { __u32 cpu; } __attribute__((preserve_access_index));
struct task_struct {
	struct thread_info thread_info;
	int pid, tgid, on_rq;
	unsigned int cpu;
	struct css_set *cgroups;
} __attribute__((preserve_access_index));

/* The CPU whose run queue holds p: task_struct.cpu since Linux 5.16 on
 * most architectures, thread_info.cpu where the thread_info keeps it
 * (x86). */
static __always_inline __u32 task_cpu(struct task_struct *p)
{
	if (bpf_core_field_exists(p->cpu))
		return p->cpu;
	return p->thread_info.cpu;
}

char LICENSE[] SEC("license") = "GPL";

/* Where a task is: enum lw_state. */
enum { LW_OTHER, LW_WAITING, LW_RUNNING };
struct task_wait {
	__u64 start;     /* when the wait began (its length's origin) */
	__u64 since;     /* from when the CPU below is charged */
	__u32 cpu;
	__u32 state;
};

struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct task_wait);
} task_waits SEC(".maps");

/* One CPU's recent past: who ran since when. cur is the task running now;
 * seg[] the ones before it, newest at head - 1. */
struct seg {
	__u64 start;
	struct lw_who who;
};
struct cpu_log {
	__u64 cur_start;
	struct lw_who cur;
	__u32 head;
	__u32 pad;
	struct seg seg[LW_LOG];
};
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);          /* the CPU count, set by user space */
	__type(key, __u32);
	__type(value, struct cpu_log);
} cpu_logs SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, LW_PAIRS_MAX);
	__type(key, struct lw_pair);
	__type(value, __u64);
} behind SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, LW_THREADS_MAX);
	__type(key, __u32);
	__type(value, struct lw_hist);
} hists SEC(".maps");

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

static __always_inline void charge(__u32 tid, const struct lw_who *who, __u64 ns)
{
	struct lw_pair k = { .tid = tid, .who = *who };
	__u64 *v = bpf_map_lookup_elem(&behind, &k);
	if (v) {
		*v += ns;
		return;
	}
	if (bpf_map_update_elem(&behind, &k, &ns, BPF_NOEXIST))
		stat_add(LW_STAT_LOST_NS, ns);
}

/* Charges tid's wait on cpu from `since` to `now` to who ran there. */
static __always_inline void charge_log(__u32 tid, __u32 cpu, __u64 since, __u64 now)
{
	struct cpu_log *l = bpf_map_lookup_elem(&cpu_logs, &cpu);
	if (!l || now <= since)
		return;
	__u64 end = now;
	if (l->cur_start < end) {
		__u64 from = l->cur_start > since ? l->cur_start : since;
		charge(tid, &l->cur, end - from);
		end = from;
	}
	__u32 h = l->head;
	for (__u32 i = 0; i < LW_LOG && i < h && end > since; i++) {
		struct seg *s = &l->seg[(h - 1 - i) & (LW_LOG - 1)];
		if (s->start >= end)
			break;   /* an unwritten slot or the log wrapped: older than it keeps */
		__u64 from = s->start > since ? s->start : since;
		charge(tid, &s->who, end - from);
		end = from;
	}
	if (end > since) {   /* older than the log: nobody known */
		struct lw_who none = { .tgid = LW_TGID_UNKNOWN, .cgid = 0 };
		charge(tid, &none, end - since);
		stat_add(LW_STAT_BEYOND_LOG, 1);
	}
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

static __always_inline void count_wait(__u32 tid, __u64 ns)
{
	__u32 b = lw_bucket_of(ns, msb64(ns));
	struct lw_hist *h = bpf_map_lookup_elem(&hists, &tid);
	if (!h) {
		static const struct lw_hist zero;
		bpf_map_update_elem(&hists, &tid, &zero, BPF_NOEXIST);
		h = bpf_map_lookup_elem(&hists, &tid);
		if (!h) {
			stat_add(LW_STAT_LOST_WAITS, 1);
			return;
		}
	}
	if (b < LW_BUCKETS)
		h->n[b]++;
}

static __always_inline void wait_begin(struct task_struct *p, __u32 cpu, __u64 now)
{
	struct task_wait *w = bpf_task_storage_get(&task_waits, p, 0, BPF_LOCAL_STORAGE_GET_F_CREATE);
	if (!w)
		return;
	w->start = w->since = now;
	w->cpu = cpu;
	w->state = LW_WAITING;
}

static __always_inline int on_wakeup(struct task_struct *p)
{
	struct task_wait *w = bpf_task_storage_get(&task_waits, p, 0, 0);
	/* woken while running or already waiting (ttwu of a task still on
	 * its run queue): nothing begins */
	if (w && w->state != LW_OTHER)
		return 0;
	wait_begin(p, task_cpu(p), bpf_ktime_get_ns());
	return 0;
}

SEC("tp_btf/sched_wakeup")
int BPF_PROG(lw_wakeup, struct task_struct *p)
{
	return on_wakeup(p);
}

SEC("tp_btf/sched_wakeup_new")
int BPF_PROG(lw_wakeup_new, struct task_struct *p)
{
	return on_wakeup(p);
}

/* A waiting task moved to another CPU's run queue (both run queues are
 * locked here, so the old CPU's log is still): the part of its wait on
 * the old CPU is charged there, the rest will be on the new one. */
SEC("tp_btf/sched_migrate_task")
int BPF_PROG(lw_migrate, struct task_struct *p, int dest_cpu)
{
	struct task_wait *w = bpf_task_storage_get(&task_waits, p, 0, 0);
	if (!w || w->state != LW_WAITING)
		return 0;
	__u64 now = bpf_ktime_get_ns();
	charge_log((__u32)p->pid, w->cpu, w->since, now);
	w->since = now;
	w->cpu = (__u32)dest_cpu;
	return 0;
}

SEC("tp_btf/sched_switch")
int BPF_PROG(lw_switch, bool preempt, struct task_struct *prev, struct task_struct *next)
{
	__u64 now = bpf_ktime_get_ns();
	__u32 cpu = bpf_get_smp_processor_id();
	struct cpu_log *l = bpf_map_lookup_elem(&cpu_logs, &cpu);
	if (!l)
		return 0;
	/* prev's turn ends: it joins the log, next's begins */
	__u32 h = l->head;
	struct seg *s = &l->seg[h & (LW_LOG - 1)];
	s->start = l->cur_start;
	s->who = l->cur;
	if (!l->cur_start) {   /* the first switch seen here: who ran before is not known */
		s->who.tgid = LW_TGID_UNKNOWN;
		s->who.cgid = 0;
	}
	l->head = h + 1;
	l->cur_start = now;
	who_of(next, &l->cur);

	if (prev->pid) {
		struct task_wait *w = bpf_task_storage_get(&task_waits, prev, 0,
							  BPF_LOCAL_STORAGE_GET_F_CREATE);
		if (w) {
			/* still on the run queue (preempted, yielded): it waits */
			if (prev->on_rq) {
				w->start = w->since = now;
				w->cpu = cpu;
				w->state = LW_WAITING;
			} else {
				w->state = LW_OTHER;
			}
		}
	}
	if (!next->pid)
		return 0;
	struct task_wait *w = bpf_task_storage_get(&task_waits, next, 0, BPF_LOCAL_STORAGE_GET_F_CREATE);
	if (!w)
		return 0;
	if (w->state == LW_WAITING) {
		__u32 tid = (__u32)next->pid;
		charge_log(tid, cpu, w->since, now);
		count_wait(tid, now - w->start);
	}
	w->state = LW_RUNNING;
	return 0;
}
