// SPDX-License-Identifier: GPL-2.0-or-later
/* A stand-in for a QEMU process, for the VM tests and the benchmark: run
 * through a link named like QEMU (qemu-system-x86_64, qemu-kvm, kvm) with
 * QEMU's own arguments, it has QEMU's process name and command line, and
 * threads named as QEMU names them with debug-threads=on. It ignores its
 * arguments; what it does comes from the environment:
 *   XG_VCPUS=N       vCPU threads "CPU 0/ACCEL" .. "CPU N-1/ACCEL" (default 1)
 *   XG_ACCEL=KVM     the thread name suffix (TCG, KVM ...)
 *   XG_SPIN=0,2      the vCPUs that spin (the others sleep)
 *   XG_EMU_SPIN=1    one emulator thread ("worker") spins as well
 *   XG_IDLE=N        N more idle threads (default 1: "IO mon_iothread")
 *   XG_UNNAMED=1     leave the vCPU threads unnamed (no debug-threads)
 * It prints "ready" on stdout once every thread has its name, then runs
 * until killed. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t named = PTHREAD_COND_INITIALIZER;
static int nnamed;

struct job {
	char name[32];   /* the kernel keeps 15 bytes */
	int spin;
};

static void *thread_main(void *arg)
{
	const struct job *j = arg;
	char comm[16];
	snprintf(comm, sizeof(comm), "%.15s", j->name);
	if (comm[0])
		pthread_setname_np(pthread_self(), comm);
	pthread_mutex_lock(&lock);
	nnamed++;
	pthread_cond_signal(&named);
	pthread_mutex_unlock(&lock);
	for (volatile unsigned long n = 0; j->spin; n++)
		;
	for (;;)
		pause();
	return NULL;
}

static int env_int(const char *name, int dflt)
{
	const char *s = getenv(name);
	return s && *s ? atoi(s) : dflt;
}

/* Is vCPU n in the comma-separated list s? */
static int listed(const char *s, int n)
{
	for (; s && *s; s = strchr(s, ',') ? strchr(s, ',') + 1 : NULL)
		if (atoi(s) == n)
			return 1;
	return 0;
}

int main(void)
{
	int nv = env_int("XG_VCPUS", 1), nidle = env_int("XG_IDLE", 1);
	const char *accel = getenv("XG_ACCEL") ? getenv("XG_ACCEL") : "KVM";
	int n = nv + nidle + 1;
	struct job *jobs = calloc((size_t)n, sizeof(*jobs));
	if (!jobs || nv < 0 || nidle < 0)
		return 2;
	for (int i = 0; i < nv; i++) {
		if (!env_int("XG_UNNAMED", 0))
			snprintf(jobs[i].name, sizeof(jobs[i].name), "CPU %d/%s", i, accel);
		jobs[i].spin = listed(getenv("XG_SPIN"), i);
	}
	for (int i = nv; i < nv + nidle; i++)
		snprintf(jobs[i].name, sizeof(jobs[i].name), i == nv ? "IO mon_iothread" : "worker");
	snprintf(jobs[n - 1].name, sizeof(jobs[n - 1].name), "worker");
	jobs[n - 1].spin = env_int("XG_EMU_SPIN", 0);
	for (int i = 0; i < n; i++) {
		pthread_t t;
		if (pthread_create(&t, NULL, thread_main, &jobs[i]))
			return 3;
	}
	pthread_mutex_lock(&lock);
	while (nnamed < n)
		pthread_cond_wait(&named, &lock);
	pthread_mutex_unlock(&lock);
	printf("ready\n");
	fflush(stdout);
	for (;;)
		pause();
}
