// SPDX-License-Identifier: GPL-2.0-or-later
/* The exporter's pieces of outside text: the --export address and a
 * scraper's Accept and Accept-Encoding headers. */
#include "xgtop/exporter/exporter.h"
#include "xgtop/exporter/render.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

const char *const xg_expo_content_type[XG_EXPO_FMT_COUNT] = {
	[XG_EXPO_TEXT] = "text/plain; version=0.0.4; charset=utf-8",
	[XG_EXPO_OPENMETRICS] = "application/openmetrics-text; version=1.0.0; charset=utf-8",
};

static void trim(const char **s, size_t *n)
{
	while (*n && (**s == ' ' || **s == '\t')) {
		(*s)++;
		(*n)--;
	}
	while (*n && ((*s)[*n - 1] == ' ' || (*s)[*n - 1] == '\t'))
		(*n)--;
}

/* An RFC 9110 qvalue: 0 to 1 with at most three decimals (not strtod: the
 * locale the full-screen view sets may want a decimal comma). */
static double parse_q(const char *v, const char *end)
{
	if (v >= end || (*v != '0' && *v != '1'))
		return 0;
	double q = *v++ - '0', scale = 0.1;
	if (v < end && *v == '.')
		for (v++; v < end && *v >= '0' && *v <= '9' && scale > 0.0001; v++, scale /= 10)
			q += (*v - '0') * scale;
	return q > 1 ? 1 : q;
}

/* The q of one media range "type/sub; a=b; q=0.5" (1 when absent), and
 * which format it asks for: -1 for neither. */
static int range_format(const char *r, size_t n, double *q)
{
	const char *end = r + n, *semi = memchr(r, ';', n);
	const char *type = r;
	size_t tn = (size_t)((semi ? semi : end) - r);
	trim(&type, &tn);
	*q = 1;
	for (const char *p = semi; p; p = memchr(p + 1, ';', (size_t)(end - p - 1))) {
		const char *v = p + 1;
		while (v < end && (*v == ' ' || *v == '\t'))
			v++;
		if (v + 2 <= end && (v[0] == 'q' || v[0] == 'Q') && v[1] == '=')
			*q = parse_q(v + 2, end);
	}
	static const struct { const char *type; int fmt; } known[] = {
		{ "application/openmetrics-text", XG_EXPO_OPENMETRICS },
		{ "application/*", XG_EXPO_OPENMETRICS },
		{ "text/plain", XG_EXPO_TEXT },
		{ "text/*", XG_EXPO_TEXT },
		{ "*/*", XG_EXPO_TEXT },
	};
	for (size_t i = 0; i < XG_ARRAY_LEN(known); i++)
		if (strlen(known[i].type) == tn && !strncasecmp(type, known[i].type, tn))
			return known[i].fmt;
	return -1;
}

enum xg_expo_fmt expo_negotiate(const char *accept)
{
	int best = XG_EXPO_TEXT;
	double best_q = 0;
	for (const char *p = accept; p && *p;) {
		const char *comma = strchr(p, ',');
		size_t n = comma ? (size_t)(comma - p) : strlen(p);
		double q;
		int fmt = range_format(p, n, &q);
		if (fmt >= 0 && q > best_q) {
			best = fmt;
			best_q = q;
		}
		p = comma ? comma + 1 : NULL;
	}
	return (enum xg_expo_fmt)best;
}

bool expo_wants_gzip(const char *accept_encoding)
{
	bool star = false;
	for (const char *p = accept_encoding; p && *p;) {
		const char *comma = strchr(p, ',');
		size_t n = comma ? (size_t)(comma - p) : strlen(p);
		const char *semi = memchr(p, ';', n), *end = p + n, *tok = p;
		size_t tn = (size_t)((semi ? semi : end) - p);
		trim(&tok, &tn);
		double q = 1;
		for (const char *s = semi; s; s = memchr(s + 1, ';', (size_t)(end - s - 1))) {
			const char *v = s + 1;
			while (v < end && (*v == ' ' || *v == '\t'))
				v++;
			if (v + 2 <= end && (v[0] == 'q' || v[0] == 'Q') && v[1] == '=')
				q = parse_q(v + 2, end);
		}
		if ((tn == 4 && !strncasecmp(tok, "gzip", 4)) || (tn == 6 && !strncasecmp(tok, "x-gzip", 6)))
			return q > 0;
		if (tn == 1 && *tok == '*')
			star = q > 0;
		p = comma ? comma + 1 : NULL;
	}
	return star;
}

static int parse_port(const char *s, unsigned *port, struct xg_err *err)
{
	uint64_t v;
	if (!xg_parse_u64(s, &v) || v > 65535)
		return xg_fail(err, "'%s' is not a port number (0 to 65535)", s);
	*port = (unsigned)v;
	return 0;
}

int exporter_parse_listen(const char *spec, struct xg_listen *out, struct xg_err *err)
{
	memset(out, 0, sizeof(*out));
	const char *colon = strrchr(spec, ':');
	if (!colon) {
		snprintf(out->host, sizeof(out->host), "127.0.0.1");
		return parse_port(spec, &out->port, err);
	}
	const char *host = spec;
	size_t n = (size_t)(colon - spec);
	if (spec[0] == '[') {
		if (n < 2 || spec[n - 1] != ']')
			return xg_fail(err, "'%s': write an IPv6 address in brackets, [ADDR]:PORT", spec);
		host++;
		n -= 2;
	} else if (memchr(spec, ':', n)) {
		return xg_fail(err, "'%s': write an IPv6 address in brackets, [ADDR]:PORT", spec);
	}
	if (!n || n >= sizeof(out->host))
		return xg_fail(err, "'%s': no address before the port", spec);
	memcpy(out->host, host, n);
	return parse_port(colon + 1, &out->port, err);
}
