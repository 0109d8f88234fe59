// SPDX-License-Identifier: GPL-2.0-or-later
/* An empty BPF program (return 0) on the sched_switch raw tracepoint, for
 * bench/linux_waits_cost.sh: with kernel.bpf_stats_enabled on, the kernel
 * times every run of every program with two clock reads, and an empty
 * program on the same tracepoint measures what that timing itself adds to
 * each run's figure; the bench subtracts it from the wait-attribution
 * program's. Raw bpf() calls (no libbpf): the program is two instructions.
 *
 *   xg-bpf-empty
 * loads and attaches it, prints "ready" and holds it until stdin closes or
 * a signal ends it. Needs root. */

#include <errno.h>
#include <linux/bpf.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static int bpf(int cmd, union bpf_attr *a)
{
	return (int)syscall(__NR_bpf, cmd, a, sizeof(*a));
}

int main(void)
{
	struct bpf_insn prog[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	static const char license[] = "GPL";
	union bpf_attr a;
	memset(&a, 0, sizeof(a));
	a.prog_type = BPF_PROG_TYPE_RAW_TRACEPOINT;
	a.insns = (uint64_t)(uintptr_t)prog;
	a.insn_cnt = 2;
	a.license = (uint64_t)(uintptr_t)license;
	strncpy(a.prog_name, "xg_empty", sizeof(a.prog_name) - 1);
	int fd = bpf(BPF_PROG_LOAD, &a);
	if (fd < 0) {
		fprintf(stderr, "xg-bpf-empty: loading the program: %s\n", strerror(errno));
		return 1;
	}
	memset(&a, 0, sizeof(a));
	a.raw_tracepoint.name = (uint64_t)(uintptr_t)"sched_switch";
	a.raw_tracepoint.prog_fd = (uint32_t)fd;
	if (bpf(BPF_RAW_TRACEPOINT_OPEN, &a) < 0) {
		fprintf(stderr, "xg-bpf-empty: attaching it to sched_switch: %s\n", strerror(errno));
		return 1;
	}
	printf("ready\n");
	fflush(stdout);
	char c;
	while (read(0, &c, 1) > 0)
		;
	return 0;
}
