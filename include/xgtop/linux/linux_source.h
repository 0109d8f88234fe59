/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The source table of the `linux` source (VMs, cgroups, processes of this host), for the
 * source registry (src/engine/sources.c). */
#ifndef XGTOP_LINUX_LINUX_SOURCE_H
#define XGTOP_LINUX_LINUX_SOURCE_H

#include "xgtop/model/source.h"

extern const struct xg_source_ops source_linux_ops;

#endif
