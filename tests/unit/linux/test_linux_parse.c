// SPDX-License-Identifier: GPL-2.0-or-later
/* Parsers of the Linux source on captured /proc and cgroup v2 text. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <string.h>

#include "../../../src/linux/linux_domain.h"

static void stat_plain(void **state)
{
	(void)state;
	struct lx_stat st;
	const char *t = "7325 (cat) R 7323 7323 3711 0 -1 4194304 99 0 0 0 12 34 5 6 20 0 1 0 50423 "
			"3133440 387 18446744073709551615 93937915920384 0 0 0 0\n";
	assert_true(lx_parse_stat(t, &st));
	assert_string_equal(st.comm, "cat");
	assert_int_equal(st.state, 'R');
	assert_int_equal(st.ppid, 7323);
	assert_int_equal(st.pgrp, 7323);
	assert_int_equal(st.sid, 3711);
	assert_int_equal(st.utime, 12);
	assert_int_equal(st.stime, 34);
	assert_int_equal(st.cutime, 5);
	assert_int_equal(st.cstime, 6);
	assert_int_equal(st.nthreads, 1);
	assert_int_equal(st.starttime, 50423);
	assert_int_equal(st.rss_pages, 387);
}

static void stat_hostile_comm(void **state)
{
	(void)state;
	struct lx_stat st;
	/* a comm may hold spaces and parentheses: ") S 1 2" inside it must
	 * not be taken for the fields */
	const char *t = "42 (a) S 1 2 (b) x) S 9 42 42 0 -1 0 0 0 0 0 7 8 0 0 20 0 3 0 1234 0 10\n";
	assert_true(lx_parse_stat(t, &st));
	assert_string_equal(st.comm, "a) S 1 2 (b) x");
	assert_int_equal(st.state, 'S');
	assert_int_equal(st.ppid, 9);
	assert_int_equal(st.sid, 42);
	assert_int_equal(st.utime, 7);
	assert_int_equal(st.nthreads, 3);
	assert_int_equal(st.starttime, 1234);
	assert_int_equal(st.rss_pages, 10);
	/* kernel thread: empty-ish fields and a long comm are cut, not overrun */
	const char *k = "3 (kworker/R-rcu_gp_very_long_name_xx) I 2 0 0 0 -1 69238880 0 0 0 0 0 0 0 0 0 -20 1 0 9 0 0\n";
	assert_true(lx_parse_stat(k, &st));
	assert_int_equal(strlen(st.comm), sizeof(st.comm) - 1);
	assert_int_equal(st.ppid, 2);
	assert_int_equal(st.state, 'I');
}

static void stat_broken(void **state)
{
	(void)state;
	struct lx_stat st;
	assert_false(lx_parse_stat("", &st));
	assert_false(lx_parse_stat("12 (x S 1 2", &st));
	assert_false(lx_parse_stat("12 (x) S 1 2 3", &st));       /* cut short */
	assert_false(lx_parse_stat("12 (x) S 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 x 20 21", &st));
}

static void schedstat(void **state)
{
	(void)state;
	uint64_t run, wait;
	assert_true(lx_parse_schedstat("52285319 66886151 1143\n", &run, &wait));
	assert_int_equal(run, 52285319);
	assert_int_equal(wait, 66886151);
	assert_true(lx_parse_schedstat("0 0 0\n", &run, &wait));
	assert_int_equal(run, 0);
	assert_false(lx_parse_schedstat("", &run, &wait));
	assert_false(lx_parse_schedstat("12", &run, &wait));
	assert_false(lx_parse_schedstat("99999999999999999999999 1 1", &run, &wait));  /* overflow */
}

/* statm's resident pages; cgroup.stat's count of cgroups below */
static void statm_and_descendants(void **state)
{
	(void)state;
	uint64_t v;
	assert_true(lx_parse_statm("2203 453 391 218 0 110 0\n", &v));
	assert_int_equal(v, 453);
	assert_true(lx_parse_statm("0 0 0 0 0 0 0\n", &v));   /* a kernel thread */
	assert_int_equal(v, 0);
	assert_false(lx_parse_statm("2203\n", &v));
	assert_false(lx_parse_statm("", &v));
	assert_true(lx_parse_cg_descendants("nr_descendants 41\nnr_dying_descendants 3\n", &v));
	assert_int_equal(v, 41);
	assert_false(lx_parse_cg_descendants("nr_dying_descendants 3\n", &v));
}

static void cpu_stat(void **state)
{
	(void)state;
	uint64_t u;
	const char *t = "usage_usec 43934311\nuser_usec 25806295\nsystem_usec 18128015\n"
			"nr_periods 0\nnr_throttled 0\nthrottled_usec 0\n";
	assert_true(lx_parse_cpu_stat(t, &u));
	assert_int_equal(u, 43934311);
	/* a key that only starts like usage_usec is not it */
	assert_true(lx_parse_cpu_stat("usage_usec_x 5\nusage_usec 7\n", &u));
	assert_int_equal(u, 7);
	assert_false(lx_parse_cpu_stat("user_usec 1\n", &u));
}

static void io_stat(void **state)
{
	(void)state;
	struct lx_io io;
	const char *t = "8:0 rbytes=1024 wbytes=4096 rios=1 wios=2 dbytes=0 dios=0\n"
			"253:1 rbytes=10 wbytes=20 rios=3 wios=4 dbytes=5 dios=6\n";
	assert_true(lx_parse_io_stat(t, &io));
	assert_int_equal(io.rbytes, 1034);
	assert_int_equal(io.wbytes, 4116);
	assert_int_equal(io.rios, 4);
	assert_int_equal(io.wios, 6);
	assert_true(lx_parse_io_stat("", &io));   /* no I/O yet: zeros, valid */
	assert_int_equal(io.rbytes + io.wbytes + io.rios + io.wios, 0);
	assert_false(lx_parse_io_stat("8:0 rbytes=x\n", &io));
}

static void proc_io(void **state)
{
	(void)state;
	struct lx_io io;
	const char *t = "rchar: 6976\nwchar: 12\nsyscr: 10\nsyscw: 1\nread_bytes: 4096\n"
			"write_bytes: 67108864\ncancelled_write_bytes: 0\n";
	assert_true(lx_parse_proc_io(t, &io));
	assert_int_equal(io.rbytes, 4096);
	assert_int_equal(io.wbytes, 67108864);
	assert_int_equal(io.rios, 0);
	/* cancelled_write_bytes must not be read as write_bytes */
	assert_false(lx_parse_proc_io("cancelled_write_bytes: 5\nread_bytes: 1\n", &io));
}

static void net_dev(void **state)
{
	(void)state;
	struct lx_net n;
	const char *t =
		"Inter-|   Receive                                                |  Transmit\n"
		" face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs drop fifo colls carrier compressed\n"
		"    lo:    3267      29    0    0    0     0          0         0     3267      29    0    0    0     0       0          0\n"
		"  eth0:  144418     103    1    2    0     0          0         0     3848      10    3    4    0     0       0          0\n"
		"veth-x:1000 5 0 0 0 0 0 0 2000 6 0 1 0 0 0 0\n";
	assert_true(lx_parse_net_dev(t, &n));
	assert_int_equal(n.nifs, 2);   /* lo left out */
	assert_int_equal(n.rx_bytes, 145418);
	assert_int_equal(n.rx_pkts, 108);
	assert_int_equal(n.rx_errs, 1);
	assert_int_equal(n.rx_drop, 2);
	assert_int_equal(n.tx_bytes, 5848);
	assert_int_equal(n.tx_pkts, 16);
	assert_int_equal(n.tx_errs, 3);
	assert_int_equal(n.tx_drop, 5);
	assert_false(lx_parse_net_dev("only one line\n", &n));
	assert_false(lx_parse_net_dev("h1\nh2\n eth0: 1 2 3\n", &n));   /* cut short */
	/* Into a domain: each figure to its own field (a container's own
	 * namespace counts from its side, as the guest's view). */
	assert_true(lx_parse_net_dev(t, &n));
	struct xg_sample s;
	sample_init(&s);
	struct xg_dom *d = sample_add_dom(&s, 1);
	lx_fill_net(&s, d, &n, NULL);
	static const struct { enum xg_field f; uint64_t v; } want[] = {
		{ XG_F_NETS, 2 }, { XG_F_NET_RX_BYTES, 145418 }, { XG_F_NET_TX_BYTES, 5848 },
		{ XG_F_NET_RX_PKTS, 108 }, { XG_F_NET_TX_PKTS, 16 }, { XG_F_NET_RX_ERRS, 1 },
		{ XG_F_NET_TX_ERRS, 3 }, { XG_F_NET_RX_DROP, 2 }, { XG_F_NET_TX_DROP, 5 },
	};
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		assert_true(dom_has(d, want[i].f));
		assert_int_equal(d->v[want[i].f], want[i].v);
	}
	sample_free(&s);
}

static void meminfo(void **state)
{
	(void)state;
	struct lx_meminfo mi;
	const char *t = "MemTotal:       24684092 kB\nMemFree:        24400068 kB\n"
			"MemAvailable:   24369408 kB\nBuffers:           12 kB\n";
	assert_true(lx_parse_meminfo(t, &mi));
	assert_int_equal(mi.total, 24684092ull * 1024);
	assert_int_equal(mi.avail, 24369408ull * 1024);
	assert_false(lx_parse_meminfo("MemTotal: 5 kB\nMemFree: 1 kB\n", &mi));  /* pre-3.14 */
}

static void limits_and_paths(void **state)
{
	(void)state;
	uint64_t v;
	assert_true(lx_parse_limit("max\n", &v));
	assert_true(v == UINT64_MAX);
	assert_true(lx_parse_limit("536870912\n", &v));
	assert_int_equal(v, 536870912);
	assert_false(lx_parse_limit("maximal\n", &v));
	assert_false(lx_parse_limit("12 kB\n", &v));

	const char *p;
	size_t n;
	const char *cg = "9:name=systemd:/\n4:memory:/x/y\n0::/system.slice/ssh.service\n";
	assert_true(lx_parse_cgroup_path(cg, &p, &n));
	assert_int_equal(n, strlen("/system.slice/ssh.service"));
	assert_memory_equal(p, "/system.slice/ssh.service", n);
	assert_false(lx_parse_cgroup_path("4:memory:/x\n", &p, &n));   /* v1 only */

	/* domain rule: first level, or second below a top-level slice */
	const char *a = "/system.slice/ssh.service/sub";
	assert_int_equal(lx_cgroup_domain_len(a, strlen(a)), strlen("/system.slice/ssh.service"));
	const char *b = "/docker/abc/x";
	assert_int_equal(lx_cgroup_domain_len(b, strlen(b)), strlen("/docker"));
	assert_int_equal(lx_cgroup_domain_len("/", 1), 1);
	assert_int_equal(lx_cgroup_domain_len("/user.slice", 11), 11);
}

static void cpuinfo_and_mounts(void **state)
{
	(void)state;
	uint64_t khz;
	assert_true(lx_parse_cpu_mhz("processor\t: 0\nmodel name\t: X\ncpu MHz\t\t: 2793.440\n", &khz));
	assert_int_equal(khz, 2793440);
	assert_true(lx_parse_cpu_mhz("cpu MHz : 1200\n", &khz));
	assert_int_equal(khz, 1200000);
	assert_false(lx_parse_cpu_mhz("BogoMIPS : 50.00\n", &khz));

	char root[64], mnt[64];
	assert_true(lx_parse_mountinfo_cgroup2(
		"41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw", root, sizeof(root),
		mnt, sizeof(mnt)));
	assert_string_equal(root, "/");
	assert_string_equal(mnt, "/sys/fs/cgroup/unified");
	assert_true(lx_parse_mountinfo_cgroup2(
		"30 25 0:26 / /sys/fs/cg\\040x rw,nosuid shared:4 - cgroup2 cgroup2 rw,nsdelegate", root,
		sizeof(root), mnt, sizeof(mnt)));
	assert_string_equal(mnt, "/sys/fs/cg x");
	assert_false(lx_parse_mountinfo_cgroup2("33 25 0:28 / /sys/fs/cgroup/cpu rw - cgroup cgroup rw,cpu",
						root, sizeof(root), mnt, sizeof(mnt)));
}

static void grouping(void **state)
{
	(void)state;
	/* init(1) -> sshd(10, SL) -> sshd-session(20, SL) -> bash(30, SL) ->
	 * make(40) -> cc(50); kthreadd(2) -> kworker(3); nginx(60, SL) ->
	 * worker(61) */
	struct lx_proc p[9];
	memset(p, 0, sizeof(p));
	const uint32_t v[9][3] = { { 1, 0, 1 },    { 2, 0, 0 },    { 3, 2, 0 },
				   { 10, 1, 10 },  { 20, 10, 20 }, { 30, 20, 30 },
				   { 40, 30, 30 }, { 50, 40, 30 }, { 61, 60, 60 } };
	for (int i = 0; i < 9; i++) {
		p[i].pid = v[i][0];
		p[i].ppid = v[i][1];
		p[i].sid = v[i][2];
	}
	int32_t lead[9];
	struct lx_index idx = { 0 };
	lx_group_leaders(p, 9, lead, &idx);
	assert_int_equal(lead[0], 0);   /* init */
	assert_int_equal(lead[1], 1);   /* kthreadd */
	assert_int_equal(lead[2], 1);   /* kworker under kthreadd */
	assert_int_equal(lead[3], 3);   /* sshd */
	assert_int_equal(lead[4], 3);   /* its session process stays with it */
	assert_int_equal(lead[5], 5);   /* login shell: child of a session leader below init */
	assert_int_equal(lead[6], 6);   /* a command from the shell */
	assert_int_equal(lead[7], 6);   /* ... with its children */
	assert_int_equal(lead[8], 8);   /* parent (60) not in the snapshot */
	lx_index_free(&idx);
}

static void index_map(void **state)
{
	(void)state;
	struct lx_index x = { 0 };
	assert_int_equal(lx_index_get(&x, 5), -1);
	lx_index_reset(&x, 1000);
	for (uint32_t i = 0; i < 1000; i++)
		lx_index_put(&x, i * 4096 + 7, i);
	for (uint32_t i = 0; i < 1000; i++)
		assert_int_equal(lx_index_get(&x, i * 4096 + 7), i);
	assert_int_equal(lx_index_get(&x, 8), -1);
	lx_index_reset(&x, 10);
	assert_int_equal(lx_index_get(&x, 7), -1);
	lx_index_free(&x);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(stat_plain),     cmocka_unit_test(stat_hostile_comm),
		cmocka_unit_test(stat_broken),    cmocka_unit_test(schedstat),
		cmocka_unit_test(statm_and_descendants),
		cmocka_unit_test(cpu_stat),       cmocka_unit_test(io_stat),
		cmocka_unit_test(proc_io),        cmocka_unit_test(meminfo),
		cmocka_unit_test(net_dev),
		cmocka_unit_test(limits_and_paths), cmocka_unit_test(cpuinfo_and_mounts),
		cmocka_unit_test(grouping),       cmocka_unit_test(index_map),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
