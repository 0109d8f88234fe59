/* SPDX-License-Identifier: GPL-2.0-or-later */
/* xentop -b's batch layout, for scripts written against xentop. */
#ifndef XGTOP_SINK_XENTOP_H
#define XGTOP_SINK_XENTOP_H

#include <stdio.h>
#include "xgtop/metrics.h"
#include "xgtop/view.h"

int sink_xentop_write(FILE *f, const struct xg_table *t, const struct xg_view *v, struct xg_err *err);

#endif
