/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A point in time as the user writes it (--at): RFC 3339, Unix seconds,
 * or relative to now. */
#ifndef XGTOP_CORE_WHEN_H
#define XGTOP_CORE_WHEN_H

#include <stdbool.h>

/* s as Unix seconds into *out: "2026-12-06T10:00:00Z" (RFC 3339: Z or
 * +HH:MM / -HH:MM, fractions of a second allowed, T or a space),
 * "1796551200" (Unix seconds, fractions allowed), or "-15m" (now less 30s,
 * 15m, 2h, 1d, 1w). false when s is none of these or not after 1970. */
bool xg_parse_when(const char *s, double now, double *out);

#endif
