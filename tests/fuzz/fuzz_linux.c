// SPDX-License-Identifier: GPL-2.0-or-later
/* libFuzzer harness: the Linux source's parsers of what processes and the
 * kernel hand over: /proc/PID/{stat,schedstat,status,io,net/dev,cgroup,
 * fdinfo}, /proc/{meminfo,cpuinfo,stat}, mountinfo, cgroup files, and the
 * KVM parts a VM's owner controls: QEMU's command line (-name, -smp, -m,
 * -uuid, -id, -accel), thread names and cgroup scope names. Every parser
 * gets the whole input (NUL-terminated, or as NUL-separated arguments);
 * what it hands back must lie inside the input and its buffers. */
#include "fuzz.h"

#include "../../src/linux/linux_domain.h"

static void text_files(const char *b)
{
	struct lx_stat st;
	uint64_t a, c;
	char name[16];
	struct lx_io io;
	struct lx_meminfo mi;
	struct lx_net net;
	struct xg_netdev ifs[8];
	uint32_t id;
	(void)lx_parse_stat(b, &st);
	if (memchr(st.comm, 0, sizeof(st.comm)) == NULL)
		abort();
	(void)lx_parse_schedstat(b, &a, &c);
	(void)lx_parse_vmswap(b, &a);
	if (lx_parse_fdinfo_iff(b, name) && !memchr(name, 0, sizeof(name)))
		abort();
	(void)lx_parse_cpu_stat(b, &a);
	(void)lx_parse_io_stat(b, &io);
	(void)lx_parse_proc_io(b, &io);
	(void)lx_parse_meminfo(b, &mi);
	(void)lx_parse_net_dev(b, &net);
	size_t nifs = lx_parse_net_devs(b, ifs, 8);
	if (nifs > 8)
		abort();
	for (size_t i = 0; i < nifs; i++)
		if (!memchr(ifs[i].name, 0, sizeof(ifs[i].name)))
			abort();
	(void)lx_parse_limit(b, &a);
	(void)lx_parse_cpu_mhz(b, &a);
	(void)lx_parse_stat_cpu(b, &id, &a, &c);
}

static void paths(const char *b, size_t n)
{
	const char *p;
	size_t len;
	/* /proc/PID/cgroup's path, and the domain it belongs to */
	if (lx_parse_cgroup_path(b, &p, &len) &&
	    (p < b || p + len > b + n || !len || *p != '/' || lx_cgroup_domain_len(p, len) > len))
		abort();
	/* Short buffers too: a mount point longer than its buffer is refused. */
	char root[256], mnt[256];
	size_t rn = n ? 1 + (unsigned char)b[0] % sizeof(root) : sizeof(root);
	if (lx_parse_mountinfo_cgroup2(b, root, rn, mnt, sizeof(mnt)) &&
	    (!memchr(root, 0, rn) || !memchr(mnt, 0, sizeof(mnt))))
		abort();
	struct lx_vmscope sc;
	if (lx_vm_scope(b, &sc) && (sc.len > n || !memchr(sc.name, 0, sizeof(sc.name))))
		abort();
}

/* QEMU's thread and process names; its options (-name, -m, -smp ...) are
 * fuzzed through lx_vm_parse_args below. */
static void qemu_names(const char *b)
{
	enum lx_accel acc;
	(void)lx_is_qemu_comm(b);
	(void)lx_vcpu_thread(b, &acc);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *b = fz_cstr(data, size);
	size_t n = strlen(b);
	text_files(b);
	paths(b, n);
	qemu_names(b);
	free(b);
	/* The command line keeps its NULs; the Linux source reads it with one
	 * more NUL after its end, as a process may leave its last argument
	 * unterminated. */
	char *args = fz_cstr(data, size);
	struct lx_vmconf c;
	lx_vm_parse_args(args, size, &c);
	if (!memchr(c.name, 0, sizeof(c.name)))
		abort();
	free(args);
	return 0;
}
