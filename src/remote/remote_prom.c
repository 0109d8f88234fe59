// SPDX-License-Identifier: GPL-2.0-or-later
/* The Prometheus text exposition format (0.0.4; OpenMetrics's "# EOF" is
 * accepted) as another host's exporter sends it. The text is hostile input:
 * every length is checked against the buffer, a line with more labels or a
 * longer label value than the bounds is malformed, and a malformed line
 * rejects the whole answer (as Prometheus does) instead of guessing. */
#include "remote_parts.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct cursor {
	const char *p, *end;
};

static bool name_char(char c, bool first)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == ':' ||
	       (!first && c >= '0' && c <= '9');
}

static void skip_blank(struct cursor *c)
{
	while (c->p < c->end && (*c->p == ' ' || *c->p == '\t'))
		c->p++;
}

/* A metric or label name; false when there is none. */
static bool take_name(struct cursor *c, const char **name, size_t *len)
{
	const char *s = c->p;
	while (c->p < c->end && name_char(*c->p, c->p == s))
		c->p++;
	*name = s;
	*len = (size_t)(c->p - s);
	return *len > 0;
}

/* A quoted label value with \\ \" \n escapes, unescaped into out. */
static bool take_value(struct cursor *c, char *out, size_t cap, size_t *len)
{
	size_t o = 0;
	if (c->p >= c->end || *c->p != '"')
		return false;
	for (c->p++; c->p < c->end && *c->p != '"'; c->p++) {
		char ch = *c->p;
		if (ch == '\\') {
			if (++c->p >= c->end)
				return false;
			ch = *c->p == 'n' ? '\n' : *c->p;
			if (ch != '\n' && ch != '\\' && ch != '"')
				return false;
		}
		if (o + 1 >= cap)
			return false;
		out[o++] = ch;
	}
	if (c->p >= c->end)
		return false;
	c->p++;
	out[o] = 0;
	*len = o;
	return true;
}

/* {name="value",...} into s, values unescaped into vals. */
static bool take_labels(struct cursor *c, struct rm_series *s, char (*vals)[RM_LABEL_VALUE_MAX])
{
	s->nlab = 0;
	if (c->p >= c->end || *c->p != '{')
		return true;
	c->p++;
	for (;;) {
		skip_blank(c);
		if (c->p < c->end && *c->p == '}')
			break;
		if (s->nlab == RM_LABEL_MAX)
			return false;
		struct rm_label *l = &s->lab[s->nlab];
		if (!take_name(c, &l->name, &l->nlen))
			return false;
		skip_blank(c);
		if (c->p >= c->end || *c->p++ != '=')
			return false;
		skip_blank(c);
		if (!take_value(c, vals[s->nlab], RM_LABEL_VALUE_MAX, &l->vlen))
			return false;
		l->value = vals[s->nlab++];
		skip_blank(c);
		if (c->p < c->end && *c->p == ',')
			c->p++;
		else if (c->p >= c->end || *c->p != '}')
			return false;
	}
	c->p++;
	return true;
}

/* One sample line: name, labels, value, optional timestamp. */
static bool parse_line(struct cursor *c, struct rm_series *s, char (*vals)[RM_LABEL_VALUE_MAX])
{
	if (!take_name(c, &s->name, &s->nlen) || !take_labels(c, s, vals))
		return false;
	if (c->p >= c->end || (*c->p != ' ' && *c->p != '\t'))
		return false;
	skip_blank(c);
	s->value = c->p;
	while (c->p < c->end && *c->p != ' ' && *c->p != '\t')
		c->p++;
	s->vlen = (size_t)(c->p - s->value);
	skip_blank(c);
	while (c->p < c->end && ((*c->p >= '0' && *c->p <= '9') || *c->p == '-' || *c->p == '.'))
		c->p++;    /* the timestamp: the sample time comes from its own series */
	skip_blank(c);
	return s->vlen > 0 && c->p == c->end;
}

int rm_prom_parse(const char *text, size_t n, rm_series_fn fn, void *ctx, struct xg_err *err)
{
	char (*vals)[RM_LABEL_VALUE_MAX] = xg_malloc(RM_LABEL_MAX * sizeof(*vals));
	struct rm_series s;
	size_t line = 0;
	int rc = 0;
	const char *p = text, *end = text + n;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;
		struct cursor c = { p, le > p && le[-1] == '\r' ? le - 1 : le };
		line++;
		p = nl ? nl + 1 : end;
		skip_blank(&c);
		if (c.p == c.end)
			continue;
		if (*c.p == '#') {
			if (c.end - c.p == 5 && !memcmp(c.p, "# EOF", 5))
				break;
			continue;
		}
		if (memchr(c.p, 0, (size_t)(c.end - c.p)) || !parse_line(&c, &s, vals)) {
			rc = xg_fail(err, "line %zu: not a sample line of the Prometheus text format", line);
			break;
		}
		if (fn(ctx, &s, err) < 0) {
			char why[400];
			snprintf(why, sizeof(why), "%.399s", err->msg);
			rc = xg_fail(err, "line %zu: %s", line, why);
			break;
		}
	}
	free(vals);
	return rc;
}

const char *rm_label(const struct rm_series *s, const char *name)
{
	size_t n = strlen(name);
	for (size_t i = 0; i < s->nlab; i++)
		if (s->lab[i].nlen == n && !memcmp(s->lab[i].name, name, n))
			return s->lab[i].value;
	return NULL;
}

/* Exact decimal: integer digits, then at most `decimals` fraction digits
 * (more are cut, as the exporter never writes them). */
static bool exact_decimal(const char *v, size_t n, unsigned decimals, uint64_t *out)
{
	uint64_t x = 0;
	size_t i = 0;
	unsigned frac = 0;
	bool dot = false, digits = false;
	for (; i < n; i++) {
		char ch = v[i];
		if (ch == '.' && !dot) {
			dot = true;
			continue;
		}
		if (ch < '0' || ch > '9')
			return false;
		digits = true;
		if (dot && frac == decimals)
			continue;
		if (x > (UINT64_MAX - 9) / 10)
			return false;
		x = x * 10 + (uint64_t)(ch - '0');
		frac += dot;
	}
	for (; frac < decimals; frac++) {
		if (x > UINT64_MAX / 10)
			return false;
		x *= 10;
	}
	*out = x;
	return digits;
}

bool rm_value_u64(const char *v, size_t n, unsigned decimals, bool inf_ok, uint64_t *out)
{
	if (n && v[0] == '+') {
		v++;
		n--;
	}
	if (n == 3 && !memcmp(v, "Inf", 3)) {
		*out = UINT64_MAX;
		return inf_ok;
	}
	if (exact_decimal(v, n, decimals, out))
		return true;
	/* Exponent notation ("1e+06"): exact enough below 2^53. */
	char tmp[64];
	if (n == 0 || n >= sizeof(tmp) || decimals > 9)
		return false;
	memcpy(tmp, v, n);
	tmp[n] = 0;
	double d;
	if (!xg_parse_double(tmp, &d))
		return false;
	static const double scale[10] = { 1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9 };
	d *= scale[decimals];
	if (!(d >= 0 && d < 18446744073709551616.0))
		return false;
	*out = (uint64_t)(d + 0.5);
	return true;
}

/* \xNN with two hex digits: the byte, else -1. */
static int escaped_byte(const char *s)
{
	if (s[0] != '\\' || s[1] != 'x' || !isxdigit((unsigned char)s[2]) || !isxdigit((unsigned char)s[3]))
		return -1;
	char two[3] = { s[2], s[3], 0 };
	return (int)strtol(two, NULL, 16);
}

void rm_unescape_name(char *dst, size_t n, const char *src)
{
	size_t o = 0;
	if (!n)
		return;
	for (const char *s = src; *s && o + 1 < n; s++) {
		if (s[0] == '\\' && s[1] == '\\') {
			dst[o++] = '\\';
			s++;
		} else if (escaped_byte(s) >= 0) {
			dst[o++] = (char)escaped_byte(s);
			s += 3;
		} else {
			dst[o++] = *s;
		}
	}
	dst[o] = 0;
}
