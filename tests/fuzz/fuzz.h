/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Shared by the libFuzzer harnesses: cutting one input into pieces, exact
 * copies (so AddressSanitizer sees a read one byte past a piece), and
 * scratch files for parsers that read a path. */
#ifndef XGTOP_FUZZ_H
#define XGTOP_FUZZ_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct fz {
	const uint8_t *p;
	size_t n;
};

/* The next piece of f up to sep (not included); false when f is used up. */
static inline bool fz_next(struct fz *f, uint8_t sep, const uint8_t **s, size_t *len)
{
	if (!f->n)
		return false;
	const uint8_t *e = memchr(f->p, sep, f->n);
	*s = f->p;
	*len = e ? (size_t)(e - f->p) : f->n;
	f->p += *len + (e != NULL);
	f->n -= *len + (e != NULL);
	return true;
}

/* A NUL-terminated copy of n bytes in a block of exactly n + 1 bytes. */
static inline char *fz_cstr(const void *s, size_t n)
{
	char *c = malloc(n + 1);
	if (!c)
		abort();
	memcpy(c, s, n);
	c[n] = 0;
	return c;
}

/* An unterminated copy in a block of exactly n bytes (at least 1). */
static inline char *fz_dup(const void *s, size_t n)
{
	char *c = malloc(n ? n : 1);
	if (!c)
		abort();
	memcpy(c, s, n);
	return c;
}

/* Writes n bytes to a new file; path gets its name (unlink it after). */
static inline bool fz_file(char path[32], const void *p, size_t n)
{
	snprintf(path, 32, "/tmp/xgtop-fuzz-XXXXXX");
	int fd = mkstemp(path);
	if (fd < 0)
		return false;
	bool ok = write(fd, p, n) == (ssize_t)n;
	close(fd);
	if (!ok)
		unlink(path);
	return ok;
}

#endif
