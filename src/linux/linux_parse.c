// SPDX-License-Identifier: GPL-2.0-or-later
/* Parsers for the /proc and cgroup v2 text the Linux source reads. They work
 * on captured text so they can be unit-tested and fuzzed without a kernel. */
#include "linux_text.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Signed decimal (stat has -1 in a few fields we skip over). */
static bool snum(const char **p, int64_t *out)
{
	bool neg = **p == '-';
	if (neg)
		(*p)++;
	uint64_t v;
	if (!xg_scan_u64(p, &v) || v > INT64_MAX)
		return false;
	*out = neg ? -(int64_t)v : (int64_t)v;
	return true;
}

bool lx_parse_id(const char *s, uint32_t *out)
{
	uint64_t v = 0;
	if (!*s)
		return false;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || v > UINT32_MAX / 10)
			return false;
		v = v * 10 + (uint64_t)(*s - '0');
	}
	if (v > UINT32_MAX)
		return false;
	*out = (uint32_t)v;
	return true;
}

bool lx_parse_stat(const char *buf, struct lx_stat *out)
{
	/* comm may hold spaces and ')' itself: it ends at the last ')'. */
	const char *lp = strchr(buf, '(');
	const char *rp = strrchr(buf, ')');
	if (!lp || !rp || rp < lp || rp[1] != ' ')
		return false;
	memset(out, 0, sizeof(*out));
	size_t n = (size_t)(rp - lp - 1);
	if (n >= sizeof(out->comm))
		n = sizeof(out->comm) - 1;
	memcpy(out->comm, lp + 1, n);
	out->comm[n] = 0;
	const char *p = rp + 2;
	out->state = *p;
	if (!out->state || p[1] != ' ')
		return false;
	p += 2;
	/* Fields 4.. (1-based, as in proc(5)); we keep a few. */
	for (int f = 4; f <= 24; f++) {
		int64_t v;
		if (!snum(&p, &v))
			return false;
		switch (f) {
		case 4: out->ppid = (int32_t)v; break;
		case 5: out->pgrp = (int32_t)v; break;
		case 6: out->sid = (int32_t)v; break;
		case 14: out->utime = (uint64_t)v; break;
		case 15: out->stime = (uint64_t)v; break;
		case 16: out->cutime = v < 0 ? 0 : (uint64_t)v; break;
		case 17: out->cstime = v < 0 ? 0 : (uint64_t)v; break;
		case 20: out->nthreads = (uint64_t)v; break;
		case 22: out->starttime = (uint64_t)v; break;
		case 24: out->rss_pages = v < 0 ? 0 : (uint64_t)v; break;
		}
		if (f < 24) {
			if (*p != ' ')
				return false;
			p++;
		}
	}
	return true;
}

bool lx_parse_schedstat(const char *buf, uint64_t *run_ns, uint64_t *wait_ns)
{
	const char *p = buf;
	if (!xg_scan_u64(&p, run_ns) || *p++ != ' ')
		return false;
	return xg_scan_u64(&p, wait_ns);
}

bool lx_parse_statm(const char *buf, uint64_t *pages)
{
	const char *p = buf;
	uint64_t size;
	if (!xg_scan_u64(&p, &size) || *p++ != ' ')
		return false;
	return xg_scan_u64(&p, pages);
}

/* Finds "key value" at a line start in a flat-keyed file. */
static bool keyed(const char *buf, const char *key, uint64_t *out)
{
	size_t kl = strlen(key);
	for (const char *p = buf; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		if (!strncmp(p, key, kl) && (p[kl] == ' ' || p[kl] == ':' || p[kl] == '\t')) {
			const char *q = p + kl + 1;
			while (*q == ' ' || *q == '\t')
				q++;
			return xg_scan_u64(&q, out);
		}
	}
	return false;
}

bool lx_parse_vmswap(const char *buf, uint64_t *bytes)
{
	uint64_t kib;
	if (!keyed(buf, "VmSwap", &kib) || kib > UINT64_MAX / 1024)
		return false;
	*bytes = kib * 1024;
	return true;
}

bool lx_parse_fdinfo_iff(const char *buf, char name[16])
{
	for (const char *p = buf; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		if (strncmp(p, "iff:", 4))
			continue;
		p += 4;
		while (*p == ' ' || *p == '\t')
			p++;
		size_t n = strcspn(p, " \t\n");
		if (!n || n > 15)
			return false;
		memcpy(name, p, n);
		name[n] = 0;
		return true;
	}
	return false;
}

bool lx_parse_cpu_stat(const char *buf, uint64_t *usage_usec)
{
	return keyed(buf, "usage_usec", usage_usec);
}

bool lx_parse_cg_descendants(const char *buf, uint64_t *n)
{
	return keyed(buf, "nr_descendants", n);
}

bool lx_parse_io_stat(const char *buf, struct lx_io *out)
{
	/* "MAJ:MIN rbytes=N wbytes=N rios=N wios=N dbytes=N dios=N" per device */
	memset(out, 0, sizeof(*out));
	const char *p = buf;
	while (*p) {
		const char *eol = strchr(p, '\n');
		if (!eol)
			eol = p + strlen(p);
		const char *q = strchr(p, ' ');
		while (q && q < eol) {
			q++;
			const char *eq = strchr(q, '=');
			if (!eq || eq > eol)
				return false;
			uint64_t v;
			const char *vp = eq + 1;
			if (!xg_scan_u64(&vp, &v))
				return false;
			size_t kl = (size_t)(eq - q);
			uint64_t *dst = NULL;
			if (kl == 6 && !memcmp(q, "rbytes", 6))
				dst = &out->rbytes;
			else if (kl == 6 && !memcmp(q, "wbytes", 6))
				dst = &out->wbytes;
			else if (kl == 4 && !memcmp(q, "rios", 4))
				dst = &out->rios;
			else if (kl == 4 && !memcmp(q, "wios", 4))
				dst = &out->wios;
			if (dst)
				*dst += v;
			q = vp < eol && *vp == ' ' ? vp : NULL;
		}
		p = *eol ? eol + 1 : eol;
	}
	return true;
}

bool lx_parse_proc_io(const char *buf, struct lx_io *out)
{
	memset(out, 0, sizeof(*out));
	return keyed(buf, "read_bytes", &out->rbytes) && keyed(buf, "write_bytes", &out->wbytes);
}

static void net_add(struct lx_net *out, const struct xg_netdev *d)
{
	out->rx_bytes += d->rx_bytes;
	out->rx_pkts += d->rx_pkts;
	out->rx_errs += d->rx_errs;
	out->rx_drop += d->rx_drop;
	out->tx_bytes += d->tx_bytes;
	out->tx_pkts += d->tx_pkts;
	out->tx_errs += d->tx_errs;
	out->tx_drop += d->tx_drop;
	out->nifs++;
}

/* A line that is not an interface line ends the parse as a failure: in a
 * namespace's file it means the text was cut, so the sums would be short. */
bool lx_parse_net_dev(const char *buf, struct lx_net *out)
{
	memset(out, 0, sizeof(*out));
	const char *p = netdev_body(buf);
	struct xg_netdev d;
	int r = 0;
	while (p && (r = netdev_next(&p, &d)) > 0)
		if (strcmp(d.name, "lo"))
			net_add(out, &d);
	return p && r == 0;
}

size_t lx_parse_net_devs(const char *buf, struct xg_netdev *out, size_t max)
{
	const char *p = netdev_body(buf);
	size_t n = 0;
	while (p && n < max && netdev_next(&p, &out[n]) > 0)
		n++;
	return n;
}

bool lx_parse_meminfo(const char *buf, struct lx_meminfo *out)
{
	uint64_t t, a;
	if (!keyed(buf, "MemTotal", &t) || !keyed(buf, "MemAvailable", &a))
		return false;
	if (t > UINT64_MAX / 1024)
		return false;
	out->total = t * 1024;
	out->avail = a * 1024;
	uint64_t sw;
	out->swap_total = keyed(buf, "SwapTotal", &sw) && sw <= UINT64_MAX / 1024 ? sw * 1024 : 0;
	return true;
}

bool lx_parse_stat_cpu(const char *line, uint32_t *id, uint64_t *busy, uint64_t *idle)
{
	/* user nice system idle iowait irq softirq steal (guest guest_nice) */
	static const bool is_idle[8] = { false, false, false, true, true, false, false, false };
	uint64_t v[8] = { 0 }, n;
	if (strncmp(line, "cpu", 3) || line[3] < '0' || line[3] > '9')
		return false;
	char *e;
	unsigned long long cpu = strtoull(line + 3, &e, 10);
	if (cpu > UINT32_MAX || *e != ' ')
		return false;
	for (n = 0; n < 8 && *e == ' '; n++) {
		const char *p = e + strspn(e, " ");
		if (*p < '0' || *p > '9')
			break;
		v[n] = strtoull(p, &e, 10);
	}
	if (n < 4)   /* idle is the fourth; older kernels stop after it */
		return false;
	*id = (uint32_t)cpu;
	*busy = *idle = 0;
	for (int i = 0; i < 8; i++)
		*(is_idle[i] ? idle : busy) += v[i];
	return true;
}

bool lx_parse_limit(const char *buf, uint64_t *out)
{
	if (!strncmp(buf, "max", 3) && (buf[3] == '\n' || !buf[3])) {
		*out = UINT64_MAX;
		return true;
	}
	const char *p = buf;
	return xg_scan_u64(&p, out) && (*p == '\n' || !*p);
}

bool lx_parse_cgroup_path(const char *buf, const char **path, size_t *len)
{
	for (const char *p = buf; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		if (strncmp(p, "0::", 3))
			continue;
		const char *s = p + 3, *e = strchr(s, '\n');
		if (!e)
			e = s + strlen(s);
		if (*s != '/')
			return false;
		*path = s;
		*len = (size_t)(e - s);
		return true;
	}
	return false;
}

bool lx_parse_cpu_mhz(const char *buf, uint64_t *khz)
{
	const char *p = strstr(buf, "cpu MHz");
	if (!p)
		return false;
	p = strchr(p, ':');
	if (!p)
		return false;
	p++;
	while (*p == ' ' || *p == '\t')
		p++;
	uint64_t mhz, frac = 0;
	if (!xg_scan_u64(&p, &mhz))
		return false;
	if (*p == '.') {
		p++;
		/* three decimals of MHz are kHz */
		for (int i = 0; i < 3; i++) {
			frac *= 10;
			if (isdigit((unsigned char)*p))
				frac += (uint64_t)(*p++ - '0');
		}
	}
	if (mhz > UINT64_MAX / 1000 - 1)
		return false;
	*khz = mhz * 1000 + frac;
	return *khz > 0;
}

/* Copies a mountinfo field, undoing its \040-style octal escapes. */
static void unescape(char *dst, size_t n, const char *s, size_t len)
{
	size_t o = 0;
	for (size_t i = 0; i < len && o + 1 < n; i++) {
		if (s[i] == '\\' && i + 3 < len && s[i + 1] >= '0' && s[i + 1] <= '3' &&
		    s[i + 2] >= '0' && s[i + 2] <= '7' && s[i + 3] >= '0' && s[i + 3] <= '7') {
			dst[o++] = (char)(((s[i + 1] - '0') << 6) | ((s[i + 2] - '0') << 3) | (s[i + 3] - '0'));
			i += 3;
			continue;
		}
		dst[o++] = s[i];
	}
	dst[o] = 0;
}

bool lx_parse_mountinfo_cgroup2(const char *line, char *root, size_t rn, char *mnt, size_t mn)
{
	/* id parent maj:min root mountpoint options [optional...] - fstype source super */
	const char *f[5];
	size_t fl[5];
	const char *p = line;
	for (int i = 0; i < 5; i++) {
		while (*p == ' ')
			p++;
		f[i] = p;
		while (*p && *p != ' ' && *p != '\n')
			p++;
		fl[i] = (size_t)(p - f[i]);
		if (!fl[i])
			return false;
	}
	const char *sep = strstr(p, " - ");
	if (!sep)
		return false;
	const char *ty = sep + 3;
	if (strncmp(ty, "cgroup2 ", 8))
		return false;
	unescape(root, rn, f[3], fl[3]);
	unescape(mnt, mn, f[4], fl[4]);
	return true;
}
