// SPDX-License-Identifier: GPL-2.0-or-later
/* The three ways to write a point in time (--at): RFC 3339, Unix
 * seconds, or a span before now. */
#include "xgtop/core/when.h"
#include "xgtop/core/common.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* "-15m": n units before now. */
static bool relative(const char *s, double now, double *out)
{
	static const struct { char unit; double s; } units[] = {
		{ 's', 1 }, { 'm', 60 }, { 'h', 3600 }, { 'd', 86400 }, { 'w', 7 * 86400 },
	};
	char *end;
	if (s[0] != '-' || !isdigit((unsigned char)s[1]))
		return false;
	double n = strtod(s + 1, &end);
	for (size_t i = 0; i < XG_ARRAY_LEN(units); i++)
		if (*end == units[i].unit && !end[1] && isfinite(n)) {
			*out = now - n * units[i].s;
			return true;
		}
	return false;
}

/* Digits, one optional fraction: Unix seconds. */
static bool unix_seconds(const char *s, double *out)
{
	size_t d = strspn(s, "0123456789");
	if (!d || (s[d] && (s[d] != '.' || !isdigit((unsigned char)s[d + 1]) ||
			    s[d + 1 + strspn(s + d + 1, "0123456789")])))
		return false;
	*out = strtod(s, NULL);
	return true;
}

/* YYYY-MM-DDTHH:MM:SS[.frac](Z|+HH:MM|-HH:MM) */
static bool rfc3339(const char *s, double *out)
{
	int Y, M, D, h, m, sec, n = 0;
	char sep;
	if (sscanf(s, "%4d-%2d-%2d%c%2d:%2d:%2d%n", &Y, &M, &D, &sep, &h, &m, &sec, &n) != 7 || n != 19 ||
	    (sep != 'T' && sep != 't' && sep != ' '))
		return false;
	if (M < 1 || M > 12 || D < 1 || D > 31 || h > 23 || m > 59 || sec > 60 || Y < 1970)
		return false;
	const char *p = s + n;
	double frac = 0;
	if (*p == '.') {
		size_t k = strspn(p + 1, "0123456789");
		if (!k)
			return false;
		frac = strtod(p, NULL);
		p += 1 + k;
	}
	long off = 0;
	if ((*p == 'Z' || *p == 'z') && !p[1]) {
		off = 0;
	} else if ((*p == '+' || *p == '-') && strlen(p) == 6 && p[3] == ':' && isdigit((unsigned char)p[1]) &&
		   isdigit((unsigned char)p[2]) && isdigit((unsigned char)p[4]) && isdigit((unsigned char)p[5])) {
		off = ((p[1] - '0') * 10 + (p[2] - '0')) * 3600L + ((p[4] - '0') * 10 + (p[5] - '0')) * 60L;
		off = *p == '-' ? -off : off;
	} else {
		return false;
	}
	struct tm tm = { .tm_year = Y - 1900, .tm_mon = M - 1, .tm_mday = D, .tm_hour = h, .tm_min = m,
			 .tm_sec = sec };
	time_t t = timegm(&tm);
	if (t == (time_t)-1 || tm.tm_mday != D)   /* 31 February rolls over */
		return false;
	*out = (double)t - (double)off + frac;
	return true;
}

bool xg_parse_when(const char *s, double now, double *out)
{
	double t;
	if (!s || !(relative(s, now, &t) || unix_seconds(s, &t) || rfc3339(s, &t)) || !(t > 0))
		return false;
	*out = t;
	return true;
}
