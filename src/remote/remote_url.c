// SPDX-License-Identifier: GPL-2.0-or-later
/* Which hosts a pool view reads: http:// and https:// URLs from the
 * command line or a hosts file, with the hosts file's credentials. Names and hosts are checked to plain characters, so HOST is
 * safe to print and to put in CSV unquoted. */
#include "remote_parts.h"

#include <errno.h>
#include <stddef.h>
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
	if (!strncmp(a, "http://", 7)) {
		a += 7;
	} else if (!strncmp(a, "https://", 8)) {
		a += 8;
		t->https = true;
	} else if (strstr(a, "://")) {
		return xg_fail(err, "'%s': only http:// and https:// are read", url);
	}
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

/* A secret read from a file: its first line, at most n - 1 bytes. */
static int read_secret(const char *path, char *out, size_t n, struct xg_err *err)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return xg_fail_errno(err, errno, "%s", path);
	out[0] = 0;
	bool ok = fgets(out, (int)n, f) != NULL;
	fclose(f);
	out[strcspn(out, "\r\n")] = 0;
	if (!ok || !out[0])
		return xg_fail(err, "%s: empty", path);
	return 0;
}

/* One KEY=VALUE of a hosts file line into t. */
static int set_key(struct rm_target *t, const char *kv, struct xg_err *err)
{
	const char *eq = strchr(kv, '=');
	const char *v = eq + 1;
	size_t kn = (size_t)(eq - kv);
	static const struct { const char *key; size_t off, size; } paths[] = {
		{ "ca_file", offsetof(struct rm_target, ca_file), sizeof(((struct rm_target *)0)->ca_file) },
		{ "cert_file", offsetof(struct rm_target, cert_file), sizeof(((struct rm_target *)0)->cert_file) },
		{ "key_file", offsetof(struct rm_target, key_file), sizeof(((struct rm_target *)0)->key_file) },
		{ "user", offsetof(struct rm_target, user), sizeof(((struct rm_target *)0)->user) },
	};
	if (!*v)
		return xg_fail(err, "%.*s= has no value", (int)kn, kv);
	for (size_t i = 0; i < XG_ARRAY_LEN(paths); i++)
		if (strlen(paths[i].key) == kn && !strncmp(kv, paths[i].key, kn)) {
			if (strlen(v) >= paths[i].size)
				return xg_fail(err, "%.*s: too long", (int)kn, kv);
			snprintf((char *)t + paths[i].off, paths[i].size, "%s", v);
			return 0;
		}
	if (kn == 13 && !strncmp(kv, "password_file", kn))
		return read_secret(v, t->password, sizeof(t->password), err);
	if (kn == 17 && !strncmp(kv, "bearer_token_file", kn))
		return read_secret(v, t->bearer, sizeof(t->bearer), err);
	return xg_fail(err, "unknown key '%.*s' (ca_file, cert_file, key_file, user, password_file, "
		       "bearer_token_file)", (int)kn, kv);
}

/* Fills what t's own line left empty from the default line d. */
static void inherit(struct rm_target *t, const struct rm_target *d)
{
#define KEEP(f) if (!t->f[0]) memcpy(t->f, d->f, sizeof(t->f))
	KEEP(ca_file);
	KEEP(cert_file);
	KEEP(key_file);
	if (!t->user[0] && !t->bearer[0]) {
		KEEP(user);
		KEEP(password);
		KEEP(bearer);
	}
#undef KEEP
}

/* The credentials and files a target has are ones that go together. */
static int coherent(const struct rm_target *t, struct xg_err *err)
{
	if (t->user[0] && t->bearer[0])
		return xg_fail(err, "give user (and password_file) or bearer_token_file, not both");
	if (t->password[0] && !t->user[0])
		return xg_fail(err, "password_file without user");
	if (!t->cert_file[0] != !t->key_file[0])
		return xg_fail(err, "a client certificate needs both cert_file and key_file");
	return 0;
}

int rm_url_file(const char *path, struct rm_target **t, size_t *n, struct xg_err *err)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return xg_fail_errno(err, errno, "--hosts %s", path);
	char line[2048];
	size_t cap = *n, lineno = 0, first = *n;
	struct rm_target def = { 0 };
	bool have_def = false;
	int rc = 0;
	while (!rc && fgets(line, sizeof(line), f)) {
		lineno++;
		char *hash = strchr(line, '#'), *save = NULL;
		if (hash)
			*hash = 0;
		char *url = strtok_r(line, " \t\r\n", &save);
		if (!url)
			continue;
		bool is_def = !strcmp(url, "default");
		char *name = NULL, *tok;
		struct rm_target *cur = &def;
		if (is_def && have_def) {
			rc = xg_fail(err, "--hosts %s: line %zu: a second default line", path, lineno);
			break;
		}
		if (is_def) {
			have_def = true;
		} else {
			tok = strtok_r(NULL, " \t\r\n", &save);
			if (tok && !strchr(tok, '='))
				name = tok;
			if (add(url, name, t, n, &cap, err) < 0)
				goto bad;
			cur = &(*t)[*n - 1];
			if (tok && !name && set_key(cur, tok, err) < 0)
				goto bad;
		}
		while ((tok = strtok_r(NULL, " \t\r\n", &save)))
			if (!strchr(tok, '=')) {
				xg_fail(err, "give URL [NAME] [KEY=VALUE...]");
				goto bad;
			} else if (set_key(cur, tok, err) < 0) {
				goto bad;
			}
		if (!is_def && coherent(cur, err) < 0)
			goto bad;
		continue;
bad:;
		char why[400];
		snprintf(why, sizeof(why), "%.399s", err->msg);
		rc = xg_fail(err, "--hosts %s: line %zu: %s", path, lineno, why);
	}
	fclose(f);
	for (size_t i = first; !rc && i < *n; i++) {
		inherit(&(*t)[i], &def);
		if (coherent(&(*t)[i], err) < 0) {
			char why[400];
			snprintf(why, sizeof(why), "%.399s", err->msg);
			rc = xg_fail(err, "--hosts %s: host %s with the default line: %s", path, (*t)[i].name, why);
		}
	}
	if (!rc && !*n)
		rc = xg_fail(err, "--hosts %s: no URLs in the file", path);
	return rc;
}
