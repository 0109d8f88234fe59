// SPDX-License-Identifier: GPL-2.0-or-later
/* Turns one /proc scan into domains (cgroups or process groups) and keeps
 * each domain's cumulative run/wait/blocked/io counters across refreshes:
 * the scan gives per-interval deltas of the live threads, and summing
 * deltas (rather than re-summing live threads) keeps the counters
 * monotonic when threads and processes exit. */
#include "linux_domain.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct lx_dom *dom_new(struct lx_doms *ds, uint32_t id)
{
	xg_grow(&ds->dom, &ds->dom_cap, ds->ndom + 1, sizeof(*ds->dom));
	struct lx_dom *d = &ds->dom[ds->ndom++];
	memset(d, 0, sizeof(*d));
	d->id = id;
	d->cg = -1;
	d->vm = -1;
	d->head = -1;
	return d;
}

static void build_process(struct lx_doms *ds, struct lx_scan *sc)
{
	xg_grow(&ds->leader, &ds->leader_cap, sc->nproc + 1, sizeof(*ds->leader));
	lx_group_leaders(sc->proc, sc->nproc, ds->leader, &ds->idx);
	for (size_t i = 0; i < sc->nproc; i++) {
		struct lx_proc *p = &sc->proc[i];
		if (ds->leader[i] != (int32_t)i)
			continue;
		p->dom = (int32_t)ds->ndom;
		struct lx_dom *d = dom_new(ds, p->pid);
		/* pid + start time: a reused pid gets a new handle */
		memcpy(d->handle, &p->pid, 4);
		memcpy(d->handle + 4, &p->start, 8);
		memcpy(d->handle + 12, "proc", 4);
		snprintf(d->name, sizeof(d->name), "%s", p->comm);
	}
	for (size_t i = 0; i < sc->nproc; i++)
		sc->proc[i].dom = sc->proc[ds->leader[i]].dom;
}

static uint32_t path_hash(const char *s, size_t n)
{
	uint32_t h = 2166136261u;
	for (size_t i = 0; i < n; i++)
		h = (h ^ (uint8_t)s[i]) * 16777619u;
	return h;
}

static void cg_dom(struct lx_doms *ds, const struct lx_cgdom *c, size_t j)
{
	struct lx_dom *d = dom_new(ds, c->id);
	d->cg = (int32_t)j;
	d->own_only = c->own_only;
	/* the full 64-bit inode: kernfs puts a generation in the high bits,
	 * so a recycled low id still gets a new handle */
	memcpy(d->handle, &c->ino, 8);
	memcpy(d->handle + 12, "cgrp", 4);
	snprintf(d->name, sizeof(d->name), "%.127s", *c->path ? c->path : "/");
	lx_index_put(&ds->idx, path_hash(c->path, strlen(c->path)), (uint32_t)j);
}

static int64_t cg_find(struct lx_doms *ds, const struct lx_cgroup *cg, const char *key, size_t n)
{
	int64_t j = lx_index_get(&ds->idx, path_hash(key, n));
	if (j >= 0 && !strncmp(cg->dom[j].path, key, n) && !cg->dom[j].path[n])
		return j;
	for (size_t k = 0; k < cg->ndom; k++)   /* hash collision */
		if (!strncmp(cg->dom[k].path, key, n) && !cg->dom[k].path[n])
			return (int64_t)k;
	return -1;
}

static void build_cgroup(struct lx_doms *ds, struct lx_scan *sc, struct lx_cgroup *cg)
{
	lx_index_reset(&ds->idx, cg->ndom + 64);
	for (size_t j = 0; j < cg->ndom; j++)
		cg_dom(ds, &cg->dom[j], j);
	for (size_t i = 0; i < sc->nproc; i++) {
		struct lx_proc *p = &sc->proc[i];
		size_t n = strlen(p->cg);
		p->dom = 0;   /* the root, also for processes without a v2 line */
		if (!n)
			continue;
		/* outside our cgroup namespace the path climbs ("/../x"):
		 * such a process counts towards the root */
		if (!strncmp(p->cg, "/..", 3))
			continue;
		size_t len = lx_cgroup_domain_len(p->cg, n);
		const char *key = p->cg + 1;
		size_t kn = len - 1;
		int64_t j = cg_find(ds, cg, key, kn);
		if (j < 0) {
			/* a slice holding processes itself, or a cgroup made
			 * after the listing */
			char path[256];
			snprintf(path, sizeof(path), "%.*s", (int)kn, key);
			j = lx_cgroup_add(cg, path, strchr(path, '/') == NULL &&
					  kn > 6 && !strcmp(path + kn - 6, ".slice"));
			if (j < 0)
				continue;
			cg_dom(ds, &cg->dom[j], (size_t)j);
		}
		p->dom = (int32_t)j;
	}
}

static void vm_dom(struct lx_doms *ds, const struct lx_vm *vm, size_t v)
{
	struct lx_dom *d = dom_new(ds, vm->id);
	d->vm = (int32_t)v;
	/* the uuid names the VM; the process's start tells one run of it
	 * from the next (and a reused pid from the old VM) */
	d->gen = (uint32_t)vm->start;
	if (vm->conf.has_uuid) {
		memcpy(d->handle, vm->conf.uuid, sizeof(d->handle));
	} else {
		memcpy(d->handle, &vm->pid, 4);
		memcpy(d->handle + 4, &vm->start, 8);
		memcpy(d->handle + 12, "qemu", 4);
	}
	snprintf(d->name, sizeof(d->name), "%s", vm->name);
}

/* The domain of process i: its own, else its parent's (a VM's children
 * are the VM's), else the host's. Memoized along the way in proc->dom. */
static int32_t inherit_dom(struct lx_doms *ds, struct lx_scan *sc, size_t i)
{
	int32_t chain[64], n = 0, dom = 0;
	for (int64_t j = (int64_t)i; j >= 0 && n < 64;) {
		if (sc->proc[j].dom >= 0) {
			dom = sc->proc[j].dom;
			break;
		}
		chain[n++] = (int32_t)j;
		uint32_t pp = sc->proc[j].ppid;
		j = pp > 2 ? lx_index_get(&ds->idx, pp) : -1;   /* init and kthreadd are the host's */
	}
	while (n > 0)
		sc->proc[chain[--n]].dom = dom;
	return dom;
}

/* VM mode: every VM is one domain (its QEMU process and the processes it
 * started); all other processes make up one "host" domain. */
static void build_vm(struct lx_doms *ds, struct lx_scan *sc, const struct lx_vms *vms)
{
	struct lx_dom *h = dom_new(ds, LX_HOST_ID);
	snprintf(h->name, sizeof(h->name), "host");
	memcpy(h->handle + 12, "host", 4);
	for (size_t v = 0; v < vms->n; v++) {
		if (vms->vm[v].proc < 0)
			continue;
		sc->proc[vms->vm[v].proc].dom = (int32_t)ds->ndom;
		vm_dom(ds, &vms->vm[v], v);
	}
	lx_index_reset(&ds->idx, sc->nproc);
	for (size_t i = 0; i < sc->nproc; i++)
		lx_index_put(&ds->idx, sc->proc[i].pid, (uint32_t)i);
	for (size_t i = 0; i < sc->nproc; i++)
		inherit_dom(ds, sc, i);
}

/* The vCPU threads' part of a process's interval. */
static void sum_vcpus(struct lx_dom *d, const struct lx_scan *sc, const struct lx_proc *p)
{
	for (uint32_t k = 0; k < p->nthr; k++) {
		const struct lx_thr *t = &sc->tnow[p->thr_first + k];
		if (t->vcpu_no == LX_NO_VCPU)
			continue;
		d->nvcpu++;
		d->d_vrun += t->d_run;
		d->d_vwait += t->d_wait;
		d->d_vblk += t->d_blk;
	}
}

static void sum_procs(struct lx_doms *ds, struct lx_scan *sc, bool cgroups)
{
	for (size_t i = sc->nproc; i-- > 0;) {
		struct lx_proc *p = &sc->proc[i];
		if (p->dom < 0)
			continue;
		struct lx_dom *d = &ds->dom[p->dom];
		p->next = d->head;
		d->head = (int32_t)i;
		d->nthr += p->nthr;
		d->rss += p->rss;
		d->d_run += p->d_run;
		d->d_wait += p->d_wait;
		d->d_blk += p->d_blk;
		d->d_io.rbytes += p->d_io.rbytes;
		d->d_io.wbytes += p->d_io.wbytes;
		sum_vcpus(d, sc, p);
		/* in cgroup mode init's reaped orphans came from every cgroup
		 * and are in their own cgroup's cpu.stat already */
		const struct lx_pst *st = &sc->pnew[i];
		uint64_t used = st->own_ticks;
		if (!(cgroups && p->pid == 1)) {
			d->d_child_ns += p->d_child_ns;
			used += st->child_ticks;
		}
		d->used_ns += used * sc->tick_ns;
		if (p->io_err && !d->io_err)
			d->io_err = p->io_err;
		if (p->sched_err && !d->sched_err)
			d->sched_err = p->sched_err;
		d->runnable |= p->runnable;
	}
}

static void accumulate(struct lx_doms *ds)
{
	lx_gen_rotate(&ds->aold, &ds->aold_cap, &ds->naold, &ds->anew, &ds->anew_cap, &ds->nanew,
	              &ds->aidx, sizeof(*ds->aold), offsetof(struct lx_acc, id));

	xg_grow(&ds->anew, &ds->anew_cap, ds->ndom, sizeof(*ds->anew));
	for (size_t i = 0; i < ds->ndom; i++) {
		struct lx_dom *d = &ds->dom[i];
		int64_t o = lx_index_get(&ds->aidx, d->id);
		struct lx_acc a = { .id = d->id, .gen = d->gen };
		memcpy(a.handle, d->handle, sizeof(a.handle));
		if (o >= 0 && !memcmp(ds->aold[o].handle, d->handle, sizeof(d->handle)) &&
		    ds->aold[o].gen == d->gen) {
			a = ds->aold[o];
		} else {
			/* first sight: what its processes used before */
			uint64_t now = d->d_run + d->d_child_ns;
			a.base_ns = d->used_ns > now ? d->used_ns - now : 0;
		}
		a.run += d->d_run;
		a.wait += d->d_wait;
		a.blk += d->d_blk;
		a.io.rbytes += d->d_io.rbytes;
		a.io.wbytes += d->d_io.wbytes;
		a.child_ns += d->d_child_ns;
		a.vrun += d->d_vrun;
		a.vwait += d->d_vwait;
		a.vblk += d->d_vblk;
		a.emu += d->d_run - d->d_vrun + d->d_child_ns;
		d->vrun = a.vrun;
		d->vwait = a.vwait;
		d->vblk = a.vblk;
		d->emu = a.emu;
		d->run = a.run;
		d->wait = a.wait;
		d->blk = a.blk;
		d->io = a.io;
		d->child_ns = a.child_ns;
		d->base_ns = a.base_ns;
		/* two domains may share an id within one refresh (a cgroup
		 * re-created mid-scan); the index keeps the last */
		ds->anew[ds->nanew++] = a;
	}
}

void lx_doms_build(struct lx_doms *ds, struct lx_scan *sc, struct lx_cgroup *cg,
		   const struct lx_vms *vms)
{
	ds->ndom = 0;
	if (vms)
		build_vm(ds, sc, vms);
	else if (cg)
		build_cgroup(ds, sc, cg);
	else
		build_process(ds, sc);
	sum_procs(ds, sc, cg != NULL && !vms);
	accumulate(ds);
}

void lx_doms_free(struct lx_doms *ds)
{
	free(ds->dom);
	free(ds->leader);
	free(ds->aold);
	free(ds->anew);
	lx_index_free(&ds->idx);
	lx_index_free(&ds->aidx);
	memset(ds, 0, sizeof(*ds));
}
