/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The CMT monitoring IDs a run attached, written down under the run
 * directory (xen_rundir.h) while they are attached, one file per run
 * (cmt.PID.state), so that the next start detaches what a killed run left
 * (xen_cmt.c decides what to do with them). */
#ifndef XGTOP_XEN_CMT_STATE_H
#define XGTOP_XEN_CMT_STATE_H

#include <stddef.h>
#include <stdint.h>

struct xen_cmt_left {
	uint32_t id;
	uint8_t handle[16];   /* the domain, not a later one with its id */
};

/* Takes over the files in dir of runs that are gone (xen_rundir_owner_gone):
 * their domains are appended to *v (*n of them), the files removed. */
void xen_cmts_claim(const char *dir, struct xen_cmt_left **v, size_t *n);
/* Makes the file at path list v[0..n), or removes it when n is 0; nothing
 * when it already says so (*last: what was last written, kept up to date). */
void xen_cmts_write(const char *path, const struct xen_cmt_left *v, size_t n, char **last);

#endif
