// SPDX-License-Identifier: GPL-2.0-or-later
/* Which hosts a pool view reads: http:// URLs from the command line or a
 * hosts file. Names and hosts are checked to plain characters, so HOST is
 * safe to print and to put in CSV unquoted. */
#include "remote_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RM_DEFAULT_PORT "9717"

static bool plain(const char *s, size_t n, const char *extra)
{
	for (size_t i = 0; i < n; i++) {
		char c = s[i];
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		      strchr(extra, c)))
			return false;
	}
	return n > 0;
}

/* The pn bytes at port are a decimal from 1 to 65535 and nothing else. */
static bool port_ok(const char *port, size_t pn)
{
	const char *end = port;
	uint64_t v;
	return pn <= 5 && xg_scan_u64(&end, &v) && end == port + pn && v >= 1 && v <= 65535;
}

/* Splits HOST[:PORT] ([v6addr][:PORT] too) into t->host and t->port. */
static int split_authority(const char *a, size_t n, struct rm_target *t, struct xg_err *err)
{
	const char *port = NULL, *h = a;
	size_t hn = n;
	if (n && a[0] == '[') {
		const char *rb = memchr(a, ']', n);
		if (!rb)
			return xg_fail(err, "'%.*s': unclosed [", (int)n, a);
		h = a + 1;
		hn = (size_t)(rb - h);
		if (rb + 1 < a + n) {
			if (rb[1] != ':')
				return xg_fail(err, "'%.*s': junk after ]", (int)n, a);
			port = rb + 2;
		}
	} else {
		const char *colon = memchr(a, ':', n);
		if (colon) {
			hn = (size_t)(colon - a);
			port = colon + 1;
		}
	}
	size_t pn = port ? (size_t)(a + n - port) : 0;
	if (!plain(h, hn, ".-_:") || hn >= sizeof(t->host))
		return xg_fail(err, "'%.*s': not a host name or address", (int)n, a);
	if (port && !port_ok(port, pn))
		return xg_fail(err, "'%.*s': the port is not a number from 1 to 65535", (int)n, a);
	snprintf(t->host, sizeof(t->host), "%.*s", (int)hn, h);
	snprintf(t->port, sizeof(t->port), "%.*s", port ? (int)pn : 4, port ? port : RM_DEFAULT_PORT);
	return 0;
}

int rm_url_parse(const char *url, const char *name, struct rm_target *t, struct xg_err *err)
{
	memset(t, 0, sizeof(*t));
	const char *a = url;
	if (!strncmp(a, "http://", 7))
		a += 7;
	else if (strstr(a, "://"))
		return xg_fail(err, "'%s': only http:// is read (put TLS in front with a proxy)", url);
	size_t an = strcspn(a, "/");
	if (split_authority(a, an, t, err) < 0)
		return -1;
	const char *path = a[an] ? a + an : "/metrics";
	if (strlen(path) >= sizeof(t->path) || !plain(path, strlen(path), "/._-~%=&?+"))
		return xg_fail(err, "'%s': the path has characters xgtop does not send", url);
	snprintf(t->path, sizeof(t->path), "%s", path);
	if (name) {
		if (strlen(name) >= sizeof(t->name) || !plain(name, strlen(name), ".-_:[]@/"))
			return xg_fail(err, "'%s': a host name may use letters, digits and . - _ : [ ] @ / (at most %zu)",
				       name, sizeof(t->name) - 1);
		snprintf(t->name, sizeof(t->name), "%s", name);
	} else {
		snprintf(t->name, sizeof(t->name), "%.*s", an < sizeof(t->name) ? (int)an : (int)sizeof(t->name) - 1, a);
	}
	return 0;
}

static int add(const char *url, const char *name, struct rm_target **t, size_t *n, size_t *cap,
	       struct xg_err *err)
{
	if (*n >= XG_PEER_MAX)
		return xg_fail(err, "more than %d hosts", XG_PEER_MAX);
	xg_grow(t, cap, *n + 1, sizeof(**t));
	if (rm_url_parse(url, name, &(*t)[*n], err) < 0)
		return -1;
	for (size_t i = 0; i < *n; i++)
		if (!strcmp((*t)[i].name, (*t)[*n].name))
			return xg_fail(err, "host '%s' is listed twice (name one of them in a hosts file)",
				       (*t)[i].name);
	(*n)++;
	return 0;
}

int rm_url_list(const char *list, struct rm_target **t, size_t *n, struct xg_err *err)
{
	size_t cap = *n;
	char *copy = xg_strdup(list), *save = NULL;
	int rc = 0;
	for (char *u = strtok_r(copy, ",", &save); u && !rc; u = strtok_r(NULL, ",", &save))
		rc = add(u, NULL, t, n, &cap, err);
	free(copy);
	return rc;
}

int rm_url_file(const char *path, struct rm_target **t, size_t *n, struct xg_err *err)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return xg_fail_errno(err, errno, "--hosts %s", path);
	char line[1024];
	size_t cap = *n, lineno = 0;
	int rc = 0;
	while (!rc && fgets(line, sizeof(line), f)) {
		lineno++;
		char *hash = strchr(line, '#'), *save = NULL;
		if (hash)
			*hash = 0;
		char *url = strtok_r(line, " \t\r\n", &save);
		char *name = url ? strtok_r(NULL, " \t\r\n", &save) : NULL;
		if (!url)
			continue;
		if (strtok_r(NULL, " \t\r\n", &save)) {
			rc = xg_fail(err, "--hosts %s: line %zu: give URL [NAME]", path, lineno);
		} else if (add(url, name, t, n, &cap, err) < 0) {
			char why[400];
			snprintf(why, sizeof(why), "%.399s", err->msg);
			rc = xg_fail(err, "--hosts %s: line %zu: %s", path, lineno, why);
		}
	}
	fclose(f);
	if (!rc && !*n)
		rc = xg_fail(err, "--hosts %s: no URLs in the file", path);
	return rc;
}
