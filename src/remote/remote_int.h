/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Private to src/remote: the pieces of the pool view's source. */
#ifndef XGTOP_REMOTE_INT_H
#define XGTOP_REMOTE_INT_H

#include "xgtop/model/sample.h"

/* ---- remote_url.c ---- */
struct rm_target {
	char name[XG_PEER_NAME_MAX];  /* what HOST shows */
	char host[256];               /* name or address to connect to */
	char port[8];
	char path[256];               /* starts with '/' */
};
/* Parses one http://HOST[:PORT][/PATH] (PORT defaults to 9717, PATH to
 * /metrics) into t, named name (NULL: HOST[:PORT] as given). */
int rm_url_parse(const char *url, const char *name, struct rm_target *t, struct xg_err *err);
/* Appends the targets of a comma-separated URL list, or of a hosts file
 * (one "URL [NAME]" per line, # comments), to *t (*n entries). */
int rm_url_list(const char *list, struct rm_target **t, size_t *n, struct xg_err *err);
int rm_url_file(const char *path, struct rm_target **t, size_t *n, struct xg_err *err);

/* ---- remote_http.c ---- */
#define RM_BODY_MAX (32u << 20)     /* an exporter's answer, bytes */
#define RM_HEAD_MAX (16u << 10)     /* its status line and headers */

enum rm_phase { RM_IDLE, RM_CONNECT, RM_SEND, RM_RECV, RM_DONE, RM_FAILED };

struct rm_fetch {
	const struct rm_target *t;
	enum rm_phase phase;
	int fd;
	void *addr;                   /* resolved address (struct addrinfo list) */
	char req[640];
	size_t reqlen, sent;
	char *buf;                    /* the whole answer, NUL-terminated */
	size_t len, cap;
	const char *body;             /* into buf once RM_DONE */
	size_t body_len;
	char why[192];                /* RM_FAILED: what went wrong */
};

void rm_fetch_init(struct rm_fetch *f, const struct rm_target *t);
void rm_fetch_free(struct rm_fetch *f);
/* Fetches every f[i] at once, waiting at most timeout_ns; each ends
 * RM_DONE (body set) or RM_FAILED (why set). */
void rm_fetch_all(struct rm_fetch **f, size_t n, uint64_t timeout_ns);
/* The body of a complete HTTP answer in buf[0..len): status 200, headers,
 * then Content-Length, chunked or until close. Returns 0 or -1 with why. */
int rm_http_body(char *buf, size_t len, const char **body, size_t *body_len, char *why, size_t nwhy);

/* ---- remote_prom.c ---- */
#define RM_LABEL_MAX 16
#define RM_LABEL_VALUE_MAX 1024

struct rm_label {
	const char *name;             /* not NUL-terminated: nlen bytes */
	size_t nlen;
	const char *value;            /* unescaped, NUL-terminated */
	size_t vlen;
};
struct rm_series {
	const char *name;             /* metric name, nlen bytes */
	size_t nlen;
	struct rm_label lab[RM_LABEL_MAX];
	size_t nlab;
	const char *value;            /* the value's text, vlen bytes */
	size_t vlen;
};
typedef int (*rm_series_fn)(void *ctx, const struct rm_series *s, struct xg_err *err);
/* Calls fn for each sample line of text[0..n) (comments skipped, "# EOF"
 * ends it). Returns 0, or -1 with err naming the line when a line is
 * malformed or fn fails. */
int rm_prom_parse(const char *text, size_t n, rm_series_fn fn, void *ctx, struct xg_err *err);
/* The value of label name in s, or NULL. */
const char *rm_label(const struct rm_series *s, const char *name);
/* A value as an exact integer of 10^-decimals units ("1.5" with 9 decimals
 * is 1500000000); "+Inf" is UINT64_MAX when inf_ok. False for negative,
 * NaN, too big or malformed values. */
bool rm_value_u64(const char *v, size_t n, unsigned decimals, bool inf_ok, uint64_t *out);
/* Undoes xg_escape_name (\\ and \xNN) into dst of n bytes. */
void rm_unescape_name(char *dst, size_t n, const char *src);

/* ---- remote_map.c ---- */
/* Fills out (cleared) with the host sample an exporter's text describes.
 * Returns 0, or -1 with err. */
int rm_map_text(const char *text, size_t n, struct xg_sample *out, struct xg_err *err);

#endif
