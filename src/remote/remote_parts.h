/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Private to src/remote: the pieces of the pool view's source. */
#ifndef XGTOP_REMOTE_PARTS_H
#define XGTOP_REMOTE_PARTS_H

#include "xgtop/model/sample.h"

/* ---- remote_url.c ---- */
struct rm_target {
	char name[XG_PEER_NAME_MAX];  /* what HOST shows */
	bool https;
	char host[256];               /* name or address to connect to */
	char port[8];
	char path[256];               /* starts with '/' */
	/* From the hosts file (its own line's KEY=VALUE, else its default
	 * line's): files for TLS, and a user with a password or a token. */
	char ca_file[256], cert_file[256], key_file[256];
	char user[128];
	char password[256];           /* read from password_file */
	char bearer[1024];            /* read from bearer_token_file */
};
/* Parses one http[s]://HOST[:PORT][/PATH] (PORT defaults to 9717, PATH to
 * /metrics) into t, named name (NULL: HOST[:PORT] as given). */
int rm_url_parse(const char *url, const char *name, struct rm_target *t, struct xg_err *err);
/* Appends the targets of a comma-separated URL list, or of a hosts file
 * (one "URL [NAME] [KEY=VALUE...]" per line, "default KEY=VALUE..." for
 * every host without its own, # comments; doc/pool.md), to *t (*n). */
int rm_url_list(const char *list, struct rm_target **t, size_t *n, struct xg_err *err);
int rm_url_file(const char *path, struct rm_target **t, size_t *n, struct xg_err *err);

/* ---- remote_http.c: libcurl's multi interface ---- */
#define RM_BODY_MAX (32u << 20)     /* an exporter's answer, bytes (after gzip) */
#define RM_HEAD_MAX (16u << 10)     /* its status line and headers */

enum rm_phase { RM_IDLE, RM_RUNNING, RM_DONE, RM_FAILED };

/* libcurl (loaded by soname) and its multi handle, which keeps each
 * host's connection (and TLS session) from one refresh to the next. */
struct rm_client;
struct rm_client *rm_client_open(struct xg_err *err);
void rm_client_close(struct rm_client *c);

struct rm_fetch {
	const struct rm_target *t;
	enum rm_phase phase;
	void *easy;                   /* its CURL handle, made at the first fetch */
	char *buf;                    /* the body, NUL-terminated */
	size_t len, cap;
	bool too_big;
	const char *body;             /* buf once RM_DONE */
	size_t body_len;
	char why[192];                /* RM_FAILED: what went wrong */
};

void rm_fetch_init(struct rm_fetch *f, const struct rm_target *t);
void rm_fetch_free(struct rm_client *c, struct rm_fetch *f);
/* Fetches every f[i] at once, waiting at most timeout_ns; each ends
 * RM_DONE (body set) or RM_FAILED (why set). */
void rm_fetch_all(struct rm_client *c, struct rm_fetch **f, size_t n, uint64_t timeout_ns);
/* Points f at path (and query) on its target's server instead of t->path,
 * for the next rm_fetch_all. Returns 0 or -1. */
int rm_fetch_url(struct rm_client *c, struct rm_fetch *f, const char *path);
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

/* ---- remote_qapi.c: the query API's answers (cJSON, loaded by soname) ---- */
#define RM_QLABEL_MAX 32            /* labels per series */
#define RM_QSERIES_MAX 1000000      /* series (a matrix: points) per answer */
struct rm_qapi;
struct rm_qlabel {
	const char *name;             /* as the server sent it */
	const char *value;            /* control bytes shown as '?'; the answer's, for fn's call only */
};
struct rm_qpoint {
	struct rm_qlabel lab[RM_QLABEL_MAX];
	size_t nlab;
	double t;                     /* the evaluation time, s since 1970 */
	double v;
};
typedef int (*rm_qpoint_fn)(void *ctx, const struct rm_qpoint *p, struct xg_err *err);
struct rm_qapi *rm_qapi_open(struct xg_err *err);
void rm_qapi_close(struct rm_qapi *q);
/* Calls fn for each series of an instant-vector answer, or each point of
 * each series of a range-matrix answer (p->t its time). Returns 0, or -1
 * with err: not JSON, neither, the server's own error ("the server
 * refused the query (bad_data): ..."), a malformed or oversized series. */
int rm_qapi_parse(struct rm_qapi *q, const char *body, size_t n, rm_qpoint_fn fn, void *ctx, struct xg_err *err);
/* The value of label name in p, or NULL. */
const char *rm_qlabel(const struct rm_qpoint *p, const char *name);

/* ---- remote_map.c ---- */
/* Fills out (cleared) with the host sample an exporter's text describes.
 * Returns 0, or -1 with err. */
int rm_map_text(const char *text, size_t n, struct xg_sample *out, struct xg_err *err);
/* Marks h's VMS, PSI and WAITS flags from the fields its exporter
 * publishes (bit f: some domain has field f): the exporter has no line
 * for the flags themselves. */
void rm_host_flags(struct xg_host *h, uint64_t published);

/* ---- remote_pool.c ---- */
/* Fills out's own line for a pool of peers (out->peer[]): this host's
 * clocks and CPU, the peers' sums and flags, summary as its hypervisor
 * text, pcpu_why as the reason the pCPU meters are empty. */
void rm_pool_line(struct xg_sample *out, const char *source, const char *hostname, const char *summary,
		  const char *pcpu_why);

#endif
