/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The source table of the `xen` source (dom0: libxenctrl, xenstore, backends, trace buffers);
 * without the Xen libraries a stand-in that says so, for the source registry
 * (src/engine/sources.c). */
#ifndef XGTOP_XEN_XEN_SOURCE_H
#define XGTOP_XEN_XEN_SOURCE_H

#include "xgtop/model/source.h"

extern const struct xg_source_ops source_xen_ops;

#endif
