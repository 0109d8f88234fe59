/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Builds xentrace data in memory for the decoder's unit tests: 32-bit words,
 * CPU-change chunks whose length is filled in when the chunk ends, records
 * with or without a TSC. Each test file includes it once. */
#ifndef XGTOP_TEST_XT_TBUF_H
#define XGTOP_TEST_XT_TBUF_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "xgtop/trace/xentrace.h"

struct tbuf { uint8_t *b; size_t n, cap, hdr; };

static void put32(struct tbuf *b, uint32_t v)
{
	if (b->n + 4 > b->cap) {
		b->cap = b->cap ? 2 * b->cap : 1 << 16;
		b->b = realloc(b->b, b->cap);
		assert_non_null(b->b);
	}
	memcpy(b->b + b->n, &v, 4);
	b->n += 4;
}

/* Starts a TRC_TRACE_CPU_CHANGE chunk for pCPU cpu. */
static void chunk(struct tbuf *b, uint32_t cpu)
{
	b->hdr = b->n;
	put32(b, XT_CPU_CHANGE | 2u << 28);
	put32(b, cpu);
	put32(b, 0);
}

static void chunk_end(struct tbuf *b)
{
	uint32_t len = (uint32_t)(b->n - b->hdr - 12);
	memcpy(b->b + b->hdr + 8, &len, 4);
}

/* One record: event ev, n extra words (w[] where given, else derived from
 * seed), with a TSC when tsc_on. */
static void recw(struct tbuf *b, uint32_t ev, int tsc_on, uint64_t tsc, unsigned n, uint32_t seed,
                 const uint32_t *w)
{
	put32(b, ev | n << 28 | (tsc_on ? 1u << 31 : 0));
	if (tsc_on) {
		put32(b, (uint32_t)tsc);
		put32(b, (uint32_t)(tsc >> 32));
	}
	for (unsigned i = 0; i < n; i++)
		put32(b, w ? w[i] : seed * 2654435761u + i);
}

#endif
