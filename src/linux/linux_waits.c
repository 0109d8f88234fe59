// SPDX-License-Identifier: GPL-2.0-or-later
/* Loads the wait-attribution BPF program (linux_waits.bpf.c, embedded at
 * build time) through libbpf, loaded by soname like the other optional
 * libraries, and drains its maps once per refresh. Why BPF and not perf's
 * ring buffers: doc/linux-source.md ("Reader: perf or BPF"). */
#include "linux_waits.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef HAVE_BPF
#include "xgtop/core/dynlib.h"
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#ifndef BPF_SO
#define BPF_SO "libbpf.so.1"
#endif

/* The program's object file, as clang wrote it (Makefile: LW_BPF_OBJ). */
__asm__(".section .rodata\n"
	".balign 8\n"
	".global lx_waits_obj\n"
	"lx_waits_obj:\n"
	".incbin \"" LW_BPF_OBJ "\"\n"
	".global lx_waits_obj_end\n"
	"lx_waits_obj_end:\n"
	".previous\n");
extern const char lx_waits_obj[], lx_waits_obj_end[];

#define BPF_API(F) \
	F(libbpf_set_print) F(bpf_object__open_mem) F(bpf_object__load) F(bpf_object__close) \
	F(bpf_object__find_map_by_name) F(bpf_map__fd) \
	F(bpf_object__find_program_by_name) F(bpf_program__attach) F(bpf_program__fd) \
	F(bpf_link__destroy) F(bpf_prog_test_run_opts) \
	F(bpf_map_lookup_and_delete_batch) F(bpf_map_lookup_elem) F(libbpf_num_possible_cpus)
struct bpf_api {
#define BPF_SLOT(fn) __typeof__(fn) *fn;
	BPF_API(BPF_SLOT)
#undef BPF_SLOT
};
#define BPF_FN(fn) XG_DL_FN(struct bpf_api, fn)
static const struct xg_dl_fn bpf_fns[] = { BPF_API(BPF_FN) };

struct lx_waits_bpf {
	struct bpf_api f;
	void *so;
	struct bpf_object *obj;
	struct bpf_link *link;       /* lw_switch on sched_switch */
	int fd_flush;                /* lw_flush, run on each CPU before a read */
	int fd_pairs, fd_stats;
	int ncpu;
};

/* libbpf's own messages would land on the full-screen view: the reason
 * xgtop gives is made from the error instead. */
static int quiet(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	(void)level;
	(void)fmt;
	(void)ap;
	return 0;
}

static void bpf_free(struct lx_waits_bpf *b)
{
	if (!b)
		return;
	if (b->link)
		b->f.bpf_link__destroy(b->link);
	if (b->obj)
		b->f.bpf_object__close(b->obj);
	xg_dl_close(b->so);
	free(b);
}

static const char *load_why(int e)
{
	if (e == EPERM || e == EACCES)
		return geteuid() ? "loading BPF needs root (CAP_BPF and CAP_PERFMON)"
				 : "the kernel refused to load BPF (lockdown, or a security module?)";
	if (e == ENOENT || e == ESRCH || e == EOPNOTSUPP || e == EINVAL)
		return "this kernel cannot run xgtop's BPF program (it needs BTF tracepoints, "
		       "Linux 5.5 or later, CONFIG_SCHED_INFO and CONFIG_FAIR_GROUP_SCHED)";
	return NULL;
}

void lx_waits_open(struct lx_waits *w)
{
	w->b = NULL;
	if (access("/sys/kernel/btf/vmlinux", R_OK)) {
		snprintf(w->why, sizeof(w->why),
			 "wait attribution needs the kernel's BTF (/sys/kernel/btf/vmlinux: %s)", strerror(errno));
		return;
	}
	struct lx_waits_bpf *b = xg_calloc(1, sizeof(*b));
	struct xg_err e = { 0 };
	b->so = xg_dl_load(BPF_SO, "libbpf", bpf_fns, XG_ARRAY_LEN(bpf_fns), &b->f, &e);
	if (!b->so) {
		snprintf(w->why, sizeof(w->why), "wait attribution: %.150s", e.msg);
		free(b);
		return;
	}
	b->f.libbpf_set_print(quiet);
	const char *step = "opening";
	int err = 0;
	b->obj = b->f.bpf_object__open_mem(lx_waits_obj, (size_t)(lx_waits_obj_end - lx_waits_obj), NULL);
	if (!b->obj) {
		err = errno;
		goto fail;
	}
	b->ncpu = b->f.libbpf_num_possible_cpus();
	if (b->ncpu <= 0) {
		err = EINVAL;
		goto fail;
	}
	step = "loading";
	if ((err = -b->f.bpf_object__load(b->obj)) != 0)
		goto fail;
	step = "attaching";
	struct bpf_program *sw = b->f.bpf_object__find_program_by_name(b->obj, "lw_switch");
	struct bpf_program *fl = b->f.bpf_object__find_program_by_name(b->obj, "lw_flush");
	if (!sw || !fl || (b->fd_flush = b->f.bpf_program__fd(fl)) < 0) {
		err = ENOENT;
		goto fail;
	}
	if (!(b->link = b->f.bpf_program__attach(sw))) {
		err = errno;
		goto fail;
	}
	const char *names[] = { "behind", "stats" };
	int *fds[] = { &b->fd_pairs, &b->fd_stats };
	for (size_t i = 0; i < 2; i++) {
		struct bpf_map *m = b->f.bpf_object__find_map_by_name(b->obj, names[i]);
		if (!m || (*fds[i] = b->f.bpf_map__fd(m)) < 0) {
			err = ENOENT;
			goto fail;
		}
	}
	w->b = b;
	w->why[0] = 0;
	return;
fail:;
	const char *why = load_why(err);
	if (why)
		snprintf(w->why, sizeof(w->why), "wait attribution: %s", why);
	else
		snprintf(w->why, sizeof(w->why), "wait attribution: %s its BPF program failed: %s", step,
			 strerror(err));
	bpf_free(b);
}

/* Reads and deletes every entry of a hash map, keys and values of ks and
 * vs bytes, into *keys and *vals (grown as needed). Returns the count, or
 * -errno. An update racing the read can be lost: the kernel frees an
 * element once no program still runs with it, so a program in flight adds
 * to the element being deleted (microseconds at a refresh). Each batch
 * asks for room it has zeroed first, twice the last one's: the kernel
 * fills it, and valgrind, which cannot tell that bpf() wrote it, then
 * sees it written; the zeroing stays in proportion to what is read. */
static long drain_map(struct lx_waits_bpf *b, int fd, void **keys, void **vals, size_t *cap,
		      size_t ks, size_t vs)
{
	size_t n = 0, ask = 64;
	__u32 token = 0;
	bool first = true;
	for (;;) {
		if (*cap < n + ask) {
			size_t c = *cap;
			xg_grow(keys, &c, n + ask, ks);
			c = *cap;
			xg_grow(vals, &c, n + ask, vs);
			*cap = c;
		}
		memset((char *)*keys + n * ks, 0, ask * ks);
		memset((char *)*vals + n * vs, 0, ask * vs);
		__u32 count = (__u32)ask;
		int r = b->f.bpf_map_lookup_and_delete_batch(fd, first ? NULL : &token, &token,
							     (char *)*keys + n * ks, (char *)*vals + n * vs,
							     &count, NULL);
		int e = r < 0 ? errno : 0;
		n += count;
		first = false;
		if (r < 0 && e == ENOENT)
			return (long)n;
		if (r < 0 && e != ENOSPC)   /* ENOSPC: one bucket holds more than ask */
			return -e;
		if (ask < 4096)
			ask *= 2;
	}
}

/* Runs lw_flush on each CPU, which moves that CPU's cache of pairs into
 * the hash. A CPU that is offline has nothing new: ENXIO is not an error. */
static int flush_cpus(struct lx_waits_bpf *b)
{
	for (int c = 0; c < b->ncpu; c++) {
		LIBBPF_OPTS(bpf_test_run_opts, o, .flags = BPF_F_TEST_RUN_ON_CPU, .cpu = (__u32)c);
		if (b->f.bpf_prog_test_run_opts(b->fd_flush, &o) < 0 && errno != ENXIO)
			return -errno;
	}
	return 0;
}

int lx_waits_drain(struct lx_waits *w, struct xg_err *err)
{
	w->npair = 0;
	struct lx_waits_bpf *b = w->b;
	if (!b)
		return 0;
	int fe = flush_cpus(b);
	if (fe < 0)
		return xg_fail_errno(err, -fe, "wait attribution: emptying its per-CPU caches");
	size_t pcap = w->pcap;
	long np = drain_map(b, b->fd_pairs, (void **)&w->pk, (void **)&w->pv, &pcap, sizeof(*w->pk),
			    sizeof(*w->pv));
	w->pcap = pcap;
	if (np < 0)
		return xg_fail_errno(err, (int)-np, "wait attribution: reading its BPF map");
	w->npair = (size_t)np;
	__u64 sum[LW_STAT_COUNT] = { 0 };
	__u64 *per = xg_calloc((size_t)b->ncpu, sizeof(*per));
	for (__u32 k = 0; k < LW_STAT_COUNT; k++) {
		if (b->f.bpf_map_lookup_elem(b->fd_stats, &k, per))
			continue;
		for (int c = 0; c < b->ncpu; c++)
			sum[k] += per[c];
	}
	free(per);
	w->lost_ns = sum[LW_STAT_LOST_NS];
	w->lost_waits = sum[LW_STAT_LOST_WAITS];
	w->beyond_log = sum[LW_STAT_BEYOND_LOG];
	return 0;
}

#else /* !HAVE_BPF */

void lx_waits_open(struct lx_waits *w)
{
	w->b = NULL;
	snprintf(w->why, sizeof(w->why),
		 "wait attribution: xgtop was built without BPF (libbpf-dev, clang: make deps)");
}

int lx_waits_drain(struct lx_waits *w, struct xg_err *err)
{
	(void)err;
	w->npair = 0;
	return 0;
}

static void bpf_free(struct lx_waits_bpf *b)
{
	(void)b;
}

#endif

void lx_waits_stop(struct lx_waits *w, const char *why)
{
	bpf_free(w->b);
	w->b = NULL;
	w->npair = 0;
	snprintf(w->why, sizeof(w->why), "%.190s", why);
}

void lx_waits_close(struct lx_waits *w)
{
	bpf_free(w->b);
	free(w->pk);
	free(w->pv);
	lx_index_free(&w->tidx);
	lx_index_free(&w->pidx);
	free(w->thr_proc);
	free(w->order);
	free(w->hsum);
	for (size_t i = 0; i < w->nwsum; i++)
		if (w->wsum[i].used)
			waitsum_free(&w->wsum[i].s);
	free(w->wsum);
	free(w->wnext);
	lx_index_free(&w->widx);
	memset(w, 0, sizeof(*w));
}
