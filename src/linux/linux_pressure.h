/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Private to the Linux source and its tests: pressure stall information
 * (PSI) of a domain's cgroup, read from its cpu.pressure, memory.pressure
 * and io.pressure (doc/linux-source.md, "Pressure"). */
#ifndef XGTOP_LINUX_PRESSURE_H
#define XGTOP_LINUX_PRESSURE_H

#include "xgtop/model/sample.h"

/* One pressure file: the `total=` (us) of its some and full lines. */
struct lx_psi {
	bool ok[XG_PSI_KIND_COUNT];
	uint64_t total_us[XG_PSI_KIND_COUNT];
};
/* Parses the text of a pressure file ("some avg10=0.00 avg60=0.00
 * avg300=0.00 total=N", then the same for "full"). A line of another kind
 * is skipped (a newer kernel's); a some or full line given twice, without
 * a total, or with one past what ns can hold, makes the text unreadable.
 * false when it is unreadable or has no some line; a missing full line
 * (cpu.pressure before Linux 5.13) leaves ok[XG_PSI_FULL] false. */
bool lx_parse_pressure(const char *buf, struct lx_psi *out);

struct lx_pressure {
	bool on;                     /* /proc/pressure exists: the kernel keeps PSI */
};
void lx_pressure_open(struct lx_pressure *p);
/* For every domain before any is filled: the reason pressure is missing
 * when the kernel keeps none, and the sample's pressure flag. */
void lx_pressure_absent(const struct lx_pressure *p, struct xg_sample *out);
/* The six pressure fields of x from the cgroup at path (relative to
 * root_fd, "" = the root); with root_fd < 0 or path NULL, invalid with
 * why (the domain is no cgroup of its own). */
void lx_pressure_fill(const struct lx_pressure *p, struct xg_sample *out, struct xg_dom *x,
		      int root_fd, const char *path, const char *why);

#endif
