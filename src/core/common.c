// SPDX-License-Identifier: GPL-2.0-or-later
#include "xgtop/core/common.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

int xg_fail(struct xg_err *err, const char *fmt, ...)
{
	if (err) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
		va_end(ap);
		err->code = 0;
	}
	return -1;
}

int xg_fail_errno(struct xg_err *err, int errnum, const char *fmt, ...)
{
	if (err) {
		va_list ap;
		va_start(ap, fmt);
		int n = vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
		va_end(ap);
		if (n >= 0 && (size_t)n < sizeof(err->msg))
			snprintf(err->msg + n, sizeof(err->msg) - n, ": %s", strerror(errnum));
		err->code = errnum;
	}
	return -1;
}

static void *check(void *p, size_t n)
{
	if (!p && n) {
		fprintf(stderr, "xgtop: out of memory allocating %zu bytes\n", n);
		exit(1);
	}
	return p;
}

void *xg_malloc(size_t n) { return check(malloc(n), n); }
void *xg_calloc(size_t nmemb, size_t size) { return check(calloc(nmemb, size), nmemb * size); }
void *xg_realloc(void *p, size_t n) { return check(realloc(p, n), n); }

char *xg_strdup(const char *s)
{
	size_t n = strlen(s) + 1;
	return memcpy(xg_malloc(n), s, n);
}

void xg_advise_huge(void *p, size_t used, size_t size)
{
#ifdef MADV_HUGEPAGE
	uintptr_t mask = XG_HUGE_PAGE - 1, at = (uintptr_t)p;
	uintptr_t a = (at + mask) & ~mask;
	uintptr_t e = (at + used + mask) & ~mask, lim = (at + size) & ~mask;
	if (e > lim)
		e = lim;
	if (e > a)
		(void)madvise((void *)a, e - a, MADV_HUGEPAGE);
#else
	(void)p, (void)used, (void)size;
#endif
}

void xg_grow(void *pp, size_t *cap, size_t need, size_t sz)
{
	void **p = pp;
	if (need <= *cap)
		return;
	size_t ncap = *cap ? *cap : 16;
	while (ncap < need)
		ncap *= 2;
	*p = xg_realloc(*p, ncap * sz);
	if (ncap * sz >= 2 * XG_HUGE_PAGE)
		xg_advise_huge(*p, need * sz, ncap * sz);
	*cap = ncap;
}

void xg_swap_arrays(void *pa, size_t *cap_a, void *pb, size_t *cap_b)
{
	void **a = pa, **b = pb, *p = *a;
	size_t c = *cap_a;
	*a = *b;
	*b = p;
	*cap_a = *cap_b;
	*cap_b = c;
}

static uint64_t clock_ns(clockid_t id)
{
	struct timespec ts;
	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

uint64_t xg_now_mono_ns(void) { return clock_ns(CLOCK_MONOTONIC); }
uint64_t xg_now_real_ns(void) { return clock_ns(CLOCK_REALTIME); }
uint64_t xg_self_cpu_ns(void) { return clock_ns(CLOCK_PROCESS_CPUTIME_ID); }

size_t xg_utf8_decode(const unsigned char *s, uint32_t *cp)
{
	static const uint32_t min[] = { 0, 0, 0x80, 0x800, 0x10000 };
	size_t n;
	if (s[0] < 0x80) {
		*cp = s[0];
		return 1;
	}
	if ((s[0] & 0xe0) == 0xc0) { n = 2; *cp = s[0] & 0x1f; }
	else if ((s[0] & 0xf0) == 0xe0) { n = 3; *cp = s[0] & 0x0f; }
	else if ((s[0] & 0xf8) == 0xf0) { n = 4; *cp = s[0] & 0x07; }
	else return 0;
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		*cp = (*cp << 6) | (s[i] & 0x3f);
	}
	if (*cp < min[n] || *cp > 0x10ffff || (*cp >= 0xd800 && *cp <= 0xdfff))
		return 0;
	return n;
}

/* Valid UTF-8 that is also safe on a terminal: C1 controls are as
 * dangerous as C0 ones on many terminals. */
static size_t utf8_len(const unsigned char *s)
{
	uint32_t cp;
	size_t n = xg_utf8_decode(s, &cp);
	return n > 1 && cp < 0xa0 ? 0 : n;
}

char *xg_escape_name(char *dst, size_t n, const char *src)
{
	const unsigned char *s = (const unsigned char *)src;
	size_t o = 0;
	if (!n)
		return dst;
	while (*s) {
		size_t l = utf8_len(s);
		if (l == 1 && (*s < 0x20 || *s == 0x7f || *s == '\\'))
			l = 0;
		if (l) {
			if (o + l >= n)
				break;
			memcpy(dst + o, s, l);
			o += l;
			s += l;
		} else {
			if (*s == '\\') {
				if (o + 2 >= n)
					break;
				dst[o++] = '\\';
				dst[o++] = '\\';
			} else {
				if (o + 4 >= n)
					break;
				o += (size_t)snprintf(dst + o, n - o, "\\x%02x", *s);
			}
			s++;
		}
	}
	dst[o] = 0;
	return dst;
}

bool xg_parse_double(const char *s, double *out)
{
	char *end;
	if (!s || !*s)
		return false;
	errno = 0;
	double v = strtod(s, &end);
	if (errno || *end || !isfinite(v) || v < 0)
		return false;
	*out = v;
	return true;
}

bool xg_parse_u64(const char *s, uint64_t *out)
{
	char *end;
	if (!s || *s < '0' || *s > '9')
		return false;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);
	if (errno || *end)
		return false;
	*out = v;
	return true;
}

bool xg_scan_u64(const char **p, uint64_t *out)
{
	const char *s = *p;
	uint64_t v = 0;
	if (*s < '0' || *s > '9')
		return false;
	for (; *s >= '0' && *s <= '9'; s++) {
		unsigned d = (unsigned)(*s - '0');
		if (v > (UINT64_MAX - d) / 10)
			return false;
		v = v * 10 + d;
	}
	*p = s;
	*out = v;
	return true;
}
