// SPDX-License-Identifier: GPL-2.0-or-later
/* basic_auth_users: a user's password is checked against its bcrypt hash
 * with crypt_rn, from libcrypt loaded by soname (libxcrypt, Debian's and
 * Fedora's, knows $2b$ and $2y$; the old glibc libcrypt does not, which the
 * probe at start tells). */
#include "expo_serve.h"

#include "xgtop/core/dynlib.h"

#include <crypt.h>
#include <stdlib.h>
#include <string.h>

#ifndef CRYPT_SO
#define CRYPT_SO "libcrypt.so.1"
#endif

/* Declared here, not taken from <crypt.h>: the portable build compiles
 * against glibc 2.17's header, which has neither crypt_rn nor libxcrypt's
 * struct crypt_data. crypt_rn exists only in libxcrypt, whose
 * struct crypt_data is 32768 bytes by its ABI. */
typedef char *crypt_rn_fn(const char *phrase, const char *setting, void *data, int size);
#ifdef CRYPT_DATA_INTERNAL_SIZE
typedef struct crypt_data crypt_work;
#else
typedef struct {
	_Alignas(16) char b[32768];
} crypt_work;
#endif

#define CRYPT_API(F) F(crypt_rn)
struct crypt_api {
	void *so;
	crypt_rn_fn *crypt_rn;
};
#define CRYPT_FN(fn) XG_DL_FN(struct crypt_api, fn)
static const struct xg_dl_fn crypt_fns[] = { CRYPT_API(CRYPT_FN) };

struct user {
	const char *name, *hash;    /* the configuration's, which outlives this */
	char *good;                 /* the last password that matched, or NULL */
	size_t good_len;
};

struct expo_auth {
	struct crypt_api c;
	crypt_work data;
	struct user *u;
	size_t n;
};

/* Compares every byte whatever differs first, so that the time taken
 * does not tell how much of a password was right. */
static bool same(const char *a, size_t an, const char *b, size_t bn)
{
	unsigned char d = an != bn;
	for (size_t i = 0; i < an && i < bn; i++)
		d |= (unsigned char)(a[i] ^ b[i]);
	return d == 0;
}

static bool bcrypt_ok(struct expo_auth *a, const char *pass, const char *hash)
{
	memset(&a->data, 0, sizeof(a->data));
	const char *r = a->c.crypt_rn(pass, hash, &a->data, (int)sizeof(a->data));
	return r && r[0] == '$' && same(r, strlen(r), hash, strlen(hash));
}

struct expo_auth *expo_auth_new(const struct xg_webcfg *c, struct xg_err *err)
{
	struct expo_auth *a = xg_calloc(1, sizeof(*a));
	struct xg_err e = { 0 };
	a->c.so = xg_dl_load(CRYPT_SO, "libcrypt", crypt_fns, XG_ARRAY_LEN(crypt_fns), &a->c, &e);
	if (!a->c.so) {
		free(a);
		xg_fail(err, "basic_auth_users: %s", e.msg);
		return NULL;
	}
	/* The probe: "x" hashed at cost 4 with a fixed salt. */
	static const char probe[] = "$2b$04$abcdefghijklmnopqrstuuPp7HPfoAs8I2dCQCQ/fW7zEJv8I8C8e";
	memset(&a->data, 0, sizeof(a->data));
	const char *r = a->c.crypt_rn("x", probe, &a->data, (int)sizeof(a->data));
	if (!r || strcmp(r, probe)) {
		xg_dl_close(a->c.so);
		free(a);
		xg_fail(err, "basic_auth_users: this system's libcrypt (%s) does not know bcrypt", CRYPT_SO);
		return NULL;
	}
	a->n = c->nusers;
	a->u = xg_calloc(a->n, sizeof(*a->u));
	for (size_t i = 0; i < a->n; i++) {
		a->u[i].name = c->users[i].name;
		a->u[i].hash = c->users[i].value;
	}
	return a;
}

bool expo_auth_check(struct expo_auth *a, const char *user, const char *pass)
{
	size_t plen = strlen(pass);
	struct user *u = NULL;
	for (size_t i = 0; i < a->n && !u; i++)
		if (!strcmp(a->u[i].name, user))
			u = &a->u[i];
	if (!u) {
		/* An unknown user costs what a known one does. */
		bcrypt_ok(a, pass, a->u[0].hash);
		return false;
	}
	if (u->good && same(u->good, u->good_len, pass, plen))
		return true;
	if (!bcrypt_ok(a, pass, u->hash))
		return false;
	free(u->good);
	u->good = xg_malloc(plen + 1);
	memcpy(u->good, pass, plen + 1);
	u->good_len = plen;
	return true;
}

void expo_wipe(char *p, size_t n)
{
	volatile char *v = p;
	while (n--)
		*v++ = 0;
}

void expo_auth_free(struct expo_auth *a)
{
	if (!a)
		return;
	for (size_t i = 0; i < a->n; i++) {
		if (a->u[i].good)
			expo_wipe(a->u[i].good, a->u[i].good_len);
		free(a->u[i].good);
	}
	free(a->u);
	xg_dl_close(a->c.so);
	free(a);
}
