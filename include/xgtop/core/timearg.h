/* SPDX-License-Identifier: GPL-2.0-or-later */
/* TIME on the command line (`report --from/--to`, and the views that look
 * at a past time): one parser, so that every option takes the same forms. */
#ifndef XGTOP_CORE_TIMEARG_H
#define XGTOP_CORE_TIMEARG_H

#include <stdbool.h>
#include <stdint.h>

/* The forms, for help texts and error lines. */
#define XG_TIMEARG_FORMS "RFC 3339 (2026-01-01T10:00:00Z; without a zone, local time), " \
	"Unix seconds (1767261600) or -DURATION/+DURATION (-1h, 90s, 1h30m, 2d, 1w)"

/* s as nanoseconds since 1970 into *ns: false when it is none of
 *  - ISO 8601 / RFC 3339: DATE, DATE[T ]HH:MM[:SS[.frac]] with an optional
 *    zone (Z, +HH:MM, +HHMM, +HH); without one, local time;
 *  - Unix seconds: digits, with an optional fraction ("1767261600.5");
 *  - "now": last_ns;
 *  - -DURATION: that long before last_ns; +DURATION: after first_ns
 *    (DURATION: 90, 90s, 15m, 1h30m, 2d, 1w; at most 1e9 s).
 * A recording passes its first and last sample; a live view, now twice. */
bool xg_timearg_parse(const char *s, uint64_t first_ns, uint64_t last_ns, uint64_t *ns);

#endif
