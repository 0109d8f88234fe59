// SPDX-License-Identifier: GPL-2.0-or-later
/* TIME values of the command line: ISO 8601 / RFC 3339, Unix seconds, now,
 * or a duration from either end of a span (timearg.h). */
#include "xgtop/core/timearg.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define NS 1000000000ull

/* "90", "90s", "15m", "1h30m", "2d", "1w": nanoseconds. At most 1e9 s (31
 * years) in all: parts that each fit could otherwise add up past 2^64 ns
 * and wrap round to an early time. */
static bool parse_duration(const char *s, uint64_t *ns)
{
	uint64_t total = 0;
	double secs = 0;
	if (!*s)
		return false;
	while (*s) {
		char *end;
		if (!isdigit((unsigned char)*s))
			return false;
		double v = strtod(s, &end);
		uint64_t unit = 1;
		switch (*end) {
		case 'w': unit = 7 * 86400; end++; break;
		case 'd': unit = 86400; end++; break;
		case 'h': unit = 3600; end++; break;
		case 'm': unit = 60; end++; break;
		case 's': end++; break;
		case 0: break;
		default: return false;
		}
		secs += v * (double)unit;
		if (!(secs <= 1e9))
			return false;
		total += (uint64_t)(v * (double)unit * 1e9 + 0.5);
		s = end;
	}
	*ns = total;
	return true;
}

/* The zone at s: "", "Z", "+HH:MM", "+HHMM", "+HH" (or -); seconds east. */
static bool parse_zone(const char *s, bool *given, long *east)
{
	int hh = 0, mm = 0, n = 0;
	*given = *s != 0;
	*east = 0;
	if (!*s)
		return true;
	if (!strcmp(s, "Z") || !strcmp(s, "z"))
		return true;
	if ((*s != '+' && *s != '-') || !isdigit((unsigned char)s[1]))
		return false;
	if (sscanf(s + 1, "%2d:%2d%n", &hh, &mm, &n) == 2 && !s[1 + n]) {
	} else if (sscanf(s + 1, "%2d%2d%n", &hh, &mm, &n) == 2 && !s[1 + n]) {
	} else if (sscanf(s + 1, "%2d%n", &hh, &n) == 1 && !s[1 + n]) {
		mm = 0;
	} else {
		return false;
	}
	if (hh > 14 || mm > 59)
		return false;
	*east = (*s == '-' ? -1 : 1) * (hh * 3600L + mm * 60L);
	return true;
}

/* ".123456789" at s: its nanoseconds, and how many bytes it took. */
static size_t parse_fraction(const char *s, uint64_t *ns)
{
	size_t k = 1;
	uint64_t v = 0, scale = NS;
	*ns = 0;
	if (*s != '.' || !isdigit((unsigned char)s[1]))
		return 0;
	for (; isdigit((unsigned char)s[k]); k++)
		if (scale > 1) {
			scale /= 10;
			v += (uint64_t)(s[k] - '0') * scale;
		}
	*ns = v;
	return k;
}

/* ISO 8601: DATE, or DATE[T ]HH:MM[:SS[.frac]] with an optional zone. */
static bool parse_iso(const char *s, uint64_t *ns)
{
	struct tm tm;
	int n = 0, sec = 0;
	uint64_t frac = 0;
	memset(&tm, 0, sizeof(tm));
	if (sscanf(s, "%4d-%2d-%2d%n", &tm.tm_year, &tm.tm_mon, &tm.tm_mday, &n) != 3 || n != 10)
		return false;
	s += n;
	if (*s == 'T' || *s == 't' || *s == ' ') {
		int m = 0;
		if (sscanf(s + 1, "%2d:%2d%n", &tm.tm_hour, &tm.tm_min, &m) != 2 || m != 5)
			return false;
		s += 1 + m;
		if (*s == ':') {
			if (sscanf(s + 1, "%2d%n", &sec, &m) != 1 || m != 2)
				return false;
			s += 3;
			s += parse_fraction(s, &frac);
		}
	}
	bool zoned;
	long east;
	if (!parse_zone(s, &zoned, &east) || tm.tm_mon < 1 || tm.tm_mon > 12 || tm.tm_mday < 1 ||
	    tm.tm_mday > 31 || tm.tm_hour > 23 || tm.tm_min > 59 || sec > 60)
		return false;
	tm.tm_year -= 1900;
	tm.tm_mon -= 1;
	tm.tm_sec = sec;
	tm.tm_isdst = -1;
	time_t t = zoned ? timegm(&tm) - east : mktime(&tm);
	if (t < 0)
		return false;
	*ns = (uint64_t)t * NS + frac;
	return true;
}

/* Unix seconds: digits and an optional fraction, before 2^63 ns. */
static bool parse_unix(const char *s, uint64_t *ns)
{
	uint64_t v = 0, frac = 0;
	size_t k = 0;
	for (; isdigit((unsigned char)s[k]); k++) {
		v = v * 10 + (uint64_t)(s[k] - '0');
		if (v > 9000000000ull)
			return false;
	}
	if (!k)
		return false;
	k += parse_fraction(s + k, &frac);
	if (s[k])
		return false;
	*ns = v * NS + frac;
	return true;
}

bool xg_timearg_parse(const char *s, uint64_t first_ns, uint64_t last_ns, uint64_t *ns)
{
	uint64_t d;
	if (!strcmp(s, "now")) {
		*ns = last_ns;
		return true;
	}
	if (*s == '+' && parse_duration(s + 1, &d)) {
		*ns = first_ns + d;
		return true;
	}
	if (*s == '-' && parse_duration(s + 1, &d)) {
		*ns = last_ns > d ? last_ns - d : 0;
		return true;
	}
	return parse_iso(s, ns) || parse_unix(s, ns);
}
