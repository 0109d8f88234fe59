// SPDX-License-Identifier: GPL-2.0-or-later
/* The body of an HTTP/1.1 answer, from bytes another host sent: status
 * 200, headers, then Content-Length, chunked transfer coding or the bytes
 * up to the close. Everything is checked against the buffer's length. */
#include "remote_parts.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

static int bad(char *why, size_t n, const char *what)
{
	snprintf(why, n, "bad HTTP answer: %s", what);
	return -1;
}

/* The value of header name (case-insensitive) in head[0..n), or NULL. */
static const char *header(const char *head, size_t n, const char *name, size_t *vlen)
{
	size_t nl = strlen(name);
	const char *p = memchr(head, '\n', n), *end = head + n;
	while (p && p + 1 < end) {
		const char *line = p + 1;
		const char *le = memchr(line, '\n', (size_t)(end - line));
		if (!le)
			le = end;
		if ((size_t)(le - line) > nl && !strncasecmp(line, name, nl) && line[nl] == ':') {
			const char *v = line + nl + 1;
			while (v < le && (*v == ' ' || *v == '\t'))
				v++;
			const char *ve = le;
			while (ve > v && (ve[-1] == '\r' || ve[-1] == ' ' || ve[-1] == '\t'))
				ve--;
			*vlen = (size_t)(ve - v);
			return v;
		}
		p = le < end ? le : NULL;
	}
	return NULL;
}

static bool hex_size(const char *p, const char *end, size_t *out, const char **next)
{
	size_t v = 0;
	const char *s = p;
	for (; p < end; p++) {
		int d = (*p >= '0' && *p <= '9') ? *p - '0' : (*p | 32) >= 'a' && (*p | 32) <= 'f' ? (*p | 32) - 'a' + 10 : -1;
		if (d < 0)
			break;
		if (v > (RM_BODY_MAX >> 4))
			return false;
		v = v * 16 + (size_t)d;
	}
	if (p == s)
		return false;
	const char *nl = memchr(p, '\n', (size_t)(end - p));   /* chunk extensions ignored */
	if (!nl)
		return false;
	*out = v;
	*next = nl + 1;
	return true;
}

/* Chunked transfer coding, decoded in place (the output never overtakes
 * the input). */
static int dechunk(char *b, size_t n, size_t *out, char *why, size_t nwhy)
{
	const char *p = b, *end = b + n;
	size_t o = 0, sz;
	for (;;) {
		if (!hex_size(p, end, &sz, &p))
			return bad(why, nwhy, "broken chunk size");
		if (!sz)
			break;
		if (sz > (size_t)(end - p) || o + sz > RM_BODY_MAX)
			return bad(why, nwhy, "chunk longer than the answer");
		memmove(b + o, p, sz);
		o += sz;
		p += sz;
		if (p < end && *p == '\r')
			p++;
		if (p >= end || *p++ != '\n')
			return bad(why, nwhy, "chunk not followed by a line end");
	}
	*out = o;
	return 0;
}

int rm_http_body(char *buf, size_t len, const char **body, size_t *body_len, char *why, size_t nwhy)
{
	if (!buf || len < 12 || strncmp(buf, "HTTP/1.", 7))
		return bad(why, nwhy, "no HTTP status line (is it an HTTP server?)");
	const char *eoh = NULL;
	for (size_t i = 0; i + 1 < len && i < RM_HEAD_MAX && !eoh; i++)
		if (buf[i] == '\n' && (buf[i + 1] == '\n' || (buf[i + 1] == '\r' && i + 2 < len && buf[i + 2] == '\n')))
			eoh = buf + i + (buf[i + 1] == '\n' ? 2 : 3);
	if (!eoh)
		return bad(why, nwhy, "headers too long or cut off");
	int status = 0;
	if (sscanf(buf + 9, "%3d", &status) != 1 || buf[8] != ' ')
		return bad(why, nwhy, "no status code");
	if (status != 200) {
		size_t ll = strcspn(buf, "\r\n");
		snprintf(why, nwhy, "the server answered %.*s", (int)(ll < 80 ? ll : 80), buf);
		return -1;
	}
	size_t hlen = (size_t)(eoh - buf), vlen, n = len - hlen;
	char *b = buf + hlen;
	const char *te = header(buf, hlen, "Transfer-Encoding", &vlen);
	const char *cl = header(buf, hlen, "Content-Length", &vlen);
	if (te && vlen == 7 && !strncasecmp(te, "chunked", 7)) {
		if (dechunk(b, n, &n, why, nwhy) < 0)
			return -1;
	} else if (te) {
		return bad(why, nwhy, "a transfer coding other than chunked");
	} else if (cl) {
		uint64_t want = 0;
		char num[24];
		snprintf(num, sizeof(num), "%.*s", (int)(vlen < 23 ? vlen : 23), cl);
		if (!xg_parse_u64(num, &want) || want > n)
			return bad(why, nwhy, "Content-Length missing, malformed or longer than what came");
		n = (size_t)want;
	}
	if (n > RM_BODY_MAX)
		return bad(why, nwhy, "body larger than 32 MiB");
	b[n] = 0;
	*body = b;
	*body_len = n;
	return 0;
}
