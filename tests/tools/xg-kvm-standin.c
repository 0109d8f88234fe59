// SPDX-License-Identifier: GPL-2.0-or-later
/* A minimal KVM virtual machine standing in for a QEMU that keeps KVM's
 * statistics descriptors open (newer QEMU releases open one per vCPU with
 * KVM_GET_STATS_FD and keep it). Run through a link named like QEMU with
 * QEMU's arguments (it ignores them), it creates a VM with XG_VCPUS
 * vCPUs (default 1) whose guest code writes to an I/O port in a loop, so
 * every iteration is an exit, each vCPU run by a thread named "CPU n/KVM".
 * It prints "ready" once every vCPU ran, then runs until killed; exit 3
 * with a message when KVM cannot run it here. */
#include <fcntl.h>
#include <linux/kvm.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t ran = PTHREAD_COND_INITIALIZER;
static int nran;

struct vcpu {
	int n, fd;
	struct kvm_run *run;
};

static void die(const char *what)
{
	fprintf(stderr, "xg-kvm-standin: %s: %m\n", what);
	exit(3);
}

static void *vcpu_main(void *arg)
{
	struct vcpu *v = arg;
	char name[16];
	snprintf(name, sizeof(name), "CPU %d/KVM", v->n);
	pthread_setname_np(pthread_self(), name);
	for (int first = 1;; first = 0) {
		if (ioctl(v->fd, KVM_RUN, 0) < 0)
			die("KVM_RUN");
		if (v->run->exit_reason != KVM_EXIT_IO)
			die("unexpected exit");
		if (first) {
			pthread_mutex_lock(&lock);
			nran++;
			pthread_cond_signal(&ran);
			pthread_mutex_unlock(&lock);
		}
		usleep(200);   /* a few thousand exits per second, not a busy host */
	}
	return NULL;
}

/* Real mode at 0x1000: out 0x10, al; jmp back to it. */
static void setup_vcpu(int vm, int kvm, struct vcpu *v)
{
	v->fd = ioctl(vm, KVM_CREATE_VCPU, v->n);
	if (v->fd < 0)
		die("KVM_CREATE_VCPU");
	long sz = ioctl(kvm, KVM_GET_VCPU_MMAP_SIZE, 0);
	v->run = mmap(NULL, (size_t)sz, PROT_READ | PROT_WRITE, MAP_SHARED, v->fd, 0);
	if (v->run == MAP_FAILED)
		die("mmap kvm_run");
	struct kvm_sregs sr;
	if (ioctl(v->fd, KVM_GET_SREGS, &sr) < 0)
		die("KVM_GET_SREGS");
	sr.cs.base = 0;
	sr.cs.selector = 0;
	if (ioctl(v->fd, KVM_SET_SREGS, &sr) < 0)
		die("KVM_SET_SREGS");
	struct kvm_regs r = { .rip = 0x1000, .rflags = 2 };
	if (ioctl(v->fd, KVM_SET_REGS, &r) < 0)
		die("KVM_SET_REGS");
	/* what newer QEMU does for each vCPU, and keeps open */
	if (ioctl(v->fd, KVM_GET_STATS_FD, NULL) < 0)
		die("KVM_GET_STATS_FD");
}

int main(void)
{
	int nv = getenv("XG_VCPUS") ? atoi(getenv("XG_VCPUS")) : 1;
	int kvm = open("/dev/kvm", O_RDWR | O_CLOEXEC);
	if (kvm < 0)
		die("/dev/kvm");
	int vm = ioctl(kvm, KVM_CREATE_VM, 0);
	if (vm < 0)
		die("KVM_CREATE_VM");
	unsigned char *mem = mmap(NULL, 0x2000, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED)
		die("mmap guest memory");
	static const unsigned char code[] = { 0xe6, 0x10, 0xeb, 0xfc };
	memcpy(mem + 0x1000, code, sizeof(code));
	struct kvm_userspace_memory_region reg = { .slot = 0, .guest_phys_addr = 0,
						   .memory_size = 0x2000, .userspace_addr = (unsigned long)mem };
	if (ioctl(vm, KVM_SET_USER_MEMORY_REGION, &reg) < 0)
		die("KVM_SET_USER_MEMORY_REGION");
	struct vcpu *v = calloc((size_t)(nv > 0 ? nv : 1), sizeof(*v));
	for (int i = 0; i < nv; i++) {
		pthread_t t;
		v[i].n = i;
		setup_vcpu(vm, kvm, &v[i]);
		if (pthread_create(&t, NULL, vcpu_main, &v[i]))
			die("pthread_create");
	}
	pthread_mutex_lock(&lock);
	while (nran < nv)
		pthread_cond_wait(&ran, &lock);
	pthread_mutex_unlock(&lock);
	printf("ready\n");
	fflush(stdout);
	for (;;)
		pause();
}
