// SPDX-License-Identifier: GPL-2.0-or-later
/* The formatters every human-readable view shares (see format.h). */
#include "xgtop/core/format.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

void fmt_size(char *buf, size_t n, double bytes)
{
	static const char units[] = "BKMGTPE";
	size_t u = 0;
	while (bytes >= 1024.0 && u + 2 < sizeof(units)) {
		bytes /= 1024.0;
		u++;
	}
	snprintf(buf, n, u ? "%.1f%c" : "%.0f%c", bytes, units[u]);
}

/* 1536 -> "1.5K": a cell has room for three digits and a suffix, so a
 * value is scaled once it would round to four digits. */
static void short_scaled(char *buf, size_t n, double v, double step, const char *units)
{
	size_t u = 0, last = strlen(units) - 1;
	while (fabs(v) >= 999.5 && u < last) {
		v /= step;
		u++;
	}
	if (u == 0)
		snprintf(buf, n, "%.0f", v);
	else if (fabs(v) < 9.95)
		snprintf(buf, n, "%.1f%c", v, units[u]);
	else
		snprintf(buf, n, "%.0f%c", v, units[u]);
}

void fmt_short_bytes(char *buf, size_t n, double bytes)
{
	short_scaled(buf, n, bytes, 1024.0, " KMGTPE");
}

void fmt_short_count(char *buf, size_t n, double v)
{
	short_scaled(buf, n, v, 1000.0, " kMGTPE");
}

void fmt_pct(char *buf, size_t n, double pct)
{
	snprintf(buf, n, "%.1f", pct);
}

void fmt_seconds(char *buf, size_t n, double s)
{
	snprintf(buf, n, s < 1e6 ? "%.1f" : "%.0f", s);
}

void fmt_value(char *buf, size_t n, enum xg_unit u, double v)
{
	switch (u) {
	case XG_UNIT_PCT:
		fmt_pct(buf, n, v);
		break;
	case XG_UNIT_SEC:
		fmt_seconds(buf, n, v);
		break;
	case XG_UNIT_BYTES:
	case XG_UNIT_BPS:
		fmt_short_bytes(buf, n, v);
		break;
	case XG_UNIT_PER_S:
		fmt_short_count(buf, n, v);
		break;
	case XG_UNIT_RATIO:
		snprintf(buf, n, "%.2f", v);
		break;
	default:
		snprintf(buf, n, "%.0f", v);
		break;
	}
}

void fmt_list_or(char *buf, size_t n, const char *const *names, size_t count)
{
	size_t o = 0;
	if (n)
		buf[0] = 0;
	for (size_t i = 0; i < count && o < n; i++) {
		const char *sep = i == 0 ? "" : i + 1 == count ? " or " : ", ";
		int k = snprintf(buf + o, n - o, "%s%s", sep, names[i]);
		if (k < 0)
			break;
		o += (size_t)k;
	}
}
