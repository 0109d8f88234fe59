// SPDX-License-Identifier: GPL-2.0-or-later
/* What reading the scheduler's sched_switch and sched_wakeup tracepoints
 * through perf_event_open costs (the candidate collector of Linux wait
 * attribution, doc/linux-source.md "Wait attribution"). Two processes
 * ping-pong a byte through pipes on one CPU (each round trip is two
 * context switches and two wakeups), at a given rate or as fast as they
 * can; a consumer on another CPU reads every CPU's ring buffers the way a
 * collector would (prev/next pid and state of each switch) and reports
 * its own CPU time. Run once without and once with --consume: the
 * ping-pong's drop in round trips per second at full speed is the
 * kernel's cost per event, the consumer's CPU the reader's.
 *
 *   xg-sched-cost [--rate ROUNDTRIPS_PER_S] [--consume] SECONDS
 * prints one line of key=value figures. Needs root (system-wide
 * tracepoints) and tracefs mounted at /sys/kernel/tracing. */

#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define RING_PAGES 256

struct ring {
	int fd;
	struct perf_event_mmap_page *m;
	char *data;
	uint64_t size;
	int kind;                    /* 0 switch, 1 wakeup */
};

static double now_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void pin(int cpu)
{
	cpu_set_t s;
	CPU_ZERO(&s);
	CPU_SET(cpu, &s);
	if (sched_setaffinity(0, sizeof(s), &s) < 0) {
		perror("sched_setaffinity");
		exit(1);
	}
}

static int tp_id(const char *ev)
{
	char path[128], buf[32];
	snprintf(path, sizeof(path), "/sys/kernel/tracing/events/sched/%s/id", ev);
	int fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	ssize_t n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = 0;
	return atoi(buf);
}

static int open_ring(struct ring *r, int id, int cpu, int kind)
{
	struct perf_event_attr a;
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_TRACEPOINT;
	a.config = (uint64_t)id;
	a.sample_period = 1;
	a.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_RAW;
	a.watermark = 1;
	a.wakeup_watermark = RING_PAGES * 4096 / 4;
	r->fd = (int)syscall(SYS_perf_event_open, &a, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);
	if (r->fd < 0)
		return -1;
	r->size = RING_PAGES * 4096;
	void *p = mmap(NULL, (RING_PAGES + 1) * 4096, PROT_READ | PROT_WRITE, MAP_SHARED, r->fd, 0);
	if (p == MAP_FAILED)
		return -1;
	r->m = p;
	r->data = (char *)p + 4096;
	r->kind = kind;
	return 0;
}

struct tally {
	uint64_t records, lost, sum;
};

/* Reads what the ring holds: for a switch, prev_pid (24), prev_state
 * (32) and next_pid (56) of the raw record, as a collector would. */
static void drain(struct ring *r, struct tally *t)
{
	uint64_t head = __atomic_load_n(&r->m->data_head, __ATOMIC_ACQUIRE), tail = r->m->data_tail;
	char buf[512];
	while (tail < head) {
		struct perf_event_header h;
		uint64_t off = tail % r->size;
		for (size_t i = 0; i < sizeof(h); i++)
			((char *)&h)[i] = r->data[(off + i) % r->size];
		if (h.size < sizeof(h) || h.size > sizeof(buf))
			break;
		for (size_t i = 0; i < h.size; i++)
			buf[i] = r->data[(off + i) % r->size];
		if (h.type == PERF_RECORD_SAMPLE) {
			/* pid, tid (u32 each), time (u64), raw size (u32), raw */
			const char *raw = buf + sizeof(h) + 8 + 8 + 4;
			int32_t a, b = 0;
			int64_t st = 0;
			memcpy(&a, raw + (r->kind ? 24 : 24), 4);
			if (!r->kind) {
				memcpy(&st, raw + 32, 8);
				memcpy(&b, raw + 56, 4);
			}
			t->sum += (uint64_t)a + (uint64_t)b + (uint64_t)st;
			t->records++;
		} else if (h.type == PERF_RECORD_LOST) {
			uint64_t n;
			memcpy(&n, buf + sizeof(h) + 8, 8);
			t->lost += n;
		}
		tail += h.size;
	}
	__atomic_store_n(&r->m->data_tail, tail, __ATOMIC_RELEASE);
}

/* One side of the ping-pong: reads from in, writes to out (the first
 * writes first), at rate round trips/s (0 = as fast as it goes) by
 * spinning to each slot, so pacing adds no switches of its own. */
static void pong(int in, int out, bool first, double rate, double until, volatile uint64_t *count)
{
	char c = 0;
	double t0 = now_s();
	uint64_t n = 0;
	if (first && write(out, &c, 1) != 1)
		_exit(1);
	while (now_s() < until) {
		if (read(in, &c, 1) != 1)
			_exit(0);
		n++;
		if (rate > 0)
			while (now_s() < t0 + (double)n / rate)
				;
		if (write(out, &c, 1) != 1)
			_exit(0);
		if (first)
			*count = n;
	}
	_exit(0);
}

int main(int argc, char **argv)
{
	double rate = 0, secs = 0;
	bool consume = false;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--rate") && i + 1 < argc)
			rate = atof(argv[++i]);
		else if (!strcmp(argv[i], "--consume"))
			consume = true;
		else
			secs = atof(argv[i]);
	}
	if (secs <= 0) {
		fprintf(stderr, "usage: xg-sched-cost [--rate ROUNDTRIPS_PER_S] [--consume] SECONDS\n");
		return 2;
	}
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	struct ring *rings = calloc((size_t)ncpu * 2, sizeof(*rings));
	int nr = 0;
	if (consume) {
		int id[2] = { tp_id("sched_switch"), tp_id("sched_wakeup") };
		if (id[0] < 0 || id[1] < 0) {
			fprintf(stderr, "xg-sched-cost: no sched tracepoint ids in /sys/kernel/tracing (tracefs not mounted?)\n");
			return 77;
		}
		for (int c = 0; c < ncpu; c++)
			for (int k = 0; k < 2; k++)
				if (open_ring(&rings[nr++], id[k], c, k) < 0) {
					fprintf(stderr, "xg-sched-cost: perf_event_open: %s\n", strerror(errno));
					return 77;
				}
	}
	volatile uint64_t *count = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	int ab[2], ba[2];
	if (pipe(ab) < 0 || pipe(ba) < 0)
		return 1;
	double start = now_s() + 0.2, until = start + secs;
	pid_t kid[2];
	for (int k = 0; k < 2; k++) {
		kid[k] = fork();
		if (kid[k] == 0) {
			pin(0);
			while (now_s() < start)
				;
			int in = k ? ab[0] : ba[0], out = k ? ba[1] : ab[1];
			for (int j = 0; j < 2; j++) {   /* EOF reaches the other side when one stops */
				if (ab[j] != in && ab[j] != out)
					close(ab[j]);
				if (ba[j] != in && ba[j] != out)
					close(ba[j]);
			}
			pong(in, out, k == 0, rate, until, count);
		}
	}
	for (int j = 0; j < 2; j++) {
		close(ab[j]);
		close(ba[j]);
	}
	pin(ncpu > 1 ? 1 : 0);
	struct tally t = { 0 };
	struct rusage r0, r1;
	getrusage(RUSAGE_SELF, &r0);
	double t0 = now_s();
	if (consume) {
		struct pollfd *pf = calloc((size_t)nr, sizeof(*pf));
		for (int i = 0; i < nr; i++)
			pf[i] = (struct pollfd){ .fd = rings[i].fd, .events = POLLIN };
		while (now_s() < until + 0.1) {
			poll(pf, (nfds_t)nr, 100);
			for (int i = 0; i < nr; i++)
				drain(&rings[i], &t);
		}
	}
	for (int k = 0; k < 2; k++)
		waitpid(kid[k], NULL, 0);
	getrusage(RUSAGE_SELF, &r1);
	double wall = now_s() - t0;
	double cpu = (double)(r1.ru_utime.tv_sec - r0.ru_utime.tv_sec + r1.ru_stime.tv_sec - r0.ru_stime.tv_sec) +
		     (double)(r1.ru_utime.tv_usec - r0.ru_utime.tv_usec + r1.ru_stime.tv_usec - r0.ru_stime.tv_usec) / 1e6;
	printf("roundtrips_per_s=%.0f switches_per_s_pingpong=%.0f consume=%d records=%llu records_per_s=%.0f "
	       "lost=%llu consumer_cpu_pct=%.3f consumer_ns_per_record=%.1f\n",
	       (double)*count / secs, 2.0 * (double)*count / secs, consume, (unsigned long long)t.records,
	       (double)t.records / wall, (unsigned long long)t.lost, consume ? 100.0 * cpu / wall : 0.0,
	       t.records ? cpu * 1e9 / (double)t.records : 0.0);
	return t.sum == 1 ? 3 : 0;   /* (keeps the reads) */
}
