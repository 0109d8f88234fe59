// SPDX-License-Identifier: GPL-2.0-or-later
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "xgtop/model/source.h"
#include "xgtop/trace/xentrace.h"

extern const struct xg_source_ops source_trace_ops;

static void w32(FILE *f, uint32_t v) { fwrite(&v, 4, 1, f); }
static void rs(FILE *f, uint64_t tsc, uint32_t dom, uint32_t vcpu, unsigned old, unsigned nw, int cont)
{
	w32(f, (cont ? XT_CONTINUE_RUNNING : (XT_RUNSTATE_CHANGE | old << 8 | nw << 4)) | 1u << 28 | 1u << 31);
	w32(f, (uint32_t)tsc);
	w32(f, (uint32_t)(tsc >> 32));
	w32(f, dom << 16 | vcpu);
}
static void chunk(FILE *f, uint32_t cpu, uint32_t nrec)
{
	w32(f, XT_CPU_CHANGE | 2u << 28);
	w32(f, cpu);
	w32(f, 16 * nrec);
}

static const uint64_t MS = 1000000;   /* cycles at 1 GHz */

static void steps_windows(void **state)
{
	(void)state;
	char path[] = "/tmp/xgtop-trace-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	FILE *f = fdopen(fd, "wb");
	chunk(f, 0, 5);
	rs(f, 1 * MS, 40, 0, 1, 0, 0);
	rs(f, 3 * MS + MS / 2, 40, 0, 0, 2, 0);
	rs(f, 4 * MS, 40, 0, 2, 1, 0);
	rs(f, 4 * MS + MS / 2, 40, 0, 1, 0, 0);
	rs(f, 6 * MS, 40, 0, 0, 0, 1);
	chunk(f, 1, 3);
	rs(f, 1 * MS, 32767, 1, 0, 1, 0);
	rs(f, 1 * MS, 32000, 1, 1, 0, 0);
	rs(f, 6 * MS, 32000, 1, 0, 0, 1);   /* ran 5 ms without a change */
	fclose(f);

	struct xg_config cfg;
	config_defaults(&cfg);
	cfg.trace_file = path;
	cfg.window_s = 0.001;
	cfg.trace_cpu_hz = 1e9;
	struct xg_source *src;
	struct xg_err err;
	assert_int_equal(source_trace_ops.open(&src, &cfg, &err), 0);
	assert_int_equal(source_trace_ops.next_gap_ns(src), 1000000);
	struct xg_sample prev, cur;
	sample_init(&prev);
	sample_init(&cur);
	/* Expected per-window ns for d40: run, wait, blocked. */
	static const uint64_t want[5][3] = {
		{ 1000000, 0, 0 }, { 1000000, 0, 0 }, { 500000, 0, 500000 },
		{ 500000, 500000, 0 }, { 1000000, 0, 0 },
	};
	assert_int_equal(source_trace_ops.collect(src, &prev, &err), XG_COLLECT_OK);
	assert_int_equal(prev.host.mono_ns, 1 * MS);   /* TSC 1 ms at 1 GHz */
	assert_int_equal(prev.ndom, 2);    /* idle is not a domain */
	for (int w = 0; w < 5; w++) {
		sample_clear(&cur);
		assert_int_equal(source_trace_ops.collect(src, &cur, &err), XG_COLLECT_OK);
		assert_int_equal(cur.host.mono_ns - prev.host.mono_ns, 1000000);
		const struct xg_dom *a = sample_find(&cur, 40), *pa = sample_find(&prev, 40);
		const struct xg_dom *b = sample_find(&cur, 32000), *pb = sample_find(&prev, 32000);
		assert_non_null(a);
		assert_non_null(b);
		assert_int_equal(a->v[XG_F_RUN_NS] - pa->v[XG_F_RUN_NS], want[w][0]);
		assert_int_equal(a->v[XG_F_WAIT_NS] - pa->v[XG_F_WAIT_NS], want[w][1]);
		assert_int_equal(a->v[XG_F_BLK_NS] - pa->v[XG_F_BLK_NS], want[w][2]);
		assert_int_equal(a->v[XG_F_CPU_NS], a->v[XG_F_RUN_NS]);
		/* The silent vCPU is 100 % running in every window. */
		assert_int_equal(b->v[XG_F_RUN_NS] - pb->v[XG_F_RUN_NS], 1000000);
		assert_int_equal(b->vcpu_count, 1);
		assert_int_equal(sample_vcpus(&cur, b)[0].id, 1);
		assert_int_equal(sample_vcpus(&cur, b)[0].sched_ns[0], b->v[XG_F_RUN_NS]);
		assert_false(dom_has(a, XG_F_MEM));
		assert_string_equal(dom_why(&cur, a, XG_F_NET_RX_BYTES), "not in a trace file");
		sample_copy(&prev, &cur);
	}
	sample_clear(&cur);
	assert_int_equal(source_trace_ops.collect(src, &cur, &err), XG_COLLECT_EOF);
	source_trace_ops.close(src);
	sample_free(&prev);
	sample_free(&cur);
	unlink(path);
}

static void needs_a_file(void **state)
{
	(void)state;
	struct xg_config cfg;
	struct xg_source *src;
	struct xg_err err;
	config_defaults(&cfg);
	assert_int_equal(source_trace_ops.open(&src, &cfg, &err), -1);
	assert_non_null(strstr(err.msg, "--source trace FILE"));
	cfg.trace_file = "/nonexistent/trace.bin";
	assert_int_equal(source_trace_ops.open(&src, &cfg, &err), -1);
	assert_non_null(strstr(err.msg, "/nonexistent/trace.bin"));
	assert_false(source_trace_ops.probe());
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(steps_windows),
		cmocka_unit_test(needs_a_file),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
