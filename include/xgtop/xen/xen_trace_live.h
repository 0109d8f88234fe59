/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Live Xen trace buffers for the Xen source: scheduler runstate records are
 * read from the hypervisor's per-pCPU trace buffers about every 100 ms (a
 * poll thread, plus one pass at each collect), fed to the shared decoder
 * and native accounting (xentrace.h), and published as cumulative
 * running / runnable / blocked / offline ns per domain and per vCPU.
 *
 * The hypervisor's trace settings are global: this module saves what it
 * changes and puts it back on every exit path (close, atexit, and at the
 * next start after a SIGKILL, from a state file). doc/trace-live.md has the
 * rules. Compiled only with HAVE_XEN. */
#ifndef XGTOP_XEN_TRACE_LIVE_H
#define XGTOP_XEN_TRACE_LIVE_H

#include "xgtop/model/config.h"
#include "xgtop/model/sample.h"

struct xtl;
struct xen_api;

/* Never fails: when the buffers cannot be used the handle remembers why
 * and xen_tl_fill() blanks the scheduler fields with that reason. x is the
 * source's Xen libraries and handles; it must outlive the returned one. */
struct xtl *xen_tl_open(const struct xen_api *x, const struct xg_config *cfg);
/* Fills XG_F_RUN_NS/WAIT_NS/BLK_NS/OFF_NS of every domain already in out
 * (and the sched_ns of its vCPUs), accounted up to now, plus
 * host.lost_records. */
void xen_tl_fill(struct xtl *t, struct xg_sample *out);
/* The `w` key: off stops reading and restores the hypervisor's settings;
 * on starts a new session. No effect under --notrace. */
void xen_tl_set_on(struct xtl *t, bool on);
/* Puts the hypervisor's trace settings back (idempotent; also run from an
 * atexit hook), then frees. */
void xen_tl_close(struct xtl *t);

/* Benchmarks and tests: the same consumer over n rings in memory laid out
 * as Xen's (struct t_buf, then data_size bytes), TSC rate hz; no Xen. */
struct xtl *xen_tl_open_mem(void *const *bufs, size_t n, uint32_t data_size, double hz);

/* What the consumer has done so far, for tests and the cost benchmark. */
struct xen_tl_stats {
	bool active;
	uint64_t records;        /* scheduler records decoded */
	uint64_t bytes;          /* trace bytes consumed */
	uint64_t polls;
	uint64_t lost_records;
	uint64_t cpu_ns;         /* CPU time spent polling (thread + collect) */
	uint64_t wall_ns;        /* since the session started */
};
void xen_tl_stats(struct xtl *t, struct xen_tl_stats *st);

#endif
