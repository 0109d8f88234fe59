// SPDX-License-Identifier: GPL-2.0-or-later
/* One build per Xen minor: a build accepts the hypervisor and the
 * libxenctrl of exactly its own minor, refuses any other and garbage, and
 * a build for a minor not checked (4.19, 4.21) refuses to start, each time with one
 * line naming both versions, and --version says what the check checks. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "xgtop/xen/xen_version.h"

#define B417 "libxenctrl.so.4.17"
#define XV(maj, min) ((long)(maj) << 16 | (min))

/* One line, and it contains every string given. */
static void says(const struct xg_err *e, const char *a, const char *b, const char *c)
{
	assert_null(strchr(e->msg, '\n'));
	assert_true(!strncmp(e->msg, "xen: ", 5));
	const char *want[] = { a, b, c };
	for (int i = 0; i < 3; i++)
		if (want[i] && !strstr(e->msg, want[i])) {
			print_error("message \"%s\" lacks \"%s\"\n", e->msg, want[i]);
			fail();
		}
}

static void sonames(void **state)
{
	(void)state;
	struct xen_ver v = { 0, 0 };
	assert_int_equal(xen_ver_from_soname("libxenctrl.so.4.17", &v), 0);
	assert_int_equal(v.major, 4);
	assert_int_equal(v.minor, 17);
	assert_int_equal(xen_ver_from_soname("/usr/lib/x86_64-linux-gnu/libxenctrl.so.4.20.0", &v), 0);
	assert_int_equal(v.minor, 20);
	static const char *bad[] = {
		"libxenctrl.so", "libxenctrl.so.", "libxenctrl.so.4", "libxenctrl.so.4.", "libxenctrl.so.4.17.",
		"libxenctrl.so.4.17-pre", "libxenctrl.so.4.17.0.1", "libxenctrl.so.x.y", "libxenctrl.so.4.x",
		"libxenctrl.so.123456.1", "libxenctrl.so.4.65536", "libxenstore.so.4.17", "xenctrl.so.4.17",
		"libxenctrl.so.-4.17", "libxenctrl.so.4.17/libc.so.6", "",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		v.major = 99;
		if (!xen_ver_from_soname(bad[i], &v)) {
			print_error("\"%s\" taken for %u.%u\n", bad[i], v.major, v.minor);
			fail();
		}
		assert_int_equal(v.major, 99);
	}
	assert_int_equal(xen_ver_from_soname(NULL, &v), -1);
}

static void same_minor_accepted(void **state)
{
	(void)state;
	struct xg_err e = { 0 };
	assert_int_equal(xen_ver_check_hypervisor(B417, XV(4, 17), ".6-pre", 16, &e), 0);
	assert_int_equal(xen_ver_check_hypervisor(B417, XV(4, 17), "", 16, &e), 0);
	assert_int_equal(xen_ver_check_hypervisor(B417, XV(4, 17), NULL, 0, &e), 0);
	/* The extraversion is not NUL-terminated when it fills its 16 bytes. */
	char full[16];
	memset(full, 'x', sizeof(full));
	assert_int_equal(xen_ver_check_hypervisor(B417, XV(4, 17), full, sizeof(full), &e), 0);
	assert_int_equal(xen_ver_check_hypervisor("libxenctrl.so.4.20", XV(4, 20), ".2", 16, &e), 0);
}

static void other_minor_refused(void **state)
{
	(void)state;
	struct xg_err e = { 0 };
	assert_int_equal(xen_ver_check_hypervisor(B417, XV(4, 20), ".2", 16, &e), -1);
	assert_string_equal(e.msg, "xen: this xgtop is built for Xen 4.17 (libxenctrl.so.4.17), the "
	                    "hypervisor is Xen 4.20.2: use an xgtop built for Xen 4.20 (see README, "
	                    "Xen versions)");
	assert_int_equal(xen_ver_check_hypervisor("libxenctrl.so.4.20", XV(4, 17), ".6-pre", 16, &e), -1);
	says(&e, "built for Xen 4.20 (libxenctrl.so.4.20)", "hypervisor is Xen 4.17.6-pre", "built for Xen 4.17");
	/* Neighbours of a build are refused as well: no range is assumed. */
	assert_int_equal(xen_ver_check_hypervisor(B417, XV(4, 16), "", 16, &e), -1);
	says(&e, "Xen 4.17", "hypervisor is Xen 4.16", NULL);
	assert_int_equal(xen_ver_check_hypervisor(B417, XV(4, 18), "", 16, &e), -1);
	says(&e, "Xen 4.17", "hypervisor is Xen 4.18", NULL);
	assert_int_equal(xen_ver_check_hypervisor(B417, XV(5, 17), "", 16, &e), -1);
	says(&e, "Xen 4.17", "hypervisor is Xen 5.17", NULL);
	assert_int_equal(xen_ver_check_hypervisor(B417, XV(3, 4), "", 16, &e), -1);
}

static void versions_not_built_for_refused(void **state)
{
	(void)state;
	struct xg_err e = { 0 };
	static const char *builds[] = { B417, "libxenctrl.so.4.20" };
	for (size_t i = 0; i < 2; i++) {
		assert_int_equal(xen_ver_check_hypervisor(builds[i], XV(4, 19), ".5", 16, &e), -1);
		says(&e, builds[i], "hypervisor is Xen 4.19.5", "use an xgtop built for Xen 4.19");
		assert_int_equal(xen_ver_check_hypervisor(builds[i], XV(4, 21), "", 16, &e), -1);
		says(&e, builds[i], "hypervisor is Xen 4.21", "use an xgtop built for Xen 4.21");
	}
	/* A build against an unchecked minor's libxenctrl (4.18, 4.19, 4.21)
	 * refuses even its own minor: its structures were never compared. */
	static const unsigned other[] = { 16, 18, 19, 21 };
	for (size_t i = 0; i < 4; i++) {
		char so[32];
		snprintf(so, sizeof(so), "libxenctrl.so.4.%u", other[i]);
		assert_int_equal(xen_ver_check_hypervisor(so, XV(4, other[i]), ".5", 16, &e), -1);
		says(&e, so, "has not been checked against", "(checked: 4.17, 4.20)");
		assert_int_equal(xen_ver_check_library(so, "", true, NULL, &e), -1);
		says(&e, so, "has not been checked against", NULL);
		assert_false(xen_ver_checked((struct xen_ver){ 4, other[i] }));
	}
	assert_true(xen_ver_checked((struct xen_ver){ 4, 17 }));
	assert_true(xen_ver_checked((struct xen_ver){ 4, 20 }));
	assert_false(xen_ver_checked((struct xen_ver){ 5, 17 }));
	/* The checked minors: each accepts itself alone. */
	assert_int_equal(xen_ver_check_hypervisor("libxenctrl.so.4.20", XV(4, 20), ".0", 16, &e), 0);
	assert_int_equal(xen_ver_check_hypervisor("libxenctrl.so.4.20", XV(4, 17), "", 16, &e), -1);
	assert_int_equal(xen_ver_check_library("libxenctrl.so.4.20", "VERS_4.20.0", true,
	                                       "/usr/lib/x86_64-linux-gnu/libxenctrl.so.4.20.0", &e), 0);
}

static void garbage_refused(void **state)
{
	(void)state;
	struct xg_err e = { 0 };
	/* What the hypervisor answers. */
	static const long bad[] = { -1, 0, XV(0, 17), 0x100000000L, -XV(4, 17), 17 };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(xen_ver_check_hypervisor(B417, bad[i], "", 16, &e), -1);
		says(&e, "which is no Xen release", "built for Xen 4.17", NULL);
	}
	/* An extraversion with control bytes is shown without them. */
	const char esc[16] = ".2\x1b[2J\x07";
	assert_int_equal(xen_ver_check_hypervisor(B417, XV(4, 20), esc, sizeof(esc), &e), -1);
	says(&e, "hypervisor is Xen 4.20.2?[2J?:", NULL, NULL);
	/* A build that does not know its own version accepts nothing. */
	static const char *builds[] = { "libxenctrl.so", "libxenctrl.so.4", "libxenctrl.so.x.y" };
	for (size_t i = 0; i < 3; i++) {
		assert_int_equal(xen_ver_check_hypervisor(builds[i], XV(4, 17), "", 16, &e), -1);
		says(&e, "does not know which Xen it was built for", builds[i], NULL);
		assert_int_equal(xen_ver_check_library(builds[i], "", true, NULL, &e), -1);
		says(&e, "does not know which Xen it was built for", NULL, NULL);
	}
	assert_int_equal(xen_ver_check_hypervisor(NULL, XV(4, 17), "", 16, &e), -1);
	says(&e, "built without the Xen libraries", NULL, NULL);
}

static void library(void **state)
{
	(void)state;
	struct xg_err e = { 0 };
	const char *lib417 = "/usr/lib/x86_64-linux-gnu/libxenctrl.so.4.17.0";
	/* Debian's: the version node and the file of that version. */
	assert_int_equal(xen_ver_check_library(B417, "VERS_4.17.0", true, lib417, &e), 0);
	/* A file name that names no version, or no file: the node vouches. */
	assert_int_equal(xen_ver_check_library(B417, "VERS_4.17.0", true, "/opt/xen/ctrl.so", &e), 0);
	assert_int_equal(xen_ver_check_library(B417, "VERS_4.17.0", true, NULL, &e), 0);
	/* A build whose library had no symbol versions: the file alone. */
	assert_int_equal(xen_ver_check_library(B417, "", false, lib417, &e), 0);
	/* 4.20's library under 4.17's soname (a symlink made to "fix" it). */
	assert_int_equal(xen_ver_check_library(B417, "VERS_4.17.0", false,
	                                       "/usr/lib/libxenctrl.so.4.20.0", &e), -1);
	assert_string_equal(e.msg, "xen: this xgtop is built for Xen 4.17 (libxenctrl.so.4.17), but the "
	                    "libxenctrl.so.4.17 it loaded is Xen 4.20's (/usr/lib/libxenctrl.so.4.20.0): "
	                    "install Xen 4.17's tools libraries, or use an xgtop built for Xen 4.20 "
	                    "(see README, Xen versions)");
	/* Even when the node check could not tell (an unversioned library). */
	assert_int_equal(xen_ver_check_library(B417, "", true, "/usr/lib/libxenctrl.so.4.19.1", &e), -1);
	says(&e, "is Xen 4.19's", "use an xgtop built for Xen 4.19", NULL);
	/* Another version's library whose file says nothing. */
	assert_int_equal(xen_ver_check_library(B417, "VERS_4.17.0", false, "/opt/ctrl.so", &e), -1);
	says(&e, "built for Xen 4.17 (libxenctrl.so.4.17)", "(/opt/ctrl.so)", "does not define VERS_4.17.0");
	assert_int_equal(xen_ver_check_library(B417, "VERS_4.17.0", false, NULL, &e), -1);
	says(&e, "path unknown", NULL, NULL);
}

/* --version says what the checks check: the same soname, the same parse. */
static void version_line(void **state)
{
	(void)state;
	char buf[160];
	xen_ver_describe(B417, buf, sizeof(buf));
	assert_string_equal(buf, "Xen 4.17 (loads libxenctrl.so.4.17)");
	xen_ver_describe("libxenctrl.so.4.20", buf, sizeof(buf));
	assert_string_equal(buf, "Xen 4.20 (loads libxenctrl.so.4.20)");
	xen_ver_describe("libxenctrl.so.4.19", buf, sizeof(buf));
	assert_string_equal(buf, "Xen 4.19 (loads libxenctrl.so.4.19), which xgtop has not been checked "
	                    "against: the Xen source refuses it (checked: 4.17, 4.20)");
	xen_ver_describe("libxenctrl.so", buf, sizeof(buf));
	assert_string_equal(buf, "Xen version unknown (loads libxenctrl.so)");
	xen_ver_describe(NULL, buf, sizeof(buf));
	assert_string_equal(buf, "Xen: not built in (no Xen tools libraries at build time)");
	/* This build's: a Xen build knows its version, and its library's
	 * symbol version (when it has one) is that version's. */
	const char *so = xen_build_soname();
	if (so) {
		struct xen_ver v;
		assert_int_equal(xen_ver_from_soname(so, &v), 0);
		const char *node = xen_build_vernode();
		assert_non_null(node);
		if (*node) {
			char want[32];
			snprintf(want, sizeof(want), "VERS_%u.%u.", v.major, v.minor);
			assert_true(!strncmp(node, want, strlen(want)));
		}
		struct xg_err e = { 0 };
		assert_int_equal(xen_ver_check_hypervisor(so, XV(v.major, v.minor), "", 16, &e), 0);
	} else {
		assert_null(xen_build_vernode());
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(sonames),
		cmocka_unit_test(same_minor_accepted),
		cmocka_unit_test(other_minor_refused),
		cmocka_unit_test(versions_not_built_for_refused),
		cmocka_unit_test(garbage_refused),
		cmocka_unit_test(library),
		cmocka_unit_test(version_line),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
