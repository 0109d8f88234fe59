// SPDX-License-Identifier: GPL-2.0-or-later
/* tapdisk3's VBD statistics (xen_vbd3.c) on a tree this test writes in a
 * temporary directory: sysfs's vbd3-D-N entries, tapdisk's files under
 * dev/shm/td3-PID, and xenstore's kthread-pid from a table. The good case,
 * then every hostile file (short, another version, a symbolic link, not
 * root's, huge, a FIFO, a directory that is a link): that VBD alone gets
 * `-` with its reason, the other VBDs and domains keep their figures. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "xgtop/xen/xen_backends.h"

static char root[256];

/* The fake xenstore: kthread-pid per (domid, dev); pid NULL = no node. */
struct key { unsigned domid, dev; const char *pid; };
static struct key keys[16];
static size_t nkeys;
static bool xs_broken;
static unsigned xs_reads;

static enum xen_key_rc fake_xs(void *ctx, const char *path, char *buf, size_t cap, const char **why)
{
	(void)ctx;
	xs_reads++;
	if (xs_broken) {
		*why = "xenstore did not answer within 500 ms";
		return XEN_KEY_FAIL;
	}
	for (size_t i = 0; i < nkeys; i++) {
		char p[96];
		snprintf(p, sizeof(p), "/local/domain/0/backend/vbd3/%u/%u/kthread-pid", keys[i].domid,
			 keys[i].dev);
		if (!strcmp(p, path) && keys[i].pid) {
			snprintf(buf, cap, "%s", keys[i].pid);
			return XEN_KEY_OK;
		}
	}
	return XEN_KEY_ABSENT;
}

static void sh(const char *fmt, ...)
{
	char cmd[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	assert_int_equal(system(cmd), 0);
}

/* A vbd3 device in sysfs (tapdisk's kernel side has no statistics). */
static void device(unsigned domid, unsigned dev)
{
	sh("mkdir -p '%s/sys/bus/xen-backend/devices/vbd3-%u-%u'", root, domid, dev);
}

/* The u64s of a vbd3_stats, in order. */
struct st { uint64_t oo, rd_sub, rd_done, rd_sect, rd_ticks, wr_sub, wr_done, wr_sect, wr_ticks,
	    errs, flags; };

/* Writes tapdisk's file for (domid, dev) under td3-PID, version ver,
 * len bytes long (a page, as tapdisk makes it, unless a test wants
 * otherwise), mode 0600 in a 0700 directory, as tapdisk does. */
static void stats_file(unsigned pid, unsigned domid, unsigned dev, uint32_t ver,
		       const struct st *v, size_t len)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/dev/shm/td3-%u", root, pid);
	sh("mkdir -p '%s' && chmod 700 '%s'", path, path);
	snprintf(path + strlen(path), sizeof(path) - strlen(path), "/vbd-%u-%u", domid, dev);
	unsigned char page[4096] = { 0 };
	uint64_t u[11] = { v->oo, v->rd_sub, v->rd_done, v->rd_sect, v->rd_ticks, v->wr_sub,
			   v->wr_done, v->wr_sect, v->wr_ticks, v->errs, v->flags };
	memcpy(page, &ver, 4);
	memcpy(page + 8, u, sizeof(u));
	unlink(path);
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	assert_true(fd >= 0);
	size_t w = len < sizeof(page) ? len : sizeof(page);
	assert_int_equal(write(fd, page, w), (ssize_t)w);
	if (len > w)
		assert_int_equal(ftruncate(fd, (off_t)len), 0);
	close(fd);
}

static void key(unsigned domid, unsigned dev, const char *pid)
{
	keys[nkeys++] = (struct key){ domid, dev, pid };
}

static char mypid[16];

static int setup(void **state)
{
	(void)state;
	snprintf(root, sizeof(root), "/tmp/xgtop-vbd3-XXXXXX");
	assert_non_null(mkdtemp(root));
	snprintf(mypid, sizeof(mypid), "%u", (unsigned)getpid());
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	char cmd[300];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	return system(cmd);
}

/* A fresh tree before each case. */
static int fresh(void **state)
{
	(void)state;
	sh("rm -rf '%s/sys' '%s/dev'", root, root);
	sh("mkdir -p '%s/sys/bus/xen-backend/devices'", root);
	nkeys = 0;
	xs_broken = false;
	xs_reads = 0;
	return 0;
}

static const struct st good_a = { 3, 1005218, 1005200, 84687195, 77, 8634509, 8634000, 87613628,
				  88, 0, 0 };
static const struct st good_b = { 0, 328539, 328539, 28003546, 1, 19, 19, 552, 2, 0, 0 };
static const struct st good_c = { 9, 26361, 26300, 1084455, 5, 1532, 1500, 37544, 6, 1, 0 };

static struct xen_vbd *vbds;
static size_t nvbd, vcap;

static int read_all(struct xen_vbd_reader *r)
{
	struct xg_err err = { 0 };
	int rc = xen_vbd_read(r, &vbds, &nvbd, &vcap, &err);
	return rc;
}

static const struct xen_vbd *find(unsigned domid, unsigned dev)
{
	for (size_t i = 0; i < nvbd; i++)
		if (vbds[i].domid == domid && vbds[i].dev == dev)
			return &vbds[i];
	return NULL;
}

static void reader(struct xen_vbd_reader *r)
{
	xen_vbd_init(r, root);
	xen_vbd_set_xenstore(r, fake_xs, NULL);
	r->tapdisk_uid = getuid();
}

/* Two domains, three tapdisk3 disks (domain 7's two in one tapdisk, as
 * XCP-ng runs one per VDI or shares one), a blkback disk beside them, and
 * an empty CD drive (a vbd3 device with no tapdisk: xentop leaves it out). */
static void build_good(void)
{
	device(7, 768);
	device(7, 832);
	device(16, 768);
	device(16, 5696);
	sh("mkdir -p '%s/sys/bus/xen-backend/devices/vbd-16-51712/statistics'", root);
	const char *n[] = { "oo_req", "rd_req", "wr_req", "rd_sect", "wr_sect" };
	const char *v[] = { "1", "10", "20", "80", "160" };
	for (int i = 0; i < 5; i++)
		sh("echo %s > '%s/sys/bus/xen-backend/devices/vbd-16-51712/statistics/%s'", v[i], root, n[i]);
	stats_file((unsigned)getpid(), 7, 768, 1, &good_a, 4096);
	stats_file((unsigned)getpid(), 7, 832, 1, &good_b, 4096);
	stats_file((unsigned)getpid(), 16, 768, 1, &good_c, 4096);
	key(7, 768, mypid);
	key(7, 832, mypid);
	key(16, 768, mypid);
	key(16, 5696, NULL);
}

static void check_good(unsigned domid, unsigned dev, const struct st *s)
{
	const struct xen_vbd *b = find(domid, dev);
	assert_non_null(b);
	assert_int_equal(b->type, XEN_VBD_TAPDISK3);
	if (!b->ok)
		fail_msg("vbd3-%u-%u unexpectedly unreadable: %s", domid, dev, b->why);
	assert_int_equal(b->oo_req, s->oo);
	assert_int_equal(b->rd_req, s->rd_sub);   /* submitted, as libxenstat */
	assert_int_equal(b->wr_req, s->wr_sub);
	assert_int_equal(b->rd_sect, s->rd_sect);
	assert_int_equal(b->wr_sect, s->wr_sect);
}

static void reads_tapdisk_files(void **state)
{
	(void)state;
	build_good();
	struct xen_vbd_reader r;
	reader(&r);
	assert_int_equal(read_all(&r), 0);
	assert_int_equal(nvbd, 4);          /* the empty CD drive is left out */
	assert_null(find(16, 5696));
	check_good(7, 768, &good_a);
	check_good(7, 832, &good_b);
	check_good(16, 768, &good_c);
	const struct xen_vbd *bb = find(16, 51712);
	assert_non_null(bb);
	assert_int_equal(bb->type, XEN_VBD_BLKBACK);
	assert_true(bb->ok);
	assert_int_equal(bb->rd_req, 10);
	/* A second pass reads the files again: tapdisk updates them in place. */
	struct st more = good_a;
	more.rd_sub += 5;
	more.wr_sect += 64;
	stats_file((unsigned)getpid(), 7, 768, 1, &more, 4096);
	assert_int_equal(read_all(&r), 0);
	check_good(7, 768, &more);

	/* Summed into the sample: per domain, sectors of 512 bytes. */
	struct xg_sample s;
	sample_init(&s);
	struct xg_dom *d7 = sample_add_dom(&s, 7), *d16 = sample_add_dom(&s, 16);
	for (int f = XG_F_VBDS; f <= XG_F_DISK_OO; f++) {
		dom_set(d7, (enum xg_field)f, 0);
		dom_set(d16, (enum xg_field)f, 0);
	}
	xen_vbd_sum(&s, vbds, nvbd);
	d7 = sample_find(&s, 7);
	d16 = sample_find(&s, 16);
	assert_int_equal(d7->v[XG_F_VBDS], 2);
	assert_int_equal(d7->v[XG_F_DISK_RD_OPS], more.rd_sub + good_b.rd_sub);
	assert_int_equal(d7->v[XG_F_DISK_WR_BYTES], (more.wr_sect + good_b.wr_sect) * 512);
	assert_int_equal(d7->v[XG_F_DISK_OO], 3);
	assert_int_equal(d16->v[XG_F_VBDS], 2);
	assert_int_equal(d16->v[XG_F_DISK_RD_OPS], good_c.rd_sub + 10);
	assert_int_equal(d16->v[XG_F_DISK_RD_BYTES], (good_c.rd_sect + 80) * 512);
	sample_free(&s);
	xen_vbd_close(&r);
}

/* One hostile case: made by make() on top of the good tree for domain 7's
 * disk 768; that VBD comes back not ok with a reason holding `want`, the
 * others as in the good case; in the sample, domain 7's disk counters are
 * `-` with that reason and domain 16's are untouched. */
static void expect_bad(const char *want)
{
	struct xen_vbd_reader r;
	reader(&r);
	assert_int_equal(read_all(&r), 0);
	assert_int_equal(nvbd, 4);
	const struct xen_vbd *b = find(7, 768);
	assert_non_null(b);
	assert_false(b->ok);
	if (!strstr(b->why, want))
		fail_msg("reason \"%s\" does not say \"%s\"", b->why, want);
	assert_non_null(strstr(b->why, "vbd3-7-768"));
	check_good(7, 832, &good_b);
	check_good(16, 768, &good_c);

	struct xg_sample s;
	sample_init(&s);
	struct xg_dom *d7 = sample_add_dom(&s, 7), *d16 = sample_add_dom(&s, 16);
	for (int f = XG_F_VBDS; f <= XG_F_DISK_OO; f++) {
		dom_set(d7, (enum xg_field)f, 0);
		dom_set(d16, (enum xg_field)f, 0);
	}
	xen_vbd_sum(&s, vbds, nvbd);
	d7 = sample_find(&s, 7);
	d16 = sample_find(&s, 16);
	assert_true(dom_has(d7, XG_F_VBDS));
	assert_int_equal(d7->v[XG_F_VBDS], 2);
	for (int f = XG_F_DISK_RD_OPS; f <= XG_F_DISK_OO; f++) {
		assert_false(dom_has(d7, (enum xg_field)f));
		assert_string_equal(dom_why(&s, d7, (enum xg_field)f), b->why);
		assert_true(dom_has(d16, (enum xg_field)f));
	}
	assert_int_equal(d16->v[XG_F_DISK_WR_OPS], good_c.wr_sub + 20);
	sample_free(&s);
	xen_vbd_close(&r);
}

static char shm7[512];

static const char *file7(void)
{
	snprintf(shm7, sizeof(shm7), "%s/dev/shm/td3-%s/vbd-7-768", root, mypid);
	return shm7;
}

static void short_file(void **state)
{
	(void)state;
	build_good();
	stats_file((unsigned)getpid(), 7, 768, 1, &good_a, 95);
	expect_bad("is 95 bytes, shorter than tapdisk's statistics (96)");
}

static void other_version(void **state)
{
	(void)state;
	build_good();
	stats_file((unsigned)getpid(), 7, 768, 2, &good_a, 4096);
	expect_bad("layout version 2, xgtop reads version 1");
}

static void symlink_file(void **state)
{
	(void)state;
	build_good();
	/* A link to a well-formed file: still not read. */
	stats_file((unsigned)getpid(), 7, 999, 1, &good_a, 4096);
	unlink(file7());
	char target[600];
	snprintf(target, sizeof(target), "%s/dev/shm/td3-%s/vbd-7-999", root, mypid);
	assert_int_equal(symlink(target, file7()), 0);
	expect_bad("is a symbolic link");
}

static void symlink_dir(void **state)
{
	(void)state;
	build_good();
	/* td3-PID itself a link to a directory holding good files (a user
	 * can make one in /dev/shm before tapdisk starts). Domain 7's disk
	 * 768 is served by another tapdisk, whose directory is the link. */
	stats_file(4000000, 7, 768, 1, &good_a, 4096);
	sh("rm -rf '%s/dev/shm/td3-%s/vbd-7-768'", root, mypid);
	sh("ln -s td3-4000000 '%s/dev/shm/td3-4000001'", root);
	keys[0].pid = "4000001";
	expect_bad("td3-4000001 is a symbolic link");
}

static void not_root(void **state)
{
	(void)state;
	build_good();
	if (geteuid() == 0) {
		/* The real case: a file someone else made. */
		assert_int_equal(chown(file7(), 65534, 65534), 0);
		expect_bad("is owned by uid 65534, not by");
	} else {
		/* Without root no file of another owner can be made here:
		 * the reader is told tapdisk runs as another user instead. */
		struct xen_vbd_reader r;
		reader(&r);
		r.tapdisk_uid = getuid() + 1;
		assert_int_equal(read_all(&r), 0);
		const struct xen_vbd *b = find(7, 768);
		assert_false(b->ok);
		assert_non_null(strstr(b->why, "is owned by uid"));
		xen_vbd_close(&r);
	}
}

static void huge_file(void **state)
{
	(void)state;
	build_good();
	stats_file((unsigned)getpid(), 7, 768, 1, &good_a, 1u << 30);   /* sparse */
	expect_bad("is 1073741824 bytes, larger than tapdisk's statistics page (at most 65536)");
}

static void fifo(void **state)
{
	(void)state;
	build_good();
	unlink(file7());
	assert_int_equal(mkfifo(file7(), 0600), 0);
	/* Opened without blocking (no writer), then refused; a reader that
	 * blocked would be stopped by the alarm. */
	alarm(10);
	expect_bad("is not a regular file");
	alarm(0);
}

static void missing_file(void **state)
{
	(void)state;
	build_good();
	unlink(file7());
	expect_bad("vbd-7-768: No such file or directory");
}

static void bad_pid(void **state)
{
	(void)state;
	build_good();
	keys[0].pid = "../../tmp/x";
	expect_bad("kthread-pid \"../../tmp/x\" in xenstore is not a process id");
	keys[0].pid = "0";
	expect_bad("is not a process id");
	keys[0].pid = "4194305";
	expect_bad("is not a process id");
	keys[0].pid = "12\n";
	expect_bad("\"12\\x0a\" in xenstore is not a process id");
}

/* xenstore failing (not absent): every vbd3 device is `-` with
 * xenstore's reason; blkback's disk is still read. */
static void xenstore_fails(void **state)
{
	(void)state;
	build_good();
	xs_broken = true;
	struct xen_vbd_reader r;
	reader(&r);
	assert_int_equal(read_all(&r), 0);
	assert_int_equal(nvbd, 5);
	for (size_t i = 0; i < nvbd; i++) {
		if (vbds[i].type != XEN_VBD_TAPDISK3) {
			assert_true(vbds[i].ok);
			continue;
		}
		assert_false(vbds[i].ok);
		assert_non_null(strstr(vbds[i].why, "xenstore did not answer"));
	}
	xen_vbd_close(&r);
	/* No xenstore at all (a reader nobody gave one). */
	xen_vbd_init(&r, root);
	assert_int_equal(read_all(&r), 0);
	assert_false(find(7, 768)->ok);
	assert_non_null(strstr(find(7, 768)->why, "no xenstore"));
	xen_vbd_close(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(reads_tapdisk_files, fresh),
		cmocka_unit_test_setup(short_file, fresh),
		cmocka_unit_test_setup(other_version, fresh),
		cmocka_unit_test_setup(symlink_file, fresh),
		cmocka_unit_test_setup(symlink_dir, fresh),
		cmocka_unit_test_setup(not_root, fresh),
		cmocka_unit_test_setup(huge_file, fresh),
		cmocka_unit_test_setup(fifo, fresh),
		cmocka_unit_test_setup(missing_file, fresh),
		cmocka_unit_test_setup(bad_pid, fresh),
		cmocka_unit_test_setup(xenstore_fails, fresh),
	};
	int rc = cmocka_run_group_tests(tests, setup, teardown);
	free(vbds);
	return rc;
}
