// SPDX-License-Identifier: GPL-2.0-or-later
/* Reading and writing the settings file's `key = value` text. No meaning
 * of any key here (settings.c has that): only what a well-formed file
 * looks like. */
#include "xgtop/settings/rcfile.h"

#include <stdlib.h>
#include <string.h>

static bool key_char(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_' || c == '.' || c == '-';
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

static void push(struct xg_rc *rc, char *key, char *value, unsigned line)
{
	xg_grow(&rc->e, &rc->cap, rc->n + 1, sizeof(*rc->e));
	rc->e[rc->n++] = (struct xg_rc_entry){ key, value, line };
}

static char *dup_n(const char *s, size_t n)
{
	char *p = xg_malloc(n + 1);
	memcpy(p, s, n);
	p[n] = 0;
	return p;
}

/* One line without its newline: a comment or blank line, or key = value.
 * Returns an error text, or NULL when the line was taken. */
static const char *parse_line(struct xg_rc *rc, const char *s, size_t len, unsigned no)
{
	for (size_t i = 0; i < len; i++)
		if (((unsigned char)s[i] < 0x20 && s[i] != '\t') || s[i] == 0x7f)
			return "control character (not a settings file?)";
	size_t a = 0;
	while (a < len && is_blank(s[a]))
		a++;
	if (a == len || s[a] == '#') {
		push(rc, NULL, dup_n(s, len), no);
		return NULL;
	}
	size_t k = a;
	while (k < len && key_char((unsigned char)s[k]))
		k++;
	size_t eq = k;
	while (eq < len && is_blank(s[eq]))
		eq++;
	if (k == a || eq == len || s[eq] != '=')
		return "expected 'key = value'";
	size_t v = eq + 1, e = len;
	while (v < e && is_blank(s[v]))
		v++;
	while (e > v && is_blank(s[e - 1]))
		e--;
	push(rc, dup_n(s + a, k - a), dup_n(s + v, e - v), no);
	return NULL;
}

int rc_parse(struct xg_rc *rc, const char *text, size_t len, struct xg_err *err)
{
	rc_free(rc);
	if (len > XG_RC_SIZE_MAX)
		return xg_fail(err, "larger than %d bytes (not a settings file?)", XG_RC_SIZE_MAX);
	unsigned no = 0;
	for (size_t pos = 0; pos < len;) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - (text + pos)) : len - pos;
		const char *why = NULL;
		if (++no > XG_RC_LINES_MAX)
			why = "too many lines (not a settings file?)";
		else if (n > XG_RC_LINE_MAX)
			why = "line too long";
		else
			why = parse_line(rc, text + pos, n && text[pos + n - 1] == '\r' ? n - 1 : n, no);
		if (why) {
			rc_free(rc);
			return xg_fail(err, "line %u: %s", no, why);
		}
		pos += n + 1;
	}
	return 0;
}

struct xg_rc_entry *rc_find(const struct xg_rc *rc, const char *key)
{
	for (size_t i = rc->n; i-- > 0;)
		if (rc->e[i].key && !strcmp(rc->e[i].key, key))
			return &rc->e[i];
	return NULL;
}

void rc_set(struct xg_rc *rc, const char *key, const char *value)
{
	struct xg_rc_entry *e = rc_find(rc, key);
	if (e) {
		free(e->value);
		e->value = xg_strdup(value);
		return;
	}
	push(rc, xg_strdup(key), xg_strdup(value), 0);
}

void rc_comment(struct xg_rc *rc, const char *text)
{
	push(rc, NULL, xg_strdup(text), 0);
}

char *rc_text(const struct xg_rc *rc)
{
	size_t len = 1;
	for (size_t i = 0; i < rc->n; i++)
		len += (rc->e[i].key ? strlen(rc->e[i].key) + 3 : 0) + strlen(rc->e[i].value) + 1;
	char *out = xg_malloc(len), *p = out;
	for (size_t i = 0; i < rc->n; i++) {
		const struct xg_rc_entry *e = &rc->e[i];
		if (e->key) {
			size_t k = strlen(e->key);
			memcpy(p, e->key, k);
			memcpy(p + k, " = ", 3);
			p += k + 3;
		}
		size_t v = strlen(e->value);
		memcpy(p, e->value, v);
		p[v] = '\n';
		p += v + 1;
	}
	*p = 0;
	return out;
}

void rc_free(struct xg_rc *rc)
{
	for (size_t i = 0; i < rc->n; i++) {
		free(rc->e[i].key);
		free(rc->e[i].value);
	}
	free(rc->e);
	memset(rc, 0, sizeof(*rc));
}
