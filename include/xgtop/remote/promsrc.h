/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The source table of the `prometheus` source (a fleet read from a
 * Prometheus-compatible server's query API), for the source registry
 * (src/engine/sources.c). */
#ifndef XGTOP_REMOTE_PROMSRC_H
#define XGTOP_REMOTE_PROMSRC_H

#include "xgtop/model/source.h"

extern const struct xg_source_ops source_prometheus_ops;

#endif
