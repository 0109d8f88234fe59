/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What a run changes in the hypervisor outlives the process: the trace
 * buffers' settings, the CMT monitoring IDs it attached. Each is written
 * down under XG_RUN_DIR while it is in force, so that the next start can
 * undo what a run killed before its cleanup (SIGKILL, a crash) left. */
#ifndef XGTOP_XEN_RUNDIR_H
#define XGTOP_XEN_RUNDIR_H

#include <stdbool.h>

#define XG_RUN_DIR "/run/xgtop"

/* Creates dir (mode 0700) unless it exists; false when it cannot be. */
bool xen_rundir_make(const char *dir);
/* Whether the run that wrote a state file as pid is gone: no process
 * pid, or one that is not this program (the pid was reused), or this
 * very process (a file from an earlier process with our pid). */
bool xen_rundir_owner_gone(long pid);

#endif
