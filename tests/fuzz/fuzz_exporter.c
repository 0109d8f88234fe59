// SPDX-License-Identifier: GPL-2.0-or-later
/* libFuzzer harness: what reaches the exporter from outside. Pieces are
 * separated by 0xff: a scraper's Accept header, an --export address, a
 * domain name (guest-chosen on every source), and the rest of the input
 * (0xff bytes included) is a raw request sent to a live exporter in this
 * process, over a loopback connection that is then half-closed. Checks:
 * the header picks a format that exists; an accepted address has a port
 * and a bounded host; the name, rendered in both formats, reads back
 * unchanged through the pool view's parser (what one host exports another
 * shows); whatever the request, the exporter survives it and anything it
 * answers starts as an HTTP status line. (In this build the exporter
 * drops a silent connection after 1 s instead of 10.) */
#include "fuzz.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>

#include "xgtop/exporter/exporter.h"
#include "xgtop/exporter/render.h"
#include "../../src/remote/remote_parts.h"

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
		expo_render(&b, (enum xg_expo_fmt)fmt, &s, NULL, &st);
		sample_clear(&back);
		if (rm_map_text(b.p, b.len, &back, &err) < 0 || back.ndom != 1 || strcmp(back.dom[0].name, d->name) ||
		    back.dom[0].id != d->id || back.dom[0].v[XG_F_CPU_NS] != d->v[XG_F_CPU_NS])
			abort();
		strbuf_free(&b);
	}
	sample_free(&s);
	sample_free(&back);
}

/* The exporter every request goes to, serving one published sample; NULL
 * in a build without libmicrohttpd. */
static struct xg_exporter *live_exporter(struct sockaddr_in *sa)
{
	static struct xg_exporter *x;
	static bool tried;
	static struct sockaddr_in at;
	if (!tried) {
		tried = true;
		struct xg_listen l;
		struct xg_err err;
		struct xg_sample s;
		if (exporter_parse_listen("127.0.0.1:0", &l, &err) < 0 || !(x = exporter_open(&l, NULL, NULL, NULL, &err)))
			return NULL;
		sample_init(&s);
		s.host.mono_ns = 5000000000ull;
		struct xg_dom *d = sample_add_dom(&s, 3);
		snprintf(d->name, sizeof(d->name), "web-03");
		dom_set(d, XG_F_CPU_NS, 123456789);
		exporter_publish(x, &s, NULL, 0);
		sample_free(&s);
		const char *colon = strrchr(exporter_where(x), ':');
		at.sin_family = AF_INET;
		at.sin_port = htons((uint16_t)atoi(colon + 1));
		at.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	}
	*sa = at;
	return x;
}

static void request(const uint8_t *p, size_t n)
{
	struct sockaddr_in sa;
	if (!live_exporter(&sa))
		return;
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		if (fd >= 0)
			close(fd);
		return;
	}
	for (size_t o = 0; o < n;) {
		ssize_t w = send(fd, p + o, n - o, MSG_NOSIGNAL);
		if (w <= 0)
			break;
		o += (size_t)w;
	}
	shutdown(fd, SHUT_WR);
	/* The answer's start, if one comes within 20 ms: libmicrohttpd does
	 * not always close at once after a client's end of input, and
	 * waiting for its timeout would make this a few runs a second. */
	char head[8];
	size_t got = 0;
	struct pollfd pf = { .fd = fd, .events = POLLIN };
	while (got < sizeof(head) && poll(&pf, 1, 20) == 1) {
		ssize_t r = recv(fd, head + got, sizeof(head) - got, 0);
		if (r <= 0)
			break;
		got += (size_t)r;
	}
	close(fd);
	if (memcmp(head, "HTTP/1.", got < 7 ? got : 7))
		abort();
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
	if (f.n)
		request(f.p, f.n);
	return 0;
}
