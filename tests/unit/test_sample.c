// SPDX-License-Identifier: GPL-2.0-or-later
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <string.h>

#include "xgtop/core/sample.h"

static void reasons_are_interned(void **state)
{
	(void)state;
	struct xg_sample s;
	sample_init(&s);
	struct xg_dom *d = sample_add_dom(&s, 7);
	dom_invalid(&s, d, XG_F_NET_RX_BYTES, "no /proc/net/dev");
	dom_invalid(&s, d, XG_F_NET_TX_BYTES, "no /proc/net/dev");
	assert_int_equal(d->why[XG_F_NET_RX_BYTES], d->why[XG_F_NET_TX_BYTES]);
	assert_string_equal(dom_why(&s, d, XG_F_NET_RX_BYTES), "no /proc/net/dev");
	dom_set(d, XG_F_CPU_NS, 5);
	assert_null(dom_why(&s, d, XG_F_CPU_NS));
	sample_free(&s);
}

static void sort_and_find(void **state)
{
	(void)state;
	struct xg_sample s, c;
	sample_init(&s);
	sample_init(&c);
	uint32_t ids[] = { 40000, 3, 32751, 0, 17 };
	for (size_t i = 0; i < 5; i++) {
		struct xg_dom *d = sample_add_dom(&s, ids[i]);
		sample_add_vcpus(&s, d, i + 1);
		if (ids[i] == 17)
			sample_add_socks(&s, d, 2)[1].v[XG_SOCK_L3_OCC] = 4096;
	}
	sample_invalid_all(&s, XG_F_LLC_REF, "no PMU");
	sample_sort(&s);
	sample_copy(&c, &s);
	for (size_t i = 1; i < c.ndom; i++)
		assert_true(c.dom[i - 1].id < c.dom[i].id);
	assert_non_null(sample_find(&c, 32751));
	assert_null(sample_find(&c, 5));
	const struct xg_dom *d = sample_find(&c, 40000);
	assert_int_equal(d->vcpu_count, 1);
	assert_string_equal(dom_why(&c, d, XG_F_LLC_REF), "no PMU");
	assert_int_equal(d->sock_count, 0);
	/* Per-socket entries follow their domain through sort and copy. */
	d = sample_find(&c, 17);
	assert_int_equal(d->sock_count, 2);
	assert_int_equal(sample_socks(&c, d)[1].v[XG_SOCK_L3_OCC], 4096);
	sample_free(&s);
	sample_free(&c);
}

/* pCPU entries are a pool of their own: copied, cleared with the sample. */
static void pcpus_copy_and_clear(void **state)
{
	(void)state;
	struct xg_sample s, c;
	sample_init(&s);
	sample_init(&c);
	struct xg_pcpu *p = sample_add_pcpus(&s, 3);
	assert_false(pcpu_has(&p[0], XG_PC_BUSY));
	p[2].id = 2;
	p[2].ns[XG_PC_IDLE] = 77;
	p[2].valid = 1u << XG_PC_IDLE;
	sample_add_pcpus(&s, 1)->id = 3;
	s.pcpu_why = sample_reason(&s, "busy time not given by Xen");
	sample_copy(&c, &s);
	assert_int_equal(c.npcpu, 4);
	assert_int_equal(c.pcpu[3].id, 3);
	assert_true(pcpu_has(&c.pcpu[2], XG_PC_IDLE) && c.pcpu[2].ns[XG_PC_IDLE] == 77);
	assert_string_equal(c.reason[c.pcpu_why], "busy time not given by Xen");
	sample_clear(&c);
	assert_int_equal(c.npcpu, 0);
	assert_int_equal(c.pcpu_why, 0);
	sample_free(&s);
	sample_free(&c);
}

/* The header names the cache events only when some domain has them. */
static void cache_counted_or_why(void **state)
{
	(void)state;
	struct xg_sample s;
	sample_init(&s);
	assert_null(sample_cache_uncounted(&s));      /* no domains: nothing to say */
	sample_add_dom(&s, 1);
	sample_invalid_all(&s, XG_F_LLC_MISS, "no hardware PMU (virtual machine without vPMU?)");
	struct xg_dom *d = sample_add_dom(&s, 2);
	assert_string_equal(sample_cache_uncounted(&s), "no hardware PMU (virtual machine without vPMU?)");
	dom_invalid(&s, &s.dom[0], XG_F_LLC_MISS, "perf_event_paranoid is 3");
	assert_string_equal(sample_cache_uncounted(&s), "perf_event_paranoid is 3");
	dom_set(d, XG_F_LLC_REF, 10);
	assert_null(sample_cache_uncounted(&s));
	sample_free(&s);
}

static void escape_names(void **state)
{
	(void)state;
	char b[64];
	assert_string_equal(xg_escape_name(b, sizeof(b), "web\x1b[2J"), "web\\x1b[2J");
	assert_string_equal(xg_escape_name(b, sizeof(b), "caf\xc3\xa9"), "caf\xc3\xa9");
	assert_string_equal(xg_escape_name(b, sizeof(b), "bad\xc3("), "bad\\xc3(");
	assert_string_equal(xg_escape_name(b, sizeof(b), "a\\b"), "a\\\\b");
	assert_string_equal(xg_escape_name(b, 6, "abcdefgh"), "abcde");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(reasons_are_interned),
		cmocka_unit_test(sort_and_find),
		cmocka_unit_test(pcpus_copy_and_clear),
		cmocka_unit_test(cache_counted_or_why),
		cmocka_unit_test(escape_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
