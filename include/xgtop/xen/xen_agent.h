/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `xgtop --agent`: runs inside a Xen guest, counts the whole guest with perf
 * (the pmu module, every CPU, cfg->events or the default cache pair) and
 * publishes the cumulative counts under the guest's own xenstore directory
 * data/xgtop/ every cfg->delay_s, for dom0's xgtop (guestpub.h). */
#ifndef XGTOP_AGENT_H
#define XGTOP_AGENT_H

#include <signal.h>

#include "xgtop/model/config.h"

/* Runs until *stop is set (a signal) or cfg->iterations publications;
 * removes data/xgtop on the way out. 0, or -1 with err set. */
int xen_agent_run(const struct xg_config *cfg, volatile sig_atomic_t *stop, struct xg_err *err);

#endif
