// SPDX-License-Identifier: GPL-2.0-or-later
/* The loader's half of the version guard, on real libraries: this host's
 * libxenctrl (the one the build found) is accepted; stand-ins compiled
 * here, found through LD_LIBRARY_PATH by a re-run of this test, are
 * refused when they are another Xen's (another symbol version under the
 * build's soname; another version's file behind a symlink named as the
 * build's) and accepted when they are the build's. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "xgtop/xen/xen_version.h"

#ifdef HAVE_XEN
#include "../../../src/xen/xen_api.h"
#include "../tmpdir.h"

static struct xen_ver built;
static char self[4096];

/* Child mode: load libxenctrl as the Xen source does, print the outcome. */
static int load_ctrl(void)
{
	struct xen_api x = { 0 };
	struct xg_err e = { 0 };
	int rc = xen_api_load(&x, 1u << XEN_LIB_CTRL, &e);
	printf("%s\n", rc ? e.msg : "loaded");
	xen_api_unload(&x);
	return rc ? 3 : 0;
}

/* Compiles a stand-in libxenctrl defining every function xgtop takes
 * from it, with soname so and symbol version node, as dir/file. */
static void stand_in(const char *sub, const char *file, const char *so, const char *node)
{
#define XEN_API_STUB(fn) "void " #fn "(void) {}\n"
	static const char src[] = XEN_API_CTRL(XEN_API_STUB);
#undef XEN_API_STUB
	char map[64], cmd[1024];
	assert_int_equal(tmpdir_write(tmp("stub.c"), src), 0);
	snprintf(map, sizeof(map), "%s { global: *; };\n", node);
	assert_int_equal(tmpdir_write(tmp("stub.map"), map), 0);
	snprintf(cmd, sizeof(cmd), "mkdir -p '%s' && cc -shared -fPIC -o '%s/%s' -Wl,-soname,%s "
	         "-Wl,--version-script='%s' '%s'", tmp(sub), tmp(sub), file, so, tmp("stub.map"),
	         tmp("stub.c"));
	assert_int_equal(system(cmd), 0);
}

/* Runs this test in child mode with LD_LIBRARY_PATH=dir/sub; its line. */
static int run_child(const char *sub, char *line, size_t n)
{
	char cmd[8192];
	snprintf(cmd, sizeof(cmd), "LD_LIBRARY_PATH='%s' '%s' --load-ctrl", tmp(sub), self);
	FILE *p = popen(cmd, "r");
	assert_non_null(p);
	if (!fgets(line, (int)n, p))
		line[0] = 0;
	line[strcspn(line, "\n")] = 0;
	int st = pclose(p);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void this_hosts_library_accepted(void **state)
{
	(void)state;
	char line[600];
	assert_int_equal(run_child("none", line, sizeof(line)), 0);
	assert_string_equal(line, "loaded");
}

static void another_symbol_version_refused(void **state)
{
	(void)state;
	char node[32], want[64], line[600];
	snprintf(node, sizeof(node), "VERS_%u.%u.0", built.major, built.minor + 3);
	stand_in("node", xen_build_soname(), xen_build_soname(), node);
	if (!*xen_build_vernode()) {
		/* The build's own library had no symbol version to ask for:
		 * then the soname (and the file's name) alone vouch. */
		assert_int_equal(run_child("node", line, sizeof(line)), 0);
		return;
	}
	assert_int_equal(run_child("node", line, sizeof(line)), 3);
	snprintf(want, sizeof(want), "does not define %s", xen_build_vernode());
	assert_non_null(strstr(line, want));
	assert_non_null(strstr(line, xen_build_soname()));
}

static void another_versions_file_refused(void **state)
{
	(void)state;
	char file[80], so[64], cmd[1024], want[64], line[600];
	snprintf(so, sizeof(so), "libxenctrl.so.%u.%u", built.major, built.minor + 3);
	snprintf(file, sizeof(file), "%s.0", so);
	stand_in("file", file, so, "VERS_0.0.0");
	snprintf(cmd, sizeof(cmd), "ln -sf '%s' '%s/%s'", file, tmp("file"), xen_build_soname());
	assert_int_equal(system(cmd), 0);
	assert_int_equal(run_child("file", line, sizeof(line)), 3);
	snprintf(want, sizeof(want), "is Xen %u.%u's", built.major, built.minor + 3);
	assert_non_null(strstr(line, want));
}

static void the_builds_version_accepted(void **state)
{
	(void)state;
	char line[600];
	const char *node = *xen_build_vernode() ? xen_build_vernode() : "VERS_X";
	stand_in("same", xen_build_soname(), xen_build_soname(), node);
	assert_int_equal(run_child("same", line, sizeof(line)), 0);
	assert_string_equal(line, "loaded");
}

static int setup(void **state)
{
	(void)state;
	ssize_t k = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (k <= 0 || tmpdir_make("xenapi"))
		return -1;
	self[k] = 0;
	return xen_ver_from_soname(xen_build_soname(), &built);
}

static int teardown(void **state)
{
	(void)state;
	char cmd[256];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) ? -1 : 0;
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "--load-ctrl"))
		return load_ctrl();
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(this_hosts_library_accepted),
		cmocka_unit_test(another_symbol_version_refused),
		cmocka_unit_test(another_versions_file_refused),
		cmocka_unit_test(the_builds_version_accepted),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}

#else /* !HAVE_XEN */

static void built_without_xen(void **state)
{
	(void)state;
	assert_null(xen_build_soname());
}

int main(void)
{
	const struct CMUnitTest tests[] = { cmocka_unit_test(built_without_xen) };
	return cmocka_run_group_tests(tests, NULL, NULL);
}

#endif
