// SPDX-License-Identifier: GPL-2.0-or-later
/* The formatters every human-readable view shares (see format.h). */
#include "xgtop/core/format.h"

#include <math.h>
#include <stdint.h>
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

/* snprintf(buf, n, "%.*f%s", d, v, suffix) for d <= 3, without printf's
 * cost (the screen formats a thousand numbers per refresh) when the digits
 * are plain: v * 10^d below 1e15 and not within two units in its last
 * place of a half, where the rounded product could round otherwise than
 * printf's exact decimal expansion; then printf itself. */
static void fmt_fixed(char *buf, size_t n, double v, int d, const char *suffix)
{
	static const double scale[] = { 1, 10, 100, 1000 };
	double p = fabs(v) * scale[d];
	if (!(p < 1e15)) {
		snprintf(buf, n, "%.*f%s", d, v, suffix);
		return;
	}
	/* floor(p) and nextafter(p, INFINITY) for 0 <= p < 1e15 without the
	 * library calls: the integer part is exact there, and the next double
	 * up has the next bit pattern. */
	uint64_t whole = (uint64_t)p, bits;
	double frac = p - (double)whole, up;
	memcpy(&bits, &p, sizeof(bits));
	bits++;
	memcpy(&up, &bits, sizeof(up));
	if (fabs(frac - 0.5) <= 2 * (up - p)) {
		snprintf(buf, n, "%.*f%s", d, v, suffix);
		return;
	}
	uint64_t q = whole + (frac > 0.5);
	char digits[32];
	int len = 0;
	do {
		digits[len++] = (char)('0' + q % 10);
		q /= 10;
	} while (q || len <= d);
	char out[48];
	size_t o = 0;
	if (signbit(v))
		out[o++] = '-';   /* printf writes -0.0 too */
	while (len > 0) {
		out[o++] = digits[--len];
		if (len == d && d)
			out[o++] = '.';
	}
	size_t sl = strlen(suffix);
	if (o + sl + 1 > n) {
		snprintf(buf, n, "%.*f%s", d, v, suffix);   /* cut as printf cuts */
		return;
	}
	memcpy(buf, out, o);
	memcpy(buf + o, suffix, sl + 1);
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
	char unit[2] = { units[u], 0 };
	fmt_fixed(buf, n, v, u && fabs(v) < 9.95 ? 1 : 0, u ? unit : "");
}

static void fmt_short_bytes(char *buf, size_t n, double bytes)
{
	short_scaled(buf, n, bytes, 1024.0, " KMGTPE");
}

static void fmt_short_count(char *buf, size_t n, double v)
{
	short_scaled(buf, n, v, 1000.0, " kMGTPE");
}

void fmt_pct(char *buf, size_t n, double pct)
{
	fmt_fixed(buf, n, pct, 1, "");
}

void fmt_seconds(char *buf, size_t n, double s)
{
	fmt_fixed(buf, n, s, s < 1e6 ? 1 : 0, "");
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
	case XG_UNIT_MS:
		fmt_fixed(buf, n, v, 2, "");
		break;
	default:
		fmt_fixed(buf, n, v, 0, "");
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
