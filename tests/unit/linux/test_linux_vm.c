// SPDX-License-Identifier: GPL-2.0-or-later
/* What the Linux source reads off a QEMU process: command lines as
 * libvirt, Proxmox and people write them, thread names, cgroup scopes,
 * and the small /proc files only VMs need. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../../src/linux/linux_domain.h"

/* Parses a command line given as one string with arguments separated by
 * '|' (argv[0] left out, as the source passes it). */
static void parse(const char *line, struct lx_vmconf *c)
{
	char buf[2048];
	size_t n = strlen(line);
	assert_true(n < sizeof(buf));
	memcpy(buf, line, n + 1);
	for (size_t i = 0; i < n; i++)
		if (buf[i] == '|')
			buf[i] = 0;
	lx_vm_parse_args(buf, n + 1, c);
}

static void libvirt_cmdline(void **state)
{
	(void)state;
	struct lx_vmconf c;
	parse("-name|guest=web-01,debug-threads=on|-S|-object|{\"qom-type\":\"secret\"}|"
	      "-machine|pc-q35-7.2,usb=off,dump-guest-core=off|-accel|kvm|-cpu|host|"
	      "-m|size=2097152k|-overcommit|mem-lock=off|-smp|2,sockets=2,cores=1,threads=1|"
	      "-uuid|1f2e3d4c-5b6a-4978-8695-a4b3c2d1e0f9|-no-user-config", &c);
	assert_string_equal(c.name, "web-01");
	assert_int_equal(c.mem, 2ull << 30);
	assert_int_equal(c.cpus, 2);
	assert_int_equal(c.maxcpus, 2);
	assert_int_equal(c.accel, LX_ACCEL_KVM);
	assert_true(c.has_uuid);
	assert_int_equal(c.uuid[0], 0x1f);
	assert_int_equal(c.uuid[15], 0xf9);
	assert_int_equal(c.vmid, -1);
}

static void proxmox_cmdline(void **state)
{
	(void)state;
	struct lx_vmconf c;
	parse("-id|100|-name|db,,primary,debug-threads=on|-no-shutdown|-smp|4,sockets=1,cores=4,maxcpus=4|"
	      "-m|4096|-machine|type=pc+pve0,accel=kvm:tcg", &c);
	assert_int_equal(c.vmid, 100);
	assert_string_equal(c.name, "db,primary");   /* ",," is a comma in the name */
	assert_int_equal(c.mem, 4096ull << 20);
	assert_int_equal(c.cpus, 4);
	assert_int_equal(c.accel, LX_ACCEL_KVM);
}

static void plain_cmdlines(void **state)
{
	(void)state;
	struct lx_vmconf c;
	parse("-enable-kvm|-name|scratch|-m|1.5G|-smp|cpus=2,maxcpus=8", &c);
	assert_string_equal(c.name, "scratch");
	assert_int_equal(c.mem, 3ull << 29);
	assert_int_equal(c.cpus, 2);
	assert_int_equal(c.maxcpus, 8);
	assert_int_equal(c.accel, LX_ACCEL_KVM);
	parse("--name|guest=a b,process=qemu-ab|-accel|tcg,thread=multi|-smp|sockets=2,cores=2,threads=2", &c);
	assert_string_equal(c.name, "a b");
	assert_int_equal(c.accel, LX_ACCEL_TCG);
	assert_int_equal(c.cpus, 8);    /* cpus left out: the topology's product */
	assert_int_equal(c.maxcpus, 8);
	parse("-hda|disk.img", &c);   /* nothing said */
	assert_string_equal(c.name, "");
	assert_int_equal(c.mem, 0);
	assert_int_equal(c.cpus, 0);
	assert_false(c.has_uuid);
	assert_int_equal(c.accel, LX_ACCEL_NONE);
	parse("-m|lots|-smp|x|-uuid|nope|-name", &c);   /* bad values, option without one */
	assert_int_equal(c.mem, 0);
	assert_int_equal(c.cpus, 0);
	assert_false(c.has_uuid);
}

/* -m's sizes: the number, its suffix, and what is no size. */
static void sizes(void **state)
{
	(void)state;
	static const struct { const char *m; uint64_t bytes; } cases[] = {
		{ "512", 512ull << 20 }, { "512M", 512ull << 20 }, { "2g", 2ull << 30 },
		{ "1048576k", 1ull << 30 }, { "4096B", 4096 }, { "1T", 1ull << 40 },
		{ "1X", 0 }, { "M", 0 }, { "99999999E", 0 },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char line[64];
		struct lx_vmconf c;
		snprintf(line, sizeof(line), "-m|%s", cases[i].m);
		parse(line, &c);
		assert_int_equal(c.mem, cases[i].bytes);
	}
}

/* Option strings: ",," is a comma, the implied key only first, and -smp. */
static void options(void **state)
{
	(void)state;
	struct lx_vmconf c;
	parse("-name|a,,b,x=1", &c);
	assert_string_equal(c.name, "a,b");
	parse("-name|guest=g,,h,debug-threads=on", &c);
	assert_string_equal(c.name, "g,h");
	parse("-name|", &c);
	assert_string_equal(c.name, "");
	parse("-m|x=1,size=2G", &c);
	assert_int_equal(c.mem, 2ull << 30);
	parse("-m|x=1,y", &c);   /* the implied key only first */
	assert_int_equal(c.mem, 0);
	parse("-smp|3", &c);
	assert_int_equal(c.cpus, 3);
	assert_int_equal(c.maxcpus, 3);
	parse("-smp|maxcpus=6", &c);
	assert_int_equal(c.cpus, 6);
	parse("-smp|cpus=0", &c);
	assert_int_equal(c.cpus, 0);
	assert_int_equal(c.maxcpus, 0);
}

static void thread_names(void **state)
{
	(void)state;
	enum lx_accel a;
	assert_int_equal(lx_vcpu_thread("CPU 0/KVM", &a), 0);
	assert_int_equal(a, LX_ACCEL_KVM);
	assert_int_equal(lx_vcpu_thread("CPU 12/TCG", &a), 12);
	assert_int_equal(a, LX_ACCEL_TCG);
	assert_int_equal(lx_vcpu_thread("ALL CPUs/TCG", &a), 0);
	assert_int_equal(a, LX_ACCEL_TCG);
	assert_int_equal(lx_vcpu_thread("CPU 3/HVF", &a), 3);
	assert_int_equal(a, LX_ACCEL_OTHER);
	assert_int_equal(lx_vcpu_thread("CPU x/KVM", NULL), LX_NO_VCPU);
	assert_int_equal(lx_vcpu_thread("CPU 1/", NULL), LX_NO_VCPU);
	assert_int_equal(lx_vcpu_thread("CPU 1", NULL), LX_NO_VCPU);
	assert_int_equal(lx_vcpu_thread("qemu-system-x86", NULL), LX_NO_VCPU);
	assert_true(lx_is_qemu_comm("qemu-system-x86"));
	assert_true(lx_is_qemu_comm("qemu-system-aar"));
	assert_true(lx_is_qemu_comm("qemu-kvm"));
	assert_true(lx_is_qemu_comm("kvm"));
	assert_false(lx_is_qemu_comm("kvm-pit/1234"));
	assert_false(lx_is_qemu_comm("qemu-img"));
}

static void scopes(void **state)
{
	(void)state;
	struct lx_vmscope s;
	const char *p = "/machine.slice/machine-qemu\\x2d3\\x2dweb\\x2d01.scope/libvirt/emulator";
	assert_true(lx_vm_scope(p, &s));
	assert_int_equal(s.kind, LX_SCOPE_LIBVIRT);
	assert_int_equal(s.id, 3);
	assert_string_equal(s.name, "web-01");
	assert_int_equal(s.len, strlen("/machine.slice/machine-qemu\\x2d3\\x2dweb\\x2d01.scope"));
	assert_true(lx_vm_scope("/machine/qemu-7-db.libvirt-qemu/emulator", &s));
	assert_int_equal(s.id, 7);
	assert_string_equal(s.name, "db");
	assert_true(lx_vm_scope("/machine.slice/machine-qemu\\x2dold.scope", &s));   /* no id */
	assert_int_equal(s.id, -1);
	assert_string_equal(s.name, "old");
	assert_true(lx_vm_scope("/qemu.slice/105.scope", &s));
	assert_int_equal(s.kind, LX_SCOPE_PROXMOX);
	assert_int_equal(s.id, 105);
	assert_false(lx_vm_scope("/user.slice/user-0.slice/session-3.scope", &s));
	assert_false(lx_vm_scope("/qemu.slice/x.scope", &s));
	assert_false(lx_vm_scope("/", &s));
}

static void small_files(void **state)
{
	(void)state;
	char name[16];
	uint64_t b;
	assert_true(lx_parse_fdinfo_iff("pos:\t0\nflags:\t0104002\nmnt_id:\t29\nino:\t1079\niff:\ttap3\n", name));
	assert_string_equal(name, "tap3");
	assert_false(lx_parse_fdinfo_iff("pos:\t0\nflags:\t02\n", name));
	assert_true(lx_parse_vmswap("Name:\tqemu\nVmRSS:\t  1024 kB\nVmSwap:\t     12 kB\n", &b));
	assert_int_equal(b, 12 * 1024);
	assert_false(lx_parse_vmswap("Name:\tkthreadd\n", &b));
	struct xg_netdev nif[4];
	const char *dev = "Inter-|   Receive\n face |bytes\n"
			  "    lo: 10 1 0 0 0 0 0 0 10 1 0 0 0 0 0 0\n"
			  "  tap0: 100 2 0 1 0 0 0 0 300 4 0 0 0 0 0 0\n";
	assert_int_equal(lx_parse_net_devs(dev, nif, 4), 2);
	assert_string_equal(nif[1].name, "tap0");
	assert_int_equal(nif[1].rx_bytes, 100);
	assert_int_equal(nif[1].rx_drop, 1);
	assert_int_equal(nif[1].tx_bytes, 300);
	assert_int_equal(nif[1].tx_pkts, 4);
}

/* A debugfs kvm/ tree in a temporary directory: statistics and vCPU
 * threads are read from it as from the kernel's. */
static void kvm_tree(void **state)
{
	(void)state;
	char dir[] = "/tmp/xgtop-kvm-test.XXXXXX", path[128];
	assert_non_null(mkdtemp(dir));
	static const char *const files[][2] = {
		{ "42-9/exits", "1234\n" }, { "42-9/halt_poll_success_ns", "500\n" },
		{ "42-9/halt_poll_fail_ns", "70\n" }, { "42-9/vcpu0/pid", "43\n" },
		{ "42-9/vcpu1/pid", "44\n" },
	};
	snprintf(path, sizeof(path), "%s/42-9", dir);
	mkdir(path, 0700);
	for (int v = 0; v < 2; v++) {
		snprintf(path, sizeof(path), "%s/42-9/vcpu%d", dir, v);
		mkdir(path, 0700);
	}
	for (size_t i = 0; i < XG_ARRAY_LEN(files); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, files[i][0]);
		FILE *f = fopen(path, "w");
		assert_non_null(f);
		fputs(files[i][1], f);
		fclose(f);
	}
	struct lx_kvm k = { .dir_fd = open(dir, O_RDONLY | O_DIRECTORY) };
	int fd[LX_KVM_NSTAT] = { -1, -1, -1 };
	uint64_t v[LX_KVM_NSTAT];
	char why[160];
	assert_int_equal(lx_kvm_read(&k, 42, 9, fd, v, why, sizeof(why)), 0);
	assert_int_equal(v[LX_KVM_EXITS], 1234);
	assert_int_equal(v[LX_KVM_POLL_OK_NS], 500);
	assert_int_equal(v[LX_KVM_POLL_FAIL_NS], 70);
	uint64_t pairs[8];
	size_t n = lx_kvm_vcpu_tids(&k, 42, 9, pairs, 8);
	assert_int_equal(n, 2);
	assert_int_equal((uint32_t)pairs[0] + (uint32_t)pairs[1], 43 + 44);
	int other[LX_KVM_NSTAT] = { -1, -1, -1 };
	assert_int_not_equal(lx_kvm_read(&k, 42, 10, other, v, why, sizeof(why)), 0);
	assert_non_null(strstr(why, "no such file"));
	for (int i = 0; i < LX_KVM_NSTAT; i++)
		close(fd[i]);
	lx_kvm_close(&k);
	char cmd[160];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(libvirt_cmdline), cmocka_unit_test(proxmox_cmdline),
		cmocka_unit_test(plain_cmdlines),  cmocka_unit_test(sizes),
		cmocka_unit_test(options),         cmocka_unit_test(thread_names),
		cmocka_unit_test(scopes),          cmocka_unit_test(small_files),
		cmocka_unit_test(kvm_tree),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
