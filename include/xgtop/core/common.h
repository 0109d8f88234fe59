/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Shared helpers: errors as values, checked allocation, clocks. */
#ifndef XGTOP_COMMON_H
#define XGTOP_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

#define XG_VERSION "0.1.0"

#define XG_ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

#if defined(__GNUC__)
#define XG_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define XG_PRINTF(f, a)
#endif

/* An error travels back to the caller as a value with a one-line message
 * that a user can read; the caller decides whether it is fatal. */
struct xg_err {
	int code;        /* errno when one applies, else 0 */
	char msg[512];
};

/* Sets err (if not NULL) and returns -1, so "return xg_fail(err, ...)" works. */
int xg_fail(struct xg_err *err, const char *fmt, ...) XG_PRINTF(2, 3);
/* Like xg_fail, appending ": strerror(errnum)" and keeping errnum. */
int xg_fail_errno(struct xg_err *err, int errnum, const char *fmt, ...) XG_PRINTF(3, 4);

/* Allocation failures are fatal: the message names what was being allocated. */
void *xg_malloc(size_t n);
void *xg_calloc(size_t nmemb, size_t size);
void *xg_realloc(void *p, size_t n);
/* Asks the kernel for transparent huge pages for the 2 MiB blocks of the
 * size bytes at p that hold any of its first used bytes (spare capacity
 * beyond them stays unbacked until used). A hint, ignored where the kernel
 * has none. A refresh at 10,000 domains walks some 17 MB of samples, rows
 * and history: with 4 KiB pages, more than the TLB maps. */
#define XG_HUGE_PAGE ((size_t)2 << 20)
void xg_advise_huge(void *p, size_t used, size_t size);
/* Grows *p (of *cap elements of size sz) so that it holds at least need
 * elements; huge pages (xg_advise_huge) for an array of 4 MiB or more. */
void xg_grow(void *pp, size_t *cap, size_t need, size_t sz);
/* Swaps two grown arrays (pointers *pa, *pb to the same element type) and
 * their capacities: a list rebuilt beside the old one each refresh. */
void xg_swap_arrays(void *pa, size_t *cap_a, void *pb, size_t *cap_b);
char *xg_strdup(const char *s);

/* Binary search: the index of the first of the n elements at base (size
 * bytes each, in order) that below() does not place before key, so where
 * key is or would be inserted; n when all are below it. Inline, so that
 * each caller's below() is inlined into the loop: the recorder and the
 * reader look up every domain of every sample. */
static inline size_t xg_lower_bound(const void *base, size_t n, size_t size, const void *key,
				    bool (*below)(const void *elem, const void *key))
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (below((const char *)base + mid * size, key))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Nanoseconds of CLOCK_MONOTONIC / CLOCK_REALTIME / this process's CPU time. */
uint64_t xg_now_mono_ns(void);
uint64_t xg_now_real_ns(void);
uint64_t xg_self_cpu_ns(void);

/* Length of the valid UTF-8 sequence at s (1..4) with its code point in
 * *cp, or 0 when the bytes are not valid UTF-8 (overlong, surrogate, past
 * U+10FFFF, truncated). s must be NUL-terminated. */
size_t xg_utf8_decode(const unsigned char *s, uint32_t *cp);

/* Copies src into dst (size n) escaping control bytes and invalid UTF-8 as
 * \xNN so a hostile domain name cannot drive the terminal. Returns dst. */
char *xg_escape_name(char *dst, size_t n, const char *src);

/* Parses a non-negative decimal (fractional allowed) with no trailing junk. */
bool xg_parse_double(const char *s, double *out);
/* Parses a non-negative integer with no trailing junk; false on overflow. */
bool xg_parse_u64(const char *s, uint64_t *out);
/* Reads the decimal digits at *p (no sign, no space before them) and moves
 * *p past them: the number inside a line of kernel text. false, with *p
 * unmoved, when there is no digit there or the number passes 2^64 - 1. */
bool xg_scan_u64(const char **p, uint64_t *out);

#endif
