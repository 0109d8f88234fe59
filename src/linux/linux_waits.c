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
#include <sys/mman.h>
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
	F(bpf_object__find_map_by_name) F(bpf_map__fd) F(bpf_map__set_max_entries) \
	F(bpf_object__find_program_by_name) F(bpf_program__attach) F(bpf_program__fd) \
	F(bpf_link__destroy) F(bpf_prog_test_run_opts) \
	F(bpf_map_update_elem) F(bpf_map_lookup_elem) F(libbpf_num_possible_cpus)
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
	int fd_sync;                 /* lw_sync, run on each CPU before a read */
	int fd_tables, fd_ctl, fd_stats;
	int ncpu;
	struct lw_ctl ctl;           /* the interval the program writes now */
	struct lw_elem *tab;         /* the tables, mapped (read only) */
	size_t tab_bytes;
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
	if (b->tab)
		munmap(b->tab, b->tab_bytes);
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
	b->ctl = (struct lw_ctl){ .gen = 1, .elems = lw_elems_for(b->ncpu) };
	struct bpf_map *tm = b->f.bpf_object__find_map_by_name(b->obj, "tables");
	if (!tm) {
		err = ENOENT;
		goto fail;
	}
	__u32 nelem = (__u32)b->ncpu * 2 * b->ctl.elems;
	if ((err = -b->f.bpf_map__set_max_entries(tm, nelem)) != 0)
		goto fail;
	if ((err = -b->f.bpf_object__load(b->obj)) != 0)
		goto fail;
	step = "attaching";
	struct bpf_program *sw = b->f.bpf_object__find_program_by_name(b->obj, "lw_switch");
	struct bpf_program *sy = b->f.bpf_object__find_program_by_name(b->obj, "lw_sync");
	if (!sw || !sy || (b->fd_sync = b->f.bpf_program__fd(sy)) < 0) {
		err = ENOENT;
		goto fail;
	}
	const char *names[] = { "tables", "ctl", "stats" };
	int *fds[] = { &b->fd_tables, &b->fd_ctl, &b->fd_stats };
	for (size_t i = 0; i < 3; i++) {
		struct bpf_map *m = b->f.bpf_object__find_map_by_name(b->obj, names[i]);
		if (!m || (*fds[i] = b->f.bpf_map__fd(m)) < 0) {
			err = ENOENT;
			goto fail;
		}
	}
	b->tab_bytes = (size_t)nelem * sizeof(*b->tab);
	void *m = mmap(NULL, b->tab_bytes, PROT_READ, MAP_SHARED, b->fd_tables, 0);
	if (m == MAP_FAILED) {
		err = errno;
		goto fail;
	}
	b->tab = m;
	/* interval 1 first: a slot never taken has gen 0 */
	__u32 zero = 0;
	if (b->f.bpf_map_update_elem(b->fd_ctl, &zero, &b->ctl, BPF_ANY) < 0) {
		err = errno;
		goto fail;
	}
	if (!(b->link = b->f.bpf_program__attach(sw))) {
		err = errno;
		goto fail;
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

/* Runs lw_sync on each CPU: once it has, no program there still writes
 * the last interval's table. A CPU that is offline runs none: ENXIO is
 * not an error. */
static int sync_cpus(struct lx_waits_bpf *b)
{
	for (int c = 0; c < b->ncpu; c++) {
		LIBBPF_OPTS(bpf_test_run_opts, o, .flags = BPF_F_TEST_RUN_ON_CPU, .cpu = (__u32)c);
		if (b->f.bpf_prog_test_run_opts(b->fd_sync, &o) < 0 && errno != ENXIO)
			return -errno;
	}
	return 0;
}

/* The slots of interval gen in table element e, into w. */
static void take_slots(struct lx_waits *w, const struct lw_elem *e, __u32 gen)
{
	for (size_t i = 0; i < LW_ELEM_SLOTS; i++) {
		const struct lw_slot *s = &e->s[i];
		if (!s->tid || s->gen != gen)
			continue;
		if (s->what & LW_LEN) {
			xg_grow(&w->len, &w->clen, w->nlen + 1, sizeof(*w->len));
			w->len[w->nlen++] = (struct lx_wlen){ .tid = s->tid, .bucket = s->what & ~LW_LEN,
							      .count = s->a, .len_ns = s->b };
		} else {
			xg_grow(&w->pair, &w->cpair, w->npair + 1, sizeof(*w->pair));
			w->pair[w->npair++] = (struct lx_wpair){ .tid = s->tid, .tgid = s->what, .cgid = s->b,
								 .ns = s->a };
		}
	}
}

/* Moves the program to the next interval and reads the last one's
 * tables, where the program wrote them: no copy, no entry to delete. */
int lx_waits_drain(struct lx_waits *w, struct xg_err *err)
{
	w->npair = w->nlen = 0;
	struct lx_waits_bpf *b = w->b;
	if (!b)
		return 0;
	__u32 zero = 0, old = b->ctl.gen;
	struct lw_ctl next = { .gen = old + 1, .elems = b->ctl.elems };
	if (!next.gen)   /* gen 0 is a slot never taken; 2, as 0, is the other table than 2^32 - 1's */
		next.gen = 2;
	if (b->f.bpf_map_update_elem(b->fd_ctl, &zero, &next, BPF_ANY) < 0)
		return xg_fail_errno(err, errno, "wait attribution: moving to the next interval");
	b->ctl = next;
	int se = sync_cpus(b);
	if (se < 0)
		return xg_fail_errno(err, -se, "wait attribution: waiting for each CPU's program");
	for (int c = 0; c < b->ncpu; c++)
		for (__u32 e = 0; e < next.elems; e++)
			take_slots(w, &b->tab[((size_t)c * 2 + (old & 1)) * next.elems + e], old);
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
	w->npair = w->nlen = 0;
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
	w->npair = w->nlen = 0;
	snprintf(w->why, sizeof(w->why), "%.190s", why);
}

void lx_waits_close(struct lx_waits *w)
{
	bpf_free(w->b);
	free(w->pair);
	free(w->len);
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
