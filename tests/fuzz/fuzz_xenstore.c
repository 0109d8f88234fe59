// SPDX-License-Identifier: GPL-2.0-or-later
/* libFuzzer harness: what a guest writes under its xenstore data/xgtop/, as
 * dom0 reads it refresh after refresh through its own xenstore client
 * (xen_xsclient.c, the wire protocol) and the publication reader
 * (xen_guestpub_xs.c), from the tests' xenstored stand-in
 * (tests/unit/fake_xenstored.h) whose nodes the input writes. The input is
 * pieces separated by 0xff. A piece starting with 0xfe is a refresh of
 * domains 1 to 3; its next byte picks how the stand-in behaves during it
 * (0 well, 1 a guest rewriting time_ns at every read, 2 hanging up, 3 a
 * payload over 4 KiB, 4 an answer to another request). Any other piece's
 * first byte k names domain 1 + k % 3 and key k / 3 % (XG_GP_NKEYS + 1)
 * (the last: the domain's whole data/xgtop/ is deleted); the rest of the
 * piece (any bytes but 0xff) is written there, or the key deleted when
 * there is none. Checks: every domain's cache figures are numbers or `-`
 * with a reason; a figure that is a number in two refreshes in a row never
 * goes back; a domain never costs more reads than the reader's bound. */
#include "fuzz.h"

#ifdef HAVE_XEN
#include "xgtop/xen/xen_guestpub.h"
#include "xgtop/xen/xen_xsclient.h"
#include "../unit/fake_xenstored.h"

#define NDOM 3
/* The reader reads a domain in at most 3 brackets of XG_GP_NKEYS + 1 reads
 * (xen_guestpub_xs.c). */
#define READS_MAX (3 * (XG_GP_NKEYS + 1))

static struct fxs srv;

static void node_path(char *p, size_t n, unsigned dom, int key)
{
	snprintf(p, n, "/local/domain/%u/data/xgtop/%s", dom, key < XG_GP_NKEYS ? xen_gp_key[key] : "");
}

/* A guest whose agent writes a new time_ns at every read of dom0's. */
static void churn(struct fxs *f, const char *path)
{
	(void)path;
	static unsigned long t;
	char v[24], p[128];
	int n = snprintf(v, sizeof(v), "%lu", ++t);
	for (unsigned d = 1; d <= NDOM; d++) {
		node_path(p, sizeof(p), d, XG_GP_K_TIME);
		fxs_put_locked(f, p, v, (size_t)n);
	}
}

static void write_piece(const uint8_t *s, size_t n)
{
	unsigned dom = 1 + s[0] % NDOM;
	int key = s[0] / NDOM % (XG_GP_NKEYS + 1);
	char p[128];
	pthread_mutex_lock(&srv.lock);
	for (int k = key < XG_GP_NKEYS ? key : 0; k < (key < XG_GP_NKEYS ? key + 1 : XG_GP_NKEYS); k++) {
		node_path(p, sizeof(p), dom, k);
		fxs_put_locked(&srv, p, n > 1 && key < XG_GP_NKEYS ? (const char *)s + 1 : NULL, n - 1);
	}
	pthread_mutex_unlock(&srv.lock);
}

struct world {
	struct xsc *xs;
	struct xg_gpreader *r;
	struct xg_sample s;
	uint64_t now;
	bool had[NDOM + 1][XG_PMU_EVENT_COUNT];
	uint64_t last[NDOM + 1][XG_PMU_EVENT_COUNT];
};

static void refresh(struct world *w, uint8_t how)
{
	static const enum fxs_mode modes[] = { FXS_NORMAL, FXS_NORMAL, FXS_CLOSE, FXS_BIG, FXS_WRONG_ID };
	pthread_mutex_lock(&srv.lock);
	srv.mode = modes[how % 5];
	srv.on_read = how % 5 == 1 ? churn : NULL;
	pthread_mutex_unlock(&srv.lock);
	sample_clear(&w->s);
	for (uint32_t id = 1; id <= NDOM; id++)
		memset(sample_add_dom(&w->s, id)->handle, (int)id, 16);
	w->now += 1000000000ull;
	xen_xs_begin(w->xs);
	xen_gpr_collect(w->r, &w->s, w->now);
	for (uint32_t id = 1; id <= NDOM; id++) {
		const struct xg_dom *d = sample_find(&w->s, id);
		for (int e = 0; e < XG_PMU_EVENT_COUNT; e++) {
			bool has = dom_has(d, XG_F_LLC_REF + e);
			const char *why = dom_why(&w->s, d, XG_F_LLC_REF + e);
			if (!has && (!why || !*why))
				abort();
			if (has && w->had[id][e] && d->v[XG_F_LLC_REF + e] < w->last[id][e])
				abort();
			w->had[id][e] = has;
			w->last[id][e] = d->v[XG_F_LLC_REF + e];
		}
	}
	struct xen_gpr_stats st;
	xen_gpr_stats(w->r, &st);
	if (st.max_dom_reqs > READS_MAX)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char sock[64];
	if (!sock[0]) {
		char dir[] = "/tmp/xgtop-fuzz-xs-XXXXXX";
		if (!mkdtemp(dir))
			abort();
		snprintf(sock, sizeof(sock), "%s/socket", dir);
		fxs_init(&srv);
		if (fxs_start(&srv, sock))
			abort();
	}
	pthread_mutex_lock(&srv.lock);   /* a fresh xenstore for each input */
	for (size_t i = 0; i < srv.n; i++) {
		free(srv.node[i].path);
		free(srv.node[i].val);
	}
	srv.n = 0;
	pthread_mutex_unlock(&srv.lock);

	static struct world w;
	struct xg_err err;
	memset(&w, 0, sizeof(w));
	if (!(w.xs = xen_xs_open(sock, &err)))
		abort();
	xen_xs_set_limits(w.xs, 200, 1000);
	w.r = xen_gpr_open(w.xs);
	sample_init(&w.s);
	struct fz f = { data, size };
	const uint8_t *s;
	size_t n;
	for (int pieces = 0; pieces < 256 && fz_next(&f, 0xff, &s, &n); pieces++) {
		if (n && s[0] == 0xfe)
			refresh(&w, n > 1 ? s[1] : 0);
		else if (n)
			write_piece(s, n);
	}
	refresh(&w, 0);
	xen_gpr_close(w.r);
	xen_xs_close(w.xs);
	sample_free(&w.s);
	return 0;
}

#else /* a build without the Xen libraries has no dom0 reader */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	(void)data, (void)size;
	return 0;
}

#endif
