/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A growable text buffer, always NUL-terminated: the recorder's lines and
 * the exporter's expositions are built in it. */
#ifndef XGTOP_STRBUF_H
#define XGTOP_STRBUF_H

#include "xgtop/core/common.h"

struct xg_strbuf {
	char *p;                     /* NULL until the first append */
	size_t len, cap;
};
void strbuf_put(struct xg_strbuf *b, const void *s, size_t n);
void strbuf_putc(struct xg_strbuf *b, char c);
void strbuf_puts(struct xg_strbuf *b, const char *s);
void strbuf_printf(struct xg_strbuf *b, const char *fmt, ...) XG_PRINTF(2, 3);
void strbuf_free(struct xg_strbuf *b);

#endif
