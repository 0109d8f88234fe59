// SPDX-License-Identifier: GPL-2.0-or-later
/* libFuzzer harness: what the pool view reads from the network and its
 * hosts list. The first input byte picks the layer: 0 = a whole HTTP
 * answer (status, headers, Content-Length or chunked body), whose body
 * then goes to the exporter-text parser as in a live refresh; 1 = exporter
 * text alone; 2 = a --hosts file and the same bytes as a URL list; 3 = a
 * number as the parser reads metric values. Checks: a body lies inside the
 * answer; a parsed sample has its domains within what the text could name;
 * every accepted host name is plain. */
#include "fuzz.h"

#include "xgtop/model/sample.h"
#include "../../src/remote/remote_parts.h"

static void metrics_text(const char *text, size_t n)
{
	struct xg_sample s;
	struct xg_err err;
	sample_init(&s);
	if (rm_map_text(text, n, &s, &err) < 0 && !err.msg[0])
		abort();
	for (size_t i = 0; i < s.ndom; i++)
		if (!memchr(s.dom[i].name, 0, sizeof(s.dom[i].name)))
			abort();
	sample_free(&s);
}

static void http_answer(const uint8_t *p, size_t n)
{
	char *buf = fz_cstr(p, n), why[192];
	const char *body;
	size_t len;
	if (rm_http_body(buf, n, &body, &len, why, sizeof(why)) == 0) {
		if (body < buf || body + len > buf + n || body[len])
			abort();
		metrics_text(body, len);
	} else if (!why[0]) {
		abort();
	}
	free(buf);
}

static void check_targets(struct rm_target *t, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!t[i].host[0] || strpbrk(t[i].host, " \t\r\n/\"\\") || strpbrk(t[i].name, " \t\r\n,\"\\") ||
		    t[i].path[0] != '/')
			abort();
	free(t);
}

static void hosts(const uint8_t *p, size_t n)
{
	struct rm_target *t = NULL;
	size_t nt = 0;
	struct xg_err err;
	char path[32];
	if (fz_file(path, p, n)) {
		if (rm_url_file(path, &t, &nt, &err) < 0)
			nt = 0;
		check_targets(t, nt);
		unlink(path);
	}
	char *list = fz_cstr(p, n);
	t = NULL;
	nt = 0;
	if (rm_url_list(list, &t, &nt, &err) < 0)
		nt = 0;
	check_targets(t, nt);
	free(list);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!size)
		return 0;
	const uint8_t *p = data + 1;
	size_t n = size - 1;
	switch (data[0] % 4) {
	case 0: http_answer(p, n); break;
	case 1: { char *t = fz_dup(p, n); metrics_text(t, n); free(t); break; }
	case 2: hosts(p, n); break;
	default: {
		uint64_t v;
		char *t = fz_dup(p, n);
		(void)rm_value_u64(t, n, data[0] % 13, data[0] & 16, &v);
		free(t);
	}
	}
	return 0;
}
