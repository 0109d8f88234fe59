/* SPDX-License-Identifier: GPL-2.0-or-later */
/* --web-config FILE: the Prometheus exporter-toolkit's web configuration
 * (TLS, basic-auth users with bcrypt hashes, extra response headers), read
 * into one immutable struct. YAML is read with libyaml, loaded by soname
 * when a file is given; what the file may say is checked here, strictly:
 * a key this format lacks, a wrong type or a duplicate is refused with its
 * line. Keys of the format that xgtop cannot honour (cipher_suites,
 * client_allowed_sans, rate_limit ...) are refused, not ignored. */
#ifndef XGTOP_EXPORTER_WEBCFG_H
#define XGTOP_EXPORTER_WEBCFG_H

#include "xgtop/core/common.h"

#include <stddef.h>

enum xg_client_auth {
	XG_CLIENT_NONE,             /* NoClientCert */
	XG_CLIENT_VERIFY_IF_GIVEN,  /* VerifyClientCertIfGiven */
	XG_CLIENT_REQUIRE_VERIFY,   /* RequireAndVerifyClientCert */
};

struct xg_web_pair {
	char *name;                 /* a user name, or a header name */
	char *value;                /* its bcrypt hash, or the header's value */
};

struct xg_webcfg {
	bool tls;                   /* tls_server_config with a certificate */
	char *cert_pem, *key_pem;   /* the PEM text itself (files read) */
	char *ca_pem;               /* client_ca_file's text, or NULL */
	enum xg_client_auth client_auth;
	char priorities[160];       /* GnuTLS priority string: min/max version */
	struct xg_web_pair *users;  /* basic_auth_users, in file order */
	size_t nusers;
	struct xg_web_pair *headers; /* http_server_config.headers */
	size_t nheaders;
};

/* Largest web configuration, certificate, key or CA file read. */
#define XG_WEBCFG_MAX_FILE (1u << 20)

/* Parses text (n bytes) as a web configuration named name (for messages);
 * relative file names are taken from dir. Returns 0, or -1 with err
 * naming the line and key ("web.yml line 4: tls_server_config.min_version:
 * 'TLS14' is not TLS10, TLS11, TLS12 or TLS13"); c is then empty. */
int webcfg_parse(struct xg_webcfg *c, const char *text, size_t n, const char *name,
		 const char *dir, struct xg_err *err);
/* Reads the file path and parses it. */
int webcfg_load(struct xg_webcfg *c, const char *path, struct xg_err *err);
void webcfg_free(struct xg_webcfg *c);

/* A header name this format lets a file set: a token, and none of those
 * the exporter sets itself (Content-Type, Content-Encoding, ...). */
bool webcfg_header_allowed(const char *name);

#endif
