// SPDX-License-Identifier: GPL-2.0-or-later
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "xgtop/model/sample.h"

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

/* One answer to "same domain as before?": a reused id (other handle or
 * generation) is never the same; a rename is the same object but not the
 * same row. */
static void same_domain(void **state)
{
	(void)state;
	struct xg_sample s;
	sample_init(&s);
	struct xg_dom *d = sample_add_dom(&s, 12);
	d->handle[15] = 0xab;
	d->gen = 2;
	snprintf(d->name, sizeof(d->name), "web");
	struct xg_dom_ident was = dom_ident(d);
	assert_int_equal(was.id, 12);
	assert_true(dom_same(&was, d, XG_SAME_OBJECT));
	assert_true(dom_same(&was, d, XG_SAME_ROW));

	snprintf(d->name, sizeof(d->name), "web-renamed");
	assert_true(dom_same(&was, d, XG_SAME_OBJECT));
	assert_false(dom_same(&was, d, XG_SAME_ROW));
	snprintf(d->name, sizeof(d->name), "web");

	d->handle[15] = 0xac;       /* the id reused by another domain */
	assert_false(dom_same(&was, d, XG_SAME_OBJECT));
	assert_false(dom_same(&was, d, XG_SAME_ROW));
	d->handle[15] = 0xab;
	d->gen = 3;                 /* the source saw it restart */
	assert_false(dom_same(&was, d, XG_SAME_OBJECT));
	d->gen = 2;
	d->id = 13;
	assert_false(dom_same(&was, d, XG_SAME_OBJECT));
	d->id = 12;
	assert_true(dom_same(&was, d, XG_SAME_ROW));

	/* Bytes after the NUL do not count; every byte before it does, in
	 * any word of the buffer. */
	d->name[6] = 'z';
	assert_true(dom_same(&was, d, XG_SAME_ROW));
	static const char *const names[] = { "vm-0001", "vm-00012", "vm-000123", "a-name-of-16-ch", "a-name-of-16-chr" };
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		memset(d->name, 0, sizeof(d->name));
		snprintf(d->name, sizeof(d->name), "%s", names[i]);
		was = dom_ident(d);
		assert_true(dom_same(&was, d, XG_SAME_ROW));
		size_t last = strlen(names[i]) - 1;
		d->name[last]++;
		assert_false(dom_same(&was, d, XG_SAME_ROW));
		d->name[last]--;
		d->name[last + 1] = 'q';   /* longer: the NUL moved */
		assert_false(dom_same(&was, d, XG_SAME_ROW));
	}

	/* A name filling the whole buffer, no NUL: compared to its end only. */
	memset(d->name, 'x', sizeof(d->name));
	was = dom_ident(d);
	assert_true(dom_same(&was, d, XG_SAME_ROW));
	d->name[XG_NAME_MAX - 1] = 'y';
	assert_false(dom_same(&was, d, XG_SAME_ROW));
	assert_true(dom_same(&was, d, XG_SAME_OBJECT));
	sample_free(&s);
}

/* Per-domain state across samples: kept for the same domain, fresh for a
 * new one or a reused id, dropped for a domain that is gone; a rename
 * keeps it only when the caller asks for the same object. */
struct entry {
	struct xg_dom_ident ident;
	int hits;
};

static struct entry *take(struct xg_carry *c, struct xg_sample *s, uint32_t id, uint8_t h,
			  const char *name, enum xg_same how)
{
	struct xg_dom *d = sample_add_dom(s, id);
	d->handle[0] = h;
	snprintf(d->name, sizeof(d->name), "%s", name);
	struct entry *e = carry_take(c, d, how);
	assert_int_equal(e->ident.id, id);
	assert_string_equal(e->ident.name, name);
	e->hits++;
	return e;
}

static void carry_state(void **state)
{
	(void)state;
	struct xg_carry c;
	carry_init(&c, sizeof(struct entry));
	struct xg_sample s;
	sample_init(&s);
	carry_begin(&c, 4);
	struct entry *first = take(&c, &s, 1, 1, "a", XG_SAME_OBJECT);
	take(&c, &s, 5, 5, "b", XG_SAME_OBJECT);
	take(&c, &s, 7, 7, "c", XG_SAME_ROW);
	take(&c, &s, 9, 9, "d", XG_SAME_OBJECT);
	assert_int_equal(first->hits, 1);    /* taking more did not move it */
	carry_end(&c);
	assert_int_equal(c.n, 4);

	sample_clear(&s);
	carry_begin(&c, 3);
	assert_int_equal(take(&c, &s, 1, 1, "a2", XG_SAME_OBJECT)->hits, 2);  /* renamed */
	assert_int_equal(take(&c, &s, 5, 6, "b", XG_SAME_OBJECT)->hits, 1);   /* id reused */
	assert_int_equal(take(&c, &s, 7, 7, "c2", XG_SAME_ROW)->hits, 1);     /* renamed */
	carry_end(&c);                       /* 9 is gone */
	assert_int_equal(c.n, 3);
	assert_int_equal(((struct entry *)carry_at(&c, 2))->ident.id, 7);

	sample_clear(&s);
	carry_begin(&c, 1);
	assert_int_equal(take(&c, &s, 9, 9, "d", XG_SAME_OBJECT)->hits, 1);
	carry_end(&c);
	carry_free(&c);
	sample_free(&s);
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
		cmocka_unit_test(same_domain),
		cmocka_unit_test(carry_state),
		cmocka_unit_test(escape_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
