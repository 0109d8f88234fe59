// SPDX-License-Identifier: GPL-2.0-or-later
/* --web-config: libyaml builds the document (so quoting, flow and block
 * styles, comments and escapes are YAML's own), and this file walks it
 * against the exporter-toolkit's schema, which is small and fixed. */
#include "xgtop/exporter/webcfg.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

void webcfg_free(struct xg_webcfg *c)
{
	free(c->cert_pem);
	free(c->key_pem);
	free(c->ca_pem);
	for (size_t i = 0; i < c->nusers; i++) {
		free(c->users[i].name);
		free(c->users[i].value);
	}
	for (size_t i = 0; i < c->nheaders; i++) {
		free(c->headers[i].name);
		free(c->headers[i].value);
	}
	free(c->users);
	free(c->headers);
	memset(c, 0, sizeof(*c));
}

bool webcfg_header_allowed(const char *name)
{
	static const char *const own[] = {
		"Content-Type", "Content-Length", "Content-Encoding", "Transfer-Encoding", "Vary",
		"WWW-Authenticate", "Authorization", "Allow", "Retry-After", "Date", "Connection",
		"Keep-Alive", "Server", "Set-Cookie", "Upgrade", "Trailer", "Host",
	};
	if (!*name)
		return false;
	for (const char *p = name; *p; p++)
		if (!(*p >= 'a' && *p <= 'z') && !(*p >= 'A' && *p <= 'Z') && !(*p >= '0' && *p <= '9') &&
		    !strchr("!#$%&'*+-.^_`|~", *p))
			return false;
	for (size_t i = 0; i < XG_ARRAY_LEN(own); i++)
		if (!strcasecmp(name, own[i]))
			return false;
	return true;
}

/* Reads a whole small regular file; NULL with err when it is not one. */
static char *read_small(const char *path, const char *what, size_t *len, struct xg_err *err)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	struct stat st;
	if (fd < 0) {
		xg_fail_errno(err, errno, "%s %s", what, path);
		return NULL;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_size > XG_WEBCFG_MAX_FILE) {
		close(fd);
		xg_fail(err, "%s %s: not a regular file of at most %u bytes", what, path, XG_WEBCFG_MAX_FILE);
		return NULL;
	}
	char *buf = xg_malloc((size_t)st.st_size + 1);
	size_t got = 0;
	for (ssize_t r; got < (size_t)st.st_size; got += (size_t)r) {
		r = read(fd, buf + got, (size_t)st.st_size - got);
		if (r <= 0) {
			int e = r < 0 ? errno : EIO;
			close(fd);
			free(buf);
			xg_fail_errno(err, e, "%s %s", what, path);
			return NULL;
		}
	}
	close(fd);
	buf[got] = 0;
	if (len)
		*len = got;
	return buf;
}

#ifdef HAVE_YAML
#include "xgtop/core/dynlib.h"
#include <yaml.h>

#ifndef YAML_SO
#define YAML_SO "libyaml-0.so.2"
#endif

#define YAML_API(F) \
	F(yaml_parser_initialize) F(yaml_parser_set_input_string) F(yaml_parser_load) \
	F(yaml_parser_delete) F(yaml_document_get_root_node) F(yaml_document_get_node) \
	F(yaml_document_delete)
struct yaml_api {
#define YAML_SLOT(fn) __typeof__(fn) *fn;
	YAML_API(YAML_SLOT)
#undef YAML_SLOT
};
#define YAML_FN(fn) XG_DL_FN(struct yaml_api, fn)
static const struct xg_dl_fn yaml_fns[] = { YAML_API(YAML_FN) };

/* One walk of one document. */
struct walk {
	struct yaml_api y;
	yaml_document_t doc;
	const char *name;           /* the file, for messages */
	const char *dir;            /* where relative file names start */
	struct xg_webcfg *c;
	struct xg_err *err;
};

static int bad(struct walk *w, const yaml_node_t *n, const char *key, const char *fmt, ...)
	XG_PRINTF(4, 5);
static int bad(struct walk *w, const yaml_node_t *n, const char *key, const char *fmt, ...)
{
	char what[400];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	return xg_fail(w->err, "%s line %lu: %s: %s", w->name, (unsigned long)n->start_mark.line + 1,
		       key, what);
}

static yaml_node_t *node(struct walk *w, int id)
{
	return w->y.yaml_document_get_node(&w->doc, id);
}

/* A scalar's text; NULL for a mapping or a sequence. */
static const char *scalar(const yaml_node_t *n)
{
	return n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
}

/* A plain null (empty, ~ or null), which YAML lets stand for "not set". */
static bool is_null(const yaml_node_t *n)
{
	const char *s = scalar(n);
	return s && n->data.scalar.style == YAML_PLAIN_SCALAR_STYLE &&
	       (!*s || !strcmp(s, "~") || !strcmp(s, "null") || !strcmp(s, "Null") || !strcmp(s, "NULL"));
}

/* The text of a scalar with no NUL or control byte in it. */
static int text(struct walk *w, const yaml_node_t *n, const char *key, const char **out)
{
	const char *s = scalar(n);
	if (!s)
		return bad(w, n, key, "expected a string, found a %s",
			   n->type == YAML_MAPPING_NODE ? "mapping" : "list");
	if (strlen(s) != n->data.scalar.length)
		return bad(w, n, key, "a NUL byte in the value");
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		if (*p < 0x20 || *p == 0x7f)
			return bad(w, n, key, "a control character in the value");
	*out = s;
	return 0;
}

static int boolean(struct walk *w, const yaml_node_t *n, const char *key)
{
	const char *s = scalar(n);
	if (s && (!strcmp(s, "true") || !strcmp(s, "false")))
		return 0;
	return bad(w, n, key, "expected true or false");
}

/* Calls each(w, key text, key node, value node) for every pair of a
 * mapping, refusing a key that is not a string or comes twice. */
typedef int pair_fn(struct walk *w, const char *key, const yaml_node_t *k, const yaml_node_t *v,
		    void *ctx);
static int each_pair(struct walk *w, const yaml_node_t *map, const char *where, pair_fn *fn, void *ctx)
{
	if (map->type != YAML_MAPPING_NODE)
		return bad(w, map, where, "expected a mapping (KEY: VALUE lines)");
	for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top; p++) {
		const yaml_node_t *k = node(w, p->key), *v = node(w, p->value);
		const char *ks;
		if (text(w, k, where, &ks) < 0)
			return -1;
		for (yaml_node_pair_t *q = map->data.mapping.pairs.start; q < p; q++) {
			const char *qs = scalar(node(w, q->key));
			if (qs && !strcmp(qs, ks))
				return bad(w, k, where, "'%s' appears twice", ks);
		}
		if (fn(w, ks, k, v, ctx) < 0)
			return -1;
	}
	return 0;
}

/* A file name from the file, relative to its directory. */
static char *pem_file(struct walk *w, const yaml_node_t *n, const char *key)
{
	const char *f;
	if (text(w, n, key, &f) < 0)
		return NULL;
	if (!*f) {
		bad(w, n, key, "an empty file name");
		return NULL;
	}
	char path[4096];
	if (f[0] == '/' || !w->dir)
		snprintf(path, sizeof(path), "%s", f);
	else
		snprintf(path, sizeof(path), "%s/%s", w->dir, f);
	struct xg_err e = { 0 };
	char *pem = read_small(path, "file", NULL, &e);
	if (!pem)
		bad(w, n, key, "%s", e.msg);
	return pem;
}

static int tls_version(struct walk *w, const yaml_node_t *n, const char *key, int *out)
{
	static const char *const names[] = { "TLS10", "TLS11", "TLS12", "TLS13" };
	const char *s;
	if (text(w, n, key, &s) < 0)
		return -1;
	for (int i = 0; i < 4; i++)
		if (!strcmp(s, names[i])) {
			*out = i;
			return 0;
		}
	return bad(w, n, key, "'%s' is not TLS10, TLS11, TLS12 or TLS13", s);
}

/* What tls_server_config says, before it is checked as a whole. */
struct tls_keys {
	const yaml_node_t *at;
	const yaml_node_t *auth_at, *ca_at;
	const char *auth;
	int min, max;               /* 0..3 for TLS10..TLS13 */
	bool server_order;
};

/* A list the format has but xgtop cannot honour: refused unless empty. */
static int unsupported_list(struct walk *w, const yaml_node_t *v, const char *key, const char *why)
{
	if (is_null(v) || (v->type == YAML_SEQUENCE_NODE && v->data.sequence.items.start ==
			   v->data.sequence.items.top))
		return 0;
	return bad(w, v, key, "not supported by xgtop (%s)", why);
}

static int tls_pair(struct walk *w, const char *key, const yaml_node_t *k, const yaml_node_t *v,
		    void *ctx)
{
	struct tls_keys *t = ctx;
	struct xg_webcfg *c = w->c;
	char full[96];
	snprintf(full, sizeof(full), "tls_server_config.%.60s", key);
	(void)k;
	if (!strcmp(key, "cert_file") || !strcmp(key, "key_file") || !strcmp(key, "cert") ||
	    !strcmp(key, "key")) {
		bool is_key = key[0] == 'k';
		if ((is_key ? c->key_pem : c->cert_pem))
			return bad(w, v, full, "give the %s once: either %s or %s_file",
				   is_key ? "key" : "certificate", is_key ? "key" : "cert", is_key ? "key" : "cert");
		char *pem;
		if (strchr(key, '_')) {
			pem = pem_file(w, v, full);
		} else {
			const char *s = scalar(v);
			pem = s ? xg_strdup(s) : NULL;
			if (!s)
				bad(w, v, full, "expected the PEM text");
		}
		if (!pem)
			return -1;
		*(is_key ? &c->key_pem : &c->cert_pem) = pem;
		return 0;
	}
	if (!strcmp(key, "client_ca_file")) {
		t->ca_at = v;
		return (c->ca_pem = pem_file(w, v, full)) ? 0 : -1;
	}
	if (!strcmp(key, "client_auth_type")) {
		t->auth_at = v;
		return text(w, v, full, &t->auth);
	}
	if (!strcmp(key, "min_version"))
		return tls_version(w, v, full, &t->min);
	if (!strcmp(key, "max_version"))
		return tls_version(w, v, full, &t->max);
	if (!strcmp(key, "prefer_server_cipher_suites")) {
		if (boolean(w, v, full) < 0)
			return -1;
		t->server_order = !strcmp(scalar(v), "true");
		return 0;
	}
	if (!strcmp(key, "cipher_suites"))
		return unsupported_list(w, v, full, "GnuTLS picks the suites of the TLS versions allowed");
	if (!strcmp(key, "curve_preferences"))
		return unsupported_list(w, v, full, "GnuTLS's defaults apply");
	if (!strcmp(key, "client_allowed_sans"))
		return unsupported_list(w, v, full, "the client certificate's names are not checked");
	return bad(w, k, "tls_server_config", "unknown key '%s'", key);
}

static int client_auth(struct walk *w, struct tls_keys *t)
{
	struct xg_webcfg *c = w->c;
	const char *a = t->auth ? t->auth : "NoClientCert";
	const yaml_node_t *at = t->auth_at ? t->auth_at : t->at;
	const char *key = "tls_server_config.client_auth_type";
	if (!strcmp(a, "NoClientCert"))
		c->client_auth = XG_CLIENT_NONE;
	else if (!strcmp(a, "VerifyClientCertIfGiven"))
		c->client_auth = XG_CLIENT_VERIFY_IF_GIVEN;
	else if (!strcmp(a, "RequireAndVerifyClientCert"))
		c->client_auth = XG_CLIENT_REQUIRE_VERIFY;
	else if (!strcmp(a, "RequestClientCert") || !strcmp(a, "RequireAnyClientCert"))
		return bad(w, at, key, "'%s' is not supported by xgtop: it asks for a client certificate "
			   "only to check it (VerifyClientCertIfGiven, RequireAndVerifyClientCert)", a);
	else
		return bad(w, at, key, "'%s' is not NoClientCert, VerifyClientCertIfGiven or "
			   "RequireAndVerifyClientCert", a);
	if (c->client_auth != XG_CLIENT_NONE && !c->ca_pem)
		return bad(w, at, key, "%s needs client_ca_file", a);
	if (c->client_auth == XG_CLIENT_NONE && c->ca_pem)
		return bad(w, t->ca_at, "tls_server_config.client_ca_file",
			   "set client_auth_type too (RequireAndVerifyClientCert)");
	return 0;
}

static int tls_section(struct walk *w, const yaml_node_t *v)
{
	struct xg_webcfg *c = w->c;
	struct tls_keys t = { .at = v, .min = 2, .max = 3, .server_order = true };
	if (is_null(v))
		return 0;
	if (each_pair(w, v, "tls_server_config", tls_pair, &t) < 0 || client_auth(w, &t) < 0)
		return -1;
	if (!c->cert_pem && !c->key_pem) {
		if (c->ca_pem)
			return bad(w, v, "tls_server_config", "client_ca_file without cert_file and key_file");
		return 0;               /* as in the toolkit: no certificate, plain HTTP */
	}
	if (!c->cert_pem || !c->key_pem)
		return bad(w, v, "tls_server_config", "%s is missing", c->cert_pem ? "key_file" : "cert_file");
	if (t.min > t.max)
		return bad(w, v, "tls_server_config.max_version", "lower than min_version");
	c->tls = true;
	int n = snprintf(c->priorities, sizeof(c->priorities), "NORMAL:-VERS-ALL");
	static const char *const vers[] = { "TLS1.0", "TLS1.1", "TLS1.2", "TLS1.3" };
	for (int i = t.min; i <= t.max; i++)
		n += snprintf(c->priorities + n, sizeof(c->priorities) - (size_t)n, ":+VERS-%s", vers[i]);
	if (t.server_order)
		snprintf(c->priorities + n, sizeof(c->priorities) - (size_t)n, ":%%SERVER_PRECEDENCE");
	return 0;
}

/* A bcrypt hash as crypt(3) writes it: $2a$, $2b$ or $2y$, a cost of two
 * digits, then 53 characters of its alphabet. */
static bool bcrypt_shaped(const char *h)
{
	if (strlen(h) != 60 || h[0] != '$' || h[1] != '2' || !strchr("aby", h[2]) || h[3] != '$' ||
	    h[4] < '0' || h[4] > '3' || h[5] < '0' || h[5] > '9' || h[6] != '$')
		return false;
	int cost = (h[4] - '0') * 10 + (h[5] - '0');
	if (cost < 4 || cost > 31)
		return false;
	for (const char *p = h + 7; *p; p++)
		if (!strchr("./ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", *p))
			return false;
	return true;
}

static void add_pair(struct xg_web_pair **a, size_t *n, const char *name, const char *value)
{
	*a = xg_realloc(*a, (*n + 1) * sizeof(**a));
	(*a)[*n].name = xg_strdup(name);
	(*a)[(*n)++].value = xg_strdup(value);
}

static int user_pair(struct walk *w, const char *key, const yaml_node_t *k, const yaml_node_t *v,
		     void *ctx)
{
	const char *hash;
	(void)ctx;
	if (!*key || strchr(key, ':'))
		return bad(w, k, "basic_auth_users", "'%s' cannot be a user name (empty or with a colon)", key);
	char full[96];
	snprintf(full, sizeof(full), "basic_auth_users.%.60s", key);
	if (text(w, v, full, &hash) < 0)
		return -1;
	if (!bcrypt_shaped(hash))
		return bad(w, v, full, "not a bcrypt hash ($2y$ or $2b$, cost 04 to 31, 60 characters: "
			   "htpasswd -nbBC 10 USER PASSWORD makes one)");
	add_pair(&w->c->users, &w->c->nusers, key, hash);
	return 0;
}

static int header_pair(struct walk *w, const char *key, const yaml_node_t *k, const yaml_node_t *v,
		       void *ctx)
{
	const char *value;
	(void)ctx;
	if (!webcfg_header_allowed(key))
		return bad(w, k, "http_server_config.headers", "'%s' is not a header a file may set", key);
	char full[96];
	snprintf(full, sizeof(full), "http_server_config.headers.%.40s", key);
	if (text(w, v, full, &value) < 0)
		return -1;
	add_pair(&w->c->headers, &w->c->nheaders, key, value);
	return 0;
}

static int http_pair(struct walk *w, const char *key, const yaml_node_t *k, const yaml_node_t *v,
		     void *ctx)
{
	(void)ctx;
	if (!strcmp(key, "headers"))
		return is_null(v) ? 0 : each_pair(w, v, "http_server_config.headers", header_pair, NULL);
	if (!strcmp(key, "http2"))          /* xgtop serves HTTP/1.1 whatever it says */
		return boolean(w, v, "http_server_config.http2");
	return bad(w, k, "http_server_config", "unknown key '%s'", key);
}

static int top_pair(struct walk *w, const char *key, const yaml_node_t *k, const yaml_node_t *v,
		    void *ctx)
{
	(void)ctx;
	if (!strcmp(key, "tls_server_config"))
		return tls_section(w, v);
	if (!strcmp(key, "basic_auth_users"))
		return is_null(v) ? 0 : each_pair(w, v, key, user_pair, NULL);
	if (!strcmp(key, "http_server_config"))
		return is_null(v) ? 0 : each_pair(w, v, key, http_pair, NULL);
	if (!strcmp(key, "rate_limit"))
		return bad(w, k, key, "not supported by xgtop");
	return bad(w, k, "top level", "unknown key '%s' (the format has tls_server_config, "
		   "http_server_config and basic_auth_users)", key);
}

int webcfg_parse(struct xg_webcfg *c, const char *text_, size_t n, const char *name, const char *dir,
		 struct xg_err *err)
{
	memset(c, 0, sizeof(*c));
	struct walk *w = xg_calloc(1, sizeof(*w));
	w->name = name;
	w->dir = dir;
	w->c = c;
	w->err = err;
	struct xg_err e = { 0 };
	void *so = xg_dl_load(YAML_SO, "libyaml", yaml_fns, XG_ARRAY_LEN(yaml_fns), &w->y, &e);
	if (!so) {
		free(w);
		return xg_fail(err, "%s: %s", name, e.msg);
	}
	yaml_parser_t p;
	int rc = -1;
	if (!w->y.yaml_parser_initialize(&p)) {
		xg_fail(err, "%s: libyaml could not start", name);
		goto out;
	}
	w->y.yaml_parser_set_input_string(&p, (const unsigned char *)text_, n);
	if (!w->y.yaml_parser_load(&p, &w->doc)) {
		xg_fail(err, "%s line %lu: not YAML: %s%s%s", name, (unsigned long)p.problem_mark.line + 1,
			p.problem ? p.problem : "?", p.context ? " " : "", p.context ? p.context : "");
		w->y.yaml_parser_delete(&p);
		goto out;
	}
	w->y.yaml_parser_delete(&p);
	yaml_node_t *root = w->y.yaml_document_get_root_node(&w->doc);
	rc = !root || is_null(root) ? 0 : each_pair(w, root, "top level", top_pair, NULL);
	w->y.yaml_document_delete(&w->doc);
out:
	xg_dl_close(so);
	free(w);
	if (rc < 0)
		webcfg_free(c);
	return rc;
}

#else /* no libyaml */

int webcfg_parse(struct xg_webcfg *c, const char *text, size_t n, const char *name, const char *dir,
		 struct xg_err *err)
{
	(void)text, (void)n, (void)dir;
	memset(c, 0, sizeof(*c));
	return xg_fail(err, "%s: this xgtop was built without libyaml (install libyaml-dev and rebuild)",
		       name);
}

#endif

int webcfg_load(struct xg_webcfg *c, const char *path, struct xg_err *err)
{
	struct xg_err e = { 0 };
	memset(c, 0, sizeof(*c));
	size_t n;
	char *text = read_small(path, "--web-config", &n, &e);
	if (!text)
		return xg_fail(err, "%s", e.msg);
	char dir[4096];
	snprintf(dir, sizeof(dir), "%s", path);
	char *slash = strrchr(dir, '/');
	if (slash)
		slash[slash == dir] = 0;        /* "/web.yml" -> "/" */
	int rc = webcfg_parse(c, text, n, path, slash ? dir : NULL, err);
	free(text);
	return rc;
}
