// SPDX-License-Identifier: GPL-2.0-or-later
/* Pressure files (cpu.pressure, memory.pressure, io.pressure): the text of
 * real kernels, older kernels' cpu files without a full line, and hostile
 * text; then a cgroup directory of such files read into a domain's fields
 * with the reason for each one that is missing. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "../../../src/linux/linux_pressure.h"
#include "../tmpdir.h"

#include <sys/stat.h>

/* As a 6.18 kernel writes them (io.pressure of a busy host, a cgroup's
 * cpu.pressure under two spinners on one CPU). */
#define IO_TEXT "some avg10=0.40 avg60=0.57 avg300=0.84 total=80212050\n" \
		"full avg10=0.00 avg60=0.00 avg300=0.11 total=45389777\n"
#define CPU_TEXT "some avg10=17.39 avg60=3.14 avg300=0.65 total=3014243\n" \
		 "full avg10=0.54 avg60=0.09 avg300=0.02 total=88438\n"
/* A cgroup's cpu.pressure before Linux 5.13: the some line only. */
#define CPU_OLD "some avg10=0.00 avg60=0.00 avg300=0.00 total=12\n"

static void real_text(void **state)
{
	(void)state;
	struct lx_psi p;
	assert_true(lx_parse_pressure(IO_TEXT, &p));
	assert_true(p.ok[XG_PSI_SOME] && p.ok[XG_PSI_FULL]);
	assert_true(p.total_us[XG_PSI_SOME] == 80212050 && p.total_us[XG_PSI_FULL] == 45389777);
	assert_true(lx_parse_pressure(CPU_TEXT, &p));
	assert_true(p.total_us[XG_PSI_SOME] == 3014243 && p.total_us[XG_PSI_FULL] == 88438);
	assert_true(lx_parse_pressure(CPU_OLD, &p));
	assert_true(p.ok[XG_PSI_SOME] && !p.ok[XG_PSI_FULL] && p.total_us[XG_PSI_SOME] == 12);
	/* zero, no final newline, and the largest total whose ns still fit */
	assert_true(lx_parse_pressure("some avg10=0.00 avg60=0.00 avg300=0.00 total=0", &p));
	assert_true(p.ok[XG_PSI_SOME] && p.total_us[XG_PSI_SOME] == 0);
	assert_true(lx_parse_pressure("some avg10=0.00 total=18446744073709551\n", &p));
	assert_true(p.total_us[XG_PSI_SOME] == 18446744073709551ull);
	/* full first, and a line of a kind a later kernel may add */
	assert_true(lx_parse_pressure("full avg10=1.00 total=5\nsome avg10=2.00 total=9\n"
				      "peak avg10=0.00 total=3\n", &p));
	assert_true(p.total_us[XG_PSI_SOME] == 9 && p.total_us[XG_PSI_FULL] == 5);
}

static void hostile_text(void **state)
{
	(void)state;
	static const char *const bad[] = {
		"",
		"\n\n",
		"full avg10=0.00 avg60=0.00 avg300=0.00 total=7\n",       /* no some line */
		"some avg10=0.00 avg60=0.00 avg300=0.00\n",               /* no total */
		"some avg10=0.00 avg60=0.00 avg300=0.00 total=\n",
		"some avg10=0.00 avg60=0.00 avg300=0.00 total=-5\n",
		"some avg10=0.00 avg60=0.00 avg300=0.00 total=12x\n",
		"some avg10=0.00 avg60=0.00 avg300=0.00 total=12 \n",
		"some avg10=0.00 total=18446744073709552\n",               /* ns would wrap */
		"some avg10=0.00 total=99999999999999999999999\n",         /* past 2^64 */
		"some total=1\nsome total=2\n",                            /* twice */
		"some total=1\nfull total=2\nfull total=3\n",
		"some total=1\nfull avg10=0.00\n",                         /* a full line without total */
		"some avg10=0.00 xtotal=5\n",
		"sometotal=5\n",
		"SOME avg10=0.00 total=5\n",
		"some avg10=0.00 total=5\r\n",
		"\xff\xfe some total=5\n",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct lx_psi p;
		if (lx_parse_pressure(bad[i], &p))
			fail_msg("accepted: %s", bad[i]);
	}
}

static void put(const char *cg, const char *file, const char *text)
{
	char path[64];
	snprintf(path, sizeof(path), "%.20s/%.30s", cg, file);
	tmpdir_write(tmp(path), text);
}

/* A cgroup directory: cpu.pressure without a full line, memory.pressure
 * missing (PSI off for the cgroup), io.pressure as a kernel writes it. */
static void cgroup_files(void **state)
{
	(void)state;
	assert_int_equal(tmpdir_make("psi"), 0);
	assert_int_equal(mkdir(tmp("web"), 0700), 0);
	put("web", "cpu.pressure", CPU_OLD);
	put("web", "io.pressure", IO_TEXT);
	assert_int_equal(mkdir(tmp("bad"), 0700), 0);
	put("bad", "cpu.pressure", "some total=1\nsome total=2\n");
	put("bad", "memory.pressure", CPU_TEXT);
	put("bad", "io.pressure", IO_TEXT);
	int root = open(tmp(""), O_RDONLY | O_DIRECTORY);
	assert_true(root >= 0);

	struct lx_pressure on = { .on = true };
	struct xg_sample s;
	sample_init(&s);
	struct xg_dom *web = sample_add_dom(&s, 1);
	lx_pressure_fill(&on, &s, web, root, "web", NULL);
	assert_true(dom_has(web, XG_F_PSI_CPU_SOME) && web->v[XG_F_PSI_CPU_SOME] == 12000);
	assert_false(dom_has(web, XG_F_PSI_CPU_FULL));
	assert_non_null(strstr(dom_why(&s, web, XG_F_PSI_CPU_FULL), "5.13"));
	assert_false(dom_has(web, XG_F_PSI_MEM_SOME) || dom_has(web, XG_F_PSI_MEM_FULL));
	assert_non_null(strstr(dom_why(&s, web, XG_F_PSI_MEM_SOME), "memory.pressure missing"));
	assert_true(web->v[XG_F_PSI_IO_SOME] == 80212050000ull && web->v[XG_F_PSI_IO_FULL] == 45389777000ull);

	struct xg_dom *bad = sample_add_dom(&s, 2);
	lx_pressure_fill(&on, &s, bad, root, "bad", NULL);
	assert_false(dom_has(bad, XG_F_PSI_CPU_SOME) || dom_has(bad, XG_F_PSI_CPU_FULL));
	assert_non_null(strstr(dom_why(&s, bad, XG_F_PSI_CPU_SOME), "cpu.pressure: not the some/full lines"));
	assert_true(bad->v[XG_F_PSI_MEM_SOME] == 3014243000ull && bad->v[XG_F_PSI_MEM_FULL] == 88438000ull);

	/* a cgroup gone since it was listed, and a domain that is none */
	struct xg_dom *gone = sample_add_dom(&s, 3);
	lx_pressure_fill(&on, &s, gone, root, "gone", NULL);
	assert_false(dom_has(gone, XG_F_PSI_IO_SOME));
	assert_non_null(strstr(dom_why(&s, gone, XG_F_PSI_IO_SOME), "No such file"));
	struct xg_dom *proc = sample_add_dom(&s, 4);
	lx_pressure_fill(&on, &s, proc, root, NULL, "a process group has none");
	for (int f = XG_F_PSI_CPU_SOME; f <= XG_F_PSI_IO_FULL; f++)
		assert_string_equal(dom_why(&s, proc, (enum xg_field)f), "a process group has none");

	/* PSI off in the kernel: one reason for every domain, none read */
	struct lx_pressure off = { .on = false };
	struct xg_sample t;
	sample_init(&t);
	lx_pressure_absent(&off, &t);
	assert_true(host_has(&t.host, XG_H_PSI));
	struct xg_dom *x = sample_add_dom(&t, 1);
	lx_pressure_fill(&off, &t, x, root, "web", NULL);
	assert_false(dom_has(x, XG_F_PSI_IO_SOME));
	assert_non_null(strstr(dom_why(&t, x, XG_F_PSI_IO_SOME), "/proc/pressure"));
	sample_free(&t);
	sample_free(&s);
	close(root);
	tmpdir_remove();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(real_text),
		cmocka_unit_test(hostile_text),
		cmocka_unit_test(cgroup_files),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
