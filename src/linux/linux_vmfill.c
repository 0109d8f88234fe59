// SPDX-License-Identifier: GPL-2.0-or-later
/* The figures only a VM has, into its domain of the sample: vCPUs and
 * configured memory from its command line, emulator CPU, swap, KVM's
 * exits and halt polling, and its tap devices' traffic seen from the
 * guest. Each one missing says why. */
#include "linux_domain.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#define X86_DEFAULT_MEM (128ull << 20)   /* QEMU's x86 machines without -m */

static void errno_why(char *buf, size_t n, const char *file, int e)
{
	if ((e == EACCES || e == EPERM))
		snprintf(buf, n, "%s: permission denied (run as root)", file);
	else
		snprintf(buf, n, "%s: %s", file, strerror(e));
}

static bool x86_binary(const char *comm)
{
	return !strcmp(comm, "qemu-system-x86") || !strcmp(comm, "qemu-system-i38") ||
	       !strcmp(comm, "qemu-kvm") || !strcmp(comm, "kvm");
}

static void vm_cpus(struct xg_sample *out, struct xg_dom *x, const struct lx_dom *d,
		    const struct lx_vm *vm)
{
	/* without -smp QEMU gives a VM one vCPU */
	uint32_t cfg = vm->conf.cpus ? vm->conf.cpus : 1;
	dom_set(x, XG_F_VCPUS, d->nvcpu ? d->nvcpu : cfg);
	dom_set(x, XG_F_VCPUS_MAX, vm->conf.maxcpus ? vm->conf.maxcpus : cfg);
	if (d->nvcpu)
		dom_set(x, XG_F_EMU_NS, d->emu);
	else
		dom_invalid(out, x, XG_F_EMU_NS, LX_WHY_NO_VCPUS);
}

static void vm_mem(struct xg_sample *out, struct xg_dom *x, const struct lx_vm *vm)
{
	char why[96];
	if (vm->conf.mem)
		dom_set(x, XG_F_MAXMEM, vm->conf.mem);
	else if (x86_binary(vm->comm))
		dom_set(x, XG_F_MAXMEM, X86_DEFAULT_MEM);
	else
		dom_invalid(out, x, XG_F_MAXMEM, "no -m on the command line: the machine type's default size");
	if (!vm->swap_err) {
		dom_set(x, XG_F_SWAP, vm->swap);
	} else {
		errno_why(why, sizeof(why), "/proc/PID/status", vm->swap_err);
		dom_invalid(out, x, XG_F_SWAP, why);
	}
}

static void vm_kvm(struct xg_sample *out, struct xg_dom *x, const struct lx_vm *vm)
{
	if (vm->kvm_err) {
		dom_invalid(out, x, XG_F_VM_EXITS, vm->kvm_why);
		dom_invalid(out, x, XG_F_HALT_POLL_NS, vm->kvm_why);
		return;
	}
	dom_set(x, XG_F_VM_EXITS, vm->kvm[LX_KVM_EXITS]);
	dom_set(x, XG_F_HALT_POLL_NS, vm->kvm[LX_KVM_POLL_OK_NS] + vm->kvm[LX_KVM_POLL_FAIL_NS]);
}

void lx_fill_net(struct xg_sample *out, struct xg_dom *x, const struct lx_net *n, const char *why)
{
	if (!n) {
		for (enum xg_field f = XG_F_NETS; f <= XG_F_NET_TX_DROP; f++)
			dom_invalid(out, x, f, why);
		return;
	}
	dom_set(x, XG_F_NETS, n->nifs);
	dom_set(x, XG_F_NET_RX_BYTES, n->rx_bytes);
	dom_set(x, XG_F_NET_TX_BYTES, n->tx_bytes);
	dom_set(x, XG_F_NET_RX_PKTS, n->rx_pkts);
	dom_set(x, XG_F_NET_TX_PKTS, n->tx_pkts);
	dom_set(x, XG_F_NET_RX_ERRS, n->rx_errs);
	dom_set(x, XG_F_NET_TX_ERRS, n->tx_errs);
	dom_set(x, XG_F_NET_RX_DROP, n->rx_drop);
	dom_set(x, XG_F_NET_TX_DROP, n->tx_drop);
}

static const struct xg_netdev *find_if(const struct lx_vms *vt, const char *name)
{
	for (size_t i = 0; i < vt->nnetif; i++)
		if (!strcmp(vt->netif[i].name, name))
			return &vt->netif[i];
	return NULL;
}

/* Why the VM has no tap figures, or NULL when it has. */
static const char *net_why(const struct lx_vm *vm, const struct lx_vms *vt, char *buf, size_t n)
{
	if (!vm->fd_ok) {
		errno_why(buf, n, "/proc/PID/fd", vm->fd_err);
		return buf;
	}
	if (!vm->ntap)
		return "no tap or macvtap device (user-mode or no networking): its traffic is not counted per VM";
	if (vm->other_netns)
		return "the VM's tap devices are in another network namespace than xgtop";
	if (vt->netdev_err) {
		errno_why(buf, n, "/proc/net/dev", vt->netdev_err);
		return buf;
	}
	for (uint32_t i = 0; i < vm->ntap; i++)
		if (!find_if(vt, vm->tap[i].ifname)) {
			snprintf(buf, n, "tap device %s is not in /proc/net/dev", vm->tap[i].ifname);
			return buf;
		}
	return NULL;
}

/* A tap counts what the host received from the guest as its rx, a
 * macvtap counts from the guest's side: both become the guest's view. */
static void vm_net(struct xg_sample *out, struct xg_dom *x, const struct lx_vm *vm,
		   const struct lx_vms *vt)
{
	char buf[128];
	const char *why = net_why(vm, vt, buf, sizeof(buf));
	if (why) {
		lx_fill_net(out, x, NULL, why);
		return;
	}
	struct lx_net g = { .nifs = vm->ntap };
	for (uint32_t i = 0; i < vm->ntap; i++) {
		const struct xg_netdev *h = find_if(vt, vm->tap[i].ifname);
		bool flip = !vm->tap[i].macvtap;
		g.rx_bytes += flip ? h->tx_bytes : h->rx_bytes;
		g.tx_bytes += flip ? h->rx_bytes : h->tx_bytes;
		g.rx_pkts += flip ? h->tx_pkts : h->rx_pkts;
		g.tx_pkts += flip ? h->rx_pkts : h->tx_pkts;
		g.rx_errs += flip ? h->tx_errs : h->rx_errs;
		g.tx_errs += flip ? h->rx_errs : h->tx_errs;
		g.rx_drop += flip ? h->tx_drop : h->rx_drop;
		g.tx_drop += flip ? h->rx_drop : h->tx_drop;
	}
	lx_fill_net(out, x, &g, NULL);
}

void lx_vm_fill(struct xg_sample *out, struct xg_dom *x, const struct lx_dom *d,
		const struct lx_vm *vm, const struct lx_vms *vt, bool nonet)
{
	if (vm->paused)
		x->state = XG_ST_PAUSED;
	vm_cpus(out, x, d, vm);
	vm_mem(out, x, vm);
	vm_kvm(out, x, vm);
	if (!nonet)
		vm_net(out, x, vm, vt);
}

void lx_vm_absent(struct xg_sample *out, bool vm_mode)
{
	const char *why = vm_mode ? "the host's own processes: not a virtual machine"
				  : "not a virtual machine (QEMU processes are VMs with --group vm)";
	static const enum xg_field f[] = { XG_F_EMU_NS, XG_F_VM_EXITS, XG_F_HALT_POLL_NS, XG_F_SWAP };
	for (size_t i = 0; i < XG_ARRAY_LEN(f); i++)
		sample_invalid_all(out, f[i], why);
	if (vm_mode)
		host_mark(&out->host, XG_H_VMS);
}
