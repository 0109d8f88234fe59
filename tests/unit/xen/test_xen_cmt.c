// SPDX-License-Identifier: GPL-2.0-or-later
/* CMT/MBM module against a fake hypervisor: MBM wrap handling, RMID
 * bookkeeping (attach only when asked, detach exactly what was attached,
 * on close and at exit), per-socket figures and every reason. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "xgtop/xen/xen_cmt.h"
#include "../../../src/xen/xen_cmt_mbm.h"
#include "../tmpdir.h"

#define NDOM 8
#define S 1000000000ull

struct fake {
	int enabled;
	uint32_t mask, factor, total_rmid, free_rmids;
	unsigned nsock;
	uint32_t rmid[NDOM];                /* per domid, 0 = none */
	bool exists[NDOM];
	uint64_t raw[NDOM][4][3];           /* by domid, socket, event */
	int data_errno;                     /* -1: none, else errno to fail with */
	unsigned attach_calls, detach_calls;
	uint32_t detached[16];
	uint32_t next_rmid;
};

static int f_enabled(void *h) { return ((struct fake *)h)->enabled; }
static void f_why(void *h, char *b, size_t n) { (void)h; snprintf(b, n, "fake: CMT off"); }
static int f_mask(void *h, uint32_t *m) { *m = ((struct fake *)h)->mask; return 0; }
static int f_up(void *h, uint32_t *f) { *f = ((struct fake *)h)->factor; return 0; }
static int f_total(void *h, uint32_t *n) { *n = ((struct fake *)h)->total_rmid; return 0; }
static int f_cpus(void *h, uint32_t *c, unsigned max)
{
	struct fake *f = h;
	for (unsigned i = 0; i < f->nsock && i < max; i++)
		c[i] = i * 10;   /* CPU 10*i is on socket i */
	return (int)f->nsock;
}
static int f_get_rmid(void *h, uint32_t d, uint32_t *r)
{
	struct fake *f = h;
	if (d >= NDOM || !f->exists[d]) {
		errno = ESRCH;
		return -1;
	}
	*r = f->rmid[d];
	return 0;
}
static int f_attach(void *h, uint32_t d)
{
	struct fake *f = h;
	f->attach_calls++;
	if (d >= NDOM || !f->exists[d]) {
		errno = ESRCH;
		return -1;
	}
	if (f->rmid[d]) {
		errno = EEXIST;
		return -1;
	}
	if (!f->free_rmids) {
		errno = EOVERFLOW;
		return -1;
	}
	f->free_rmids--;
	f->rmid[d] = ++f->next_rmid;
	return 0;
}
static int f_detach(void *h, uint32_t d)
{
	struct fake *f = h;
	f->detach_calls++;
	if (d >= NDOM || !f->exists[d]) {
		errno = ESRCH;
		return -1;
	}
	if (!f->rmid[d]) {
		errno = ENOENT;
		return -1;
	}
	f->rmid[d] = 0;
	f->free_rmids++;
	f->detached[f->detach_calls - 1] = d;
	return 0;
}
static int f_data(void *h, uint32_t rmid, uint32_t cpu, enum xg_sock_event ev, uint64_t *v)
{
	struct fake *f = h;
	if (f->data_errno >= 0) {
		errno = f->data_errno;
		return -1;
	}
	for (uint32_t d = 0; d < NDOM; d++)
		if (f->exists[d] && f->rmid[d] == rmid) {
			*v = f->raw[d][cpu / 10][ev];
			return 0;
		}
	errno = EINVAL;
	return -1;
}

static const struct xg_cmt_ops fops = {
	.enabled = f_enabled, .why_off = f_why, .event_mask = f_mask, .upscaling = f_up,
	.total_rmid = f_total, .socket_cpus = f_cpus, .get_rmid = f_get_rmid,
	.attach = f_attach, .detach = f_detach, .get_data = f_data,
};

static void fake_init(struct fake *f, unsigned ndom)
{
	memset(f, 0, sizeof(*f));
	f->enabled = 1;
	f->mask = 7;
	f->factor = 1000;
	f->total_rmid = 4;
	f->free_rmids = 3;
	f->nsock = 2;
	f->data_errno = -1;
	f->next_rmid = 10;
	for (unsigned d = 0; d < ndom; d++)
		f->exists[d] = true;
}

/* A sample listing the domains that exist in f. */
static void sample_of(struct xg_sample *s, const struct fake *f)
{
	sample_clear(s);
	for (uint32_t d = 0; d < NDOM; d++)
		if (f->exists[d]) {
			struct xg_dom *x = sample_add_dom(s, d);
			x->handle[0] = (uint8_t)(d + 1);
		}
}

/* A CMT module on f (attaching when asked) and an empty sample s listing
 * f's domains. */
static struct xg_cmt *open_on(struct fake *f, bool attach, struct xg_sample *s)
{
	struct xg_err err = { 0 };
	struct xg_cmt *c = xen_cmt_open(&fops, f, attach, &err);
	assert_non_null(c);
	sample_init(s);
	sample_of(s, f);
	return c;
}

static const char *why(const struct xg_sample *s, uint32_t id, enum xg_field fl)
{
	const char *w = dom_why(s, &s->dom[id], fl);
	return w ? w : "";
}

/* ---- MBM wrap ---- */

static void mbm_wraps_once_per_interval(void **state)
{
	(void)state;
	struct xg_mbm m = { 0 };
	assert_int_equal(xen_cmt_mbm_advance(&m, 0xfffff0, 0), XG_MBM_OK);
	assert_int_equal(m.total, 0);
	assert_int_equal(xen_cmt_mbm_advance(&m, 0x10, S), XG_MBM_OK);
	assert_int_equal(m.total, 0x20);
	assert_int_equal(xen_cmt_mbm_advance(&m, 0x110, 2 * S), XG_MBM_OK);
	assert_int_equal(m.total, 0x120);
	/* Wrapping all the way round but one short. */
	assert_int_equal(xen_cmt_mbm_advance(&m, 0x10f, 3 * S), XG_MBM_OK);
	assert_int_equal(m.total, 0x120 + 0xffffff);
	/* Monotonic across many wraps. */
	uint64_t prev = m.total, raw = 0x10f;
	for (int i = 0; i < 100; i++) {
		raw = (raw + 0x900000) & 0xffffff;
		assert_int_equal(xen_cmt_mbm_advance(&m, raw, (4 + (uint64_t)i) * S), XG_MBM_OK);
		assert_int_equal(m.total - prev, 0x900000);
		prev = m.total;
	}
}

static void mbm_gap_and_reset(void **state)
{
	(void)state;
	struct xg_mbm m = { 0 };
	xen_cmt_mbm_advance(&m, 100, 0);
	xen_cmt_mbm_advance(&m, 200, S);
	/* 2 s apart: a 24-bit counter may have wrapped twice. */
	assert_int_equal(xen_cmt_mbm_advance(&m, 50, 3 * S), XG_MBM_GAP);
	assert_int_equal(m.total, 100);
	assert_int_equal(xen_cmt_mbm_advance(&m, 80, 4 * S), XG_MBM_OK);
	assert_int_equal(m.total, 130);
	/* A value beyond 24 bits: the counter is wider and does not wrap
	 * soon, so a long gap is fine and going back is a reset. */
	assert_int_equal(xen_cmt_mbm_advance(&m, 1ull << 30, 5 * S), XG_MBM_OK);
	assert_int_equal(m.total, 130 + (1ull << 30) - 80);
	assert_int_equal(xen_cmt_mbm_advance(&m, (1ull << 30) + 5, 60 * S), XG_MBM_OK);
	assert_int_equal(xen_cmt_mbm_advance(&m, 7, 61 * S), XG_MBM_RESET);
	assert_int_equal(m.total, 130 + (1ull << 30) - 80 + 5);
}

/* ---- bookkeeping ---- */

static void no_attach_without_option(void **state)
{
	(void)state;
	struct fake f;
	fake_init(&f, 3);
	f.rmid[1] = 7;   /* attached by someone else (xl psr-cmt-attach) */
	struct xg_sample s;
	struct xg_cmt *c = open_on(&f, false, &s);
	xen_cmt_collect(c, &s, 0);
	assert_int_equal(f.attach_calls, 0);
	assert_false(dom_has(&s.dom[0], XG_F_L3_OCC));
	assert_non_null(strstr(why(&s, 0, XG_F_L3_OCC), "--cmt-attach"));
	assert_true(dom_has(&s.dom[1], XG_F_L3_OCC));
	assert_int_equal(xen_cmt_close(c), 0);
	assert_int_equal(f.detach_calls, 0);
	assert_int_equal(f.rmid[1], 7);
	sample_free(&s);
}

static void detach_exactly_ours(void **state)
{
	(void)state;
	struct fake f;
	fake_init(&f, 4);
	f.rmid[0] = 5;   /* someone else's */
	struct xg_sample s;
	struct xg_cmt *c = open_on(&f, true, &s);
	xen_cmt_collect(c, &s, 0);
	assert_int_equal(f.attach_calls, 3);
	/* Domain 2 goes away: Xen frees its RMID, nothing to detach. */
	f.exists[2] = false;
	f.rmid[2] = 0;
	f.free_rmids++;
	/* Domain 3's id is reused by a new domain (other handle). */
	sample_of(&s, &f);
	s.dom[2].handle[0] = 99;
	f.rmid[3] = 0;
	f.free_rmids++;
	/* The new domain 3 is attached again: ours. */
	xen_cmt_collect(c, &s, S / 2);
	assert_int_equal(xen_cmt_close(c), 0);
	assert_int_equal(f.detach_calls, 2);
	assert_int_equal(f.detached[0], 1);
	assert_int_equal(f.detached[1], 3);
	assert_int_equal(f.rmid[0], 5);   /* untouched */
	assert_int_equal(f.rmid[1], 0);
	sample_free(&s);
}

/* xl rename keeps domid, handle and RMID: the entry (and the RMID we
 * attached) carries over, is not attached again, and is detached once. The
 * MBM baseline carries on too: no reset reason after the rename. */
static void rename_keeps_rmid(void **state)
{
	(void)state;
	struct fake f;
	fake_init(&f, 2);
	struct xg_sample s;
	struct xg_cmt *c = open_on(&f, true, &s);
	snprintf(s.dom[1].name, sizeof(s.dom[1].name), "old");
	xen_cmt_collect(c, &s, 0);
	assert_int_equal(f.attach_calls, 2);
	uint32_t rmid = f.rmid[1];
	f.raw[1][0][XG_SOCK_MBM_TOTAL] = 100;
	f.raw[1][1][XG_SOCK_MBM_TOTAL] = 100;
	sample_of(&s, &f);
	snprintf(s.dom[1].name, sizeof(s.dom[1].name), "new");
	xen_cmt_collect(c, &s, S / 2);
	assert_int_equal(f.attach_calls, 2);
	assert_int_equal(f.rmid[1], rmid);
	assert_true(dom_has(&s.dom[1], XG_F_MBM_TOTAL));
	assert_int_equal(s.dom[1].v[XG_F_MBM_TOTAL], 2 * 100 * 1000);
	assert_int_equal(xen_cmt_close(c), 0);
	assert_int_equal(f.detach_calls, 2);
	assert_int_equal(f.rmid[1], 0);
	assert_int_equal(f.free_rmids, 3);
	sample_free(&s);
}

static void out_of_rmids(void **state)
{
	(void)state;
	struct fake f;
	fake_init(&f, 3);
	f.free_rmids = 1;
	struct xg_sample s;
	struct xg_cmt *c = open_on(&f, true, &s);
	xen_cmt_collect(c, &s, 0);
	assert_true(dom_has(&s.dom[0], XG_F_L3_OCC));
	assert_false(dom_has(&s.dom[1], XG_F_L3_OCC));
	const char *w = why(&s, 1, XG_F_MBM_TOTAL);
	assert_non_null(strstr(w, "no free RMID"));
	assert_non_null(strstr(w, strerror(EOVERFLOW)));
	assert_non_null(strstr(w, "Xen has 4"));
	unsigned calls = f.attach_calls;
	assert_int_equal(calls, 3);
	/* No retry storm: the next refreshes within 10 s do not try again. */
	sample_of(&s, &f);
	xen_cmt_collect(c, &s, 2 * S);
	assert_int_equal(f.attach_calls, calls);
	assert_non_null(strstr(why(&s, 2, XG_F_L3_OCC), "no free RMID"));
	/* An RMID comes free; after the back-off both get tried again. */
	f.free_rmids = 1;
	sample_of(&s, &f);
	xen_cmt_collect(c, &s, 11 * S);
	assert_int_equal(f.attach_calls, calls + 2);
	assert_true(dom_has(&s.dom[1], XG_F_L3_OCC));
	xen_cmt_close(c);
	assert_int_equal(f.detach_calls, 2);
	assert_int_equal(f.free_rmids, 2);
	sample_free(&s);
}

static void disabled_says_why(void **state)
{
	(void)state;
	struct fake f;
	fake_init(&f, 2);
	f.enabled = 0;
	struct xg_err err = { 0 };
	/* --cmt-attach on a host without CMT: refused, nothing attached. */
	assert_null(xen_cmt_open(&fops, &f, true, &err));
	assert_non_null(strstr(err.msg, "--cmt-attach: fake: CMT off: nothing attached"));
	assert_int_equal(f.attach_calls, 0);
	struct xg_cmt *c = xen_cmt_open(&fops, &f, false, &err);
	assert_non_null(c);
	struct xg_sample s;
	sample_init(&s);
	sample_of(&s, &f);
	xen_cmt_collect(c, &s, 0);
	for (int i = 0; i < 2; i++) {
		assert_false(dom_has(&s.dom[i], XG_F_L3_OCC));
		assert_string_equal(why(&s, (uint32_t)i, XG_F_MBM_LOCAL), "fake: CMT off");
	}
	xen_cmt_close(c);
	sample_free(&s);
}

static void values_per_socket_and_sum(void **state)
{
	(void)state;
	struct fake f;
	fake_init(&f, 1);
	f.mask = 3;      /* no MBM local */
	f.rmid[0] = 1;
	f.raw[0][0][0] = 3;
	f.raw[0][1][0] = 4;
	f.raw[0][0][1] = 0xfffffe;
	f.raw[0][1][1] = 10;
	struct xg_sample s;
	struct xg_cmt *c = open_on(&f, false, &s);
	xen_cmt_collect(c, &s, 0);
	struct xg_dom *d = &s.dom[0];
	assert_int_equal(d->v[XG_F_L3_OCC], 7000);
	assert_int_equal(d->sock_count, 2);
	assert_int_equal(sample_socks(&s, d)[0].socket, 0);
	assert_int_equal(sample_socks(&s, d)[1].socket, 1);
	assert_int_equal(sample_socks(&s, d)[0].v[XG_SOCK_L3_OCC], 3000);
	assert_int_equal(sample_socks(&s, d)[1].v[XG_SOCK_L3_OCC], 4000);
	assert_int_equal(d->v[XG_F_MBM_TOTAL], 0);
	assert_non_null(strstr(why(&s, 0, XG_F_MBM_LOCAL), "MBM local not supported"));
	/* Socket 0 wraps. */
	f.raw[0][0][1] = 2;
	f.raw[0][1][1] = 30;
	sample_of(&s, &f);
	xen_cmt_collect(c, &s, S);
	d = &s.dom[0];
	assert_int_equal(d->v[XG_F_MBM_TOTAL], (4 + 20) * 1000);
	assert_int_equal(sample_socks(&s, d)[0].v[XG_SOCK_MBM_TOTAL], 4000);
	assert_true(sample_socks(&s, d)[1].valid >> XG_SOCK_MBM_TOTAL & 1);
	/* The hardware flags the counter: no value, the reason says so. */
	f.data_errno = 0;
	sample_of(&s, &f);
	xen_cmt_collect(c, &s, 2 * S);
	assert_false(dom_has(&s.dom[0], XG_F_L3_OCC));
	assert_non_null(strstr(why(&s, 0, XG_F_L3_OCC), "Error/Unavailable"));
	assert_int_equal(s.dom[0].sock_count, 2);
	assert_int_equal(sample_socks(&s, &s.dom[0])[0].valid, 0);
	assert_int_equal(sample_socks(&s, &s.dom[0])[1].valid, 0);
	/* A long pause: MBM interval not trusted, occupancy fine. */
	f.data_errno = -1;
	sample_of(&s, &f);
	xen_cmt_collect(c, &s, 3 * S);
	sample_of(&s, &f);
	xen_cmt_collect(c, &s, 6 * S);
	assert_true(dom_has(&s.dom[0], XG_F_L3_OCC));
	assert_string_equal(why(&s, 0, XG_F_MBM_TOTAL), XG_CMT_WHY_GAP);
	xen_cmt_close(c);
	sample_free(&s);
}

/* exit() without the source's close still detaches (atexit). The fake
 * lives in shared memory so the parent sees what the child did. */
static void detached_at_exit(void **state)
{
	(void)state;
	struct fake *f = mmap(NULL, sizeof(*f), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
			      -1, 0);
	assert_true(f != MAP_FAILED);
	fake_init(f, 2);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct xg_sample s;
		struct xg_cmt *c = open_on(f, true, &s);
		xen_cmt_collect(c, &s, 0);
		exit(f->attach_calls == 2 ? 0 : 3);
	}
	int st = 0;
	waitpid(pid, &st, 0);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	assert_int_equal(f->detach_calls, 2);
	assert_int_equal(f->rmid[0], 0);
	assert_int_equal(f->rmid[1], 0);
	munmap(f, sizeof(*f));
}

/* ---- after SIGKILL: the next start cleans up ---- */

static struct fake *shared_fake(unsigned ndom)
{
	struct fake *f = mmap(NULL, sizeof(*f), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
			      -1, 0);
	assert_true(f != MAP_FAILED);
	fake_init(f, ndom);
	return f;
}

static char *slurp(const char *path)
{
	static char b[1024];
	FILE *fp = fopen(path, "r");
	if (!fp)
		return NULL;
	size_t n = fread(b, 1, sizeof(b) - 1, fp);
	fclose(fp);
	b[n] = 0;
	return b;
}

/* A module on f keeping its state file in sdir; s lists f's domains. */
static struct xg_cmt *open_kept(struct fake *f, bool attach, struct xg_sample *s, const char *sdir)
{
	struct xg_cmt *c = open_on(f, attach, s);
	xen_cmt_keep_state(c, sdir);
	return c;
}

/* The state file of the run with that pid, in the test's directory. */
static const char *state_file(long pid)
{
	static char b[64];
	snprintf(b, sizeof(b), "run/cmt.%ld.state", pid);
	return tmp(b);
}

static void cleanup(struct fake *f, struct xg_sample *s)
{
	sample_free(s);
	munmap(f, sizeof(*f));
	tmpdir_remove();
}

/* A run with --cmt-attach killed after attaching: its state file. */
static pid_t killed_run(struct fake *f, const char *sdir)
{
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct xg_sample s;
		xen_cmt_collect(open_kept(f, true, &s, sdir), &s, 0);
		raise(SIGKILL);
	}
	int st = 0;
	waitpid(pid, &st, 0);
	assert_true(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL);
	return pid;
}

static void cleaned_after_kill(void **state)
{
	(void)state;
	struct fake *f = shared_fake(3);
	assert_int_equal(tmpdir_make("cmt-kill"), 0);
	const char *sdir = tmp("run");
	pid_t pid = killed_run(f, sdir);
	assert_true(f->rmid[0] && f->rmid[1] && f->rmid[2]);
	assert_int_equal(f->detach_calls, 0);
	char *text = slurp(state_file(pid));
	assert_non_null(text);
	assert_non_null(strstr(text, "dom 1 02000000000000000000000000000000"));
	/* Meanwhile domain 2 was destroyed and its id went to another domain,
	 * which someone attached: not the killed run's to detach. */
	struct xg_sample s;
	struct xg_cmt *c = open_kept(f, false, &s, sdir);
	s.dom[2].handle[0] = 99;
	xen_cmt_collect(c, &s, 0);
	assert_int_equal(f->rmid[0], 0);
	assert_int_equal(f->rmid[1], 0);
	assert_int_not_equal(f->rmid[2], 0);
	assert_int_equal(f->detach_calls, 2);
	assert_null(slurp(state_file(pid)));
	assert_string_equal(why(&s, 0, XG_F_L3_OCC),
			    "not monitored: the domain has no CMT RMID (xgtop --cmt-attach, or "
			    "xl psr-cmt-attach DOMID)");
	assert_int_equal(xen_cmt_close(c), 0);
	struct stat sb;
	assert_int_not_equal(stat(state_file(getpid()), &sb), 0);   /* it attached nothing */
	cleanup(f, &s);
}

/* A --cmt-attach run takes the killed run's domains over: no second
 * attach, one detach each at its own exit; its file lists them meanwhile. */
static void attach_run_takes_over(void **state)
{
	(void)state;
	struct fake *f = shared_fake(2);
	assert_int_equal(tmpdir_make("cmt-takeover"), 0);
	const char *sdir = tmp("run");
	killed_run(f, sdir);
	struct xg_sample s;
	struct xg_cmt *c = open_kept(f, true, &s, sdir);
	xen_cmt_collect(c, &s, 0);
	assert_int_equal(f->attach_calls, 2);   /* the killed run's two */
	char *text = slurp(state_file(getpid()));
	assert_non_null(text);
	assert_non_null(strstr(text, "dom 0 01000000000000000000000000000000\ndom 1 02"));
	assert_int_equal(xen_cmt_close(c), 0);
	assert_int_equal(f->detach_calls, 2);
	assert_int_equal(f->rmid[0] | f->rmid[1], 0);
	assert_null(slurp(state_file(getpid())));
	cleanup(f, &s);
}

/* The file of a run that still runs is left alone. */
static void live_run_left_alone(void **state)
{
	(void)state;
	struct fake *f = shared_fake(2);
	assert_int_equal(tmpdir_make("cmt-live"), 0);
	const char *sdir = tmp("run");
	pid_t live = fork();
	assert_true(live >= 0);
	if (live == 0) {
		pause();
		_exit(0);
	}
	mkdir(sdir, 0700);
	FILE *fp = fopen(state_file(live), "w");
	assert_non_null(fp);
	fprintf(fp, "dom 0 01000000000000000000000000000000\n");
	fclose(fp);
	f->rmid[0] = 5;
	f->free_rmids--;
	struct xg_sample s;
	struct xg_cmt *c = open_kept(f, false, &s, sdir);
	xen_cmt_collect(c, &s, 0);
	assert_int_equal(f->rmid[0], 5);
	assert_non_null(slurp(state_file(live)));
	xen_cmt_close(c);
	/* Once it is gone, the next start detaches. */
	kill(live, SIGKILL);
	waitpid(live, NULL, 0);
	sample_free(&s);
	c = open_kept(f, false, &s, sdir);
	xen_cmt_collect(c, &s, 0);
	assert_int_equal(f->rmid[0], 0);
	assert_null(slurp(state_file(live)));
	xen_cmt_close(c);
	cleanup(f, &s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(mbm_wraps_once_per_interval),
		cmocka_unit_test(mbm_gap_and_reset),
		cmocka_unit_test(no_attach_without_option),
		cmocka_unit_test(detach_exactly_ours),
		cmocka_unit_test(rename_keeps_rmid),
		cmocka_unit_test(out_of_rmids),
		cmocka_unit_test(disabled_says_why),
		cmocka_unit_test(values_per_socket_and_sum),
		cmocka_unit_test(detached_at_exit),
		cmocka_unit_test(cleaned_after_kill),
		cmocka_unit_test(attach_run_takes_over),
		cmocka_unit_test(live_run_left_alone),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
