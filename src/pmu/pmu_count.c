// SPDX-License-Identifier: GPL-2.0-or-later
/* Counting per domain with perf_event_open(2): one group per counting unit
 * (a CPU of a cgroup, or a thread) and per "where" slice; one read() per
 * group per refresh; interval scaling into per-domain cumulative totals. */
#include "pmu_evset.h"
#include "xgtop/core/osread.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#define PMU_MAXG 3                       /* groups per unit (where slices) */
#define PMU_SUM XG_PMU_WHERE_COUNT       /* slot of a group counting everything */
#define PMU_MAXCPU 4096

struct pmu_grp {
	int fd[XG_PMU_EVENT_COUNT];      /* [0] is the leader */
	struct xg_pmu_raw last;          /* values at the previous read, group order */
};

struct pmu_unit {
	int32_t id;                      /* CPU (cgroup domain) or tid */
	struct pmu_grp g[PMU_MAXG];
};

struct pmu_dom {
	uint64_t key;
	size_t pos;                      /* index in xg_pmu.dom */
	bool cgroup;
	unsigned flags;
	uint8_t ngrp;
	uint8_t where[PMU_MAXG];         /* slot each group counts into */
	struct pmu_unit *u;              /* tasks: sorted by tid */
	size_t nu, ucap;
	double acc[PMU_SUM + 1][XG_PMU_EVENT_COUNT];
	int err;                         /* errno of the last failed attach, 0 = none */
	uint32_t seen;                   /* xg_pmu.epoch of its last attach or read */
	char why[200];
	int lost;                        /* XG_PMU_UNKNOWN / _BACKWARDS seen in a
	                                    folded interval, 0 = none */
};

struct xg_pmu {
	struct pmu_evset set;
	int order[XG_PMU_EVENT_COUNT];   /* group member k counts event order[k] */
	int nord;
	bool breakdown;
	int *cpus;
	int ncpu;
	int paranoid;
	uint64_t nofile;
	size_t nfds;
	uint32_t epoch;                  /* bumped by pmu_sweep */
	struct pmu_dom **dom;
	size_t ndom, dom_cap;
	struct pmu_dom **slot;           /* open addressing on key, linear probing */
	size_t nslot;                    /* power of two */
	pid_t *scratch;
	size_t scratch_cap;
};

/* ---- small helpers ---- */

/* Copies with truncation (names and reasons are display text). */
static void copy_str(char *dst, size_t n, const char *src)
{
	size_t len = strnlen(src, n - 1);
	memcpy(dst, src, len);
	dst[len] = 0;
}

/* kernel.perf_event_paranoid (-1 and up), INT_MIN when unreadable. */
static int read_paranoid(void)
{
	char buf[32];
	if (xg_read_at(AT_FDCWD, "/proc/sys/kernel/perf_event_paranoid", buf, sizeof(buf)) < 0)
		return INT_MIN;
	buf[strcspn(buf, "\n")] = 0;
	bool neg = buf[0] == '-';
	uint64_t v;
	if (!xg_parse_u64(buf + neg, &v) || v > INT_MAX)
		return INT_MIN;
	return neg ? -(int)v : (int)v;
}

static long perf_open(struct perf_event_attr *a, pid_t pid, int cpu, int group, unsigned long fl)
{
	return syscall(SYS_perf_event_open, a, pid, cpu, group, fl | PERF_FLAG_FD_CLOEXEC);
}

static uint64_t mix(uint64_t k)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdull;
	k ^= k >> 33;
	return k;
}

/* ---- domain table ---- */

static struct pmu_dom *dom_find(const struct xg_pmu *p, uint64_t key)
{
	if (!p->nslot)
		return NULL;
	for (size_t i = mix(key) & (p->nslot - 1);; i = (i + 1) & (p->nslot - 1)) {
		if (!p->slot[i])
			return NULL;
		if (p->slot[i]->key == key)
			return p->slot[i];
	}
}

static void slot_put(struct xg_pmu *p, struct pmu_dom *d)
{
	size_t i = mix(d->key) & (p->nslot - 1);
	while (p->slot[i])
		i = (i + 1) & (p->nslot - 1);
	p->slot[i] = d;
}

static struct pmu_dom *dom_get(struct xg_pmu *p, uint64_t key, bool cgroup, unsigned flags)
{
	struct pmu_dom *d = dom_find(p, key);
	if (d) {
		d->seen = p->epoch;
		return d;
	}
	if ((p->ndom + 1) * 2 > p->nslot) {
		size_t n = p->nslot ? p->nslot * 2 : 64;
		free(p->slot);
		p->slot = xg_calloc(n, sizeof(*p->slot));
		p->nslot = n;
		for (size_t i = 0; i < p->ndom; i++)
			slot_put(p, p->dom[i]);
	}
	d = xg_calloc(1, sizeof(*d));
	d->key = key;
	d->seen = p->epoch;
	d->cgroup = cgroup;
	d->flags = flags;
	/* The breakdown needs the guest/host filters, which only CPU PMU
	 * events honour; software events of a VM are counted as one sum. */
	bool hw = true;
	for (int k = 0; k < p->nord; k++)
		hw = hw && p->set.ev[p->order[k]].hw;
	if (!p->breakdown || ((flags & XG_PMU_VM) && !hw)) {
		d->ngrp = 1;
		d->where[0] = PMU_SUM;
	} else if (flags & XG_PMU_VM) {
		d->ngrp = 3;
		d->where[0] = XG_PMU_GUEST_USER;
		d->where[1] = XG_PMU_GUEST_KERNEL;
		d->where[2] = XG_PMU_HOST;
	} else {
		d->ngrp = 2;
		d->where[0] = XG_PMU_GUEST_USER;
		d->where[1] = XG_PMU_HOST;
	}
	xg_grow(&p->dom, &p->dom_cap, p->ndom + 1, sizeof(*p->dom));
	d->pos = p->ndom;
	p->dom[p->ndom++] = d;
	slot_put(p, d);
	return d;
}

static void slot_remove(struct xg_pmu *p, struct pmu_dom *d)
{
	size_t mask = p->nslot - 1, i = mix(d->key) & mask;
	while (p->slot[i] != d)
		i = (i + 1) & mask;
	p->slot[i] = NULL;
	/* Backward-shift: re-seat the entries of the probe run after i. */
	for (size_t j = (i + 1) & mask; p->slot[j]; j = (j + 1) & mask) {
		struct pmu_dom *m = p->slot[j];
		p->slot[j] = NULL;
		slot_put(p, m);
	}
}

/* ---- groups ---- */

/* The attr of event ev in group slot `where`. */
static struct perf_event_attr grp_attr(const struct xg_pmu *p, int ev, int where, bool vm,
				       bool leader, bool inherit)
{
	struct perf_event_attr a = p->set.ev[ev].attr;
	a.size = sizeof(a);
	a.read_format = leader ? PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED |
					 PERF_FORMAT_TOTAL_TIME_RUNNING
			       : 0;
	a.inherit = inherit;
	switch (where) {
	case XG_PMU_GUEST_USER:
		a.exclude_user = 0;
		a.exclude_kernel = 1;
		if (vm) {
			a.exclude_host = 1;
			a.exclude_guest = 0;
		}
		break;
	case XG_PMU_GUEST_KERNEL:
		a.exclude_user = 1;
		a.exclude_kernel = 0;
		a.exclude_host = 1;
		a.exclude_guest = 0;
		break;
	case XG_PMU_HOST:
		if (vm) {
			a.exclude_guest = 1;
			a.exclude_host = 0;
		} else {
			a.exclude_user = 1;
			a.exclude_kernel = 0;
		}
		break;
	default:
		break;
	}
	return a;
}

static void grp_close(struct xg_pmu *p, struct pmu_grp *g)
{
	/* Members first, then the leader. */
	for (int k = XG_PMU_EVENT_COUNT - 1; k >= 0; k--)
		if (g->fd[k] >= 0) {
			close(g->fd[k]);
			g->fd[k] = -1;
			p->nfds--;
		}
}

/* Opens one group; returns 0, or -errno with *bad set to the event that
 * failed. */
static int grp_open(struct xg_pmu *p, struct pmu_grp *g, pid_t pid, int cpu, unsigned long fl,
		    int where, bool vm, bool inherit, int *bad)
{
	memset(g, 0, sizeof(*g));
	for (int k = 0; k < XG_PMU_EVENT_COUNT; k++)
		g->fd[k] = -1;
	for (int k = 0; k < p->nord; k++) {
		struct perf_event_attr a = grp_attr(p, p->order[k], where, vm, k == 0, inherit);
		long fd = perf_open(&a, pid, cpu, k ? g->fd[0] : -1, fl);
		if (fd < 0) {
			int e = errno;
			*bad = p->order[k];
			grp_close(p, g);
			return -e;
		}
		g->fd[k] = (int)fd;
		p->nfds++;
	}
	return 0;
}

/* Reads a group and adds the scaled interval to acc. Returns the scale
 * outcome, or -errno when read() failed. */
static int grp_read(struct xg_pmu *p, struct pmu_grp *g, double acc[XG_PMU_EVENT_COUNT])
{
	uint64_t buf[3 + XG_PMU_EVENT_COUNT];
	ssize_t want = (ssize_t)((3 + p->nord) * sizeof(uint64_t));
	ssize_t r = read(g->fd[0], buf, sizeof(buf));
	if (r < 0)
		return -errno;
	if (r != want || buf[0] != (uint64_t)p->nord)
		return -EIO;
	struct xg_pmu_raw cur = { .enabled = buf[1], .running = buf[2] };
	for (int k = 0; k < p->nord; k++)
		cur.v[k] = buf[3 + k];
	double d[XG_PMU_EVENT_COUNT];
	enum xg_pmu_scale_rc rc = pmu_scale_delta(&g->last, &cur, (unsigned)p->nord, d);
	g->last = cur;
	if (rc == XG_PMU_EXACT || rc == XG_PMU_SCALED)
		for (int k = 0; k < p->nord; k++)
			acc[p->order[k]] += d[k];
	return (int)rc;
}

static void unit_close(struct xg_pmu *p, struct pmu_dom *d, struct pmu_unit *u)
{
	for (int i = 0; i < d->ngrp; i++)
		grp_close(p, &u->g[i]);
}

/* Folds a unit's last interval into the totals before it goes away. */
static void unit_fold(struct xg_pmu *p, struct pmu_dom *d, struct pmu_unit *u)
{
	for (int i = 0; i < d->ngrp; i++) {
		int rc = grp_read(p, &u->g[i], d->acc[d->where[i]]);
		if (rc == XG_PMU_UNKNOWN || rc == XG_PMU_BACKWARDS)
			d->lost = rc;
	}
}

static void dom_fail(struct xg_pmu *p, struct pmu_dom *d, int e, int ev, struct xg_err *err)
{
	d->err = e;
	pmu_errno_why(d->why, sizeof(d->why), e, p->set.ev[ev].name, p->set.ev[ev].hw, d->cgroup,
		      p->paranoid, p->nofile);
	xg_fail(err, "%s", d->why);
}

/* Opens every group of a unit; 0, or -errno (err and d->err set, except
 * for ESRCH, a task that is already gone). */
static int unit_open(struct xg_pmu *p, struct pmu_dom *d, struct pmu_unit *u, pid_t pid, int cpu,
		     unsigned long fl, struct xg_err *err)
{
	bool vm = d->flags & XG_PMU_VM, inherit = d->flags & XG_PMU_INHERIT;
	for (int i = 0; i < d->ngrp; i++) {
		int bad = 0;
		int rc = grp_open(p, &u->g[i], pid, cpu, fl, d->where[i], vm, inherit, &bad);
		if (rc) {
			for (int j = 0; j < i; j++)
				grp_close(p, &u->g[j]);
			if (rc != -ESRCH)
				dom_fail(p, d, -rc, bad, err);
			return rc;
		}
	}
	return 0;
}

/* ---- public ---- */

static void raise_nofile(struct xg_pmu *p)
{
	struct rlimit rl;
	if (getrlimit(RLIMIT_NOFILE, &rl))
		return;
	/* Counters cost one descriptor per event per CPU or thread: take
	 * everything the hard limit allows. */
	if (rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		(void)setrlimit(RLIMIT_NOFILE, &rl);
		(void)getrlimit(RLIMIT_NOFILE, &rl);
	}
	p->nofile = rl.rlim_cur == RLIM_INFINITY ? 0 : (uint64_t)rl.rlim_cur;
}

/* Opens each event alone on this thread, then the whole group, to learn
 * what this host can count before any domain is attached. */
static void probe_events(struct xg_pmu *p)
{
	for (int ev = 0; ev < XG_PMU_EVENT_COUNT; ev++) {
		struct pmu_ev *e = &p->set.ev[ev];
		if (!e->present || e->err)
			continue;
		struct perf_event_attr a = e->attr;
		a.size = sizeof(a);
		long fd = perf_open(&a, 0, -1, -1, 0);
		if (fd < 0) {
			e->err = errno;
			pmu_errno_why(e->why, sizeof(e->why), e->err, e->name, e->hw, false, p->paranoid,
				      p->nofile);
			continue;
		}
		close((int)fd);
		p->order[p->nord++] = ev;
	}
	/* A group the PMU cannot hold at once fails as a whole: drop the
	 * last members until it fits. */
	while (p->nord > 1) {
		struct pmu_grp g;
		int bad = 0;
		int rc = grp_open(p, &g, 0, -1, 0, PMU_SUM, false, false, &bad);
		if (!rc) {
			grp_close(p, &g);
			break;
		}
		struct pmu_ev *e = &p->set.ev[bad == p->order[0] ? p->order[p->nord - 1] : bad];
		char lead[81], self[81];
		copy_str(lead, sizeof(lead), p->set.ev[p->order[0]].name);
		copy_str(self, sizeof(self), e->name);
		e->err = -rc;
		snprintf(e->why, sizeof(e->why), "event %s does not fit in one group with %s (%s): "
			 "name fewer events", self, lead, strerror(-rc));
		int n = 0;
		for (int k = 0; k < p->nord; k++)
			if (&p->set.ev[p->order[k]] != e)
				p->order[n++] = p->order[k];
		p->nord = n;
	}
}

struct xg_pmu *pmu_open(const struct xg_config *cfg, struct xg_err *err)
{
	struct xg_pmu *p = xg_calloc(1, sizeof(*p));
	char buf[4096];
	enum xg_pmu_vendor vendor = XG_VENDOR_OTHER;
	if (xg_read_at(AT_FDCWD, "/proc/cpuinfo", buf, sizeof(buf)) >= 0)
		vendor = pmu_vendor_parse(buf);
	if (pmu_events_select(&p->set, cfg ? cfg->events : NULL, vendor, err)) {
		free(p);
		return NULL;
	}
	p->breakdown = cfg && cfg->nosumcache;
	p->paranoid = read_paranoid();
	raise_nofile(p);
	p->cpus = xg_calloc(PMU_MAXCPU, sizeof(*p->cpus));
	if (xg_read_at(AT_FDCWD, "/sys/devices/system/cpu/online", buf, sizeof(buf)) < 0 ||
	    (p->ncpu = pmu_parse_cpulist(buf, p->cpus, PMU_MAXCPU)) <= 0) {
		long n = sysconf(_SC_NPROCESSORS_ONLN);
		p->ncpu = n > 0 && n <= PMU_MAXCPU ? (int)n : 1;
		for (int i = 0; i < p->ncpu; i++)
			p->cpus[i] = i;
	}
	if (!p->set.why_all[0])
		probe_events(p);
	if (!p->nord && !p->set.why_all[0]) {
		/* Nothing countable: every read says why, by the first event. */
		for (int ev = 0; ev < XG_PMU_EVENT_COUNT; ev++)
			if (p->set.ev[ev].present) {
				copy_str(p->set.why_all, sizeof(p->set.why_all), p->set.ev[ev].why);
				break;
			}
	}
	return p;
}

static void detach(struct xg_pmu *p, uint64_t key);

void pmu_close(struct xg_pmu *p)
{
	if (!p)
		return;
	while (p->ndom)
		detach(p, p->dom[p->ndom - 1]->key);
	free(p->dom);
	free(p->slot);
	free(p->cpus);
	free(p->scratch);
	free(p);
}

static void dom_reset_units(struct xg_pmu *p, struct pmu_dom *d)
{
	for (size_t i = 0; i < d->nu; i++)
		unit_close(p, d, &d->u[i]);
	d->nu = 0;
}

/* Forgets the domain: closes its counters, drops its totals. */
static void detach(struct xg_pmu *p, uint64_t key)
{
	struct pmu_dom *d = dom_find(p, key);
	if (!d)
		return;
	dom_reset_units(p, d);
	free(d->u);
	slot_remove(p, d);
	p->dom[d->pos] = p->dom[--p->ndom];
	p->dom[d->pos]->pos = d->pos;
	free(d);
}

/* Counts on every online CPU: pid = a cgroup directory fd with
 * PERF_FLAG_PID_CGROUP, or -1 for everything that runs there. */
static int attach_cpuwide(struct xg_pmu *p, uint64_t key, int pid, unsigned long fl,
			  unsigned flags, struct xg_err *err)
{
	struct pmu_dom *d = dom_get(p, key, true, flags & ~XG_PMU_INHERIT);
	if (!d->cgroup)
		return xg_fail(err, "domain %llu is counted by tasks, not by cgroup",
			       (unsigned long long)key);
	if (!p->nord)
		return 0;
	if (d->nu == (size_t)p->ncpu && !d->err)
		return 0;
	/* A half-attached cgroup would undercount: start over. */
	dom_reset_units(p, d);
	d->err = 0;
	xg_grow(&d->u, &d->ucap, (size_t)p->ncpu, sizeof(*d->u));
	for (int c = 0; c < p->ncpu; c++) {
		struct pmu_unit *u = &d->u[d->nu];
		u->id = p->cpus[c];
		int rc = unit_open(p, d, u, pid, p->cpus[c], fl, err);
		if (rc) {
			if (rc == -ESRCH)
				dom_fail(p, d, ESRCH, p->order[0], err);
			dom_reset_units(p, d);
			return -1;
		}
		d->nu++;
	}
	return 0;
}

int pmu_attach_cgroup(struct xg_pmu *p, uint64_t key, int dir_fd, unsigned flags,
		      struct xg_err *err)
{
	return attach_cpuwide(p, key, dir_fd, PERF_FLAG_PID_CGROUP, flags, err);
}

int pmu_attach_system(struct xg_pmu *p, uint64_t key, unsigned flags, struct xg_err *err)
{
	return attach_cpuwide(p, key, -1, 0, flags, err);
}

/* Errors that a later attempt may not repeat (descriptors freed, another
 * tool gone); the others (permissions, no PMU) would fail every refresh. */
static bool transient(int e)
{
	return e == EMFILE || e == ENFILE || e == EBUSY || e == ENOSPC || e == EAGAIN ||
	       e == EINTR || e == ENOMEM;
}

int pmu_attach_cgroup_at(struct xg_pmu *p, uint64_t key, int root_fd, const char *rel,
			 unsigned flags, struct xg_err *err)
{
	struct pmu_dom *d = dom_find(p, key);
	if (d) {
		d->seen = p->epoch;
		if (d->cgroup && d->err && !transient(d->err))
			return xg_fail(err, "%s", d->why);
		if (d->cgroup && !d->err && (d->nu == (size_t)p->ncpu || !p->nord))
			return 0;
	}
	int fd = openat(root_fd, rel && *rel ? rel : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		int e = errno;
		d = dom_get(p, key, true, flags);
		d->err = e;
		snprintf(d->why, sizeof(d->why), "cannot open cgroup %.120s: %s", rel && *rel ? rel : ".",
			 strerror(e));
		return xg_fail(err, "%s", d->why);
	}
	int rc = pmu_attach_cgroup(p, key, fd, flags, err);
	close(fd);
	return rc;
}

static bool unit_below(const void *elem, const void *key)
{
	return ((const struct pmu_unit *)elem)->id < *(const pid_t *)key;
}

static ssize_t unit_find(const struct pmu_dom *d, pid_t tid, size_t *ins)
{
	size_t i = xg_lower_bound(d->u, d->nu, sizeof(*d->u), &tid, unit_below);
	*ins = i;
	return i < d->nu && d->u[i].id == tid ? (ssize_t)i : -1;
}

/* Counts one thread for domain key (no-op when already counted). A thread
 * that exited before the call is not an error (returns 0, nothing added). */
static int attach_task(struct xg_pmu *p, uint64_t key, pid_t tid, unsigned flags, struct xg_err *err)
{
	struct pmu_dom *d = dom_get(p, key, false, flags);
	if (d->cgroup)
		return xg_fail(err, "domain %llu is counted by cgroup, not by tasks",
			       (unsigned long long)key);
	size_t at;
	if (!p->nord || unit_find(d, tid, &at) >= 0)
		return 0;
	struct pmu_unit u;
	int rc = unit_open(p, d, &u, tid, -1, 0, err);
	if (rc == -ESRCH)
		return 0;
	if (rc)
		return -1;
	u.id = tid;
	xg_grow(&d->u, &d->ucap, d->nu + 1, sizeof(*d->u));
	memmove(&d->u[at + 1], &d->u[at], (d->nu - at) * sizeof(*d->u));
	d->u[at] = u;
	d->nu++;
	return 0;
}

static int cmp_pid(const void *a, const void *b)
{
	pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;
	return (x > y) - (x < y);
}

int pmu_sync_tasks(struct xg_pmu *p, uint64_t key, const pid_t *tids, size_t n, unsigned flags,
		   struct xg_err *err)
{
	struct pmu_dom *d = dom_get(p, key, false, flags);
	if (d->cgroup)
		return xg_fail(err, "domain %llu is counted by cgroup, not by tasks",
			       (unsigned long long)key);
	if (!p->nord)
		return 0;
	xg_grow(&p->scratch, &p->scratch_cap, n, sizeof(*p->scratch));
	if (n) {
		memcpy(p->scratch, tids, n * sizeof(*tids));
		qsort(p->scratch, n, sizeof(*p->scratch), cmp_pid);
	}
	/* Threads that left: fold their last counts, close them. */
	size_t j = 0, keep = 0;
	for (size_t i = 0; i < d->nu; i++) {
		while (j < n && p->scratch[j] < d->u[i].id)
			j++;
		if (j < n && p->scratch[j] == d->u[i].id) {
			d->u[keep++] = d->u[i];
		} else {
			unit_fold(p, d, &d->u[i]);
			unit_close(p, d, &d->u[i]);
		}
	}
	d->nu = keep;
	/* Threads that came: any failure leaves the domain short of a
	 * thread, which pmu_read reports until a later sync succeeds. */
	int rc = 0, first_err = 0;
	for (size_t i = 0; i < n; i++) {
		if (i && p->scratch[i] == p->scratch[i - 1])
			continue;
		struct xg_err e1;
		if (attach_task(p, key, p->scratch[i], flags, &e1) && !first_err) {
			first_err = d->err ? d->err : EIO;
			if (err)
				*err = e1;
			rc = -1;
		}
	}
	if (!first_err)
		d->err = 0;
	return rc;
}

void pmu_sweep(struct xg_pmu *p)
{
	for (size_t i = p->ndom; i-- > 0;)
		if (p->dom[i]->seen != p->epoch)
			detach(p, p->dom[i]->key);
	p->epoch++;
}

static void invalid_all(struct xg_sample *s, struct xg_dom *d, const struct xg_pmu *p,
			const char *why)
{
	for (int ev = 0; ev < XG_PMU_EVENT_COUNT; ev++)
		dom_invalid(s, d, XG_F_LLC_REF + ev,
			    p->set.ev[ev].why[0] && !p->set.ev[ev].present ? p->set.ev[ev].why : why);
	d->pmu_valid = 0;
}

void pmu_read(struct xg_pmu *p, uint64_t key, struct xg_sample *s, struct xg_dom *d)
{
	if (p->set.why_all[0] || !p->nord) {
		invalid_all(s, d, p, p->set.why_all[0] ? p->set.why_all : "no event can be counted");
		return;
	}
	struct pmu_dom *pd = dom_find(p, key);
	if (!pd) {
		invalid_all(s, d, p, "not counted: domain not attached to the PMU counters");
		return;
	}
	pd->seen = p->epoch;
	int lost = pd->lost, rerr = 0;
	pd->lost = 0;
	for (size_t i = 0; i < pd->nu; i++)
		for (int g = 0; g < pd->ngrp; g++) {
			int rc = grp_read(p, &pd->u[i].g[g], pd->acc[pd->where[g]]);
			if (rc < 0 && !rerr)
				rerr = -rc;
			else if (rc == XG_PMU_UNKNOWN || (rc == XG_PMU_BACKWARDS && !lost))
				lost = rc;
		}
	/* A lost interval leaves the totals short: this sample is invalid, and
	 * metrics never subtracts across an invalid sample. */
	char why[200];
	const char *bad = NULL;
	if (pd->err)
		bad = pd->why;
	else if (rerr) {
		snprintf(why, sizeof(why), "reading the counters failed: %s (errno %d)", strerror(rerr),
			 rerr);
		bad = why;
	} else if (lost) {
		bad = pmu_interval_why(lost);
	}
	if (bad) {
		invalid_all(s, d, p, bad);
		return;
	}
	d->pmu_valid = 0;
	for (int ev = 0; ev < XG_PMU_EVENT_COUNT; ev++) {
		const struct pmu_ev *e = &p->set.ev[ev];
		bool counted = false;
		for (int k = 0; k < p->nord; k++)
			counted = counted || p->order[k] == ev;
		if (!counted) {
			dom_invalid(s, d, XG_F_LLC_REF + ev, e->why[0] ? e->why : "not counted");
			continue;
		}
		double sum = 0;
		for (int g = 0; g < pd->ngrp; g++) {
			int w = pd->where[g];
			sum += pd->acc[w][ev];
			if (w != PMU_SUM)
				dom_set_pmu(d, (enum xg_pmu_where)w, (enum xg_pmu_event)ev,
					    (uint64_t)llround(pd->acc[w][ev]));
		}
		dom_set(d, XG_F_LLC_REF + ev, (uint64_t)llround(sum));
	}
}

const char *pmu_label(const struct xg_pmu *p) { return p->set.label; }

const char *pmu_event_name(const struct xg_pmu *p, enum xg_pmu_event ev)
{
	for (int k = 0; k < p->nord; k++)
		if (p->order[k] == (int)ev)
			return p->set.ev[ev].name;
	return NULL;
}

const char *pmu_event_why(const struct xg_pmu *p, enum xg_pmu_event ev)
{
	if (pmu_event_name(p, ev))
		return NULL;
	const struct pmu_ev *e = &p->set.ev[ev];
	return e->why[0] ? e->why : p->set.why_all[0] ? p->set.why_all : "not counted";
}

size_t pmu_nfds(const struct xg_pmu *p) { return p->nfds; }
