// SPDX-License-Identifier: GPL-2.0-or-later
/* The in-guest agent: perf counts of the whole guest, written to the
 * guest's own xenstore data/xgtop/ in one transaction per interval. */
#include "xgtop/xen/xen_agent.h"
#include "xgtop/xen/xen_guestpub.h"
#include "xgtop/pmu/pmu.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifdef HAVE_XEN
#include "xen_api.h"

/* Pauses ns, returning early when *stop is set. */
static void pause_ns(uint64_t ns, volatile sig_atomic_t *stop)
{
	struct timespec ts = { (time_t)(ns / 1000000000u), (long)(ns % 1000000000u) };
	while (!*stop && nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/* Writes every key in one transaction, so a reader sees one publication
 * (time_ns changes with each). */
static int publish(const struct xen_api *x, const struct xg_guestpub *p, struct xg_err *err)
{
	char val[XG_GP_NKEYS][XG_GP_VAL_MAX];
	xen_gp_format(p, val);
	for (int attempt = 0; attempt < 5; attempt++) {
		xs_transaction_t t = x->xs_transaction_start(x->xsh);
		if (t == XBT_NULL)
			return xg_fail_errno(err, errno, "agent: xenstore transaction");
		bool ok = true;
		for (int k = 0; k < XG_GP_NKEYS && ok; k++) {
			char path[64];
			snprintf(path, sizeof(path), XG_GP_DIR "/%s", xen_gp_key[k]);
			if (val[k][0])
				ok = x->xs_write(x->xsh, t, path, val[k], (unsigned)strlen(val[k]));
			else
				ok = x->xs_rm(x->xsh, t, path) || errno == ENOENT;
		}
		int e = errno;
		if (!ok) {
			x->xs_transaction_end(x->xsh, t, true);
			return xg_fail_errno(err, e, "agent: cannot write " XG_GP_DIR " in this guest's "
					     "xenstore directory");
		}
		if (x->xs_transaction_end(x->xsh, t, false))
			return 0;
		if (errno != EAGAIN)
			return xg_fail_errno(err, errno, "agent: xenstore transaction end");
	}
	return xg_fail(err, "agent: xenstore transaction kept conflicting");
}

static void fill_pub(struct xg_pmu *pmu, struct xg_sample *s, struct xg_guestpub *p)
{
	sample_clear(s);
	struct xg_dom *d = sample_add_dom(s, 0);
	pmu_read(pmu, 0, s, d);
	p->time_ns = xg_now_mono_ns();
	p->have = 0;
	p->why[0] = 0;
	for (int e = 0; e < XG_PMU_EVENT_COUNT; e++) {
		if (dom_has(d, XG_F_LLC_REF + e)) {
			p->v[e] = d->v[XG_F_LLC_REF + e];
			p->have |= 1u << e;
		} else if (!p->why[0]) {
			const char *why = dom_why(s, d, XG_F_LLC_REF + e);
			snprintf(p->why, sizeof(p->why), "%s: %s", xen_gp_key[XG_GP_K_REF + e],
				 why ? why : "not counted");
		}
	}
}

/* libxenstore and this guest's xenstore. */
static int agent_connect(struct xen_api *x, struct xg_err *err)
{
	struct xg_err e = { 0 };
	if (xen_api_load(x, 1u << XEN_LIB_STORE, &e))
		return xg_fail(err, "agent: %s", e.msg);
	x->xsh = x->xs_open(0);
	if (x->xsh)
		return 0;
	int errnum = errno;
	xen_api_unload(x);
	return xg_fail_errno(err, errnum, "agent: cannot reach xenstore (not a Xen guest, or no "
			     "/dev/xen/xenbus: mount -t xenfs xenfs /proc/xen)");
}

int xen_agent_run(const struct xg_config *cfg, volatile sig_atomic_t *stop, struct xg_err *err)
{
	struct xg_pmu *pmu = pmu_open(cfg, err);
	if (!pmu)
		return -1;
	if (pmu_attach_system(pmu, 0, 0, err)) {
		char why[sizeof(err->msg)];
		snprintf(why, sizeof(why), "%s", err->msg);
		pmu_close(pmu);
		return xg_fail(err, "agent: cannot count this guest's CPUs: %s", why);
	}
	bool any = false;
	for (int e = 0; e < XG_PMU_EVENT_COUNT; e++)
		any = any || pmu_event_name(pmu, (enum xg_pmu_event)e);
	if (!any) {
		const char *why = pmu_event_why(pmu, XG_PMU_REF);
		fprintf(stderr, "xgtop agent: no event can be counted here: %s; publishing the reason "
			"only (software events work everywhere: --events page-faults,context-switches)\n",
			why ? why : "unknown reason");
	}
	struct xen_api x = { 0 };
	if (agent_connect(&x, err)) {
		pmu_close(pmu);
		return -1;
	}
	unsigned len = 0;
	char *domid = x.xs_read(x.xsh, XBT_NULL, "domid", &len);

	struct xg_guestpub p;
	memset(&p, 0, sizeof(p));
	p.epoch = xg_now_real_ns();
	p.interval_ms = (uint64_t)(cfg->delay_s * 1000 + 0.5);
	if (p.interval_ms < 10)
		p.interval_ms = 10;
	snprintf(p.events, sizeof(p.events), "%s", pmu_label(pmu));
	struct xg_sample s;
	sample_init(&s);

	int rc = 0;
	long n = 0;
	bool said = false;
	uint64_t gap = (uint64_t)(cfg->delay_s * 1e9);
	while (!*stop) {
		fill_pub(pmu, &s, &p);
		struct xg_err werr = { 0 };
		if (publish(&x, &p, &werr)) {
			/* The first write tells whether this can work at all. */
			if (!n) {
				*err = werr;
				rc = -1;
				break;
			}
			if (!said)
				fprintf(stderr, "xgtop: %s (retrying)\n", werr.msg);
			said = true;
		} else if (!n) {
			fprintf(stderr, "xgtop agent: publishing %s to /local/domain/%s/" XG_GP_DIR
				" every %.3g s\n", p.events, domid ? domid : "<self>", cfg->delay_s);
		}
		n++;
		if (cfg->iterations > 0 && n >= cfg->iterations)
			break;
		pause_ns(gap, stop);
		/* dom0 may ask every agent to stop, without a way into the guest. */
		char *req = x.xs_read(x.xsh, XBT_NULL, XG_GP_DIR "/stop", &len);
		if (req) {
			free(req);
			fprintf(stderr, "xgtop agent: stopped by dom0 (" XG_GP_DIR "/stop)\n");
			break;
		}
	}
	/* Gone, not stale: dom0 then says there is no agent. */
	x.xs_rm(x.xsh, XBT_NULL, XG_GP_DIR);
	free(domid);
	sample_free(&s);
	x.xs_close(x.xsh);
	xen_api_unload(&x);
	pmu_close(pmu);
	return rc;
}

#else

int xen_agent_run(const struct xg_config *cfg, volatile sig_atomic_t *stop, struct xg_err *err)
{
	(void)cfg;
	(void)stop;
	return xg_fail(err, "--agent: this xgtop was built without the Xen libraries "
		       "(install libxen-dev and rebuild)");
}

#endif
