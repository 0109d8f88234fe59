// SPDX-License-Identifier: GPL-2.0-or-later
/* Pressure stall information of a domain's cgroup: the cumulative `total=`
 * of the some and full lines of cpu.pressure, memory.pressure and
 * io.pressure, kept in the sample as ns counters. The rates (CPU-P% ...)
 * are the metrics layer's, as for every other counter. */
#include "linux_pressure.h"
#include "xgtop/core/osread.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static const char *const files[XG_PSI_RES_COUNT] = { "cpu.pressure", "memory.pressure", "io.pressure" };

/* The total= of one line (up to eol): true and *us, or false when the
 * line has no total token or its number is not one. */
static bool line_total(const char *p, const char *eol, uint64_t *us)
{
	for (const char *q = p; q && q < eol; q = memchr(q, ' ', (size_t)(eol - q))) {
		q++;
		if ((size_t)(eol - q) < 6 || memcmp(q, "total=", 6))
			continue;
		const char *n = q + 6;
		if (!xg_scan_u64(&n, us) || n != eol)
			return false;
		return *us <= UINT64_MAX / 1000;   /* the sample counts ns */
	}
	return false;
}

bool lx_parse_pressure(const char *buf, struct lx_psi *out)
{
	memset(out, 0, sizeof(*out));
	for (const char *p = buf; *p;) {
		const char *eol = strchr(p, '\n');
		if (!eol)
			eol = p + strlen(p);
		int k = !strncmp(p, "some ", 5) ? XG_PSI_SOME : !strncmp(p, "full ", 5) ? XG_PSI_FULL : -1;
		if (k >= 0) {
			if (out->ok[k] || !line_total(p + 4, eol, &out->total_us[k]))
				return false;
			out->ok[k] = true;
		}
		p = *eol ? eol + 1 : eol;
	}
	return out->ok[XG_PSI_SOME];
}

void lx_pressure_open(struct lx_pressure *p)
{
	p->on = access("/proc/pressure", F_OK) == 0;
}

void lx_pressure_absent(const struct lx_pressure *p, struct xg_sample *out)
{
	host_mark(&out->host, XG_H_PSI);
	if (p->on)
		return;
	for (int f = XG_F_PSI_CPU_SOME; f <= XG_F_PSI_IO_FULL; f++)
		sample_invalid_all(out, (enum xg_field)f, "PSI is off: no /proc/pressure (a kernel without "
				   "CONFIG_PSI, or booted with psi=0)");
}

static void res_invalid(struct xg_sample *out, struct xg_dom *x, enum xg_psi_res r, const char *why)
{
	dom_invalid(out, x, psi_field(r, XG_PSI_SOME), why);
	dom_invalid(out, x, psi_field(r, XG_PSI_FULL), why);
}

static void fill_res(struct xg_sample *out, struct xg_dom *x, int dfd, enum xg_psi_res r)
{
	char buf[512], why[128];
	struct lx_psi psi;
	ssize_t n = xg_read_at(dfd, files[r], buf, sizeof(buf));
	if (n == -ENOENT) {
		snprintf(why, sizeof(why), "%s missing in this cgroup (PSI switched off for it: cgroup.pressure = 0)",
			 files[r]);
		res_invalid(out, x, r, why);
		return;
	}
	if (n < 0) {
		snprintf(why, sizeof(why), "%s: %s", files[r], strerror((int)-n));
		res_invalid(out, x, r, why);
		return;
	}
	if ((size_t)n == sizeof(buf) - 1 || !lx_parse_pressure(buf, &psi)) {
		snprintf(why, sizeof(why), "%s: not the some/full lines of a pressure file", files[r]);
		res_invalid(out, x, r, why);
		return;
	}
	dom_set(x, psi_field(r, XG_PSI_SOME), psi.total_us[XG_PSI_SOME] * 1000);
	if (psi.ok[XG_PSI_FULL])
		dom_set(x, psi_field(r, XG_PSI_FULL), psi.total_us[XG_PSI_FULL] * 1000);
	else
		dom_invalid(out, x, psi_field(r, XG_PSI_FULL),
			    r == XG_PSI_CPU ? "cpu.pressure has no full line (cgroups have it since Linux 5.13)"
					    : "the pressure file has no full line");
}

void lx_pressure_fill(const struct lx_pressure *p, struct xg_sample *out, struct xg_dom *x,
		      int root_fd, const char *path, const char *why)
{
	if (!p->on)
		return;   /* the reason given for every domain applies */
	if (root_fd < 0 || !path) {
		for (int r = 0; r < XG_PSI_RES_COUNT; r++)
			res_invalid(out, x, (enum xg_psi_res)r, why);
		return;
	}
	int dfd = openat(root_fd, *path ? path : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0) {
		char w[128];
		snprintf(w, sizeof(w), "the cgroup's directory: %s", strerror(errno));
		for (int r = 0; r < XG_PSI_RES_COUNT; r++)
			res_invalid(out, x, (enum xg_psi_res)r, w);
		return;
	}
	for (int r = 0; r < XG_PSI_RES_COUNT; r++)
		fill_res(out, x, dfd, (enum xg_psi_res)r);
	close(dfd);
}
