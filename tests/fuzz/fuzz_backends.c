// SPDX-License-Identifier: GPL-2.0-or-later
/* libFuzzer harness: dom0's backend readers on a scratch root whose files
 * the input writes. Pieces are separated by 0xff: the first is
 * /proc/net/dev; then "NAME\nTEXT" pieces, where a NAME starting vbd- or
 * tap- becomes a backend device whose five statistics files are TEXT's
 * lines, and any other NAME an interface whose device/nodename is TEXT.
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
	struct xb_net_reader nr;
	struct xb_vbd_reader vr;
	struct xb_vif *vif = NULL;
	struct xb_vbd *vbd = NULL;
	size_t n, cap = 0, vcap = 0;
	struct xg_err err;
	xb_net_init(&nr, root);
	xb_vbd_init(&vr, root);
	for (int pass = 0; pass < 2; pass++) {
		if (xb_net_read(&nr, &vif, &n, &cap, &err) < 0 && !err.msg[0])
			abort();
		if (xb_vbd_read(&vr, &vbd, &n, &vcap, &err) < 0 && !err.msg[0])
			abort();
	}
	xb_net_close(&nr);
	xb_vbd_close(&vr);
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
