// SPDX-License-Identifier: GPL-2.0-or-later
/* dom0's reader of guest publications against a xenstored stand-in, with
 * domain 1 a well-behaved agent and domain 2 a hostile guest: huge values,
 * malformed numbers, escape sequences, thousands of keys, values changing
 * at every read, its tree deleted mid-read; then xenstore itself stopping.
 * Domain 2 gets `-` with the reason and a bounded number of reads; domain
 * 1 keeps its figures, and its totals carry on over a xenstore outage. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef HAVE_XEN
#include "xgtop/xen/xen_guestpub.h"
#include "xgtop/xen/xen_xsclient.h"
#include "../fake_xenstored.h"
#include "../tmpdir.h"

#define S 1000000000ull
/* One bracket of reads: time_ns, the other keys, time_ns again. */
#define BRACKET (XG_GP_NKEYS + 1)

static struct fxs srv;

struct world {
	struct xsc *xs;
	struct xg_gpreader *r;
	struct xg_sample s;
	uint64_t now;
};

static void key(uint32_t dom, const char *k, const char *v)
{
	char p[128];
	snprintf(p, sizeof(p), "/local/domain/%u/data/xgtop/%s", dom, k);
	fxs_put(&srv, p, v);
}

/* What the agent writes: counters ref and miss at guest time t seconds. */
static void publish(uint32_t dom, unsigned t, uint64_t ref, uint64_t miss)
{
	char b[32];
	key(dom, "version", "1");
	key(dom, "epoch", "1764470000000000000");
	snprintf(b, sizeof(b), "%u000000000", t);
	key(dom, "time_ns", b);
	key(dom, "interval_ms", "1000");
	snprintf(b, sizeof(b), "%" PRIu64, ref);
	key(dom, "llc_ref", b);
	snprintf(b, sizeof(b), "%" PRIu64, miss);
	key(dom, "llc_miss", b);
	key(dom, "events", "page-faults/context-switches");
	key(dom, "instr", NULL);    /* not counted */
	key(dom, "cycles", NULL);
	key(dom, "why", NULL);
}

static int setup(void **state)
{
	static struct world w;
	fxs_init(&srv);
	if (tmpdir_make("gpreader") || fxs_start(&srv, tmp("socket")))
		return -1;
	struct xg_err err = { 0 };
	w.xs = xen_xs_open(tmp("socket"), &err);
	if (!w.xs)
		return -1;
	xen_xs_set_limits(w.xs, 200, 1000);
	w.r = xen_gpr_open(w.xs);
	sample_init(&w.s);
	*state = &w;
	return 0;
}

static int teardown(void **state)
{
	struct world *w = *state;
	xen_gpr_close(w->r);
	xen_xs_close(w->xs);
	sample_free(&w->s);
	fxs_stop(&srv);
	fxs_free(&srv);
	return tmpdir_remove();
}

/* One refresh over domains 1 and 2, one second after the last. */
static void refresh(struct world *w)
{
	sample_clear(&w->s);
	for (uint32_t id = 1; id <= 2; id++) {
		struct xg_dom *d = sample_add_dom(&w->s, id);
		memset(d->handle, (int)id, sizeof(d->handle));
	}
	w->now += S;
	xen_xs_begin(w->xs);
	xen_gpr_collect(w->r, &w->s, w->now);
}

static const struct xg_dom *dom(const struct world *w, uint32_t id)
{
	return sample_find(&w->s, id);
}

/* What the stand-in does at every read from now on (NULL: nothing). */
static void hook(void (*fn)(struct fxs *, const char *))
{
	pthread_mutex_lock(&srv.lock);
	srv.on_read = fn;
	pthread_mutex_unlock(&srv.lock);
}

static void assert_why(const struct world *w, uint32_t id, const char *part)
{
	const struct xg_dom *d = dom(w, id);
	assert_false(dom_has(d, XG_F_LLC_REF));
	assert_false(dom_has(d, XG_F_LLC_MISS));
	const char *why = dom_why(&w->s, d, XG_F_LLC_REF);
	assert_non_null(why);
	if (!strstr(why, part))
		fail_msg("domain %u: reason '%s' lacks '%s'", id, why, part);
}

/* Domain 1's agent writes once more before each refresh: its total
 * grows by 10 references a second, whatever domain 2 does. */
static unsigned t1;
static void good_refresh(struct world *w)
{
	t1++;
	publish(1, t1, 100 + 10ull * t1, 5 + t1);
	refresh(w);
}

static void assert_good(const struct world *w)
{
	const struct xg_dom *d = dom(w, 1);
	assert_true(dom_has(d, XG_F_LLC_REF));
	assert_true(d->guest_reported);
}

static void hostile_values(void **state)
{
	struct world *w = *state;
	publish(2, 1, 1000, 10);
	good_refresh(w);
	good_refresh(w);
	assert_good(w);
	assert_true(dom_has(dom(w, 2), XG_F_LLC_REF));

	/* The largest value xenstore carries, in every key. */
	char huge[4097];
	memset(huge, '9', 4096);
	huge[4096] = 0;
	for (int k = 0; k < XG_GP_NKEYS; k++)
		key(2, xen_gp_key[k], huge);
	struct xen_gpr_stats st0, st;
	xen_gpr_stats(w->r, &st0);
	good_refresh(w);
	assert_good(w);
	assert_why(w, 2, "data/xgtop/version missing or not a number");
	xen_gpr_stats(w->r, &st);
	assert_int_equal(st.max_dom_reqs, BRACKET);
	assert_int_equal(st.max_dom_bytes, BRACKET * 4096);

	/* Malformed numbers. */
	static const char *const bad[] = { "-5", "1e9", "0x10", " 12", "18446744073709551616",
					   "1234567890123456789012345", "" };
	for (size_t i = 0; i < XG_ARRAY_LEN(bad); i++) {
		publish(2, 2 + (unsigned)i, 1000, 10);
		key(2, "llc_miss", bad[i]);
		good_refresh(w);
		assert_good(w);
		assert_why(w, 2, "not a decimal number of at most 20 digits");
	}

	/* Escape sequences in the label: figures, and a label that is not it. */
	publish(2, 20, 2000, 20);
	key(2, "events", "\033]0;owned\007\033[2J");
	key(2, "why", "\033[31mred");
	good_refresh(w);
	good_refresh(w);
	assert_good(w);
	assert_true(dom_has(dom(w, 2), XG_F_LLC_REF));
	assert_null(strchr(w->s.host.cache_events, '\033'));
	assert_non_null(strstr(w->s.host.cache_events, "events differ per guest"));

	/* Thousands of other keys under data/xgtop cost dom0 nothing. */
	for (int i = 0; i < 5000; i++) {
		char k[32];
		snprintf(k, sizeof(k), "junk/%d", i);
		key(2, k, "0");
	}
	publish(2, 21, 2100, 21);
	unsigned long before = fxs_reads(&srv);
	good_refresh(w);
	assert_int_equal(fxs_reads(&srv) - before, 2 * BRACKET);
	assert_good(w);
	assert_true(dom_has(dom(w, 2), XG_F_LLC_REF));
	assert_int_equal(dom(w, 2)->v[XG_F_LLC_REF], 1100);   /* since its first publication */
}

/* A guest that rewrites time_ns faster than dom0 reads: three brackets,
 * then the reason; nothing else waits for it. */
static void bump_time(struct fxs *f, const char *path)
{
	static unsigned long n;
	if (strcmp(path, "/local/domain/2/data/xgtop/time_ns"))
		return;
	char b[32];
	snprintf(b, sizeof(b), "%lu", 50000000000ul + ++n);
	fxs_put_locked(f, path, b, strlen(b));
}

static void churn(void **state)
{
	struct world *w = *state;
	publish(2, 40, 3000, 30);
	hook(bump_time);
	unsigned long before = fxs_reads(&srv);
	good_refresh(w);
	assert_int_equal(fxs_reads(&srv) - before, BRACKET + 3 * BRACKET);
	assert_good(w);
	assert_why(w, 2, "changed during every read");
	hook(NULL);
}

/* The guest deletes its tree while dom0 is half way through it. */
static void delete_tree(struct fxs *f, const char *path)
{
	if (strcmp(path, "/local/domain/2/data/xgtop/llc_ref"))
		return;
	for (int k = 0; k < XG_GP_NKEYS; k++) {
		char p[96];
		snprintf(p, sizeof(p), "/local/domain/2/data/xgtop/%s", xen_gp_key[k]);
		fxs_put_locked(f, p, NULL, 0);
	}
}

static void vanish(void **state)
{
	struct world *w = *state;
	publish(2, 60, 4000, 40);
	hook(delete_tree);
	good_refresh(w);
	assert_good(w);
	assert_why(w, 2, "run xgtop --agent in the guest");
	/* Back again: a new baseline, then figures. */
	hook(NULL);
	publish(2, 61, 4100, 41);
	good_refresh(w);
	publish(2, 62, 4200, 42);
	good_refresh(w);
	assert_true(dom_has(dom(w, 2), XG_F_LLC_REF));
}

/* xenstore stops answering mid-refresh: one bounded wait, the reason for
 * the domains not read, and domain 1's totals carry on afterwards. */
static void hang_at(struct fxs *f, const char *path)
{
	if (!strcmp(path, "/local/domain/1/data/xgtop/time_ns"))
		f->mode = FXS_HANG;   /* this one is answered, the next is not */
}

static void xenstore_stops(void **state)
{
	struct world *w = *state;
	good_refresh(w);
	uint64_t total = dom(w, 1)->v[XG_F_LLC_REF];
	hook(hang_at);
	uint64_t t0 = xg_now_mono_ns();
	good_refresh(w);
	double ms = (double)(xg_now_mono_ns() - t0) / 1e6;
	assert_true(ms >= 190 && ms < 900);
	assert_why(w, 1, "xenstore did not answer within 200 ms");
	assert_why(w, 2, "xenstore did not answer within 200 ms");
	assert_true(dom(w, 1)->guest_reported);
	hook(NULL);
	fxs_set_mode(&srv, FXS_NORMAL, 0);
	good_refresh(w);
	assert_good(w);
	/* Two agent writes of 10 references each since the last good read. */
	assert_int_equal(dom(w, 1)->v[XG_F_LLC_REF], total + 20);
	assert_true(dom_has(dom(w, 2), XG_F_LLC_REF));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(hostile_values),
		cmocka_unit_test(churn),
		cmocka_unit_test(vanish),
		cmocka_unit_test(xenstore_stops),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
#else
int main(void)
{
	printf("test_gpreader: built without Xen, nothing to test\n");
	return 0;
}
#endif
