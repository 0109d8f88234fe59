// SPDX-License-Identifier: GPL-2.0-or-later
/* libFuzzer harness: what reaches the exporter from outside. Pieces are
 * separated by 0xff: a scraper's Accept header, an --export address, and
 * a domain name (guest-chosen on every source). Checks: the header picks
 * a format that exists; an accepted address has a port and a bounded
 * host; the name, rendered in both formats, reads back unchanged through
 * the pool view's parser (what one host exports another shows). */
#include "fuzz.h"

#include "xgtop/exporter/exporter.h"
#include "xgtop/exporter/render.h"
#include "../../src/remote/remote_int.h"

static void name_round_trip(const uint8_t *p, size_t n)
{
	struct xg_sample s, back;
	sample_init(&s);
	sample_init(&back);
	s.host.mono_ns = 5000000000ull;
	struct xg_dom *d = sample_add_dom(&s, n ? p[0] : 1);
	size_t len = n > 1 ? n - 1 : 0;
	len = len < XG_NAME_MAX - 1 ? len : XG_NAME_MAX - 1;
	memcpy(d->name, p + (n > 1), len);
	d->name[len] = 0;   /* a name stops at its first NUL, as the sources cut it */
	dom_set(d, XG_F_CPU_NS, 1000000000ull * len);
	struct xg_expo_stats st = { .refreshes = 1 };
	for (int fmt = 0; fmt < XG_EXPO_FMT_COUNT; fmt++) {
		struct xg_strbuf b = { 0 };
		struct xg_err err;
		expo_render(&b, (enum xg_expo_fmt)fmt, &s, &st);
		sample_clear(&back);
		if (rm_map_text(b.p, b.len, &back, &err) < 0 || back.ndom != 1 || strcmp(back.dom[0].name, d->name) ||
		    back.dom[0].id != d->id || back.dom[0].v[XG_F_CPU_NS] != d->v[XG_F_CPU_NS])
			abort();
		strbuf_free(&b);
	}
	sample_free(&s);
	sample_free(&back);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz f = { data, size };
	const uint8_t *s;
	size_t n;
	if (fz_next(&f, 0xff, &s, &n)) {
		char *accept = fz_cstr(s, n);
		if ((unsigned)expo_negotiate(accept) >= XG_EXPO_FMT_COUNT)
			abort();
		free(accept);
	}
	if (fz_next(&f, 0xff, &s, &n)) {
		char *spec = fz_cstr(s, n);
		struct xg_listen at;
		struct xg_err err;
		if (exporter_parse_listen(spec, &at, &err) == 0 &&
		    (at.port > 65535 || !memchr(at.host, 0, sizeof(at.host)) || !at.host[0]))
			abort();
		free(spec);
	}
	if (fz_next(&f, 0xff, &s, &n))
		name_round_trip(s, n);
	return 0;
}
