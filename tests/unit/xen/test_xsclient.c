// SPDX-License-Identifier: GPL-2.0-or-later
/* dom0's xenstore reads against a xenstored stand-in: values and absent
 * nodes; a xenstored that stops answering costs one bounded wait per
 * refresh, not one per read; a refresh's reads stop at its budget; a
 * connection that broke (hang-up, an answer that is not xenstore's, the
 * daemon gone) is made again at the next refresh and reads work again. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef HAVE_XEN
#include "xgtop/xen/xen_xsclient.h"
#include "../fake_xenstored.h"
#include "../tmpdir.h"

static struct fxs srv;

static int setup(void **state)
{
	(void)state;
	fxs_init(&srv);
	if (tmpdir_make("xsclient") || fxs_start(&srv, tmp("socket")))
		return -1;
	fxs_put(&srv, "/local/domain/1/name", "guest-one");
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	fxs_stop(&srv);
	fxs_free(&srv);
	return tmpdir_remove();
}

static struct xsc *open_client(unsigned answer_ms, unsigned refresh_ms)
{
	struct xg_err err = { 0 };
	struct xsc *c = xen_xs_open(tmp("socket"), &err);
	assert_non_null(c);
	xen_xs_set_limits(c, answer_ms, refresh_ms);
	xen_xs_begin(c);
	return c;
}

static double ms_since(uint64_t t0)
{
	return (double)(xg_now_mono_ns() - t0) / 1e6;
}

#define NAME "/local/domain/1/name"

/* Reads domain 1's name: the rc, and with XEN_XS_OK the value checked. */
static enum xen_xs_rc read_name(struct xsc *c)
{
	char buf[32];
	size_t len;
	enum xen_xs_rc rc = xen_xs_read(c, NAME, buf, sizeof(buf), &len);
	if (rc == XEN_XS_OK)
		assert_string_equal(buf, "guest-one");
	return rc;
}

/* The read fails, for the reason that contains why. */
static void fails_with(struct xsc *c, const char *why)
{
	assert_int_equal(read_name(c), XEN_XS_FAIL);
	if (!strstr(xen_xs_why(c), why))
		fail_msg("reason '%s' lacks '%s'", xen_xs_why(c), why);
}

/* At the next refresh, the name is read again. */
static void recovers(struct xsc *c)
{
	xen_xs_begin(c);
	assert_int_equal(read_name(c), XEN_XS_OK);
}

static void values(void **state)
{
	(void)state;
	struct xsc *c = open_client(XEN_XS_ANSWER_MS, XEN_XS_REFRESH_MS);
	char buf[16];
	size_t len;
	assert_int_equal(xen_xs_read(c, NAME, buf, sizeof(buf), &len), XEN_XS_OK);
	assert_string_equal(buf, "guest-one");
	assert_int_equal(len, 9);
	assert_int_equal(xen_xs_read(c, "/local/domain/1/nothing", buf, sizeof(buf), &len), XEN_XS_ABSENT);
	assert_int_equal(len, 0);
	/* The largest value xenstore carries: read whole, kept cut. */
	char big[4096];
	memset(big, '7', sizeof(big));
	pthread_mutex_lock(&srv.lock);
	fxs_put_locked(&srv, "/big", big, sizeof(big));
	pthread_mutex_unlock(&srv.lock);
	assert_int_equal(xen_xs_read(c, "/big", buf, sizeof(buf), &len), XEN_XS_OK);
	assert_int_equal(len, sizeof(buf) - 1);
	assert_int_equal(strlen(buf), sizeof(buf) - 1);
	/* The connection is still in step: the next read gets its own answer. */
	assert_int_equal(read_name(c), XEN_XS_OK);
	struct xen_xs_stats st;
	xen_xs_stats(c, &st);
	assert_int_equal(st.requests, 4);
	assert_int_equal(st.max_answer, 4096);
	assert_int_equal(st.connects, 1);
	xen_xs_close(c);
	fxs_put(&srv, "/big", NULL);
}

/* A stopped xenstored: the first read waits answer_ms, the others of that
 * refresh fail at once; the next refresh reconnects and reads again. */
static void hang_then_recover(void **state)
{
	(void)state;
	struct xsc *c = open_client(200, 1000);
	fxs_set_mode(&srv, FXS_HANG, 0);
	uint64_t t0 = xg_now_mono_ns();
	fails_with(c, "did not answer within 200 ms");
	double waited = ms_since(t0);
	assert_true(waited >= 190 && waited < 900);
	t0 = xg_now_mono_ns();
	for (int i = 0; i < 50; i++)
		assert_int_equal(read_name(c), XEN_XS_FAIL);
	assert_true(ms_since(t0) < 50);
	/* Still stopped at the next refresh: one more wait, same reason. */
	xen_xs_begin(c);
	assert_int_equal(read_name(c), XEN_XS_FAIL);
	/* Long enough an outage to be told how long. */
	fxs_sleep_ms(700);
	xen_xs_begin(c);
	fails_with(c, "(failing for 1 s)");
	fxs_set_mode(&srv, FXS_NORMAL, 0);
	recovers(c);
	struct xen_xs_stats st;
	xen_xs_stats(c, &st);
	assert_int_equal(st.timeouts, 3);
	assert_int_equal(st.connects, 4);
	xen_xs_close(c);
}

/* Answers that come, but slowly: the refresh stops asking at its budget. */
static void refresh_budget(void **state)
{
	(void)state;
	struct xsc *c = open_client(500, 400);
	fxs_set_mode(&srv, FXS_NORMAL, 150);
	uint64_t t0 = xg_now_mono_ns();
	int ok = 0;
	enum xen_xs_rc rc;
	while ((rc = read_name(c)) == XEN_XS_OK)
		ok++;
	double spent = ms_since(t0);
	assert_int_equal(rc, XEN_XS_FAIL);
	assert_true(ok >= 1 && ok <= 2);
	assert_true(spent >= 390 && spent < 1000);
	assert_non_null(strstr(xen_xs_why(c), "took over 400 ms in this refresh"));
	fxs_set_mode(&srv, FXS_NORMAL, 0);
	fxs_sleep_ms(200);   /* the late answer it gave up on arrives meanwhile */
	recovers(c);
	xen_xs_close(c);
}

/* What no xenstored sends, and a hang-up: the connection is dropped and
 * made again; never a value from another request. */
static void broken_connections(void **state)
{
	(void)state;
	static const struct { enum fxs_mode m; const char *why; } cases[] = {
		{ FXS_CLOSE, "closed the connection" },
		{ FXS_BIG, "not one to xgtop's request" },
		{ FXS_WRONG_ID, "not one to xgtop's request" },
	};
	struct xsc *c = open_client(XEN_XS_ANSWER_MS, XEN_XS_REFRESH_MS);
	for (size_t i = 0; i < XG_ARRAY_LEN(cases); i++) {
		fxs_set_mode(&srv, cases[i].m, 0);
		fails_with(c, cases[i].why);
		recovers(c);
	}
	xen_xs_close(c);
}

/* xenstored gone, then back: the refreshes meanwhile say why. */
static void daemon_restarts(void **state)
{
	(void)state;
	struct xsc *c = open_client(XEN_XS_ANSWER_MS, XEN_XS_REFRESH_MS);
	fxs_stop(&srv);
	fails_with(c, "closed the connection");
	xen_xs_begin(c);
	fails_with(c, "xenstored not running?");
	assert_non_null(strstr(xen_xs_why(c), "cannot connect to"));
	assert_int_equal(fxs_start(&srv, tmp("socket")), 0);
	recovers(c);
	xen_xs_close(c);
	/* No xenstore at all when xgtop starts: an error, not a hang. */
	struct xg_err err = { 0 };
	assert_null(xen_xs_open(tmp("no-such-socket"), &err));
	assert_non_null(strstr(err.msg, "cannot connect to xenstore"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(values),
		cmocka_unit_test(hang_then_recover),
		cmocka_unit_test(refresh_budget),
		cmocka_unit_test(broken_connections),
		cmocka_unit_test(daemon_restarts),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
#else
int main(void)
{
	printf("test_xsclient: built without Xen, nothing to test\n");
	return 0;
}
#endif
