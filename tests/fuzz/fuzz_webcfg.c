// SPDX-License-Identifier: GPL-2.0-or-later
/* libFuzzer harness: --web-config. The input is a scraper's Accept-Encoding
 * header, 0xff, then a web configuration file's text; relative file names
 * in it are taken from a scratch directory holding c.pem and k.pem. Checks:
 * the header parser returns either answer without reading past its text; a
 * file the parser accepts is one the exporter can serve (TLS has both a
 * certificate and a key and a priority string, a client check has a CA,
 * each user has a bcrypt-shaped hash, each header is one a file may set,
 * no control byte in any name or value); a file it refuses gives a message
 * naming the file and leaves nothing behind. */
#include "fuzz.h"

#include <sys/stat.h>

#include "xgtop/exporter/render.h"
#include "xgtop/exporter/webcfg.h"

static const char *scratch_dir(void)
{
	static char dir[64];
	if (!dir[0]) {
		snprintf(dir, sizeof(dir), "/tmp/xgtop-fuzz-webcfg-XXXXXX");
		if (!mkdtemp(dir))
			abort();
		char p[128];
		snprintf(p, sizeof(p), "%s/c.pem", dir);
		FILE *f = fopen(p, "w");
		fputs("-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n", f);
		fclose(f);
		snprintf(p, sizeof(p), "%s/k.pem", dir);
		f = fopen(p, "w");
		fputs("-----BEGIN PRIVATE KEY-----\nMIIB\n-----END PRIVATE KEY-----\n", f);
		fclose(f);
	}
	return dir;
}

static void clean(const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		if (*p < 0x20 || *p == 0x7f)
			abort();
}

static void usable(const struct xg_webcfg *c)
{
	if (c->tls != (c->cert_pem && c->key_pem) || (c->tls && !c->priorities[0]))
		abort();
	if (c->client_auth != XG_CLIENT_NONE && (!c->ca_pem || !c->tls))
		abort();
	if (!c->nusers != !c->users || !c->nheaders != !c->headers)
		abort();
	for (size_t i = 0; i < c->nusers; i++) {
		if (!c->users[i].name[0] || strchr(c->users[i].name, ':') || strlen(c->users[i].value) != 60 ||
		    strncmp(c->users[i].value, "$2", 2))
			abort();
		clean(c->users[i].name);
		clean(c->users[i].value);
	}
	for (size_t i = 0; i < c->nheaders; i++) {
		if (!webcfg_header_allowed(c->headers[i].name))
			abort();
		clean(c->headers[i].value);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz f = { data, size };
	const uint8_t *s;
	size_t n;
	if (!fz_next(&f, 0xff, &s, &n))
		return 0;
	char *enc = fz_cstr(s, n);
	expo_wants_gzip(enc);
	free(enc);
	char *text = fz_dup(f.p, f.n);
	struct xg_webcfg c;
	struct xg_err err = { 0 };
	if (webcfg_parse(&c, text, f.n, "web.yml", scratch_dir(), &err) == 0) {
		usable(&c);
	} else {
		struct xg_webcfg zero = { 0 };
		if (strncmp(err.msg, "web.yml", 7) || memcmp(&c, &zero, sizeof(c)))
			abort();
	}
	webcfg_free(&c);
	free(text);
	return 0;
}
