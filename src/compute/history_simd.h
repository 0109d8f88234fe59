/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The history's tuned code, private to history.c, kept apart so that what
 * it assumes is said in one place:
 * - x86 SSE2 (<emmintrin.h>) when the compiler targets it (__SSE2__, every
 *   x86-64), plain C otherwise, with the same result: a float per column,
 *   NaN where the row has no figure;
 * - a row's history columns from NET-RX/s to MEM-BW lie side by side in
 *   struct xg_row's v[] (checked below), and a slot is whole 16-byte
 *   stores, 16-byte aligned (SLOT_FLOATS, defined by history.c before it
 *   includes this, a multiple of 4; the ring is malloc's, 16-byte aligned
 *   on x86-64);
 * - stores past the caches (_mm_stream_ps) are ordered by put_rows_done()
 *   before the ring is read again;
 * - GCC or clang for __builtin_prefetch and the alignment of XG_HOT: a
 *   function whose loop runs once per domain and refresh starts on a
 *   64-byte cache line, so where its loop falls no longer depends on the
 *   size of the code linked before it (the history's stage measured 0.17 or
 *   0.28 ms at 10,000 domains depending on an unrelated function's size).
 * None of it changes a figure, only how fast it is written. */
#ifndef XGTOP_HISTORY_SIMD_H
#define XGTOP_HISTORY_SIMD_H

#include "xgtop/compute/history.h"

#include <math.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#if defined(__GNUC__)
#define XG_HOT __attribute__((aligned(64)))
#else
#define XG_HOT
#endif

/* After CPU% and MEM, the columns lie side by side in a row from NET-RX/s
 * to MEM-BW: converted in one run, four at a time, then the unmeasured
 * ones (few, usually none) made NaN, whatever the row held for them (a
 * value from an earlier sample, or nothing ever written: a double has no
 * trap representation, and what came of it is overwritten). */
#define RUN_FIRST 2
_Static_assert(XG_COL_MEM_BW - XG_COL_NET_RX + 1 == XG_HIST_NCOLS - RUN_FIRST,
	       "the history's columns from NET-RX/s on are one run of the table");
_Static_assert(SLOT_FLOATS % 4 == 0, "a slot is whole 16-byte stores");

/* The history's columns of a row's values v, as floats, into f. */
static inline void convert(float *restrict f, const double *restrict v)
{
#if defined(__SSE2__)
	__m128 lo = _mm_cvtpd_ps(_mm_set_pd(v[XG_COL_MEM], v[XG_COL_CPU_PCT]));
	_mm_store_ps(f, _mm_movelh_ps(lo, _mm_cvtpd_ps(_mm_loadu_pd(v + XG_COL_NET_RX))));
	for (int k = 4; k < SLOT_FLOATS; k += 4) {
		const double *p = v + XG_COL_NET_RX + (k - RUN_FIRST);
		_mm_store_ps(f + k, _mm_movelh_ps(_mm_cvtpd_ps(_mm_loadu_pd(p)), _mm_cvtpd_ps(_mm_loadu_pd(p + 2))));
	}
#else
	f[0] = (float)v[XG_COL_CPU_PCT];
	f[1] = (float)v[XG_COL_MEM];
	for (int k = 0; k < XG_HIST_NCOLS - RUN_FIRST; k++)
		f[RUN_FIRST + k] = (float)v[XG_COL_NET_RX + k];
#endif
}

/* Writes the slot of row r. With SSE2 the stores go past the caches: the
 * ring takes up to 32 MiB, written once per sample and read back for a
 * few rows only; through the cache, each sample's 800 kB (10,000 domains)
 * pushed out samples and rows the next refresh reads again. */
static inline void put_row(float *restrict dst, const struct xg_row *r, uint64_t cols)
{
	_Alignas(16) float f[SLOT_FLOATS];
	convert(f, r->v);
	if (cols & ~r->valid)
		for (int k = 0; k < SLOT_FLOATS; k++)
			if (!row_has(r, xg_hist_cols[k]))
				f[k] = NAN;
#if defined(__SSE2__)
	for (int k = 0; k < SLOT_FLOATS; k += 4)
		_mm_stream_ps(dst + k, _mm_load_ps(f + k));
#else
	memcpy(dst, f, sizeof(f));
#endif
}

/* The values of row r span four cache lines: fetched ahead of their turn. */
static inline void prefetch_row(const struct xg_row *r)
{
#if defined(__GNUC__)
	const double *pv = r->v;
	__builtin_prefetch(pv + XG_COL_CPU_PCT);
	__builtin_prefetch(pv + XG_COL_DISK_RD);
	__builtin_prefetch(pv + XG_COL_BLK);
	__builtin_prefetch(pv + XG_COL_MEM_BW);
#else
	(void)r;
#endif
}

/* After the last put_row of a sample. */
static inline void put_rows_done(void)
{
#if defined(__SSE2__)
	_mm_sfence();
#endif
}

#endif
