// SPDX-License-Identifier: GPL-2.0-or-later
/* The Xen source: runs in dom0 and reads the hypervisor directly through
 * libxenctrl (one getdomaininfolist hypercall for every domain), xenstore
 * (a domain's name, read once per domain, with bounded waits:
 * xen_xsclient.c), /proc/net/dev (vifs) and /sys/bus/xen-backend (VBDs;
 * tapdisk3's in /dev/shm). libxenstat is not used: it returns nothing
 * at all when one of its collectors fails, re-reads every name and issues a
 * hypercall per vCPU on each refresh. Here each collector fails alone and
 * blanks only its own fields, with the reason. */
#ifdef HAVE_XEN

#include "xgtop/xen/xen_guestpub.h"
#include "xgtop/core/osread.h"
#include "xgtop/xen/xen_source.h"
#include "xgtop/xen/xen_cmt.h"
#include "xgtop/xen/xen_backends.h"
#include "xgtop/xen/xen_trace_live.h"
#include "xgtop/xen/xen_version.h"
#include "xgtop/xen/xen_xsclient.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "xen_api.h"

#define CAPS_PATH "/proc/xen/capabilities"

/* What we remember of a domain between refreshes: its name is read from
 * xenstore only when (domid, handle) is new. Kept sorted by domid, like the
 * hypervisor's list, so one merge walk matches them (no array indexed by
 * domid: ids go up to 32751). */
struct dom_memo {
	uint32_t domid;
	uint8_t handle[16];
	uint32_t gen;
	bool named;         /* false: xenstore had no name yet, retry */
	char *name;
};

struct xg_source {
	const struct xg_config *cfg;
	xentoollog_logger quiet;
	struct xen_api x;            /* the Xen libraries and xch */
	struct xsc *xs;              /* xenstore */
	char hypervisor[64], sched[32], hostname[64];
	bool want_vcpus, want_net, want_disk, want_pcpus;
	xc_domaininfo_t *info;
	size_t ninfo, info_cap;
	xc_cpuinfo_t *cpuinfo;       /* per-pCPU idle time, refilled each refresh */
	size_t cpuinfo_cap;
	struct dom_memo *memo, *memo_next;
	size_t nmemo, memo_cap, memo_next_cap;
	struct xen_net_reader net;
	struct xen_vbd_reader vbd;
	struct xen_vif *vifs;
	size_t nvifs, vifs_cap;
	struct xen_vbd *vbds;
	size_t nvbds, vbds_cap;
	struct xg_cmt *cmt;          /* NULL with --nocache */
	struct xg_gpreader *gpr;     /* NULL with --nocache */
	struct xtl *trace;      /* live scheduler trace (xen_trace_live.c) */
};

/* libxenctrl logs its own failures to stderr; the open() error below says
 * it in one line instead. */
static void quiet_vmessage(struct xentoollog_logger *l, xentoollog_level lv, int e,
			   const char *ctx, const char *fmt, va_list ap)
{
	(void)l; (void)lv; (void)e; (void)ctx; (void)fmt; (void)ap;
}
static void quiet_destroy(struct xentoollog_logger *l) { (void)l; }

static bool xen_probe(void)
{
	char caps[256];
	return xg_read_at(AT_FDCWD, CAPS_PATH, caps, sizeof(caps)) >= 0 && strstr(caps, "control_d");
}

/* Why this host cannot be monitored from here, in one line, or 0. */
static int check_host(struct xg_err *err)
{
	char buf[256];
	if (xg_read_at(AT_FDCWD, CAPS_PATH, buf, sizeof(buf)) < 0) {
		char hv[32];
		if (xg_read_at(AT_FDCWD, "/sys/hypervisor/type", hv, sizeof(hv)) >= 0 && !strncmp(hv, "xen", 3))
			return xg_fail(err, "xen: %s is missing: xenfs is not mounted "
				       "(mount -t xenfs xenfs /proc/xen)", CAPS_PATH);
		return xg_fail(err, "xen: not running on Xen (no %s); use --source linux", CAPS_PATH);
	}
	if (!strstr(buf, "control_d"))
		return xg_fail(err, "xen: this is a Xen guest (domU), not dom0: run xgtop in dom0");
	if (geteuid() != 0)
		return xg_fail(err, "xen: needs root (it reads the hypervisor through "
			       "/dev/xen/privcmd): run xgtop as root in dom0");
	if (access("/dev/xen/privcmd", F_OK) && access("/proc/xen/privcmd", F_OK))
		return xg_fail(err, "xen: no privcmd device (/dev/xen/privcmd): "
			       "load the xen-privcmd module (modprobe xen-privcmd)");
	return 0;
}

static const char *sched_name(int id)
{
	switch (id) {
	case XEN_SCHEDULER_CREDIT: return "credit";
	case XEN_SCHEDULER_CREDIT2: return "credit2";
	case XEN_SCHEDULER_ARINC653: return "arinc653";
	case XEN_SCHEDULER_RTDS: return "rtds";
	case XEN_SCHEDULER_NULL: return "null";
	default: return NULL;
	}
}

/* XGTOP_XS_STATS=1: one line on stderr at exit with what reading
 * xenstore cost and the most one domain made it read (the lab's check
 * that a hostile guest's cost stays bounded). */
static void print_xs_stats(const struct xg_source *s)
{
	const char *env = getenv("XGTOP_XS_STATS");
	if (!env || !*env || *env == '0' || !s->xs)
		return;
	struct xen_xs_stats st;
	struct xen_gpr_stats g = { 0 };
	xen_xs_stats(s->xs, &st);
	if (s->gpr)
		xen_gpr_stats(s->gpr, &g);
	fprintf(stderr, "xgtop xenstore: %llu refreshes, %llu reads, %llu bytes; per refresh at most "
		"%llu reads in %.1f ms; one domain at most %llu reads and %llu bytes; largest answer "
		"%llu bytes; longest wait %.1f ms; %llu timeouts, %llu failures, %llu connects\n",
		(unsigned long long)st.refreshes, (unsigned long long)st.requests,
		(unsigned long long)st.bytes, (unsigned long long)st.max_refresh_reqs,
		(double)st.max_refresh_ns / 1e6, (unsigned long long)g.max_dom_reqs,
		(unsigned long long)g.max_dom_bytes, (unsigned long long)st.max_answer,
		(double)st.max_wait_ns / 1e6, (unsigned long long)st.timeouts,
		(unsigned long long)st.failures, (unsigned long long)st.connects);
}

static void xen_close(struct xg_source *s)
{
	if (!s)
		return;
	xen_tl_close(s->trace);    /* restores the hypervisor's trace settings */
	xen_cmt_close(s->cmt);
	xen_gpr_close(s->gpr);
	print_xs_stats(s);
	xen_xs_close(s->xs);
	if (s->x.xch)
		s->x.xc_interface_close(s->x.xch);
	xen_api_unload(&s->x);
	for (size_t i = 0; i < s->nmemo; i++)
		free(s->memo[i].name);
	free(s->memo);
	free(s->memo_next);
	free(s->info);
	free(s->cpuinfo);
	free(s->vifs);
	free(s->vbds);
	xen_net_close(&s->net);
	xen_vbd_close(&s->vbd);
	free(s);
}

/* tapdisk3's pid for a vbd3 device (xen_vbd3.c), read with the bounded
 * waits of every other xenstore read. */
static enum xen_key_rc vbd3_pid_read(void *ctx, const char *path, char *buf, size_t cap,
				    const char **why)
{
	struct xg_source *s = ctx;
	size_t len;
	switch (xen_xs_read(s->xs, path, buf, cap, &len)) {
	case XEN_XS_OK: return XEN_KEY_OK;
	case XEN_XS_ABSENT: return XEN_KEY_ABSENT;
	default: *why = xen_xs_why(s->xs); return XEN_KEY_FAIL;
	}
}

static int xen_open(struct xg_source **out, const struct xg_config *cfg, struct xg_err *err)
{
	*out = NULL;
	if (check_host(err))
		return -1;
	struct xg_source *s = xg_calloc(1, sizeof(*s));
	s->cfg = cfg;
	s->quiet.vmessage = quiet_vmessage;
	s->quiet.destroy = quiet_destroy;
	xen_net_init(&s->net, "/");
	xen_vbd_init(&s->vbd, "/");
	xen_vbd_set_xenstore(&s->vbd, vbd3_pid_read, s);
	/* Per-vCPU figures cost one hypercall per vCPU: only fetched when
	 * something can show them (-v, or the interactive screen where `v`
	 * may turn them on at any time). */
	s->want_vcpus = !cfg || cfg->vcpus || !cfg->batch;
	/* Per-pCPU idle times feed the header meters and recordings only. */
	s->want_pcpus = !cfg || !cfg->batch || cfg->record;
	s->want_net = !cfg || !cfg->nonet;
	s->want_disk = !cfg || !cfg->nodisk;
	/* libxenstore is the guest agent's: dom0 reads xenstore itself. */
	if (xen_api_load(&s->x, XEN_API_ALL & ~(1u << XEN_LIB_STORE), err)) {
		xen_close(s);
		return -1;
	}

	s->x.xch = s->x.xc_interface_open(&s->quiet, &s->quiet, 0);
	if (!s->x.xch) {
		int e = errno;
		xen_close(s);
		return xg_fail_errno(err, e, "xen: cannot open the hypervisor interface (libxenctrl)");
	}
	/* The first hypercall doubles as the check that privcmd works. The
	 * version hypercall is the same in every Xen; the domctls and sysctls
	 * that follow are not, so a hypervisor of another minor than this
	 * build's is refused here, before any of them is made. */
	long ver = s->x.xc_version(s->x.xch, XENVER_version, NULL);
	if (ver < 0) {
		int e = errno;
		xen_close(s);
		return xg_fail_errno(err, e, "xen: hypercalls through privcmd fail");
	}
	xen_extraversion_t extra;
	memset(extra, 0, sizeof(extra));
	if (s->x.xc_version(s->x.xch, XENVER_extraversion, &extra) < 0)
		extra[0] = 0;
	if (xen_ver_check_hypervisor(xen_build_soname(), ver, extra, sizeof(extra), err)) {
		xen_close(s);
		return -1;
	}
	/* xenstored's socket first; the xenbus device is the way in when
	 * xenstore runs in a stub domain. */
	s->xs = xen_xs_open(NULL, err);
	if (!s->xs) {
		xen_close(s);
		return -1;
	}
	snprintf(s->hypervisor, sizeof(s->hypervisor), "Xen %ld.%ld%.*s",
		 (ver >> 16) & 0xffff, ver & 0xffff, (int)sizeof(extra), extra);
	int sid = 0;
	const char *sn = s->x.xc_sched_id(s->x.xch, &sid) == 0 ? sched_name(sid) : NULL;
	snprintf(s->sched, sizeof(s->sched), "%s", sn ? sn : "");
	if (gethostname(s->hostname, sizeof(s->hostname) - 1))
		s->hostname[0] = 0;
	s->trace = xen_tl_open(&s->x, cfg);
	if (!cfg || !cfg->nocache) {
		s->gpr = xen_gpr_open(s->xs);
		s->cmt = xen_cmt_open_xc(&s->x, cfg && cfg->cmt_attach, err);
		if (!s->cmt) {
			xen_close(s);
			return -1;
		}
	}
	*out = s;
	return 0;
}

/* All domains, in domid order, in chunks as large as the last refresh. */
static int fetch_domains(struct xg_source *s, struct xg_err *err)
{
	s->ninfo = 0;
	uint32_t first = 0;
	for (;;) {
		if (s->info_cap - s->ninfo < 64)
			xg_grow(&s->info, &s->info_cap, s->ninfo + 64, sizeof(*s->info));
		unsigned room = (unsigned)(s->info_cap - s->ninfo);
		int got = s->x.xc_domain_getinfolist(s->x.xch, first, room, s->info + s->ninfo);
		if (got < 0)
			return xg_fail_errno(err, errno, "xen: cannot list domains (getdomaininfolist)");
		s->ninfo += (size_t)got;
		if ((unsigned)got < room || !got)
			return 0;
		first = s->info[s->ninfo - 1].domain + 1u;
	}
}

/* The toolstack writes the name and a guest may not change it; it is
 * still cut to what a sample holds, and escaped where it is shown. ok
 * false: not there yet (a domain being built), or xenstore failed: asked
 * again at the next refresh. */
static char *read_name(struct xg_source *s, uint32_t domid, bool *ok)
{
	char path[64], name[sizeof(((struct xg_dom *)0)->name)];
	size_t len = 0;
	snprintf(path, sizeof(path), "/local/domain/%u/name", domid);
	*ok = xen_xs_read(s->xs, path, name, sizeof(name), &len) == XEN_XS_OK;
	return xg_strdup(*ok ? name : "");
}

/* Matches this refresh's domains against the memo (both sorted by domid);
 * returns true when the set of domains changed. */
static bool update_memo(struct xg_source *s)
{
	bool changed = s->ninfo != s->nmemo;
	xg_grow(&s->memo_next, &s->memo_next_cap, s->ninfo, sizeof(*s->memo_next));
	size_t j = 0;
	for (size_t i = 0; i < s->ninfo; i++) {
		const xc_domaininfo_t *in = &s->info[i];
		while (j < s->nmemo && s->memo[j].domid < in->domain) {
			free(s->memo[j].name);
			j++;
			changed = true;
		}
		struct dom_memo *m = &s->memo_next[i];
		if (j < s->nmemo && s->memo[j].domid == in->domain) {
			struct dom_memo *old = &s->memo[j++];
			if (!memcmp(old->handle, in->handle, 16)) {
				*m = *old;
				if (!m->named) {
					free(m->name);
					m->name = read_name(s, m->domid, &m->named);
				}
				continue;
			}
			/* Same id, another domain: a new baseline. */
			m->gen = old->gen + 1;
			free(old->name);
			changed = true;
		} else {
			m->gen = 0;
			changed = true;
		}
		m->domid = in->domain;
		memcpy(m->handle, in->handle, 16);
		m->name = read_name(s, m->domid, &m->named);
	}
	for (; j < s->nmemo; j++) {
		free(s->memo[j].name);
		changed = true;
	}
	struct dom_memo *t = s->memo;
	size_t tc = s->memo_cap;
	s->memo = s->memo_next;
	s->memo_cap = s->memo_next_cap;
	s->memo_next = t;
	s->memo_next_cap = tc;
	s->nmemo = s->ninfo;
	return changed;
}

static uint32_t state_of(uint32_t flags)
{
	uint32_t st = 0;
	if (flags & XEN_DOMINF_dying)
		st |= XG_ST_DYING;
	if (flags & XEN_DOMINF_shutdown) {
		unsigned why = (flags >> XEN_DOMINF_shutdownshift) & XEN_DOMINF_shutdownmask;
		st |= why == SHUTDOWN_crash ? XG_ST_CRASHED : XG_ST_SHUTDOWN;
	}
	if (flags & XEN_DOMINF_paused)
		st |= XG_ST_PAUSED;
	if (flags & XEN_DOMINF_blocked)
		st |= XG_ST_BLOCKED;
	if (flags & XEN_DOMINF_running)
		st |= XG_ST_RUNNING;
	return st;
}

static void fill_vcpus(struct xg_source *s, struct xg_sample *out, struct xg_dom *d,
		       const xc_domaininfo_t *in)
{
	size_t n = (size_t)in->max_vcpu_id + 1;
	struct xg_vcpu *v = sample_add_vcpus(out, d, n);
	for (size_t k = 0; k < n; k++) {
		xc_vcpuinfo_t vi;
		v[k].id = (uint32_t)k;
		if (s->x.xc_vcpu_getinfo(s->x.xch, d->id, (uint32_t)k, &vi) == 0) {
			v[k].online = vi.online;
			v[k].cpu_ns = vi.cpu_time;
			v[k].valid = XG_VCPU_CPU_VALID;
		}
	}
}

static const enum xg_field net_fields[] = {
	XG_F_NETS, XG_F_NET_RX_BYTES, XG_F_NET_TX_BYTES, XG_F_NET_RX_PKTS, XG_F_NET_TX_PKTS,
	XG_F_NET_RX_ERRS, XG_F_NET_TX_ERRS, XG_F_NET_RX_DROP, XG_F_NET_TX_DROP,
};
static const enum xg_field disk_fields[] = {
	XG_F_VBDS, XG_F_DISK_RD_OPS, XG_F_DISK_WR_OPS, XG_F_DISK_RD_BYTES,
	XG_F_DISK_WR_BYTES, XG_F_DISK_OO,
};

static void invalid_group(struct xg_sample *out, const enum xg_field *f, size_t n, const char *why)
{
	for (size_t i = 0; i < n; i++)
		sample_invalid_all(out, f[i], why);
}

/* Starts the backend fields f[0..n), summed per domain by the caller: with
 * a reason (not wanted, unreadable) they are invalid for every domain and
 * this returns false; else they start at 0 in every domain. */
static bool group_start(struct xg_sample *out, const enum xg_field *f, size_t n, const char *why)
{
	if (why) {
		invalid_group(out, f, n, why);
		return false;
	}
	for (size_t i = 0; i < out->ndom; i++)
		for (size_t k = 0; k < n; k++)
			dom_set(&out->dom[i], f[k], 0);
	return true;
}

/* Netback counts from the backend side; the sample holds the guest's view,
 * so the backend's tx is what the guest received. */
static void collect_net(struct xg_source *s, struct xg_sample *out)
{
	struct xg_err e = { 0 };
	const char *why = !s->want_net ? "not collected (--nonet)"
			  : xen_net_read(&s->net, &s->vifs, &s->nvifs, &s->vifs_cap, &e) ? e.msg : NULL;
	if (!group_start(out, net_fields, XG_ARRAY_LEN(net_fields), why))
		return;
	for (size_t i = 0; i < s->nvifs; i++) {
		const struct xen_vif *w = &s->vifs[i];
		struct xg_dom *d = sample_find(out, w->domid);
		if (!d)
			continue;
		d->v[XG_F_NETS]++;
		d->v[XG_F_NET_RX_BYTES] += w->n.tx_bytes;
		d->v[XG_F_NET_RX_PKTS] += w->n.tx_pkts;
		d->v[XG_F_NET_RX_ERRS] += w->n.tx_errs;
		d->v[XG_F_NET_RX_DROP] += w->n.tx_drop;
		d->v[XG_F_NET_TX_BYTES] += w->n.rx_bytes;
		d->v[XG_F_NET_TX_PKTS] += w->n.rx_pkts;
		d->v[XG_F_NET_TX_ERRS] += w->n.rx_errs;
		d->v[XG_F_NET_TX_DROP] += w->n.rx_drop;
	}
}

static void collect_disk(struct xg_source *s, struct xg_sample *out)
{
	struct xg_err e = { 0 };
	const char *why = !s->want_disk ? "not collected (--nodisk)"
			  : xen_vbd_read(&s->vbd, &s->vbds, &s->nvbds, &s->vbds_cap, &e) ? e.msg : NULL;
	if (group_start(out, disk_fields, XG_ARRAY_LEN(disk_fields), why))
		xen_vbd_sum(out, s->vbds, s->nvbds);
}

/* Idle ns of every pCPU (one hypercall); Xen does not give busy time, so
 * metrics take the rest of the interval as busy. */
static void collect_pcpus(struct xg_source *s, struct xg_sample *out, const xc_physinfo_t *pi)
{
	char why[128];
	int n = 0, max = (int)pi->max_cpu_id + 1;
	xg_grow(&s->cpuinfo, &s->cpuinfo_cap, (size_t)max, sizeof(*s->cpuinfo));
	if (s->x.xc_getcpuinfo(s->x.xch, max, s->cpuinfo, &n) < 0) {
		snprintf(why, sizeof(why), "xc_getcpuinfo: %s", strerror(errno));
		out->pcpu_why = sample_reason(out, why);
		return;
	}
	struct xg_pcpu *p = n > 0 ? sample_add_pcpus(out, (size_t)n) : NULL;
	for (int i = 0; i < n; i++) {
		p[i].id = (uint32_t)i;
		p[i].ns[XG_PC_IDLE] = s->cpuinfo[i].idletime;
		p[i].valid = 1u << XG_PC_IDLE;
	}
	out->pcpu_why = sample_reason(out, "Xen gives each pCPU's idle time; busy is the rest of the interval");
}

static int xen_collect(struct xg_source *s, struct xg_sample *out, struct xg_err *err)
{
	snprintf(out->host.source, sizeof(out->host.source), "xen");
	snprintf(out->host.hypervisor, sizeof(out->host.hypervisor), "%s", s->hypervisor);
	snprintf(out->host.hostname, sizeof(out->host.hostname), "%s", s->hostname);
	snprintf(out->host.sched, sizeof(out->host.sched), "%s", s->sched);

	xc_physinfo_t pi;
	memset(&pi, 0, sizeof(pi));
	if (s->x.xc_physinfo(s->x.xch, &pi) == 0) {
		out->host.pcpus = pi.nr_cpus;
		out->host.cpu_khz = pi.cpu_khz;
		out->host.mem_total = (uint64_t)pi.total_pages * XC_PAGE_SIZE;
		out->host.mem_free = (uint64_t)pi.free_pages * XC_PAGE_SIZE;
		host_mark(&out->host, XG_H_PCPUS);
		host_mark(&out->host, XG_H_CPU_KHZ);
		host_mark(&out->host, XG_H_MEM);
		if (s->want_pcpus)
			collect_pcpus(s, out, &pi);
		else
			out->pcpu_why = sample_reason(out, "not collected: no pCPU meters in batch mode");
	} else {
		out->pcpu_why = sample_reason(out, "xc_physinfo failed: no pCPU count");
	}
	/* The instant the CPU counters belong to: taken next to the hypercall. */
	out->host.mono_ns = xg_now_mono_ns();
	out->host.real_ns = xg_now_real_ns();
	if (fetch_domains(s, err))
		return XG_COLLECT_ERROR;
	xen_xs_begin(s->xs);
	if (update_memo(s))
		xen_net_forget(&s->net);

	for (size_t i = 0; i < s->ninfo; i++) {
		const xc_domaininfo_t *in = &s->info[i];
		const struct dom_memo *m = &s->memo[i];
		struct xg_dom *d = sample_add_dom(out, in->domain);
		memcpy(d->handle, in->handle, 16);
		d->gen = m->gen;
		snprintf(d->name, sizeof(d->name), "%s", m->name);
		d->state = state_of(in->flags);
		dom_set(d, XG_F_CPU_NS, in->cpu_time);
		dom_set(d, XG_F_VCPUS, in->nr_online_vcpus);
		dom_set(d, XG_F_VCPUS_MAX, (uint64_t)in->max_vcpu_id + 1);
		dom_set(d, XG_F_MEM, in->tot_pages * XC_PAGE_SIZE);
		/* Xen keeps max_pages in an unsigned int; all ones means none. */
		bool nolimit = in->max_pages == UINT32_MAX || in->max_pages == UINT64_MAX;
		dom_set(d, XG_F_MAXMEM, nolimit ? UINT64_MAX : in->max_pages * XC_PAGE_SIZE);
		dom_set(d, XG_F_SSID, in->ssidref);
		if (s->want_vcpus)
			fill_vcpus(s, out, d, in);
	}
	collect_net(s, out);
	collect_disk(s, out);
	xen_tl_fill(s->trace, out);
	static const enum xg_field pmu_f[] = { XG_F_LLC_REF, XG_F_LLC_MISS, XG_F_INSTR, XG_F_CYCLES };
	static const enum xg_field cmt_f[] = { XG_F_L3_OCC, XG_F_MBM_TOTAL, XG_F_MBM_LOCAL };
	if (s->cmt) {
		xen_gpr_collect(s->gpr, out, out->host.mono_ns);
		xen_cmt_collect(s->cmt, out, out->host.mono_ns);
	} else {
		invalid_group(out, pmu_f, XG_ARRAY_LEN(pmu_f), "not collected (--nocache)");
		invalid_group(out, cmt_f, XG_ARRAY_LEN(cmt_f), "not collected (--nocache)");
	}
	return XG_COLLECT_OK;
}

static uint64_t xen_next_gap(struct xg_source *s)
{
	(void)s;
	return 0;
}

static void xen_set_trace(struct xg_source *s, bool on)
{
	xen_tl_set_on(s->trace, on);
}

const struct xg_source_ops source_xen_ops = {
	.name = "xen",
	.probe = xen_probe,
	.open = xen_open,
	.collect = xen_collect,
	.next_gap_ns = xen_next_gap,
	.close = xen_close,
	.set_trace = xen_set_trace,
};

#endif /* HAVE_XEN */
