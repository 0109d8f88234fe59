// SPDX-License-Identifier: GPL-2.0-or-later
/* The Prometheus query API's answers (/api/v1/query, an instant vector;
 * /api/v1/query_range, a range matrix), parsed with cJSON. cJSON was the fastest of Debian's three JSON
 * libraries on a 10 MB vector answer (bench/json_parse.sh, doc/pool.md).
 * It is loaded by soname when the Prometheus source opens, like libcurl.
 * The answer is untrusted: its size is bounded by the fetch (RM_BODY_MAX),
 * cJSON bounds its nesting, and here the labels per series, a label
 * value's length and the series (or a matrix's points) per answer are
 * bounded, every value must
 * be a number in a string, and a label value reaches the caller with its
 * control bytes replaced.
 * cJSON builds a tree with a malloc per value and string: tens of
 * thousands a refresh at 10,000 domains, most of the parse's time. Its
 * allocation hooks are pointed at an arena for the parse instead (bump
 * allocation, nothing freed one by one), which is let go of at once. */
#include "remote_parts.h"

#include <math.h>
#include <pthread.h>
#include <stdalign.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef HAVE_CJSON
#include "xgtop/core/dynlib.h"
#include <cjson/cJSON.h>

#ifndef CJSON_SO
#define CJSON_SO "libcjson.so.1"
#endif

#define CJSON_API(F) F(cJSON_ParseWithLength) F(cJSON_GetObjectItemCaseSensitive) F(cJSON_InitHooks)
struct rm_qapi {
	void *so;
#define CJ_SLOT(fn) __typeof__(fn) *fn;
	CJSON_API(CJ_SLOT)
#undef CJ_SLOT
};
#define CJ_FN(fn) XG_DL_FN(struct rm_qapi, fn)
static const struct xg_dl_fn cjson_fns[] = { CJSON_API(CJ_FN) };

/* The parse's arena: chunks of at least ARENA_CHUNK bytes, the newest
 * first. cJSON's hooks take no context, so the arena is this file's, and
 * one parse runs at a time (arena_lock). After a parse the largest chunk
 * stays for the next one, unless it is over ARENA_KEEP (a hostile answer's
 * tree). */
#define ARENA_CHUNK (1u << 20)
#define ARENA_KEEP (64u << 20)
struct arena_chunk {
	struct arena_chunk *next;
	size_t cap, used;
	alignas(max_align_t) unsigned char data[];
};
static struct arena_chunk *arena;
static pthread_mutex_t arena_lock = PTHREAD_MUTEX_INITIALIZER;

static void *arena_alloc(size_t n)
{
	n = (n + alignof(max_align_t) - 1) & ~(alignof(max_align_t) - 1);
	if (!arena || arena->cap - arena->used < n) {
		size_t cap = arena ? arena->cap * 2 : ARENA_CHUNK;
		while (cap < n)
			cap *= 2;
		struct arena_chunk *c = malloc(sizeof(*c) + cap);
		if (!c)
			return NULL;   /* cJSON fails the parse */
		c->next = arena;
		c->cap = cap;
		c->used = 0;
		arena = c;
	}
	void *p = arena->data + arena->used;
	arena->used += n;
	return p;
}

static void arena_free(void *p)
{
	(void)p;   /* the whole arena goes after the parse */
}

/* After a parse: the newest (largest) chunk stays, emptied. */
static void arena_reset(void)
{
	struct arena_chunk *keep = arena && arena->cap <= ARENA_KEEP ? arena : NULL;
	for (struct arena_chunk *c = keep ? arena->next : arena, *next; c; c = next) {
		next = c->next;
		free(c);
	}
	arena = keep;
	if (keep) {
		keep->next = NULL;
		keep->used = 0;
	}
}

struct rm_qapi *rm_qapi_open(struct xg_err *err)
{
	struct rm_qapi *q = xg_calloc(1, sizeof(*q));
	struct xg_err e = { 0 };
	q->so = xg_dl_load(CJSON_SO, "cJSON", cjson_fns, XG_ARRAY_LEN(cjson_fns), q, &e);
	if (!q->so) {
		free(q);
		xg_fail(err, "Prometheus source: %s (install libcjson1)", e.msg);
		return NULL;
	}
	return q;
}

void rm_qapi_close(struct rm_qapi *q)
{
	if (!q)
		return;
	pthread_mutex_lock(&arena_lock);   /* its last chunk: between parses, nobody's */
	free(arena);
	arena = NULL;
	pthread_mutex_unlock(&arena_lock);
	xg_dl_close(q->so);
	free(q);
}

static bool is_string(const cJSON *j)
{
	return j && (j->type & 0xff) == cJSON_String && j->valuestring;
}

/* Copies a server's text into dst (n bytes) with control bytes shown as
 * '?', so that a message never carries them. */
static void plain(char *dst, size_t n, const char *src)
{
	size_t i = 0;
	for (; src && src[i] && i + 1 < n; i++) {
		unsigned char c = (unsigned char)src[i];
		dst[i] = c < 0x20 || c == 0x7f ? '?' : (char)c;
	}
	dst[i] = 0;
}

static int refused(struct rm_qapi *q, const cJSON *root, struct xg_err *err)
{
	char type[64], msg[300];
	const cJSON *t = q->cJSON_GetObjectItemCaseSensitive(root, "errorType");
	const cJSON *m = q->cJSON_GetObjectItemCaseSensitive(root, "error");
	plain(type, sizeof(type), is_string(t) ? t->valuestring : "?");
	const char *text = is_string(m) ? m->valuestring : "no message";
	/* VictoriaMetrics quotes the whole query first: its reason follows
	 * the time range, after the last "): ". */
	if (!strncmp(text, "error when executing query=", 27)) {
		const char *r = NULL;
		for (const char *p = strstr(text, "): "); p; p = strstr(p + 1, "): "))
			r = p + 3;
		if (r)
			text = r;
	}
	plain(msg, sizeof(msg), text);
	return xg_fail(err, "the server refused the query (%s): %s", type, msg);
}

/* One [time, "number"] pair into p. */
static int one_value(const cJSON *val, struct rm_qpoint *p, struct xg_err *err)
{
	const cJSON *t = val && (val->type & 0xff) == cJSON_Array ? val->child : NULL;
	const cJSON *v = t ? t->next : NULL;
	if (!t || (t->type & 0xff) != cJSON_Number || !is_string(v) || v->next)
		return xg_fail(err, "%s", "a value that is not [time, \"number\"]");
	char *end;
	p->t = t->valuedouble;
	p->v = strtod(v->valuestring, &end);
	if (*end || end == v->valuestring || !isfinite(p->t))
		return xg_fail(err, "%s", "a value that is not a number");
	return 0;
}

/* One series: fn once (a vector's "value") or once per point (a
 * matrix's "values"); *k counts what was handed over, bounded. */
static int one_series(const cJSON *s, bool matrix, rm_qpoint_fn fn, void *ctx, struct rm_qpoint *p,
		      size_t *k, struct xg_err *err, struct rm_qapi *q)
{
	const cJSON *met = q->cJSON_GetObjectItemCaseSensitive(s, "metric");
	const cJSON *val = q->cJSON_GetObjectItemCaseSensitive(s, matrix ? "values" : "value");
	if (!met || (met->type & 0xff) != cJSON_Object || !val || (val->type & 0xff) != cJSON_Array)
		return xg_fail(err, "%s", "a series without its metric and value");
	p->nlab = 0;
	for (const cJSON *l = met->child; l; l = l->next) {
		if (!is_string(l) || !l->string)
			return xg_fail(err, "%s", "a label that is not a string");
		if (p->nlab == RM_QLABEL_MAX)
			return xg_fail(err, "a series with more than %d labels", RM_QLABEL_MAX);
		/* The value's control bytes become '?' where they are: the
		 * tree is the arena's, and gone after the parse. */
		size_t n = 0;
		for (char *c = l->valuestring; *c && n < RM_LABEL_VALUE_MAX; c++, n++)
			if ((unsigned char)*c < 0x20 || *c == 0x7f)
				*c = '?';
		if (n >= RM_LABEL_VALUE_MAX || strlen(l->string) >= RM_LABEL_VALUE_MAX)
			return xg_fail(err, "a label longer than %d bytes", RM_LABEL_VALUE_MAX - 1);
		p->lab[p->nlab].name = l->string;
		p->lab[p->nlab].value = l->valuestring;
		p->nlab++;
	}
	for (const cJSON *v = matrix ? val->child : val; v; v = matrix ? v->next : NULL) {
		if (++*k > RM_QSERIES_MAX)
			return xg_fail(err, "more than %d series or points in one answer", RM_QSERIES_MAX);
		if (one_value(v, p, err) < 0 || fn(ctx, p, err) < 0)
			return -1;
	}
	return 0;
}

static int parse_tree(struct rm_qapi *q, const char *body, size_t n, rm_qpoint_fn fn, void *ctx,
		      struct xg_err *err)
{
	cJSON *root = q->cJSON_ParseWithLength(body, n);
	if (!root)
		return xg_fail(err, "%s", "the answer is not JSON: is the URL the server's (http://HOST:9090)?");
	int rc = 0;
	const cJSON *st = q->cJSON_GetObjectItemCaseSensitive(root, "status");
	const cJSON *data = q->cJSON_GetObjectItemCaseSensitive(root, "data");
	const cJSON *type = data ? q->cJSON_GetObjectItemCaseSensitive(data, "resultType") : NULL;
	const cJSON *res = data ? q->cJSON_GetObjectItemCaseSensitive(data, "result") : NULL;
	if (is_string(st) && !strcmp(st->valuestring, "error"))
		rc = refused(q, root, err);
	else if (!is_string(st) || strcmp(st->valuestring, "success"))
		rc = xg_fail(err, "%s", "the answer has no \"status\": \"success\": not a Prometheus query API");
	else if (!is_string(type) || (strcmp(type->valuestring, "vector") && strcmp(type->valuestring, "matrix")) ||
		 !res || (res->type & 0xff) != cJSON_Array)
		rc = xg_fail(err, "%s", "the answer is neither an instant vector nor a range matrix");
	bool matrix = !rc && !strcmp(type->valuestring, "matrix");
	struct rm_qpoint *p = xg_calloc(1, sizeof(*p));
	size_t k = 0;
	for (const cJSON *s = rc ? NULL : res->child; s && !rc; s = s->next)
		rc = one_series(s, matrix, fn, ctx, p, &k, err, q);
	free(p);
	return rc ? -1 : 0;
}

int rm_qapi_parse(struct rm_qapi *q, const char *body, size_t n, rm_qpoint_fn fn, void *ctx, struct xg_err *err)
{
	cJSON_Hooks hooks = { .malloc_fn = arena_alloc, .free_fn = arena_free };
	pthread_mutex_lock(&arena_lock);
	q->cJSON_InitHooks(&hooks);
	int rc = parse_tree(q, body, n, fn, ctx, err);
	q->cJSON_InitHooks(NULL);   /* malloc and free again */
	arena_reset();
	pthread_mutex_unlock(&arena_lock);
	return rc;
}

#else /* !HAVE_CJSON */

struct rm_qapi {
	int unused;
};

struct rm_qapi *rm_qapi_open(struct xg_err *err)
{
	xg_fail(err, "%s", "Prometheus source: this xgtop was built without cJSON (libcjson-dev)");
	return NULL;
}

void rm_qapi_close(struct rm_qapi *q)
{
	(void)q;
}

int rm_qapi_parse(struct rm_qapi *q, const char *body, size_t n, rm_qpoint_fn fn, void *ctx, struct xg_err *err)
{
	(void)q, (void)body, (void)n, (void)fn, (void)ctx;
	return xg_fail(err, "%s", "built without cJSON");
}

#endif

const char *rm_qlabel(const struct rm_qpoint *p, const char *name)
{
	for (size_t i = 0; i < p->nlab; i++)
		if (!strcmp(p->lab[i].name, name))
			return p->lab[i].value;
	return NULL;
}
