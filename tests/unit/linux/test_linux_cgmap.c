// SPDX-License-Identifier: GPL-2.0-or-later
/* Where the cgroup.procs walk places processes, on a cgroup-like tree in a
 * temporary directory: the path each gets is the one /proc/PID/cgroup would
 * show, and a process the walk cannot place exactly once (listed twice, in
 * a cgroup whose list cannot be read below a cgroup that lists it, under a
 * path too long to keep) is left to /proc/PID/cgroup. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../../src/linux/linux_domain.h"
#include "../tmpdir.h"

static const char *tree_dir;   /* each test's tree: a directory of its own */

/* rel in the test's tree (longer paths than tmp() holds) */
static const char *at(const char *rel)
{
	static char b[600];
	snprintf(b, sizeof(b), "%s/%s/%s", dir, tree_dir, rel);
	return b;
}

static void put(const char *rel, const char *text)
{
	assert_int_equal(tmpdir_write(at(rel), text), 0);
}

/* A cgroup at rel ("" = the root) listing procs ("1\n2\n"); NULL: its
 * cgroup.procs cannot be read (as a threaded cgroup's). */
static void cgroup(const char *rel, const char *procs)
{
	char cmd[700], file[300];
	snprintf(cmd, sizeof(cmd), "mkdir -p '%s'", at(rel));
	assert_int_equal(system(cmd), 0);
	snprintf(file, sizeof(file), "%s%scgroup.procs", rel, *rel ? "/" : "");
	if (procs) {
		put(file, procs);
	} else {
		snprintf(cmd, sizeof(cmd), "mkdir -p '%s'", at(file));
		assert_int_equal(system(cmd), 0);
	}
}

static void walk(struct lx_cgmap *m, size_t nproc)
{
	int root = open(at(""), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	assert_true(root >= 0);
	lx_cgmap_open(m);
	m->usable = true;   /* (what /proc's pid namespace decides) */
	lx_cgmap_walk(m, root, nproc);
	close(root);
}

static void placed(const struct lx_cgmap *m, uint32_t pid, const char *want)
{
	char got[256];
	if (!want) {
		assert_false(lx_cgmap_path(m, pid, got, sizeof(got)));
		return;
	}
	assert_true(lx_cgmap_path(m, pid, got, sizeof(got)));
	assert_string_equal(got, want);
}

static void tree(const char *name)
{
	tree_dir = name;
	cgroup("", "1\n2\n");
	put("cgroup.stat", "nr_descendants 7\nnr_dying_descendants 0\n");
	cgroup("init.scope", "3\n");
	cgroup("system.slice", "");
	cgroup("system.slice/ssh.service", "10\n11\n");
	cgroup("system.slice/ssh.service/sub", "12\n");
	/* a threaded subtree: its domain lists every process in it, its
	 * thread cgroups refuse to list */
	cgroup("system.slice/vm.scope", "20\n21\n");
	cgroup("system.slice/vm.scope/vcpu0", NULL);
	/* moved during the walk: listed twice */
	cgroup("user.slice", "30\n10\n");
}

static void paths_as_proc_shows_them(void **state)
{
	(void)state;
	struct lx_cgmap m;
	tree("paths");
	walk(&m, 100);
	assert_true(m.walked);
	placed(&m, 1, "/");
	placed(&m, 2, "/");
	placed(&m, 3, "/init.scope");
	placed(&m, 11, "/system.slice/ssh.service");
	placed(&m, 12, "/system.slice/ssh.service/sub");
	placed(&m, 30, "/user.slice");
	placed(&m, 10, NULL);   /* twice */
	placed(&m, 20, NULL);   /* maybe in vcpu0 */
	placed(&m, 21, NULL);
	placed(&m, 99, NULL);   /* not listed: new, a zombie, outside */
	/* cut as /proc/PID/cgroup's path is kept */
	char small[8];
	assert_true(lx_cgmap_path(&m, 12, small, sizeof(small)));
	assert_string_equal(small, "/system");
	lx_cgmap_close(&m);
}

static void long_paths_left_to_proc(void **state)
{
	(void)state;
	struct lx_cgmap m;
	char rel[300];
	tree_dir = "long";
	cgroup("", "1\n");
	put("cgroup.stat", "nr_descendants 1\n");
	memset(rel, 'x', LX_CGMAP_PATH_MAX + 1);
	rel[LX_CGMAP_PATH_MAX + 1] = 0;
	cgroup(rel, "40\n");
	rel[LX_CGMAP_PATH_MAX] = 0;
	cgroup(rel, "41\n");
	walk(&m, 100);
	placed(&m, 40, NULL);
	char want[302];
	snprintf(want, sizeof(want), "/%s", rel);
	placed(&m, 41, want);
	lx_cgmap_close(&m);
}

/* The walk is made only where it pays: four processes a cgroup or more,
 * counted from the root's nr_descendants; and not before a scan counted. */
static void walked_only_when_it_pays(void **state)
{
	(void)state;
	struct lx_cgmap m;
	tree("pays");
	walk(&m, 31);   /* 8 cgroups */
	assert_false(m.walked);
	placed(&m, 3, NULL);
	lx_cgmap_close(&m);
	walk(&m, 32);
	assert_true(m.walked);
	lx_cgmap_close(&m);
	walk(&m, 0);
	assert_false(m.walked);
	lx_cgmap_close(&m);
	assert_false(lx_cgmap_path(NULL, 1, (char[8]){ 0 }, 8));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(paths_as_proc_shows_them),
		cmocka_unit_test(long_paths_left_to_proc),
		cmocka_unit_test(walked_only_when_it_pays),
	};
	if (tmpdir_make("cgmap") < 0)
		return 1;
	int failed = cmocka_run_group_tests(tests, NULL, NULL);
	return tmpdir_remove() < 0 ? 1 : failed;
}
