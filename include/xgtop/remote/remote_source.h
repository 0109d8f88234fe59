/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The source table of the `remote` source (the pool view: other hosts' exporters), for the *
 * source registry (src/engine/sources.c). */
#ifndef XGTOP_REMOTE_REMOTE_SOURCE_H
#define XGTOP_REMOTE_REMOTE_SOURCE_H

#include "xgtop/model/source.h"

extern const struct xg_source_ops source_remote_ops;

#endif
