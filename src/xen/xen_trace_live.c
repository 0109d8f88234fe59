// SPDX-License-Identifier: GPL-2.0-or-later
/* Live consumer of the Xen trace buffers (see xen_trace_live.h and
 * doc/trace-live.md). Sequence as xentrace's: masks, enable, map t_info
 * and each pCPU's buffer, bind VIRQ_TBUF, then per poll copy nothing:
 * decode [cons, prod) in place and publish cons = prod. */
#ifdef HAVE_XEN

#include "xgtop/xen/xen_trace_live.h"
#include "xgtop/xen/xen_rundir.h"
#include "xgtop/trace/xentrace_account.h"
#include "xgtop/trace/xentrace_waitsum.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "xen_api.h"
#include <xen/trace.h>
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define XEN_TL_HAVE_TSC 1
#endif

#define XEN_TL_PAGES 32              /* per pCPU, xentrace's default */
#define XEN_TL_POLL_MS 100
#define XEN_TL_MASK TRC_SCHED_MIN    /* runstate changes + continue-running */
/* Where a monitor that died without restoring (SIGKILL) left the settings
 * it had changed; the next start puts them back. */
#define XEN_TL_STATE_FILE XG_RUN_DIR "/trace.state"

enum xen_tl_mode { XEN_TL_OFF, XEN_TL_ACTIVE, XEN_TL_UNAVAILABLE };

struct xen_tl_cpu {
	uint32_t id;
	struct t_buf *meta;       /* cons, prod, then data_size bytes of records */
	uint8_t *data;
};

struct xtl {
	const struct xen_api *x;  /* NULL: rings in memory (xen_tl_open_mem) */
	const struct xg_config *cfg;
	bool notrace;
	bool want_on;
	enum xen_tl_mode mode;
	char why[160];

	xenforeignmemory_handle *fmem;
	xenevtchn_handle *xce;
	int port;                 /* bound VIRQ_TBUF port, -1 none */
	void *tinfo;
	size_t tinfo_pages;
	struct xen_tl_cpu *cpu;
	size_t ncpu;
	unsigned tbuf_pages;
	uint32_t data_size;

	/* what to put back */
	bool mask_changed, we_enabled, state_file, restored;
	uint32_t saved_mask;

	/* poll thread */
	pthread_mutex_t lock;     /* decoder, merger, accounting, buffers */
	pthread_t thr;
	bool thr_running;
	int stop_pipe[2];

	struct xt_decoder dec;
	struct xt_events ev;
	struct xt_acct acct;
	struct xt_dom_waits waits;  /* one domain's interval, reused */
	bool xt_ready;
	bool waits_on;            /* wait attribution and latency kept */
	/* Each domain's running wait totals, by domid: the sample's
	 * cumulative wait counters (a restarted domain starts again). */
	struct xtl_wsum {
		struct xg_dom_ident ident;
		bool used;
		uint64_t seen;        /* the fill that last took it */
		struct xg_waitsum s;
	} *wsum;
	size_t nwsum, cwsum;
	uint64_t fills;
	double hz;
	uint64_t upto;            /* TSC everything is accounted to */
	bool tsc_foreign;         /* dom0's TSC is not Xen's: use record time */

	struct xen_tl_stats st;
	uint64_t start_mono;
	uint64_t decode_errors, corrupt;
};

/* Process-wide state, as an exit handler needs it (src/README.md lists
 * every such piece): live sessions, so an exit() that skips the source's
 * close still restores the hypervisor's (equally process-independent)
 * trace settings. */
static pthread_mutex_t reg_lock = PTHREAD_MUTEX_INITIALIZER;
static struct xtl *reg[4];
static bool reg_hooked;

static void restore(struct xtl *t);

static void restore_all(void)
{
	pthread_mutex_lock(&reg_lock);
	for (size_t i = 0; i < XG_ARRAY_LEN(reg); i++)
		if (reg[i])
			restore(reg[i]);
	pthread_mutex_unlock(&reg_lock);
}

static void reg_set(struct xtl *t, bool add)
{
	pthread_mutex_lock(&reg_lock);
	if (add && !reg_hooked)
		reg_hooked = atexit(restore_all) == 0;
	for (size_t i = 0; i < XG_ARRAY_LEN(reg); i++) {
		if (add && !reg[i]) {
			reg[i] = t;
			break;
		}
		if (!add && reg[i] == t)
			reg[i] = NULL;
	}
	pthread_mutex_unlock(&reg_lock);
}

static uint64_t thread_cpu_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static uint64_t read_tsc(void)
{
#ifdef XEN_TL_HAVE_TSC
	_mm_lfence();
	return __rdtsc();
#else
	return 0;
#endif
}

static void set_unavailable(struct xtl *t, const char *fmt, ...) XG_PRINTF(2, 3);
static void set_unavailable(struct xtl *t, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(t->why, sizeof(t->why), fmt, ap);
	va_end(ap);
	t->mode = XEN_TL_UNAVAILABLE;
}

/* ---- state file (recovery after SIGKILL) ------------------------------ */

static void state_write(struct xtl *t)
{
	char buf[96];
	int n = snprintf(buf, sizeof(buf), "%ld %#x %d %d\n", (long)getpid(), t->saved_mask,
			 t->mask_changed, t->we_enabled);
	int fd = xen_rundir_make(XG_RUN_DIR) ?
		 open(XEN_TL_STATE_FILE ".tmp", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600) : -1;
	if (fd < 0)
		return;
	bool ok = write(fd, buf, (size_t)n) == n;
	close(fd);
	if (ok && rename(XEN_TL_STATE_FILE ".tmp", XEN_TL_STATE_FILE) == 0)
		t->state_file = true;
	else
		unlink(XEN_TL_STATE_FILE ".tmp");
}

/* Called with the VIRQ bound by us, so no other live consumer exists: a
 * state file whose writer is gone describes settings nobody restored.
 * True when it disabled the tracing that writer had enabled (what is left
 * in the buffers is then that writer's, not a sign of someone tracing). */
static bool state_recover(struct xtl *t)
{
	FILE *f = fopen(XEN_TL_STATE_FILE, "re");
	if (!f)
		return false;
	long pid = 0;
	unsigned mask = 0;
	int changed = 0, enabled = 0;
	int n = fscanf(f, "%ld %x %d %d", &pid, &mask, &changed, &enabled);
	fclose(f);
	if (n == 4 && !xen_rundir_owner_gone(pid))
		return false;   /* its writer still runs (in another pid namespace?) */
	bool disabled = false;
	if (n == 4) {
		if (changed)
			t->x->xc_tbuf_set_evt_mask(t->x->xch, (uint32_t)mask);
		if (enabled)
			disabled = t->x->xc_tbuf_disable(t->x->xch) == 0;
	}
	unlink(XEN_TL_STATE_FILE);
	return disabled;
}

/* ---- setup and teardown ----------------------------------------------- */

static int tbuf_info(const struct xen_api *x, uint32_t *mask, uint64_t *mfn, uint32_t *size)
{
	struct xen_sysctl sc;
	memset(&sc, 0, sizeof(sc));
	sc.cmd = XEN_SYSCTL_tbuf_op;
	sc.interface_version = XEN_SYSCTL_INTERFACE_VERSION;
	sc.u.tbuf_op.cmd = XEN_SYSCTL_TBUFOP_get_info;
	if (x->xc_sysctl(x->xch, &sc))
		return -1;
	*mask = sc.u.tbuf_op.evt_mask;
	*mfn = sc.u.tbuf_op.buffer_mfn;
	*size = sc.u.tbuf_op.size;
	return 0;
}

static void unmap_all(struct xtl *t)
{
	for (size_t i = 0; i < t->ncpu; i++)
		if (t->cpu[i].meta)
			t->x->xenforeignmemory_unmap(t->fmem, t->cpu[i].meta, t->tbuf_pages);
	free(t->cpu);
	t->cpu = NULL;
	t->ncpu = 0;
	if (t->tinfo)
		t->x->xenforeignmemory_unmap(t->fmem, t->tinfo, t->tinfo_pages);
	t->tinfo = NULL;
}

/* Maps t_info (read-only) and every pCPU buffer (writable: we publish cons). */
static int map_buffers(struct xtl *t, uint64_t mfn, uint32_t size, uint32_t max_cpu)
{
	t->tinfo_pages = (size + XC_PAGE_SIZE - 1) / XC_PAGE_SIZE;
	xen_pfn_t *pfn = xg_calloc(t->tinfo_pages, sizeof(*pfn));
	for (size_t i = 0; i < t->tinfo_pages; i++)
		pfn[i] = (xen_pfn_t)(mfn + i);
	t->tinfo = t->x->xenforeignmemory_map(t->fmem, DOMID_XEN, PROT_READ, t->tinfo_pages, pfn, NULL);
	free(pfn);
	if (!t->tinfo) {
		set_unavailable(t, "cannot map the trace buffer index (t_info): %s", strerror(errno));
		return -1;
	}
	const struct t_info *ti = t->tinfo;
	const uint32_t *words = t->tinfo;
	size_t nwords = t->tinfo_pages * XC_PAGE_SIZE / 4;
	t->tbuf_pages = ti->tbuf_size;
	if (!t->tbuf_pages) {
		set_unavailable(t, "trace buffers not available: size 0 (Xen booted without tbuf_size "
				"and allocation failed)");
		return -1;
	}
	t->data_size = (uint32_t)(t->tbuf_pages * XC_PAGE_SIZE - sizeof(struct t_buf));
	t->cpu = xg_calloc((size_t)max_cpu + 1, sizeof(*t->cpu));
	pfn = xg_calloc(t->tbuf_pages, sizeof(*pfn));
	/* u16 size, then one u16 offset (in u32 words) per pCPU */
	if ((size_t)max_cpu + 2 > nwords * 2)
		max_cpu = (uint32_t)(nwords * 2 - 2);
	for (uint32_t c = 0; c <= max_cpu; c++) {
		uint16_t off = ti->mfn_offset[c];
		if (!off)
			continue;   /* no buffer: the pCPU was offline at allocation */
		if ((size_t)off + t->tbuf_pages > nwords)
			continue;
		for (unsigned j = 0; j < t->tbuf_pages; j++)
			pfn[j] = words[off + j];
		void *m = t->x->xenforeignmemory_map(t->fmem, DOMID_XEN, PROT_READ | PROT_WRITE,
					       t->tbuf_pages, pfn, NULL);
		if (!m) {
			int e = errno;
			free(pfn);
			set_unavailable(t, "cannot map pCPU %u's trace buffer: %s", c, strerror(e));
			return -1;
		}
		struct xen_tl_cpu *x = &t->cpu[t->ncpu++];
		x->id = c;
		x->meta = m;
		x->data = (uint8_t *)(x->meta + 1);
	}
	free(pfn);
	if (!t->ncpu) {
		set_unavailable(t, "no pCPU has a trace buffer");
		return -1;
	}
	return 0;
}

/* Anything written and not consumed, or written within 20 ms, means the
 * hypervisor was tracing before we came. */
static bool buffers_active(struct xtl *t)
{
	uint32_t *prod = xg_calloc(t->ncpu, sizeof(*prod));
	bool active = false;
	for (size_t i = 0; i < t->ncpu; i++) {
		prod[i] = __atomic_load_n(&t->cpu[i].meta->prod, __ATOMIC_ACQUIRE);
		active |= prod[i] != __atomic_load_n(&t->cpu[i].meta->cons, __ATOMIC_ACQUIRE);
	}
	if (!active) {
		struct timespec ts = { 0, 20 * 1000000 };
		nanosleep(&ts, NULL);
		for (size_t i = 0; i < t->ncpu; i++)
			active |= prod[i] != __atomic_load_n(&t->cpu[i].meta->prod, __ATOMIC_ACQUIRE);
	}
	free(prod);
	return active;
}

static const char *perm_or(int e, const char *other)
{
	return e == EPERM || e == EACCES ? "permission denied" : other;
}

/* Stops the thread, puts the hypervisor's settings back, unmaps. */
static void restore(struct xtl *t)
{
	if (t->thr_running) {
		char c = 0;
		if (write(t->stop_pipe[1], &c, 1) < 0) { /* the thread also polls its flag */ }
		pthread_join(t->thr, NULL);
		t->thr_running = false;
	}
	if (t->restored)
		return;
	t->restored = true;
	if (t->mask_changed)
		t->x->xc_tbuf_set_evt_mask(t->x->xch, t->saved_mask);
	if (t->we_enabled) {
		t->x->xc_tbuf_disable(t->x->xch);
		/* Xen writes nothing more: leave the buffers empty, as
		 * xentrace's last pass does, not full of our records. */
		for (size_t i = 0; i < t->ncpu; i++) {
			uint32_t prod = __atomic_load_n(&t->cpu[i].meta->prod, __ATOMIC_ACQUIRE);
			__atomic_store_n(&t->cpu[i].meta->cons, prod, __ATOMIC_RELEASE);
		}
	}
	t->mask_changed = t->we_enabled = false;
	if (t->state_file)
		unlink(XEN_TL_STATE_FILE);
	t->state_file = false;
}

static void teardown(struct xtl *t)
{
	restore(t);
	reg_set(t, false);
	if (t->xce) {
		if (t->port >= 0)
			t->x->xenevtchn_unbind(t->xce, (evtchn_port_t)t->port);
		t->x->xenevtchn_close(t->xce);
	}
	t->xce = NULL;
	t->port = -1;
	if (t->fmem) {
		unmap_all(t);
		t->x->xenforeignmemory_close(t->fmem);
	}
	t->fmem = NULL;
	free(t->cpu);    /* in-memory rings (xen_tl_open_mem) */
	t->cpu = NULL;
	t->ncpu = 0;
	for (int i = 0; i < 2; i++)
		if (t->stop_pipe[i] >= 0)
			close(t->stop_pipe[i]);
	t->stop_pipe[0] = t->stop_pipe[1] = -1;
	if (t->xt_ready) {
		xt_decoder_free(&t->dec);
		xt_events_free(&t->ev);
		xt_acct_free(&t->acct);
		xt_dom_waits_free(&t->waits);
	}
	for (size_t i = 0; i < t->nwsum; i++)
		waitsum_free(&t->wsum[i].s);
	free(t->wsum);
	t->wsum = NULL;
	t->nwsum = t->cwsum = 0;
	t->xt_ready = false;
}

/* Live tracing cannot go on: set_unavailable() (or map_buffers) has put
 * the reason in t->why, which teardown leaves alone. */
static void give_up(struct xtl *t)
{
	teardown(t);
	t->mode = XEN_TL_UNAVAILABLE;
}

static void account_ev(void *ctx, const struct xt_ev *ev)
{
	xt_acct_event(ctx, ev);
}

/* One pass over every buffer, lock held: decode [cons, prod) in place,
 * hand the space back, account what all buffers have been read up to. */
static void poll_once(struct xtl *t)
{
	uint64_t before = read_tsc();
	uint64_t t0 = thread_cpu_ns();
	uint64_t newest = 0;
	struct xg_err err;
	for (size_t i = 0; i < t->ncpu; i++) {
		struct xen_tl_cpu *c = &t->cpu[i];
		uint32_t cons = __atomic_load_n(&c->meta->cons, __ATOMIC_RELAXED);
		uint32_t prod = __atomic_load_n(&c->meta->prod, __ATOMIC_ACQUIRE);
		uint32_t ds = t->data_size;
		if (cons == prod)
			continue;
		uint32_t win = prod >= cons ? prod - cons : prod + 2 * ds - cons;
		if (cons >= 2 * ds || prod >= 2 * ds || win > ds) {
			t->corrupt++;    /* not Xen's ring as we know it: leave it alone */
			continue;
		}
		uint32_t start = cons % ds, end = prod % ds;
		size_t first = end > start ? end - start : ds - start;
		if (xt_decode_raw(&t->dec, c->id, c->data + start, first, &err))
			t->decode_errors++;
		else if (end <= start && end && xt_decode_raw(&t->dec, c->id, c->data, end, &err))
			t->decode_errors++;
		t->st.bytes += win;
		__atomic_thread_fence(__ATOMIC_SEQ_CST);
		__atomic_store_n(&c->meta->cons, prod, __ATOMIC_RELEASE);
		if (c->id < t->ev.nq && t->ev.q[c->id].last_tsc > newest)
			newest = t->ev.q[c->id].last_tsc;
	}
	/* Records stamped before `before` have all been written by now, but
	 * for one another pCPU may be still writing: 100 us of margin. */
	uint64_t upto = before > (uint64_t)(t->hz / 1e4) ? before - (uint64_t)(t->hz / 1e4) : 0;
	if (!before || (newest && newest > upto + (uint64_t)(2 * t->hz)))
		t->tsc_foreign = true;   /* records from the "future": not Xen's clock */
	if (t->tsc_foreign)
		upto = newest;
	if (upto > t->upto)
		t->upto = upto;
	xt_events_drain(&t->ev, t->upto, account_ev, &t->acct);
	t->st.records = t->dec.records;
	t->st.lost_records = t->ev.lost_records;
	t->st.polls++;
	t->st.cpu_ns += thread_cpu_ns() - t0;
}

static void *poll_thread(void *arg)
{
	struct xtl *t = arg;
	struct pollfd pf[2] = {
		{ .fd = t->stop_pipe[0], .events = POLLIN },
		{ .fd = t->xce ? t->x->xenevtchn_fd(t->xce) : -1, .events = POLLIN },
	};
	for (;;) {
		int n = poll(pf, 2, XEN_TL_POLL_MS);
		if (n > 0 && (pf[0].revents & (POLLIN | POLLHUP)))
			break;
		if (n > 0 && (pf[1].revents & POLLIN)) {
			/* Xen said a buffer is half full: acknowledge, then read. */
			xenevtchn_port_or_error_t p = t->x->xenevtchn_pending(t->xce);
			if (p >= 0)
				t->x->xenevtchn_unmask(t->xce, (evtchn_port_t)p);
		}
		pthread_mutex_lock(&t->lock);
		poll_once(t);
		pthread_mutex_unlock(&t->lock);
	}
	return NULL;
}

/* Xen's TSC rate, which stamps the records, and its highest pCPU id. */
static int host_tsc(struct xtl *t, uint32_t *max_cpu)
{
	xc_physinfo_t pi;
	memset(&pi, 0, sizeof(pi));
	if (t->x->xc_physinfo(t->x->xch, &pi)) {
		set_unavailable(t, "xc_physinfo: %s", strerror(errno));
		return -1;
	}
	if (!pi.cpu_khz) {
		set_unavailable(t, "the hypervisor does not report its TSC rate (cpu_khz)");
		return -1;
	}
	t->hz = (double)pi.cpu_khz * 1000.0;
	*max_cpu = pi.max_cpu_id;
	return 0;
}

/* The VIRQ is the lock between consumers: only one may bind it. */
static int claim_virq(struct xtl *t)
{
	t->xce = t->x->xenevtchn_open(NULL, 0);
	if (!t->xce) {
		int e = errno;
		set_unavailable(t, "cannot open /dev/xen/evtchn: %s%s", strerror(e),
				e == ENOENT ? " (modprobe xen-evtchn)" : "");
		return -1;
	}
	xenevtchn_port_or_error_t port = t->x->xenevtchn_bind_virq(t->xce, VIRQ_TBUF);
	if (port < 0) {
		int e = errno;
		if (e == EEXIST)
			set_unavailable(t, "trace buffers in use by another consumer (xentrace?)");
		else
			set_unavailable(t, "cannot bind the trace VIRQ: %s", strerror(e));
		return -1;
	}
	t->port = port;
	return 0;
}

/* Masks before enabling, as xentrace does (mask: Xen's event mask now;
 * allocated: Xen has buffers already). The CPU mask cannot be read back
 * from Xen; all pCPUs is its boot default. */
static int enable_tracing(struct xtl *t, uint32_t mask, bool allocated)
{
	if (mask != XEN_TL_MASK) {
		if (t->x->xc_tbuf_set_evt_mask(t->x->xch, XEN_TL_MASK)) {
			int e = errno;
			set_unavailable(t, "xc_tbuf_set_evt_mask: %s", perm_or(e, strerror(e)));
			return -1;
		}
		t->mask_changed = true;
	}
	xc_cpumap_t all = t->x->xc_cpumap_alloc(t->x->xch);
	if (all) {
		int nb = t->x->xc_get_max_cpus(t->x->xch);
		for (int b = 0; b < nb; b++)
			all[b / 8] |= (uint8_t)(1u << (b % 8));
		t->x->xc_tbuf_set_cpu_mask(t->x->xch, all);
		free(all);
	}
	unsigned long tmfn = 0, tsize = 0;
	if (!t->x->xc_tbuf_enable(t->x->xch, XEN_TL_PAGES, &tmfn, &tsize))
		return 0;
	int e = errno;
	if (e == EPERM || e == EACCES)
		set_unavailable(t, "xc_tbuf_enable: permission denied");
	else if (!allocated)
		set_unavailable(t, "trace buffers not available: Xen booted without tbuf_size "
				"and allocation failed (%s)", strerror(e));
	else
		set_unavailable(t, "xc_tbuf_enable: %s", strerror(e));
	return -1;
}

/* Enables tracing with our event mask and maps every pCPU's buffer,
 * noting what to put back (and in the state file). */
static int take_buffers(struct xtl *t, uint32_t max_cpu)
{
	bool recovered = state_recover(t);
	uint32_t mask = 0, size = 0;
	uint64_t mfn = 0;
	if (tbuf_info(t->x, &mask, &mfn, &size)) {
		int e = errno;
		set_unavailable(t, "reading the trace buffer settings: %s", perm_or(e, strerror(e)));
		return -1;
	}
	t->saved_mask = mask;
	t->fmem = t->x->xenforeignmemory_open(NULL, 0);
	if (!t->fmem) {
		set_unavailable(t, "cannot open foreign memory mapping: %s", strerror(errno));
		return -1;
	}
	bool was_tracing = false;
	if (mfn) {
		/* Allocated earlier (boot tbuf_size=, or an earlier tracer): was
		 * anyone tracing? Map first to look. */
		if (map_buffers(t, mfn, size, max_cpu))
			return -1;
		was_tracing = !recovered && buffers_active(t);
	}
	if (enable_tracing(t, mask, mfn != 0))
		return -1;
	t->we_enabled = !was_tracing;
	reg_set(t, true);
	state_write(t);
	if (mfn)
		return 0;
	/* xc_tbuf_enable returns 0 even when get_info failed: ask again. */
	if (tbuf_info(t->x, &mask, &mfn, &size) || !mfn) {
		set_unavailable(t, "trace buffers not available after enabling them");
		return -1;
	}
	return map_buffers(t, mfn, size, max_cpu);
}

static void start_session(struct xtl *t);

static void setup(struct xtl *t)
{
	t->restored = false;
	t->mode = XEN_TL_UNAVAILABLE;
	t->port = -1;
	uint32_t max_cpu = 0;
	if (host_tsc(t, &max_cpu) || claim_virq(t) || take_buffers(t, max_cpu)) {
		give_up(t);
		return;
	}
	start_session(t);
}

/* Decoder, accounting and poll thread over t->cpu[] (mapped or in memory). */
static void start_session(struct xtl *t)
{
	/* Discard what predates us (xentrace -D): accounting starts now. */
	for (size_t i = 0; i < t->ncpu; i++) {
		uint32_t prod = __atomic_load_n(&t->cpu[i].meta->prod, __ATOMIC_ACQUIRE);
		__atomic_store_n(&t->cpu[i].meta->cons, prod, __ATOMIC_RELEASE);
	}
	xt_events_init(&t->ev);
	xt_decoder_init(&t->dec, xt_events_add, &t->ev);
	t->dec.sched_only = true;
	xt_acct_init(&t->acct, XT_NATIVE);
	/* Who each wait was behind and how long it was (doc/trace-live.md);
	 * XGTOP_TRACE_WAITS=0 leaves it out, to measure what it costs. */
	const char *w = getenv("XGTOP_TRACE_WAITS");
	t->waits_on = !w || strcmp(w, "0");
	if (t->waits_on) {
		xt_acct_behind(&t->acct, true, true, t->hz);
		/* bounded memory: a wait open longer than 10 s (a vCPU left
		 * runnable for good) finds its older part not known (xen) */
		t->acct.behind_horizon = (uint64_t)(10 * t->hz);
	}
	t->xt_ready = true;
	t->upto = read_tsc();
	t->tsc_foreign = !t->upto;
	xt_acct_start(&t->acct, t->upto);
	memset(&t->st, 0, sizeof(t->st));
	t->start_mono = xg_now_mono_ns();
	t->decode_errors = t->corrupt = 0;

	if (pipe2(t->stop_pipe, O_CLOEXEC)) {
		set_unavailable(t, "pipe: %s", strerror(errno));
		give_up(t);
		return;
	}
	/* Signals go to the main thread, whose loops watch for them. */
	sigset_t all_sig, old;
	sigfillset(&all_sig);
	pthread_sigmask(SIG_BLOCK, &all_sig, &old);
	int rc = pthread_create(&t->thr, NULL, poll_thread, t);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc) {
		set_unavailable(t, "cannot start the trace poll thread: %s", strerror(rc));
		give_up(t);
		return;
	}
	t->thr_running = true;
	t->mode = XEN_TL_ACTIVE;
	t->why[0] = 0;
}

struct xtl *xen_tl_open(const struct xen_api *x, const struct xg_config *cfg)
{
	struct xtl *t = xg_calloc(1, sizeof(*t));
	t->x = x;
	t->cfg = cfg;
	t->port = -1;
	t->stop_pipe[0] = t->stop_pipe[1] = -1;
	t->restored = true;
	pthread_mutex_init(&t->lock, NULL);
	t->notrace = cfg && cfg->notrace;
	t->want_on = !t->notrace;
	if (t->notrace) {
		t->mode = XEN_TL_OFF;
		snprintf(t->why, sizeof(t->why), "not collected (--notrace)");
	} else {
		setup(t);
	}
	return t;
}

struct xtl *xen_tl_open_mem(void *const *bufs, size_t n, uint32_t data_size, double hz)
{
	struct xtl *t = xg_calloc(1, sizeof(*t));
	t->port = -1;
	t->stop_pipe[0] = t->stop_pipe[1] = -1;
	pthread_mutex_init(&t->lock, NULL);
	t->want_on = true;
	t->hz = hz;
	t->data_size = data_size;
	t->cpu = xg_calloc(n ? n : 1, sizeof(*t->cpu));
	for (size_t i = 0; i < n; i++) {
		t->cpu[i].id = (uint32_t)i;
		t->cpu[i].meta = bufs[i];
		t->cpu[i].data = (uint8_t *)(t->cpu[i].meta + 1);
	}
	t->ncpu = n;
	start_session(t);
	return t;
}

void xen_tl_set_on(struct xtl *t, bool on)
{
	if (!t || t->notrace || on == t->want_on)
		return;
	t->want_on = on;
	if (!on) {
		teardown(t);
		t->mode = XEN_TL_OFF;
		snprintf(t->why, sizeof(t->why), "scheduler trace off (w)");
	} else {
		setup(t);
	}
}

/* XGTOP_TRACE_STATS=1: one line on stderr at exit with what consuming
 * the buffers cost (the lab's and users' measurement of the monitor). */
static void print_stats(struct xtl *t)
{
	const char *env = getenv("XGTOP_TRACE_STATS");
	if (!env || !*env || *env == '0' || t->mode != XEN_TL_ACTIVE)
		return;
	struct xen_tl_stats st;
	xen_tl_stats(t, &st);
	double wall = (double)st.wall_ns / 1e9;
	fprintf(stderr, "xgtop trace: %llu records, %llu bytes, %llu lost in %.2f s (%.0f records/s), "
		"%llu polls, %.3f ms CPU = %.3f %% of one core, %.0f ns/record\n",
		(unsigned long long)st.records, (unsigned long long)st.bytes,
		(unsigned long long)st.lost_records, wall, wall > 0 ? (double)st.records / wall : 0,
		(unsigned long long)st.polls, (double)st.cpu_ns / 1e6,
		wall > 0 ? 100.0 * (double)st.cpu_ns / 1e9 / wall : 0,
		st.records ? (double)st.cpu_ns / (double)st.records : 0);
}

void xen_tl_close(struct xtl *t)
{
	if (!t)
		return;
	print_stats(t);
	teardown(t);
	pthread_mutex_destroy(&t->lock);
	free(t);
}

void xen_tl_stats(struct xtl *t, struct xen_tl_stats *st)
{
	pthread_mutex_lock(&t->lock);
	*st = t->st;
	st->active = t->mode == XEN_TL_ACTIVE;
	st->wall_ns = t->mode == XEN_TL_ACTIVE ? xg_now_mono_ns() - t->start_mono : 0;
	pthread_mutex_unlock(&t->lock);
}

/* ---- publishing -------------------------------------------------------- */

/* A vCPU no record has named yet (or whose state records were lost):
 * its state now, from the hypervisor, so it is accounted from here on.
 * Xen's own rule at a switch: blocked if it blocked, else runnable if it
 * may run, else offline; a paused (or shut down) domain may not run. */
static void seed_vcpu(struct xtl *t, struct xt_vcpu_acct *v, uint32_t dom_state)
{
	xc_vcpuinfo_t vi;
	if (!t->x || t->x->xc_vcpu_getinfo(t->x->xch, v->dom, v->vcpu, &vi))
		return;
	bool stopped = dom_state & (XG_ST_PAUSED | XG_ST_SHUTDOWN | XG_ST_CRASHED | XG_ST_DYING);
	enum xt_state s = !vi.online ? XT_OFFLINE : vi.running ? XT_RUNNING
			  : vi.blocked ? XT_BLOCKED : stopped ? XT_OFFLINE : XT_RUNNABLE;
	if (v->state == XT_LOST && t->upto > v->since) {
		v->cyc[XT_LOST] += t->upto - v->since;
		v->n[XT_LOST]++;
	}
	v->state = (uint8_t)s;
	v->since = t->upto;
}

/* The wait fields: what d's waits that ended since the last refresh were
 * behind, and their lengths. */
/* d's running totals, new ones when d is not the domain they were for. */
static struct xtl_wsum *wsum_of(struct xtl *t, const struct xg_dom *d)
{
	if (d->id >= t->nwsum) {
		xg_grow(&t->wsum, &t->cwsum, (size_t)d->id + 1, sizeof(*t->wsum));
		memset(t->wsum + t->nwsum, 0, ((size_t)d->id + 1 - t->nwsum) * sizeof(*t->wsum));
		t->nwsum = (size_t)d->id + 1;
	}
	struct xtl_wsum *e = &t->wsum[d->id];
	if (e->used && !dom_same(&e->ident, d, XG_SAME_OBJECT)) {
		waitsum_free(&e->s);
		e->used = false;
	}
	if (!e->used) {
		e->ident = dom_ident(d);
		e->used = true;
	}
	e->seen = t->fills;
	return e;
}

/* Totals of domains gone since the last fill are dropped. */
static void wsum_sweep(struct xtl *t)
{
	for (size_t i = 0; i < t->nwsum; i++)
		if (t->wsum[i].used && t->wsum[i].seen != t->fills) {
			waitsum_free(&t->wsum[i].s);
			t->wsum[i].used = false;
		}
}

static void fill_waits(struct xtl *t, struct xg_sample *out, struct xg_dom *d)
{
	xt_waits_fill(&t->acct, &wsum_of(t, d)->s, &t->waits, t->hz, out, d);
}

static void fill_active(struct xtl *t, struct xg_sample *out)
{
	out->host.lost_records = t->ev.lost_records;
	host_mark(&out->host, XG_H_LOST);
	if (t->waits_on)
		host_mark(&out->host, XG_H_WAITS);
	else
		out->wait_why = sample_reason(out, "not kept (XGTOP_TRACE_WAITS=0)");
	t->fills++;
	for (size_t i = 0; i < out->ndom; i++) {
		struct xg_dom *d = &out->dom[i];
		uint32_t nv = dom_has(d, XG_F_VCPUS_MAX) ? (uint32_t)d->v[XG_F_VCPUS_MAX] : d->vcpu_count;
		uint64_t sum[XG_RS_COUNT] = { 0 };
		struct xg_vcpu *xv = sample_vcpus(out, d);
		for (uint32_t k = 0; k < nv && d->id < XT_IDLE_DOMID; k++) {
			size_t vi = xt_acct_vcpu(&t->acct, d->id, k);
			struct xt_vcpu_acct *v = &t->acct.v[vi];
			if (v->state == XT_NSTATES || v->state == XT_LOST)
				seed_vcpu(t, v, d->state);
			uint64_t cyc[XT_NSTATES];
			xt_acct_at(&t->acct, v, t->upto, cyc);
			uint64_t ns[XG_RS_COUNT];
			for (int s = 0; s < XG_RS_COUNT; s++) {
				ns[s] = xt_cyc_to_ns(cyc[s], t->hz);
				sum[s] += ns[s];
			}
			for (uint32_t j = 0; j < d->vcpu_count; j++) {
				if (xv[j].id != k)
					continue;
				memcpy(xv[j].sched_ns, ns, sizeof(ns));
				xv[j].valid |= XG_VCPU_SCHED_ALL;
			}
		}
		for (int st = 0; st < XG_RS_COUNT; st++)
			dom_set(d, sched_field(st), sum[st]);
		if (d->id < XT_IDLE_DOMID && t->waits_on)
			fill_waits(t, out, d);
		else if (d->id < XT_IDLE_DOMID)
			for (int f = XG_F_BEHIND_WAIT_NS; f <= XG_F_WAIT_P99_NS; f++)
				dom_invalid(out, d, (enum xg_field)f, "not kept (XGTOP_TRACE_WAITS=0)");
	}
	wsum_sweep(t);
}

void xen_tl_fill(struct xtl *t, struct xg_sample *out)
{
	if (!t || t->mode != XEN_TL_ACTIVE) {
		const char *why = t && t->why[0] ? t->why : "scheduler trace not available";
		for (int st = 0; st < XG_RS_COUNT; st++)
			sample_invalid_all(out, sched_field(st), why);
		for (int f = XG_F_BEHIND_WAIT_NS; f <= XG_F_WAIT_P99_NS; f++)
			sample_invalid_all(out, (enum xg_field)f, why);
		return;
	}
	/* A tracer started meanwhile sets its masks before it finds the VIRQ
	 * taken and gives up: put ours back (what we restore stays the same). */
	uint32_t mask = 0, size = 0;
	uint64_t mfn = 0;
	if (t->x && !tbuf_info(t->x, &mask, &mfn, &size) && mask != XEN_TL_MASK &&
	    !t->x->xc_tbuf_set_evt_mask(t->x->xch, XEN_TL_MASK))
		t->mask_changed = true;
	pthread_mutex_lock(&t->lock);
	poll_once(t);
	fill_active(t, out);
	pthread_mutex_unlock(&t->lock);
}

#endif /* HAVE_XEN */
