// SPDX-License-Identifier: GPL-2.0-or-later
/* One build per Xen minor: the decisions of xen_version.h. Compiled with
 * or without the Xen libraries (no Xen header is needed), so --version
 * and the unit tests have it either way. */
#include "xgtop/xen/xen_version.h"

#include <stdio.h>
#include <string.h>

/* The Makefile passes XEN_SO_CTRL, the soname of the libxenctrl it found,
 * and XEN_CTRL_VERNODE, the symbol version that library defines. */
const char *xen_build_soname(void)
{
#if defined(HAVE_XEN) && defined(XEN_SO_CTRL)
	return XEN_SO_CTRL;
#elif defined(HAVE_XEN)
	return "libxenctrl.so";
#else
	return NULL;
#endif
}

const char *xen_build_vernode(void)
{
#if defined(HAVE_XEN) && defined(XEN_CTRL_VERNODE)
	return XEN_CTRL_VERNODE;
#elif defined(HAVE_XEN)
	return "";
#else
	return NULL;
#endif
}

/* A decimal number of at most 5 digits (Xen packs each part in 16 bits)
 * at *p; advances *p past it. */
static bool take_num(const char **p, unsigned *out)
{
	const char *s = *p;
	uint64_t v;
	if (!xg_scan_u64(&s, &v) || s - *p > 5 || v > 0xffff)
		return false;
	*p = s;
	*out = (unsigned)v;
	return true;
}

int xen_ver_from_soname(const char *name, struct xen_ver *v)
{
	static const char prefix[] = "libxenctrl.so.";
	if (!name)
		return -1;
	const char *base = strrchr(name, '/');
	const char *p = base ? base + 1 : name;
	if (strncmp(p, prefix, sizeof(prefix) - 1))
		return -1;
	p += sizeof(prefix) - 1;
	struct xen_ver r;
	unsigned patch;
	if (!take_num(&p, &r.major) || *p++ != '.' || !take_num(&p, &r.minor))
		return -1;
	if (*p == '.') {
		p++;
		if (!take_num(&p, &patch))
			return -1;
	}
	if (*p)
		return -1;
	*v = r;
	return 0;
}

/* The Xen minors whose public headers the structures xgtop hands
 * libxenctrl were checked against, each booted in the lab (make test-xen,
 * XEN=4.17 and XEN=4.20). A build for any other minor compiles but its Xen
 * source refuses to start: its layouts were never compared. */
static const struct xen_ver checked[] = { { 4, 17 }, { 4, 20 } };
#define CHECKED_LIST "4.17, 4.20"

bool xen_ver_checked(struct xen_ver v)
{
	for (size_t i = 0; i < sizeof(checked) / sizeof(checked[0]); i++)
		if (checked[i].major == v.major && checked[i].minor == v.minor)
			return true;
	return false;
}

void xen_ver_describe(const char *soname, char *buf, size_t n)
{
	struct xen_ver v;
	if (!soname)
		snprintf(buf, n, "Xen: not built in (no Xen tools libraries at build time)");
	else if (xen_ver_from_soname(soname, &v))
		snprintf(buf, n, "Xen version unknown (loads %s)", soname);
	else if (!xen_ver_checked(v))
		snprintf(buf, n, "Xen %u.%u (loads %s), which xgtop has not been checked against: "
		         "the Xen source refuses it (checked: " CHECKED_LIST ")", v.major, v.minor, soname);
	else
		snprintf(buf, n, "Xen %u.%u (loads %s)", v.major, v.minor, soname);
}

/* The start every refusal shares; -1 when the build's version is unknown
 * (err then says so). */
static int built_for(const char *soname, struct xen_ver *b, struct xg_err *err)
{
	if (!soname)
		return xg_fail(err, "xen: this xgtop was built without the Xen libraries "
		               "(install libxen-dev and rebuild)");
	if (xen_ver_from_soname(soname, b))
		return xg_fail(err, "xen: this xgtop does not know which Xen it was built for (its "
		               "libxenctrl soname, %.64s, names no version): rebuild it against this "
		               "host's Xen (see README, Xen versions)", soname);
	if (!xen_ver_checked(*b))
		return xg_fail(err, "xen: this xgtop is built for Xen %u.%u (%s), whose interface xgtop "
		               "has not been checked against (checked: " CHECKED_LIST "): build it against "
		               "one of those Xen releases' tools libraries (see README, Xen versions)",
		               b->major, b->minor, soname);
	return 0;
}

int xen_ver_check_library(const char *soname, const char *vernode, bool defines_vernode,
                          const char *file, struct xg_err *err)
{
	struct xen_ver b, l;
	if (built_for(soname, &b, err))
		return -1;
	bool other = file && !xen_ver_from_soname(file, &l) && (l.major != b.major || l.minor != b.minor);
	if (other)
		return xg_fail(err, "xen: this xgtop is built for Xen %u.%u (%s), but the %s it loaded "
		               "is Xen %u.%u's (%.200s): install Xen %u.%u's tools libraries, or use an "
		               "xgtop built for Xen %u.%u (see README, Xen versions)",
		               b.major, b.minor, soname, soname, l.major, l.minor, file, b.major,
		               b.minor, l.major, l.minor);
	if (vernode && *vernode && !defines_vernode)
		return xg_fail(err, "xen: this xgtop is built for Xen %u.%u (%s), but the %s it loaded "
		               "(%.200s) is of another Xen (it does not define %.32s): install Xen "
		               "%u.%u's tools libraries, or use an xgtop built for this host's Xen "
		               "(see README, Xen versions)", b.major, b.minor, soname, soname,
		               file ? file : "path unknown", vernode, b.major, b.minor);
	return 0;
}

int xen_ver_check_hypervisor(const char *soname, long xenver, const char *extra, size_t extra_len,
                             struct xg_err *err)
{
	struct xen_ver b;
	if (built_for(soname, &b, err))
		return -1;
	unsigned long raw = (unsigned long)xenver;
	struct xen_ver h = { (unsigned)(raw >> 16) & 0xffff, (unsigned)raw & 0xffff };
	if (xenver <= 0 || raw > 0xffffffffUL || !h.major)
		return xg_fail(err, "xen: the hypervisor reports version %ld, which is no Xen release "
		               "(this xgtop is built for Xen %u.%u, %s)", xenver, b.major, b.minor,
		               soname);
	if (h.major == b.major && h.minor == b.minor)
		return 0;
	/* The extraversion (".2", ".6-pre") only makes the line exact; it
	 * comes from the hypervisor, so only printable ASCII is kept. */
	char ex[17] = "";
	size_t k = 0;
	for (size_t i = 0; extra && i < extra_len && k < sizeof(ex) - 1 && extra[i]; i++)
		ex[k++] = extra[i] >= 0x20 && extra[i] < 0x7f ? extra[i] : '?';
	ex[k] = 0;
	return xg_fail(err, "xen: this xgtop is built for Xen %u.%u (%s), the hypervisor is Xen "
	               "%u.%u%s: use an xgtop built for Xen %u.%u (see README, Xen versions)",
	               b.major, b.minor, soname, h.major, h.minor, ex, h.major, h.minor);
}
