// SPDX-License-Identifier: GPL-2.0-or-later
/* Workloads whose event counts are known in advance, for the PMU tests:
 *   pages N        touch N new pages in user mode (>= N page faults)
 *   kpages N       let the kernel fill N new pages via read() (faults taken
 *                  in kernel mode)
 *   sleeps N       block N times (>= N context switches)
 *   threads K N    K threads, each touching N new pages
 *   forks K N      K child processes, each touching N new pages
 *   tdelay K MS N  K threads started at once; each sleeps MS ms, touches N
 *                  new pages, sleeps MS ms (for counting a running process)
 *   walk KIB SECS  dependent random walk over KIB KiB for SECS seconds
 *                  (a small KIB stays in cache, a large one thrashes it) */
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void touch(long n)
{
	long pg = sysconf(_SC_PAGESIZE);
	volatile char *m = mmap(NULL, (size_t)(n * pg), PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED)
		exit(3);
	for (long i = 0; i < n; i++)
		m[i * pg] = 1;
}

static void *thread_touch(void *arg)
{
	touch((long)(intptr_t)arg);
	return NULL;
}

struct delayed {
	long ms, pages;
};

static void *thread_delayed(void *arg)
{
	const struct delayed *d = arg;
	struct timespec ts = { d->ms / 1000, (d->ms % 1000) * 1000000L };
	nanosleep(&ts, NULL);
	touch(d->pages);
	ts.tv_sec = d->ms / 1000;
	ts.tv_nsec = (d->ms % 1000) * 1000000L;
	nanosleep(&ts, NULL);
	return NULL;
}

static void kfill(long n)
{
	long pg = sysconf(_SC_PAGESIZE);
	char *m = mmap(NULL, (size_t)(n * pg), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		       -1, 0);
	int fd = open("/dev/zero", O_RDONLY);
	if (m == MAP_FAILED || fd < 0)
		exit(3);
	for (long i = 0; i < n; i++)
		if (read(fd, m + i * pg, (size_t)pg) != pg)
			exit(3);
	close(fd);
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void walk(long kib, double secs)
{
	size_t n = (size_t)kib * 1024 / sizeof(size_t);
	size_t *next = malloc(n * sizeof(*next));
	if (!next || n < 2)
		exit(3);
	/* One random cycle through every slot (Sattolo), so each load depends
	 * on the previous and the prefetchers cannot help. */
	for (size_t i = 0; i < n; i++)
		next[i] = i;
	srand(1);
	for (size_t i = n - 1; i > 0; i--) {
		size_t j = (size_t)rand() % i, t = next[i];
		next[i] = next[j];
		next[j] = t;
	}
	size_t at = 0, steps = 0;
	double end = now() + secs;
	while (now() < end)
		for (int k = 0; k < 100000; k++, steps++)
			at = next[at];
	printf("%zu %zu\n", steps, at);
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: xgtop-pmu-work pages|kpages|sleeps N | threads|forks K N | "
				"walk KIB SECS\n");
		return 2;
	}
	long a = atol(argv[2]), b = argc > 3 ? atol(argv[3]) : 0;
	if (!strcmp(argv[1], "pages")) {
		touch(a);
	} else if (!strcmp(argv[1], "kpages")) {
		kfill(a);
	} else if (!strcmp(argv[1], "sleeps")) {
		/* 1 ms, not less: a sleep whose timer fires before the task is
		 * switched out (its vCPU held up by the hypervisor) costs no
		 * context switch. */
		struct timespec ts = { 0, 1000000 };
		for (long i = 0; i < a; i++)
			nanosleep(&ts, NULL);
	} else if (!strcmp(argv[1], "threads")) {
		pthread_t t[64];
		if (a < 1 || a > 64)
			return 2;
		for (long i = 0; i < a; i++)
			pthread_create(&t[i], NULL, thread_touch, (void *)(intptr_t)b);
		for (long i = 0; i < a; i++)
			pthread_join(t[i], NULL);
	} else if (!strcmp(argv[1], "forks")) {
		for (long i = 0; i < a; i++)
			if (!fork()) {
				touch(b);
				_exit(0);
			}
		while (wait(NULL) > 0)
			;
	} else if (!strcmp(argv[1], "tdelay")) {
		pthread_t t[64];
		struct delayed d = { b, argc > 4 ? atol(argv[4]) : 0 };
		if (a < 1 || a > 64)
			return 2;
		for (long i = 0; i < a; i++)
			pthread_create(&t[i], NULL, thread_delayed, &d);
		for (long i = 0; i < a; i++)
			pthread_join(t[i], NULL);
	} else if (!strcmp(argv[1], "walk")) {
		walk(a, (double)b);
	} else {
		return 2;
	}
	return 0;
}
