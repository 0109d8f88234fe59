// SPDX-License-Identifier: GPL-2.0-or-later
/* What a QEMU process says about its VM: its command line (-name, -uuid,
 * -m, -smp, -accel, Proxmox's -id), the names QEMU gives its threads, and
 * the cgroup scopes libvirt and Proxmox put it in. Pure text parsing, so
 * every rule is unit-tested on captured command lines. */
#include "linux_vm.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool lx_is_qemu_comm(const char *comm)
{
	/* the kernel keeps 15 bytes: "qemu-system-x86" for qemu-system-x86_64 */
	return !strncmp(comm, "qemu-system-", 12) || !strcmp(comm, "qemu-kvm") ||
	       !strcmp(comm, "kvm");
}

int32_t lx_vcpu_thread(const char *comm, enum lx_accel *accel)
{
	const char *p;
	int32_t n = 0;
	if (!strncmp(comm, "ALL CPUs/", 9)) {
		p = comm + 8;   /* single-threaded TCG: one thread runs every vCPU */
	} else {
		if (strncmp(comm, "CPU ", 4) || comm[4] < '0' || comm[4] > '9')
			return LX_NO_VCPU;
		for (p = comm + 4; *p >= '0' && *p <= '9' && n < 1000000; p++)
			n = n * 10 + (*p - '0');
	}
	if (*p != '/' || !p[1])
		return LX_NO_VCPU;
	if (accel)
		*accel = !strcmp(p + 1, "KVM") ? LX_ACCEL_KVM : !strcmp(p + 1, "TCG") ? LX_ACCEL_TCG
										: LX_ACCEL_OTHER;
	return n;
}

/* The next item of a QEMU option string: [start, *end) with ",," still
 * doubled; s points at the item, returns the start of the next one. */
static const char *opt_item(const char *s, const char **end)
{
	const char *p = s;
	while (*p && !(*p == ',' && p[1] != ',')) {
		if (*p == ',')
			p++;   /* ",," is a comma inside the item */
		p++;
	}
	*end = p;
	return *p ? p + 1 : p;
}

/* Copies [s, e) to out with ",," made ",". */
static void opt_copy(const char *s, const char *e, char *out, size_t n)
{
	size_t k = 0;
	for (; s < e && k + 1 < n; s++) {
		out[k++] = *s;
		if (*s == ',' && s + 1 < e && s[1] == ',')
			s++;
	}
	if (n)
		out[k] = 0;
}

/* The value of key in a QEMU option string, ",," read as a comma;
 * implied: a first item without '=' is key's value. */
static bool qemu_opt(const char *s, const char *key, bool implied, char *out, size_t n)
{
	size_t kl = strlen(key);
	for (bool first = true; *s; first = false) {
		const char *e, *next = opt_item(s, &e);
		const char *eq = memchr(s, '=', (size_t)(e - s));
		if (eq && (size_t)(eq - s) == kl && !strncmp(s, key, kl)) {
			opt_copy(eq + 1, e, out, n);
			return true;
		}
		if (!eq && first && implied) {
			opt_copy(s, e, out, n);
			return true;
		}
		s = next;
	}
	return false;
}

/* -m's size rule, on the n bytes at s. */
static bool qemu_size(const char *s, size_t n, uint64_t *bytes)
{
	char buf[64], *end;
	if (!n || n >= sizeof(buf) || *s < '0' || *s > '9')
		return false;
	memcpy(buf, s, n);
	buf[n] = 0;
	double v = strtod(buf, &end);
	static const char units[] = "BKMGTPE";
	int shift = 20;   /* no suffix: MiB */
	if (*end) {
		const char *u = strchr(units, *end & ~0x20);
		if (!u || end[1])
			return false;
		shift = (int)(u - units) * 10;
	}
	double b = ldexp(v, shift);
	if (!(b >= 0) || b >= 18446744073709551616.0)
		return false;
	*bytes = (uint64_t)b;
	return true;
}

static bool opt_u32(const char *s, const char *key, bool implied, uint32_t *out)
{
	char v[32], *end;
	if (!qemu_opt(s, key, implied, v, sizeof(v)))
		return false;
	unsigned long x = strtoul(v, &end, 10);
	if (end == v || *end || x > 1000000)
		return false;
	*out = (uint32_t)x;
	return true;
}

/* -smp's CPUs: cpus and maxcpus, or what the topology multiplies to. */
static bool qemu_smp(const char *s, uint32_t *cpus, uint32_t *maxcpus)
{
	static const char *const topo[] = { "drawers", "books", "sockets", "dies", "clusters",
					    "modules", "cores", "threads" };
	uint32_t c = 0, m = 0, prod = 1, v;
	bool any = false;
	for (size_t i = 0; i < XG_ARRAY_LEN(topo); i++)
		if (opt_u32(s, topo[i], false, &v) && v) {
			prod *= v;
			any = true;
		}
	bool hc = opt_u32(s, "cpus", true, &c) && c;
	bool hm = opt_u32(s, "maxcpus", false, &m) && m;
	/* QEMU fills what is left out: maxcpus from the topology or cpus,
	 * cpus from maxcpus */
	if (!hm)
		m = any ? prod : c;
	if (!hc)
		c = m;
	if (!c)
		return false;
	*cpus = c;
	*maxcpus = m < c ? c : m;
	return true;
}

static int hexval(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : (c | 0x20) >= 'a' && (c | 0x20) <= 'f' ? (c | 0x20) - 'a' + 10 : -1;
}

/* "550e8400-e29b-41d4-a716-446655440000" */
static bool parse_uuid(const char *s, uint8_t out[16])
{
	int k = 0;
	for (int i = 0; s[i]; i++) {
		if ((i == 8 || i == 13 || i == 18 || i == 23) && s[i] == '-')
			continue;
		int h = hexval(s[i]), l = h < 0 ? -1 : hexval(s[i + 1]);
		if (l < 0 || k == 16)
			return false;
		out[k++] = (uint8_t)(h << 4 | l);
		i++;
	}
	return k == 16;
}

/* -machine/-M "pc,accel=kvm:tcg": the first accelerator QEMU tries. */
static enum lx_accel accel_of(const char *s)
{
	if (!strncmp(s, "kvm", 3) && (!s[3] || s[3] == ':' || s[3] == ','))
		return LX_ACCEL_KVM;
	if (!strncmp(s, "tcg", 3) && (!s[3] || s[3] == ':' || s[3] == ','))
		return LX_ACCEL_TCG;
	return LX_ACCEL_OTHER;
}

static void parse_opt(struct lx_vmconf *c, const char *opt, const char *val)
{
	char v[XG_NAME_MAX];
	if (!strcmp(opt, "name")) {
		if (qemu_opt(val, "guest", true, v, sizeof(v)))
			snprintf(c->name, sizeof(c->name), "%s", v);
	} else if (!strcmp(opt, "uuid")) {
		c->has_uuid = parse_uuid(val, c->uuid);
	} else if (!strcmp(opt, "m")) {
		if (qemu_opt(val, "size", true, v, sizeof(v)) && !qemu_size(v, strlen(v), &c->mem))
			c->mem = 0;
	} else if (!strcmp(opt, "smp")) {
		if (!qemu_smp(val, &c->cpus, &c->maxcpus))
			c->cpus = c->maxcpus = 0;
	} else if (!strcmp(opt, "accel")) {
		if (qemu_opt(val, "accel", true, v, sizeof(v)))
			c->accel = accel_of(v);
	} else if (!strcmp(opt, "machine") || !strcmp(opt, "M")) {
		if (qemu_opt(val, "accel", false, v, sizeof(v)))
			c->accel = accel_of(v);
	} else if (!strcmp(opt, "id")) {
		char *end;
		long long id = strtoll(val, &end, 10);
		if (end != val && !*end && id >= 0 && id <= UINT32_MAX)
			c->vmid = id;
	}
}

void lx_vm_parse_args(const char *args, size_t len, struct lx_vmconf *c)
{
	memset(c, 0, sizeof(*c));
	c->vmid = -1;
	const char *end = args + len;
	for (const char *a = args; a < end; a += strlen(a) + 1) {
		if (a[0] != '-')
			continue;
		const char *opt = a + 1 + (a[1] == '-');   /* QEMU takes -opt and --opt */
		if (!strcmp(opt, "enable-kvm")) {
			c->accel = LX_ACCEL_KVM;
			continue;
		}
		const char *val = a + strlen(a) + 1;
		if (val >= end)
			break;
		parse_opt(c, opt, val);
	}
}

/* systemd's unit-name escaping: "\x2d" is '-'. */
static void unescape(const char *s, size_t n, char *out, size_t cap)
{
	size_t k = 0;
	for (size_t i = 0; i < n && k + 1 < cap; i++) {
		if (s[i] == '\\' && i + 3 < n && s[i + 1] == 'x' && hexval(s[i + 2]) >= 0 &&
		    hexval(s[i + 3]) >= 0) {
			out[k++] = (char)(hexval(s[i + 2]) << 4 | hexval(s[i + 3]));
			i += 3;
		} else {
			out[k++] = s[i];
		}
	}
	if (cap)
		out[k] = 0;
}

/* "qemu-<id>-<name>" (libvirt's machine name; old libvirt had no id). */
static void libvirt_machine(const char *m, struct lx_vmscope *out)
{
	const char *p = m + 5;   /* after "qemu-" */
	const char *q = p;
	while (*q >= '0' && *q <= '9')
		q++;
	if (q > p && *q == '-') {
		out->id = strtoll(p, NULL, 10);
		p = q + 1;
	}
	snprintf(out->name, sizeof(out->name), "%s", p);
}

/* One component [s, s+n) of a cgroup path. */
static bool scope_component(const char *s, size_t n, struct lx_vmscope *out)
{
	char u[XG_NAME_MAX + 32];
	unescape(s, n, u, sizeof(u));
	size_t l = strlen(u);
	if (!strncmp(u, "machine-qemu-", 13) && l > 19 && !strcmp(u + l - 6, ".scope")) {
		u[l - 6] = 0;
		out->kind = LX_SCOPE_LIBVIRT;
		libvirt_machine(u + 8, out);
		return true;
	}
	if (!strncmp(u, "qemu-", 5) && l > 18 && !strcmp(u + l - 13, ".libvirt-qemu")) {
		u[l - 13] = 0;
		out->kind = LX_SCOPE_LIBVIRT;
		libvirt_machine(u, out);
		return true;
	}
	return false;
}

bool lx_vm_scope(const char *path, struct lx_vmscope *out)
{
	memset(out, 0, sizeof(*out));
	out->id = -1;
	const char *prev = NULL;
	for (const char *s = path; *s;) {
		while (*s == '/')
			s++;
		const char *e = strchr(s, '/');
		size_t n = e ? (size_t)(e - s) : strlen(s);
		if (n && scope_component(s, n, out)) {
			out->len = (size_t)(s - path) + n;
			return true;
		}
		/* Proxmox: /qemu.slice/<vmid>.scope */
		if (prev && !strncmp(prev, "qemu.slice/", 11) && n > 6 && !strncmp(s + n - 6, ".scope", 6)) {
			char *end;
			long long id = strtoll(s, &end, 10);
			if (end == s + n - 6 && id >= 0 && id <= UINT32_MAX) {
				out->kind = LX_SCOPE_PROXMOX;
				out->id = id;
				out->len = (size_t)(s - path) + n;
				return true;
			}
		}
		prev = s;
		s += n;
	}
	return false;
}
