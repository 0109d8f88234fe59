// SPDX-License-Identifier: GPL-2.0-or-later
/* libFuzzer harness: a Prometheus-compatible server's answer to an
 * instant or a range query, as the Prometheus source parses it (cJSON, loaded by
 * soname, then the bounds and checks of remote_qapi.c). The whole input
 * is the answer's body. Checks: an answer is either accepted, each series
 * (a matrix: each point of each series) handed over with at most RM_QLABEL_MAX labels whose values hold no
 * control byte and fit their buffer, or refused with a message. */
#include "fuzz.h"

#include "../../src/remote/remote_parts.h"

static int on_point(void *ctx, const struct rm_qpoint *p, struct xg_err *err)
{
	(void)err;
	size_t *n = ctx;
	if (p->nlab > RM_QLABEL_MAX)
		abort();
	for (size_t i = 0; i < p->nlab; i++) {
		if (!p->lab[i].name || !p->lab[i].value || strlen(p->lab[i].value) >= RM_LABEL_VALUE_MAX)
			abort();
		for (const unsigned char *c = (const unsigned char *)p->lab[i].value; *c; c++)
			if (*c < 0x20 || *c == 0x7f)
				abort();
	}
	(*n)++;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct rm_qapi *q;
	static bool tried;
	if (!tried) {
		struct xg_err err;
		q = rm_qapi_open(&err);
		tried = true;
	}
	if (!q)
		return 0;   /* built without cJSON: nothing to fuzz */
	char *body = fz_cstr(data, size);
	struct xg_err err = { 0 };
	size_t n = 0;
	if (rm_qapi_parse(q, body, size, on_point, &n, &err) < 0 && !err.msg[0])
		abort();
	free(body);
	return 0;
}
