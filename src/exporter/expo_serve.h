/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Pieces of the exporter's HTTP side shared between its files. */
#ifndef XGTOP_EXPO_SERVE_H
#define XGTOP_EXPO_SERVE_H

#include "xgtop/exporter/webcfg.h"

#include <stddef.h>

/* basic_auth_users checked with crypt(3) from libcrypt (libxcrypt knows
 * bcrypt), loaded by soname. Not thread-safe: one per server thread. */
struct expo_auth;
/* NULL with err when libcrypt cannot be loaded or does not know bcrypt;
 * c must have users. */
struct expo_auth *expo_auth_new(const struct xg_webcfg *c, struct xg_err *err);
/* Whether user/pass is one of the file's users. A bcrypt check takes tens
 * of milliseconds by design; the last password that matched each user is
 * remembered, so a scraper's repeated scrapes cost a comparison. */
bool expo_auth_check(struct expo_auth *a, const char *user, const char *pass);
void expo_auth_free(struct expo_auth *a);
/* Clears a password where the compiler may not drop it as a dead store
 * (explicit_bzero is glibc 2.25, above the portable build's 2.17). */
void expo_wipe(char *p, size_t n);

/* gzip (RFC 1952) of n bytes at in: a malloc'd buffer and its length in
 * *out_n; NULL when zlib fails. */
char *expo_gzip(const char *in, size_t n, size_t *out_n);

#endif
