// SPDX-License-Identifier: GPL-2.0-or-later
/* The gzip body of a rendering, made once per refresh for the scrapers
 * that ask for one (Accept-Encoding: gzip). */
#include "expo_serve.h"

#include <stdlib.h>
#include <zlib.h>

char *expo_gzip(const char *in, size_t n, size_t *out_n)
{
	z_stream z = { 0 };
	/* 15 + 16: a gzip header and trailer rather than zlib's. Level 1:
	 * the exposition's repeated names compress well at any level, and a
	 * refresh at 10,000 domains renders megabytes. */
	if (deflateInit2(&z, 1, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
		return NULL;
	size_t cap = deflateBound(&z, (uLong)n);
	char *out = xg_malloc(cap);
	z.next_in = (Bytef *)in;
	z.avail_in = (uInt)n;
	z.next_out = (Bytef *)out;
	z.avail_out = (uInt)cap;
	int rc = deflate(&z, Z_FINISH);
	*out_n = z.total_out;
	deflateEnd(&z);
	if (rc != Z_STREAM_END) {
		free(out);
		return NULL;
	}
	return out;
}
