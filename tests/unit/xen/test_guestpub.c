// SPDX-License-Identifier: GPL-2.0-or-later
/* Guest-published counters: what dom0 accepts from an untrusted guest
 * (numbers only, bounded, known format), the agent's format read back, and
 * dom0's monotonic totals across restarts, resets and stale agents. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "xgtop/xen/xen_guestpub.h"

#define S 1000000000ull

/* Values as xenstore would hand them over (no NUL needed). */
struct kv {
	const char *val[XG_GP_NKEYS];
	size_t len[XG_GP_NKEYS];
};

static void put(struct kv *kv, int k, const char *v)
{
	kv->val[k] = v;
	kv->len[k] = v ? strlen(v) : 0;
}

static struct kv good(void)
{
	struct kv kv;
	memset(&kv, 0, sizeof(kv));
	put(&kv, XG_GP_K_VERSION, "1");
	put(&kv, XG_GP_K_EPOCH, "1764470000000000000");
	put(&kv, XG_GP_K_TIME, "5000000000");
	put(&kv, XG_GP_K_INTERVAL, "1000");
	put(&kv, XG_GP_K_REF, "100");
	put(&kv, XG_GP_K_MISS, "7");
	put(&kv, XG_GP_K_EVENTS, "page-faults/context-switches");
	return kv;
}

/* A counter value as the guest wrote it (len bytes of s): its number, or
 * false when dom0 rejects the publication for it. */
static bool counter(const char *s, size_t len, uint64_t *v)
{
	struct xg_guestpub p;
	struct kv kv = good();
	kv.val[XG_GP_K_REF] = s;
	kv.len[XG_GP_K_REF] = len;
	if (xen_gp_parse(&p, kv.val, kv.len))
		return false;
	*v = p.v[XG_PMU_REF];
	return true;
}

static void numbers_only(void **state)
{
	(void)state;
	uint64_t v;
	assert_true(counter("0", 1, &v) && v == 0);
	assert_true(counter("18446744073709551615", 20, &v) && v == UINT64_MAX);
	assert_false(counter("18446744073709551616", 20, &v));   /* overflow */
	assert_false(counter("000000000000000000001", 21, &v));  /* too long */
	assert_false(counter("", 0, &v));
	assert_false(counter("-1", 2, &v));
	assert_false(counter("+1", 2, &v));
	assert_false(counter(" 1", 2, &v));
	assert_false(counter("1e3", 3, &v));
	assert_false(counter("0x10", 4, &v));
	assert_false(counter("12\n", 3, &v));
	/* Only len bytes count: "12" of "123". */
	assert_true(counter("123", 2, &v) && v == 12);
	/* An embedded NUL is not a digit. */
	assert_false(counter("1\0" "2", 3, &v));
}

static void parse_checks_everything(void **state)
{
	(void)state;
	struct xg_guestpub p;
	struct kv kv = good();
	assert_null(xen_gp_parse(&p, kv.val, kv.len));
	assert_int_equal(p.v[XG_PMU_REF], 100);
	assert_int_equal(p.v[XG_PMU_MISS], 7);
	assert_int_equal(p.have, 3);
	assert_string_equal(p.events, "page-faults/context-switches");

	kv = good();
	put(&kv, XG_GP_K_VERSION, NULL);
	assert_non_null(strstr(xen_gp_parse(&p, kv.val, kv.len), "version missing"));
	kv = good();
	put(&kv, XG_GP_K_VERSION, "2");
	assert_non_null(strstr(xen_gp_parse(&p, kv.val, kv.len), "unknown format"));
	kv = good();
	put(&kv, XG_GP_K_TIME, "12abc");
	assert_non_null(xen_gp_parse(&p, kv.val, kv.len));
	kv = good();
	put(&kv, XG_GP_K_MISS, "-5");
	assert_non_null(strstr(xen_gp_parse(&p, kv.val, kv.len), "not a decimal number"));
	kv = good();
	put(&kv, XG_GP_K_INTERVAL, "0");
	assert_non_null(strstr(xen_gp_parse(&p, kv.val, kv.len), "interval_ms"));
	/* A label with terminal escapes is replaced, the numbers still count. */
	kv = good();
	put(&kv, XG_GP_K_EVENTS, "\x1b[2Jowned");
	assert_null(xen_gp_parse(&p, kv.val, kv.len));
	assert_string_equal(p.events, "(no readable label)");
	char longlabel[200];
	memset(longlabel, 'a', sizeof(longlabel) - 1);
	longlabel[sizeof(longlabel) - 1] = 0;
	put(&kv, XG_GP_K_EVENTS, longlabel);
	assert_null(xen_gp_parse(&p, kv.val, kv.len));
	assert_string_equal(p.events, "(no readable label)");
	/* Absent counters are simply not counted. */
	kv = good();
	put(&kv, XG_GP_K_REF, NULL);
	assert_null(xen_gp_parse(&p, kv.val, kv.len));
	assert_int_equal(p.have, 2);
}

static void agent_format_reads_back(void **state)
{
	(void)state;
	struct xg_guestpub a;
	memset(&a, 0, sizeof(a));
	a.epoch = 42;
	a.time_ns = UINT64_MAX;
	a.interval_ms = 500;
	a.v[XG_PMU_REF] = 1;
	a.v[XG_PMU_INSTR] = 123456789012345ull;
	a.have = 1u << XG_PMU_REF | 1u << XG_PMU_INSTR;
	snprintf(a.events, sizeof(a.events), "cache\tevents");
	char val[XG_GP_NKEYS][XG_GP_VAL_MAX];
	xen_gp_format(&a, val);
	assert_string_equal(val[XG_GP_K_MISS], "");          /* to be removed */
	assert_string_equal(val[XG_GP_K_EVENTS], "cache?events");
	struct kv kv;
	memset(&kv, 0, sizeof(kv));
	for (int k = 0; k < XG_GP_NKEYS; k++)
		put(&kv, k, val[k][0] ? val[k] : NULL);
	struct xg_guestpub b;
	assert_null(xen_gp_parse(&b, kv.val, kv.len));
	assert_true(b.epoch == 42 && b.time_ns == UINT64_MAX && b.interval_ms == 500);
	assert_int_equal(b.have, a.have);
	assert_true(b.v[XG_PMU_INSTR] == a.v[XG_PMU_INSTR]);
	assert_string_equal(b.events, "cache?events");
}

static struct xg_guestpub pub(uint64_t epoch, uint64_t t, uint64_t ref, uint64_t miss)
{
	struct xg_guestpub p;
	memset(&p, 0, sizeof(p));
	p.epoch = epoch;
	p.time_ns = t;
	p.interval_ms = 1000;
	p.v[XG_PMU_REF] = ref;
	p.v[XG_PMU_MISS] = miss;
	p.have = 3;
	return p;
}

static void totals_stay_monotonic(void **state)
{
	(void)state;
	struct xg_gp_state st;
	memset(&st, 0, sizeof(st));
	struct xg_guestpub p = pub(1, 10 * S, 1000, 10);
	/* The agent's counts since its start are not ours: dom0 starts at 0. */
	assert_null(xen_gp_fold(&st, &p, 100 * S));
	assert_int_equal(st.total[XG_PMU_REF], 0);
	p = pub(1, 11 * S, 1500, 15);
	assert_null(xen_gp_fold(&st, &p, 101 * S));
	assert_int_equal(st.total[XG_PMU_REF], 500);
	assert_int_equal(st.total[XG_PMU_MISS], 5);
	/* The agent restarts (new epoch, counts from 0): a new baseline. */
	p = pub(2, 12 * S, 20, 1);
	assert_string_equal(xen_gp_fold(&st, &p, 102 * S), XG_GP_WHY_RESET);
	assert_int_equal(st.total[XG_PMU_REF], 500);
	p = pub(2, 13 * S, 220, 3);
	assert_null(xen_gp_fold(&st, &p, 103 * S));
	assert_int_equal(st.total[XG_PMU_REF], 700);
	/* A counter that goes back under the same epoch (a lying or broken
	 * guest): baseline, never a huge unsigned delta. */
	p = pub(2, 14 * S, 100, 4);
	assert_string_equal(xen_gp_fold(&st, &p, 104 * S), XG_GP_WHY_RESET);
	assert_int_equal(st.total[XG_PMU_REF], 700);
	/* Guest time going back (rebooted guest, same agent epoch by chance). */
	p = pub(2, 1 * S, 200, 5);
	assert_string_equal(xen_gp_fold(&st, &p, 105 * S), XG_GP_WHY_RESET);
	p = pub(2, 2 * S, 300, 5);
	assert_null(xen_gp_fold(&st, &p, 106 * S));
	assert_int_equal(st.total[XG_PMU_REF], 800);
}

static void stale_agent(void **state)
{
	(void)state;
	struct xg_gp_state st;
	memset(&st, 0, sizeof(st));
	struct xg_guestpub p = pub(1, 10 * S, 1000, 10);
	assert_null(xen_gp_fold(&st, &p, 100 * S));
	/* Same publication read again soon: fine, nothing added. */
	assert_null(xen_gp_fold(&st, &p, 102 * S));
	/* 3 intervals + 2 s without a write: stale. */
	assert_string_equal(xen_gp_fold(&st, &p, 106 * S), XG_GP_WHY_STALE);
	p = pub(1, 20 * S, 1100, 11);
	assert_null(xen_gp_fold(&st, &p, 107 * S));
	assert_int_equal(st.total[XG_PMU_REF], 100);
}

static void fill_marks_guest_reported(void **state)
{
	(void)state;
	struct xg_gp_state st;
	memset(&st, 0, sizeof(st));
	struct xg_guestpub p = pub(1, S, 5, 1);
	p.have = 1;   /* only references */
	xen_gp_fold(&st, &p, S);
	struct xg_sample s;
	sample_init(&s);
	struct xg_dom *d = sample_add_dom(&s, 3);
	xen_gp_fill(&s, d, &st);
	assert_int_equal(d->guest_reported, 1);
	assert_true(dom_has(d, XG_F_LLC_REF));
	assert_false(dom_has(d, XG_F_LLC_MISS));
	assert_string_equal(dom_why(&s, d, XG_F_LLC_MISS), XG_GP_WHY_ABSENT);
	sample_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(numbers_only),
		cmocka_unit_test(parse_checks_everything),
		cmocka_unit_test(agent_format_reads_back),
		cmocka_unit_test(totals_stay_monotonic),
		cmocka_unit_test(stale_agent),
		cmocka_unit_test(fill_marks_guest_reported),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
