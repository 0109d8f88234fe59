// SPDX-License-Identifier: GPL-2.0-or-later
/* libFuzzer harness: dom0's backend readers on a scratch root whose files
 * the input writes. Pieces are separated by 0xff: the first is
 * /proc/net/dev; then "NAME\nTEXT" pieces, where a NAME starting vbd- or
 * tap- becomes a backend device whose five statistics files are TEXT's
 * lines, a NAME vbd3-D-N a tapdisk3 device whose xenstore kthread-pid is
 * TEXT's first line and whose statistics page (dev/shm/td3-PID/vbd-D-N,
 * when that pid is digits) is the rest, and any other NAME an interface
 * whose device/nodename is TEXT.
 * Each reader runs twice on the same files (the second pass re-reads its
 * kept descriptor and rewinds its directory, as every refresh after the
 * first does). */
#include "fuzz.h"

#include <ftw.h>
#include <sys/stat.h>

#include "xgtop/xen/xen_backends.h"

static char root[64];

static int rm_one(const char *p, const struct stat *st, int flag, struct FTW *w)
{
	(void)st, (void)flag, (void)w;
	remove(p);
	return 0;
}

static void rm_root(void)
{
	nftw(root, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

/* Writes root/rel (creating its folders); rel has no "..". */
static void put(const char *rel, const void *p, size_t n)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (char *s = strchr(path + strlen(root) + 1, '/'); s; s = strchr(s + 1, '/')) {
		*s = 0;
		mkdir(path, 0700);
		*s = '/';
	}
	FILE *f = fopen(path, "w");
	if (f) {
		fwrite(p, 1, n, f);
		fclose(f);
	}
}

/* A file name the kernel could show: no '/', not "." or "..", bounded. */
static bool usable(const uint8_t *s, size_t n)
{
	if (!n || n > 64 || memchr(s, '/', n) || memchr(s, 0, n))
		return false;
	return !(n <= 2 && s[0] == '.' && (n == 1 || s[1] == '.'));
}

/* xenstore's kthread-pid nodes of this input's vbd3 devices. */
static struct { char path[96], val[64]; } pids[16];
static size_t npids;

static enum xen_key_rc fake_xs(void *ctx, const char *path, char *buf, size_t cap, const char **why)
{
	(void)ctx, (void)why;
	for (size_t i = 0; i < npids; i++)
		if (!strcmp(pids[i].path, path)) {
			snprintf(buf, cap, "%s", pids[i].val);
			return XEN_KEY_OK;
		}
	return XEN_KEY_ABSENT;
}

/* vbd3-D-N: its pid node, its sysfs entry and, for a pid of digits, the
 * page. */
static void put_vbd3(const char *name, struct fz *f)
{
	unsigned d, n;
	int end = 0;
	if (sscanf(name, "vbd3-%u-%u%n", &d, &n, &end) != 2 || name[end] || npids == 16)
		return;
	const uint8_t *v = f->p;
	size_t vlen = f->n;
	const uint8_t *nl = memchr(v, '\n', vlen);
	size_t plen = nl ? (size_t)(nl - v) : vlen;
	snprintf(pids[npids].path, sizeof(pids[npids].path),
		 "/local/domain/0/backend/vbd3/%u/%u/kthread-pid", d, n);
	snprintf(pids[npids].val, sizeof(pids[npids].val), "%.*s", (int)(plen < 63 ? plen : 63),
		 (const char *)v);
	const char *pid = pids[npids++].val;
	char rel[256];
	snprintf(rel, sizeof(rel), "sys/bus/xen-backend/devices/%s/.keep", name);
	put(rel, "", 0);
	if (!*pid || strspn(pid, "0123456789") != strlen(pid) || strlen(pid) > 10)
		return;
	snprintf(rel, sizeof(rel), "dev/shm/td3-%s/vbd-%u-%u", pid, d, n);
	put(rel, nl ? nl + 1 : v + vlen, nl ? vlen - plen - 1 : 0);
}

static void put_entry(const uint8_t *s, size_t n)
{
	static const char *const stat[] = { "oo_req", "rd_req", "wr_req", "rd_sect", "wr_sect" };
	const uint8_t *nl = memchr(s, '\n', n);
	size_t nlen = nl ? (size_t)(nl - s) : n;
	if (!usable(s, nlen))
		return;
	char name[80], rel[256];
	snprintf(name, sizeof(name), "%.*s", (int)nlen, (const char *)s);
	struct fz f = { nl ? nl + 1 : s + n, nl ? n - nlen - 1 : 0 };
	if (!strncmp(name, "vbd3-", 5)) {
		put_vbd3(name, &f);
		return;
	}
	if (strncmp(name, "vbd-", 4) && strncmp(name, "tap-", 4)) {
		snprintf(rel, sizeof(rel), "sys/class/net/%s/device/nodename", name);
		put(rel, f.p, f.n);
		return;
	}
	const uint8_t *v;
	size_t vlen;
	for (size_t k = 0; k < 5 && fz_next(&f, '\n', &v, &vlen); k++) {
		snprintf(rel, sizeof(rel), "sys/bus/xen-backend/devices/%s/statistics/%s", name, stat[k]);
		put(rel, v, vlen);
	}
}

static void read_all(void)
{
	struct xen_net_reader nr;
	struct xen_vbd_reader vr;
	struct xen_vif *vif = NULL;
	struct xen_vbd *vbd = NULL;
	size_t n, cap = 0, vcap = 0;
	struct xg_err err;
	xen_net_init(&nr, root);
	xen_vbd_init(&vr, root);
	xen_vbd_set_xenstore(&vr, fake_xs, NULL);
	vr.tapdisk_uid = getuid();
	for (int pass = 0; pass < 2; pass++) {
		if (xen_net_read(&nr, &vif, &n, &cap, &err) < 0 && !err.msg[0])
			abort();
		if (xen_vbd_read(&vr, &vbd, &n, &vcap, &err) < 0 && !err.msg[0])
			abort();
	}
	xen_net_close(&nr);
	xen_vbd_close(&vr);
	free(vif);
	free(vbd);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!root[0]) {
		snprintf(root, sizeof(root), "/tmp/xgtop-fuzz-root-XXXXXX");
		if (!mkdtemp(root))
			abort();
		atexit(rm_root);
	}
	rm_root();
	mkdir(root, 0700);
	npids = 0;
	struct fz f = { data, size };
	const uint8_t *s;
	size_t n;
	if (fz_next(&f, 0xff, &s, &n))
		put("proc/net/dev", s, n);
	put("sys/bus/xen-backend/devices/.keep", "", 0);
	for (int i = 0; i < 16 && fz_next(&f, 0xff, &s, &n); i++)
		put_entry(s, n);
	read_all();
	return 0;
}
