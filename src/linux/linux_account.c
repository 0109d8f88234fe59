// SPDX-License-Identifier: GPL-2.0-or-later
/* Per-process counters that are not per thread: /proc/PID/io bytes and the
 * CPU of reaped children (cutime + cstime). A parent that reaps a child
 * adds the child's totals to its own; what was already counted of the
 * child becomes the parent's debt, so nothing is counted twice and the
 * CPU of children too short-lived to be seen is still counted once. */
#include "linux_scan.h"

#include <errno.h>
#include <stdlib.h>

/* Pays a debt out of a delta: what is left of the delta after the debt. */
static uint64_t pay(uint64_t delta, uint64_t *debt)
{
	uint64_t d = delta < *debt ? delta : *debt;
	*debt -= d;
	return delta - d;
}

/* Per-process counters that are not per thread: /proc/PID/io and the CPU
 * of reaped children. Only the raw values are read here; the deltas are
 * taken after the whole scan (lx_account_settle), once the debts of children
 * that vanished in the meantime are known. pnew[i] belongs to proc[i]. */
struct lx_pst *lx_account_read(struct lx_scan *sc, struct lx_proc *p, const struct lx_stat *st)
{
	struct lx_pst n = { .pid = p->pid, .ppid = p->ppid, .start = p->start, .prev = -1,
			    .own_ticks = st->utime + st->stime, .child_ticks = st->cutime + st->cstime,
			    .nthr = p->nthr };
	int64_t oi = lx_index_get(&sc->pidx, p->pid);
	if (oi >= 0 && sc->pold[oi].start == p->start) {
		struct lx_pst *old = &sc->pold[oi];
		old->seen = true;
		n.prev = (int32_t)oi;
		n.debt_io = old->debt_io;
		n.debt_ticks = old->debt_ticks;
		/* the same threads, none of which ran: only a running thread
		 * does I/O, reaps a child or changes namespace (a thread's run
		 * time grows by the end of any stretch on a CPU) */
		p->idle = p->nthr && old->nthr == p->nthr && p->nknown == p->nthr && !p->d_run &&
			  !p->sched_err;
	}
	xg_grow(&sc->pnew, &sc->pnew_cap, sc->npnew + 1, sizeof(*sc->pnew));
	sc->pnew[sc->npnew] = n;
	return &sc->pnew[sc->npnew++];
}

void lx_account_io(struct lx_pst *n, struct lx_proc *p, const char *io, int io_err)
{
	if (io_err)
		p->io_err = io_err;
	else if (!io || !lx_parse_proc_io(io, &n->io))
		p->io_err = EINVAL;
	n->io_ok = !p->io_err;
	n->io_err = p->io_err;
}

void lx_account_carry(struct lx_scan *sc, struct lx_pst *n, struct lx_proc *p)
{
	const struct lx_pst *old = &sc->pold[n->prev];
	n->io = old->io;
	n->io_ok = old->io_ok;
	n->io_err = p->io_err = old->io_err;
	n->netns_read = old->netns_read;
	n->netns = old->netns;
	n->netns_err = old->netns_err;
}

static void account_deltas(struct lx_scan *sc)
{
	for (size_t i = 0; i < sc->nproc; i++) {
		struct lx_proc *p = &sc->proc[i];
		struct lx_pst *n = &sc->pnew[i];
		const struct lx_pst *old = n->prev >= 0 ? &sc->pold[n->prev] : NULL;
		bool born = !old && sc->have_prev && p->start * sc->tick_ns > sc->prev_boot_ns;
		if (n->io_ok) {
			struct lx_io d = { 0 };
			if (old && old->io_ok && n->io.rbytes >= old->io.rbytes && n->io.wbytes >= old->io.wbytes) {
				d.rbytes = n->io.rbytes - old->io.rbytes;
				d.wbytes = n->io.wbytes - old->io.wbytes;
			} else if (born) {
				d = n->io;
			}
			p->d_io.rbytes = pay(d.rbytes, &n->debt_io.rbytes);
			p->d_io.wbytes = pay(d.wbytes, &n->debt_io.wbytes);
		}
		uint64_t d = 0;
		if (old && n->child_ticks >= old->child_ticks)
			d = n->child_ticks - old->child_ticks;
		else if (born)
			d = n->child_ticks;
		p->d_child_ns = pay(d, &n->debt_ticks) * sc->tick_ns;
	}
}

static int by_key_desc(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x < y) - (x > y);
}

/* The old state of c's parent if that parent vanished too, else NULL. */
static struct lx_pst *gone_parent(struct lx_scan *sc, const struct lx_pst *c)
{
	int64_t pi = lx_index_get(&sc->pidx, c->ppid);
	if (pi < 0 || sc->pold[pi].seen || sc->pold[pi].start > c->start || &sc->pold[pi] == c)
		return NULL;
	return &sc->pold[pi];
}

static void add_debt(struct lx_pst *par, const struct lx_pst *c)
{
	/* the child's own unpaid debt (grandchildren it reaped after our
	 * last look) is in its totals too */
	if (c->io_ok) {
		par->debt_io.rbytes += c->io.rbytes + c->debt_io.rbytes;
		par->debt_io.wbytes += c->io.wbytes + c->debt_io.wbytes;
	}
	par->debt_ticks += c->own_ticks + c->child_ticks + c->debt_ticks;
}

/* Processes gone since the last refresh were reaped: their parent's io and
 * cutime now include their totals, of which we counted up to their last
 * values already. Children before parents, so that when both went the
 * child's debt rides up with the parent's. */
static void settle_reaped(struct lx_scan *sc)
{
	lx_index_reset(&sc->nidx, sc->npnew);
	for (size_t i = 0; i < sc->npnew; i++)
		lx_index_put(&sc->nidx, sc->pnew[i].pid, (uint32_t)i);
	/* deepest first (a shell, its subshell and the command often start
	 * in the same clock tick, so start times cannot order them) */
	size_t ngone = 0;
	for (size_t i = 0; i < sc->npold; i++) {
		if (sc->pold[i].seen)
			continue;
		uint64_t depth = 0;
		for (const struct lx_pst *q = &sc->pold[i]; depth < 4096 && (q = gone_parent(sc, q));)
			depth++;
		xg_grow(&sc->gone, &sc->gone_cap, ngone + 1, sizeof(*sc->gone));
		sc->gone[ngone++] = depth << 32 | i;
	}
	if (ngone > 1)
		qsort(sc->gone, ngone, sizeof(*sc->gone), by_key_desc);
	for (size_t k = 0; k < ngone; k++) {
		const struct lx_pst *c = &sc->pold[(uint32_t)sc->gone[k]];
		int64_t pi = lx_index_get(&sc->nidx, c->ppid);
		struct lx_pst *par;
		if (pi >= 0 && sc->pnew[pi].start <= c->start)
			add_debt(&sc->pnew[pi], c);
		else if ((par = gone_parent(sc, c)))
			add_debt(par, c);
	}
}

void lx_account_settle(struct lx_scan *sc)
{
	settle_reaped(sc);
	account_deltas(sc);
}
