/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The source table of the `trace` source (an xentrace file stepped through in windows), for
 * the source registry (src/engine/sources.c). */
#ifndef XGTOP_TRACE_TRACE_SOURCE_H
#define XGTOP_TRACE_TRACE_SOURCE_H

#include "xgtop/model/source.h"

extern const struct xg_source_ops source_trace_ops;

#endif
