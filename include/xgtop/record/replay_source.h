/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The source table of the `replay` source (a recording played back), for the source registry
 * (src/engine/sources.c). */
#ifndef XGTOP_RECORD_REPLAY_SOURCE_H
#define XGTOP_RECORD_REPLAY_SOURCE_H

#include "xgtop/model/source.h"

extern const struct xg_source_ops source_replay_ops;

#endif
