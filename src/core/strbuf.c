// SPDX-License-Identifier: GPL-2.0-or-later
/* The one string builder. Appends check the room before growing: the
 * recorder appends a few bytes at a time, millions of times a second at
 * 10,000 domains. */
#include "xgtop/core/strbuf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void strbuf_put(struct xg_strbuf *b, const void *s, size_t n)
{
	if (b->len + n + 1 > b->cap)
		xg_grow(&b->p, &b->cap, b->len + n + 1, 1);
	memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = 0;
}

void strbuf_putc(struct xg_strbuf *b, char c)
{
	if (b->len + 2 > b->cap)
		xg_grow(&b->p, &b->cap, b->len + 2, 1);
	b->p[b->len++] = c;
	b->p[b->len] = 0;
}

void strbuf_puts(struct xg_strbuf *b, const char *s)
{
	strbuf_put(b, s, strlen(s));
}

void strbuf_printf(struct xg_strbuf *b, const char *fmt, ...)
{
	va_list ap;
	for (;;) {
		size_t room = b->cap - b->len;
		va_start(ap, fmt);
		int n = vsnprintf(b->p ? b->p + b->len : NULL, b->p ? room : 0, fmt, ap);
		va_end(ap);
		if (n < 0)
			return;
		if (b->p && (size_t)n < room) {
			b->len += (size_t)n;
			return;
		}
		xg_grow(&b->p, &b->cap, b->len + (size_t)n + 1, 1);
	}
}

void strbuf_free(struct xg_strbuf *b)
{
	free(b->p);
	memset(b, 0, sizeof(*b));
}
