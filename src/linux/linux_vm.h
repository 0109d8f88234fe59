/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Private to src/linux (and its tests): QEMU processes as virtual machines: what a QEMU command line says
 * (linux_vmargs.c), KVM's own statistics (linux_kvm.c), the VMs of a scan
 * (linux_vm.c) and their figures of a refresh (linux_vmread.c,
 * linux_vmfill.c). */
#ifndef XGTOP_SRC_LINUX_LINUX_VM_H
#define XGTOP_SRC_LINUX_LINUX_VM_H

#include "linux_cgroup.h"

/* ---- linux_vmargs.c: what a QEMU process says about its VM ---- */

enum lx_accel { LX_ACCEL_NONE, LX_ACCEL_KVM, LX_ACCEL_TCG, LX_ACCEL_OTHER };

struct lx_vmconf {               /* from the command line */
	char name[XG_NAME_MAX];      /* -name guest=NAME or -name NAME, "" = none */
	bool has_uuid;
	uint8_t uuid[16];            /* -uuid */
	uint64_t mem;                /* -m, bytes; 0 = not given */
	uint32_t cpus, maxcpus;      /* -smp; 0 = not given */
	int64_t vmid;                /* Proxmox's -id N, -1 = none */
	enum lx_accel accel;         /* -accel, -enable-kvm, -machine accel=; NONE = not said */
};
/* Parses QEMU's arguments: len bytes of NUL-separated strings (the
 * command line after argv[0]). Option strings ("guest=a,,b,debug-threads=on")
 * read ",," as a comma, and a first item without '=' as the option's main
 * key (guest, size, accel); -m takes a number (fractions allowed) with an
 * optional suffix B K M G T P E (powers of 1024), MiB without one; -smp
 * takes cpus (a first number or cpus=), maxcpus=, else what the topology
 * (sockets, dies, clusters, cores, threads ...) multiplies to. */
void lx_vm_parse_args(const char *args, size_t len, struct lx_vmconf *c);
/* A QEMU process name: qemu-system-*, qemu-kvm, or Proxmox's kvm. */
bool lx_is_qemu_comm(const char *comm);
/* QEMU's name for a vCPU thread, "CPU <n>/<ACCEL>" (and "ALL CPUs/TCG",
 * single-threaded TCG, as vCPU 0): n and the accelerator, or LX_NO_VCPU. */
int32_t lx_vcpu_thread(const char *comm, enum lx_accel *accel);

enum lx_scope_kind { LX_SCOPE_NONE, LX_SCOPE_LIBVIRT, LX_SCOPE_PROXMOX };
struct lx_vmscope {
	enum lx_scope_kind kind;
	size_t len;                  /* the scope is path[0, len) */
	int64_t id;                  /* libvirt's domain id or Proxmox's VMID, -1 */
	char name[XG_NAME_MAX];      /* libvirt's machine name (unescaped, maybe cut) */
};
/* Finds a libvirt scope (machine-qemu\x2d<id>\x2d<name>.scope, or
 * qemu-<id>-<name>.libvirt-qemu without systemd) or a Proxmox one
 * (qemu.slice/<vmid>.scope) in a cgroup path. */
bool lx_vm_scope(const char *path, struct lx_vmscope *out);

/* ---- linux_kvm.c: KVM's own statistics (debugfs kvm/<pid>-<fd>/) ---- */

enum lx_kvm_stat { LX_KVM_EXITS, LX_KVM_POLL_OK_NS, LX_KVM_POLL_FAIL_NS, LX_KVM_NSTAT };
struct lx_kvm {
	int dir_fd;                  /* debugfs kvm/, -1 = none */
	bool mounted;                /* debugfs mounted by us (unmounted at close) */
	char why[128];               /* why there are no statistics, "" = there are */
};
/* Finds debugfs's kvm directory; mounts debugfs when running as root and
 * it is not mounted. Never fails: a host without it gets a reason. */
void lx_kvm_open(struct lx_kvm *k);
void lx_kvm_close(struct lx_kvm *k);
/* Reads the VM's statistics from dir "<pid>-<vmfd>" (fds kept in fd[],
 * -1 = not open yet). Returns 0, or an errno with why set. */
int lx_kvm_read(struct lx_kvm *k, uint32_t pid, int vmfd, int fd[LX_KVM_NSTAT],
		uint64_t out[LX_KVM_NSTAT], char *why, size_t n);
/* A copy of one of QEMU's vCPU statistics descriptors (KVM's binary
 * statistics) and where its figures are in it. */
struct lx_kvmfd {
	int fd;
	uint32_t off[LX_KVM_NSTAT];  /* byte offsets of the values */
};
/* Copies QEMU's descriptor qfd (pidfd_getfd on pidfd) and finds the
 * statistics in it: 0, or an errno (k->fd -1). */
int lx_kvm_borrow(int pidfd, int qfd, struct lx_kvmfd *k);
/* One vCPU's statistics: 0, or an errno. */
int lx_kvm_fd_read(const struct lx_kvmfd *k, uint64_t out[LX_KVM_NSTAT]);
/* The vCPU threads KVM knows: vcpuN/pid of the VM's directory (readable
 * where the statistics are locked down), as N << 32 | tid; returns the
 * count. */
size_t lx_kvm_vcpu_tids(struct lx_kvm *k, uint32_t pid, int vmfd, uint64_t *out, size_t max);

/* ---- linux_vm.c: QEMU processes as virtual machines ---- */

#define LX_VM_TAPS 8
struct lx_tap {
	char ifname[16];
	bool macvtap;                /* counts the guest's direction, tap the host's */
};

struct lx_vm {
	uint32_t pid;
	uint64_t start;              /* identity with pid (clock ticks since boot) */
	char comm[32];
	int32_t proc;                /* this refresh: index in lx_scan.proc, -1 = gone */
	uint32_t id, want_id;        /* domain id: VMID, libvirt's id, else the pid */
	char name[XG_NAME_MAX];
	struct lx_vmconf conf;
	struct lx_vmscope scope;
	char cg[256];                /* its own cgroup, relative to the cgroup2 root, "" = none */
	bool other_netns;            /* QEMU runs in another network namespace than xgtop */
	enum lx_accel accel;         /* from its threads, its fds, else its arguments */
	uint32_t nvcpu;              /* vCPU threads found this refresh */
	bool vcpu_named;             /* ... by their names (else by vcpuN cgroups / KVM) */
	bool paused;
	/* descriptors of the QEMU process, listed when their number changes */
	int fd_dir;                  /* /proc/PID/fd kept open (fstat gives the count) */
	bool fd_ok;
	int fd_err;
	uint64_t fd_count;
	uint32_t fd_age;             /* refreshes since the last listing */
	int kvm_fd;                  /* QEMU's kvm-vm descriptor, -1 = none */
	uint32_t ntap;
	struct lx_tap tap[LX_VM_TAPS];
	/* KVM's statistics: copies of QEMU's vCPU statistics descriptors
	 * (kvm-vcpu-stats), else debugfs files kept open */
	int *vstat_q;                /* QEMU's descriptor numbers, at the last listing */
	uint32_t nvstat_q;
	size_t vstat_q_cap;
	struct lx_kvmfd *vstat;      /* our copies */
	uint32_t nvstat;
	size_t vstat_cap;
	int kvm_sfd[LX_KVM_NSTAT];
	int kvm_err;                 /* 0 = read */
	char kvm_why[160];
	uint64_t kvm[LX_KVM_NSTAT];
	int swap_err;                /* 0 = swap read */
	uint64_t swap;               /* bytes */
	int cg_io_fd;                /* its own cgroup's io.stat, kept; -1 */
	bool cgio_missing;           /* no io.stat there (io controller off) */
	bool cgio_ok;
	struct lx_io cgio;
};

struct lx_vms {
	struct lx_vm *vm;
	size_t n, cap;
	struct lx_index idx;         /* pid -> index, rebuilt each refresh */
	struct lx_index ids;         /* domain id -> index, to keep ids unique */
	struct lx_kvm kvm;
	bool kvm_tried;              /* lx_kvm_open done (at the first KVM guest) */
	bool no_swap;                /* the host has no swap: every VM's is 0 */
	uint64_t netns;              /* xgtop's network namespace inode, 0 = unknown */
	struct xg_netdev *netif;     /* /proc/net/dev this refresh (when a VM has taps) */
	size_t nnetif, netif_cap;
	int netdev_err;
	char *args;                  /* scratch: a command line */
	size_t args_cap;
	uint64_t *pairs;             /* scratch: vCPU << 32 | tid */
	size_t pairs_cap;
};
void lx_vms_open(struct lx_vms *vt);
/* Finds the VMs among sc's processes (cg: for their cgroups, may have no
 * root), names them, marks their vCPU threads and reads what only VMs
 * have; asks sc to keep their files open. */
void lx_vms_update(struct lx_vms *vt, struct lx_scan *sc, const struct lx_cgroup *cg);
/* true when a QEMU process runs (what --group auto asks at start). */
bool lx_vms_present(int proc_fd);
void lx_vms_close(struct lx_vms *vt);

/* ---- linux_vmread.c: a VM's figures of this refresh ---- */

void lx_vm_refresh(struct lx_vms *vt, struct lx_scan *sc, struct lx_vm *vm, const struct lx_cgroup *cg);
/* Reads /proc/net/dev into vt->netif when some VM has a tap. */
void lx_vms_netdev(struct lx_vms *vt);

/* ---- linux_vmfill.c: a VM's own figures into the sample ---- */

#define LX_WHY_NO_VCPUS "no vCPU threads found: QEMU names them only with -name ...,debug-threads=on, " \
	"and neither libvirt's vcpuN cgroups nor KVM's vcpuN/pid listed them"
struct lx_dom;
/* VCPUS, VCPUS_MAX, MAXMEM (configured), SWAP, EMU, KVM's exits and halt
 * polling, the taps' traffic (unless nonet), paused. */
void lx_vm_fill(struct xg_sample *out, struct xg_dom *x, const struct lx_dom *d,
		const struct lx_vm *vm, const struct lx_vms *vt, bool nonet);
/* The network fields of x from n, or all invalid with why (n NULL). */
void lx_fill_net(struct xg_sample *out, struct xg_dom *x, const struct lx_net *n, const char *why);
/* The reason of the VM-only fields for every domain (before they are
 * filled), and the VM flag of the sample in VM mode. */
void lx_vm_absent(struct xg_sample *out, bool vm_mode);

#endif
