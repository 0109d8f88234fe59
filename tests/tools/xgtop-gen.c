// SPDX-License-Identifier: GPL-2.0-or-later
/* xgtop-gen: writes a recording with a scripted, deterministic load (the
 * script is the table in doc/recording.md), and reads recordings back
 * (--verify, --dump) for tests. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>

#include "xgtop/record/record.h"

#define GIB (1ull << 30)
#define MIB (1ull << 20)

/* Rates are per second of recorded time; CPU and WAIT are percent of one
 * vCPU's time, per vCPU. */
struct role {
	const char *name;
	unsigned vcpus, vcpus_max;
	double cpu, wait;
	double rx, tx, pkt;          /* bytes/s, bytes per packet */
	double rx_drop;              /* drops/s */
	double rd_ops, wr_ops, rd_size, wr_size;
	double llc_ref, miss;        /* references/s, miss ratio */
	double instr, ipc;
	double l3_mib, mbm;          /* occupancy MiB, MBM bytes/s */
	bool breakdown;              /* PMU counts split guest user/kernel/host */
	bool nocache;                /* cache fields invalid with a reason */
};

/* Every rate of the script, in the column order of the table in
 * doc/recording.md. */
#define ROLE(n, vc, vm, cpu, wait, rx, tx, pkt, drop, rd, wr, rds, wrs, ref, miss, ins, ipc, l3, mbm, bd, nc) \
	{ n, vc, vm, cpu, wait, rx, tx, pkt, drop, rd, wr, rds, wrs, ref, miss, ins, ipc, l3, mbm, bd, nc }

static const struct role roles[12] = {
	/*    name               vc vm cpu wait  rx   tx   pkt drop rd   wr   rdsz   wrsz   llcref miss instr ipc  l3 mbm  bd     nocache */
	ROLE("Domain-0",          2, 2, 15, 1,   1e6, 1e6, 1000, 0, 10,  20,  4096,  4096,  1e6,  0.1, 1e9,  1.0, 4, 1e7, false, false),
	ROLE("utf8-\xc3(-01",     1, 1, 1,  0.5, 1e3, 1e3, 100,  0, 0,   0,   4096,  4096,  1e5,  0.2, 1e7,  1.0, 1, 1e7, false, false),
	ROLE("disk-02",           2, 2, 10, 5,   1e4, 5e3, 500,  0, 200, 100, 32768, 65536, 1e6,  0.1, 2e8,  1.0, 2, 1e7, false, false),
	ROLE("busy-03",           4, 8, 95, 2,   1e5, 1e5, 1000, 0, 5,   5,   4096,  4096,  5e7,  0.05, 8e9, 2.0, 12, 2e9, true, false),
	ROLE("net-04",            2, 2, 25, 1,   5e7, 2e7, 1500, 2, 1,   1,   4096,  4096,  1e6,  0.1, 5e8,  1.0, 2, 1e7, false, false),
	ROLE("cache-05",          2, 2, 80, 1,   1e4, 5e3, 500,  0, 1,   2,   4096,  4096,  2e8,  0.4, 2e9,  0.5, 24, 4e9, true, false),
	ROLE("sched-06",          2, 2, 30, 60,  1e4, 5e3, 500,  0, 1,   2,   4096,  4096,  1e6,  0.1, 2e8,  1.0, 2, 1e7, false, false),
	ROLE("nocache-07",        1, 1, 5,  1,   1e4, 5e3, 500,  0, 1,   2,   4096,  4096,  1e6,  0.1, 2e8,  1.0, 2, 1e7, false, true),
	ROLE("late-08",           1, 1, 50, 1,   1e4, 5e3, 500,  0, 1,   2,   4096,  4096,  1e6,  0.1, 2e8,  1.0, 2, 1e7, false, false),
	ROLE("gone-09",           1, 1, 40, 1,   1e4, 5e3, 500,  0, 1,   2,   4096,  4096,  1e6,  0.1, 2e8,  1.0, 2, 1e7, false, false),
	ROLE("reuse-10",          1, 1, 20, 1,   1e4, 5e3, 500,  0, 1,   2,   4096,  4096,  1e6,  0.1, 2e8,  1.0, 2, 1e7, false, false),
	ROLE("ctl\x1b[2J\x07-11", 1, 1, 2,  0.5, 1e4, 5e3, 500,  0, 1,   2,   4096,  4096,  1e6,  0.1, 2e8,  1.0, 2, 1e7, false, false),
};
static const struct role reuse_b =
	ROLE("reuse-10b",         1, 1, 70, 1,   1e4, 5e3, 500,  0, 1,   2,   4096,  4096,  1e6,  0.1, 2e8,  1.0, 2, 1e7, false, false);

struct opts {
	unsigned long domains, samples;
	double interval;
	uint64_t seed;
	long slow_ms;
	bool steady, append, progress, stats, nopmu;
	bool duel;                   /* vm-012/013 alternate within 4 %, vm-014 overtakes */
	unsigned sockets;            /* per-socket CMT/MBM entries per domain */
	unsigned long pcpus;         /* per-pCPU times (0 = none) */
	unsigned long hosts;         /* a pool of this many hosts (0 = one host, no pool) */
	bool vms;                    /* KVM VMs: the VM fields and the host's VM flag */
	bool psi;                    /* Linux pressure: the PSI fields and the host's flag */
	bool waits;                  /* wait attribution: the wait fields, totals and host flag */
	unsigned long churn;         /* vm-NNN domains destroyed (and back) per sample */
	bool contention;             /* the noisy-neighbour script (contention_role) */
};

#define SOCK_MAX 8

/* Per-domain cumulative state. */
struct dstate {
	bool alive;
	uint32_t gen;
	uint64_t v[XG_F_COUNT];
	uint64_t pmu[XG_PMU_WHERE_COUNT][XG_PMU_EVENT_COUNT];
	uint64_t vc[8][4];
	uint64_t sk[SOCK_MAX][2];    /* per-socket MBM total, local */
	/* --waits: every culprit's total, the last interval's parts and WAIT */
	struct xg_wait_part wb[16];
	unsigned nwb;
	struct xg_wait_part wlast[5];
	uint64_t wait_ival;
	uint64_t wtotal, wcount, wsum, wbucket[XG_WAIT_LE_N + 1];
};

/* Socket k's share of an amount split over n sockets: weights 1, 2, .. n
 * (so sockets differ), the last socket takes the rounding rest so the
 * shares add up to the amount exactly. */
static uint64_t sock_share(uint64_t x, unsigned k, unsigned n)
{
	uint64_t w = (uint64_t)n * (n + 1) / 2, sum = 0;
	for (unsigned q = 0; q + 1 < n; q++) {
		uint64_t part = x / w * (q + 1) + x % w * (q + 1) / w;
		if (q == k)
			return part;
		sum += part;
	}
	return x - sum;
}

static uint64_t mix(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ull;
	x ^= x >> 33;
	return x;
}

/* Deterministic jitter in [-2 %, +2 %]. */
static double jitter(const struct opts *o, uint32_t id, uint32_t gen, unsigned what, unsigned long k)
{
	if (o->steady)
		return 0;
	uint64_t h = mix(o->seed ^ mix(((uint64_t)id << 32 | gen) ^ mix((uint64_t)what << 40 | k)));
	return ((double)(h % 4001) - 2000.0) / 100000.0;
}

/* --contention: six domains on two sockets. From T-5 on, "antagonist"
 * floods the shared cache (LLC misses x50, MEM-BW x16) in every window but
 * T-3, and "victim"'s cycles per instruction double while it does.
 * "decoy" bursts (and slows) in two of those windows only, T-4 and T-1:
 * it correlates with the victim by chance, in fewer than 3 windows.
 * "far-socket" floods exactly when the antagonist does, but on socket 1,
 * where the victim is not. "quiet" and Domain-0 stay steady. IPC jitters
 * by +-2 % like every other rate. */
static const char *const contention_names[] = { "Domain-0", "victim", "antagonist", "decoy",
						"far-socket", "quiet" };

static unsigned long contention_t(const struct opts *o)
{
	return o->samples ? o->samples : 30;
}

static bool antagonist_on(const struct opts *o, unsigned long k)
{
	unsigned long t = contention_t(o);
	return k + 5 >= t && k + 3 != t;
}

static bool decoy_on(const struct opts *o, unsigned long k)
{
	unsigned long t = contention_t(o);
	return k + 4 == t || k + 1 == t;
}

/* The socket domain i's memory traffic goes to (--contention). */
static unsigned contention_socket(unsigned long i)
{
	return i == 4 ? 1 : 0;
}

static void contention_role(const struct opts *o, unsigned long i, unsigned long k, struct role *r)
{
	bool a = antagonist_on(o, k), dc = decoy_on(o, k);
	switch (i) {
	case 0:
		*r = roles[0];
		break;
	case 1:
		*r = (struct role)ROLE(NULL, 2, 2, 60, 1, 1e4, 5e3, 500, 0, 1, 2, 4096, 4096,
				       2e7, a ? 0.3 : 0.1, 2e9, a ? 0.5 : 1.0, 8, 5e8, false, false);
		break;
	case 2:
	case 4:
		*r = (struct role)ROLE(NULL, 2, 2, 90, 1, 1e4, 5e3, 500, 0, 1, 2, 4096, 4096,
				       a ? 2e8 : 2e7, a ? 0.5 : 0.1, 2e9, a ? 0.95 : 1.0, a ? 24 : 4,
				       a ? 8e9 : 5e8, false, false);
		break;
	case 3:
		*r = (struct role)ROLE(NULL, 1, 1, 40, 1, 1e4, 5e3, 500, 0, 1, 2, 4096, 4096,
				       dc ? 1e8 : 1e7, dc ? 0.4 : 0.1, 1e9, dc ? 0.7 : 1.5, 4,
				       dc ? 3e9 : 2e8, false, false);
		break;
	default:
		*r = (struct role)ROLE(NULL, 1, 1, 20, 1, 1e4, 5e3, 500, 0, 1, 2, 4096, 4096,
				       1e6, 0.1, 5e8, 1.2, 2, 1e8, false, false);
		break;
	}
	r->name = contention_names[i < 6 ? i : 5];
}

static void role_of(const struct opts *o, unsigned long i, unsigned long k, struct role *r)
{
	if (o->contention) {
		contention_role(o, i, k, r);
		return;
	}
	if (i < 12) {
		*r = roles[i];
		if (i == 10 && k >= (o->samples ? o->samples : 30) / 2)
			*r = reuse_b;
		return;
	}
	if (o->duel && i >= 12 && i <= 14) {
		/* --duel: two vCPUs each; vm-012 and vm-013 at 102 % and 98 %
		 * in turn, vm-014 at 80 %, then from T/2 on at 135 %. */
		double cpu = i == 14 ? (k >= (o->samples ? o->samples : 30) / 2 ? 67.5 : 40)
				     : (((k + i) & 1) ? 51 : 49);
		*r = (struct role)ROLE(NULL, 2, 2, cpu, 0.5, 2000, 1000, 500, 0, 0.5, 2, 4096, 4096,
				       1e5, 0.2, 5e7, 1.0, 1, 1e6, false, false);
		return;
	}
	/* vm-NNN: light, index-dependent load. */
	double cpu = 0.5 + (double)(i % 7) * 0.4, rx = 2000 + 100.0 * (double)(i % 10);
	*r = (struct role)ROLE(NULL, 1, 1, cpu, 0.5, rx, rx / 2, 500, 0, 0.5, 2, 4096, 4096,
	                       1e5, 0.2, 5e7, 1.0, 1, 1e6, false, false);
}

/* --churn N: the vm-NNN domains go in turn, N a sample, each domain once
 * every this many samples. */
static unsigned long churn_cycle(const struct opts *o)
{
	unsigned long vms = o->domains > 12 ? o->domains - 12 : 0;
	return o->churn && vms ? (vms + o->churn - 1) / o->churn : 0;
}

/* With --churn, where domain i >= 12 is in its cycle at sample k: 0 =
 * destroyed (absent), 1 = created again (same id, next gen, new name,
 * counters from 0), half the cycle later = its network counters reset. */
static unsigned long churn_phase(const struct opts *o, unsigned long i, unsigned long k)
{
	unsigned long c = churn_cycle(o);
	return c && i >= 12 && k ? (k + c - (i - 12) % c) % c : ~0ul;
}

static bool present(const struct opts *o, unsigned long i, unsigned long k)
{
	unsigned long t = o->samples ? o->samples : 30;
	if (i == 8)
		return k >= t / 3;
	if (i == 9)
		return k < 2 * t / 3;
	return churn_phase(o, i, k) != 0;
}

/* Before domain i's step at sample k: a new incarnation starts from 0
 * (reuse-10 at T/2, a churned domain back), a churned one's network
 * counters go back to 0 half a cycle later. */
static void restart(const struct opts *o, unsigned long i, unsigned long k, struct dstate *st)
{
	unsigned long t = o->samples ? o->samples : 30, ph = churn_phase(o, i, k);
	if ((i == 10 && k == t / 2 && k > 0) || ph == 1) {
		uint32_t g = st->gen + 1;
		memset(st, 0, sizeof(*st));
		st->gen = g;
	} else if (ph != ~0ul && ph == churn_cycle(o) / 2 + 1) {
		static const enum xg_field net[] = { XG_F_NET_RX_BYTES, XG_F_NET_TX_BYTES, XG_F_NET_RX_PKTS,
			XG_F_NET_TX_PKTS, XG_F_NET_RX_DROP };
		for (size_t q = 0; q < XG_ARRAY_LEN(net); q++)
			st->v[net[q]] = 0;
	}
}

static uint64_t inc(const struct opts *o, uint32_t id, uint32_t gen, unsigned what, unsigned long k,
                    double rate)
{
	if (rate <= 0)
		return 0;
	return (uint64_t)llround(rate * o->interval * (1.0 + jitter(o, id, gen, what, k)));
}

/* The VM fields are a KVM host's (--group vm): without --vms nothing
 * measures them, as on Xen. */
static bool vm_field(int f)
{
	return f == XG_F_EMU_NS || f == XG_F_VM_EXITS || f == XG_F_HALT_POLL_NS || f == XG_F_SWAP;
}
/* Pressure is a Linux source's (cgroups, VMs): only with --psi. */
static bool is_psi_field(int f)
{
	return f >= XG_F_PSI_CPU_SOME && f <= XG_F_PSI_IO_FULL;
}

/* The wait gauges come from Xen's live trace, which nothing here models:
 * never measured. */
static bool is_wait_field(int f)
{
	return f >= XG_F_BEHIND_WAIT_NS && f <= XG_F_WAIT_P99_NS;
}

/* With --waits, domain i's WAIT of interval k goes 40 % behind domain
 * i+1, 25 % behind i+2, 15 % idle, 10 % Xen and 10 % behind one of
 * i+3 .. i+6 in turn (so the top culprits are stable and 'other' grows);
 * its waits are half 0.5 ms and half 4 ms long. */
static void step_waits(const struct opts *o, unsigned long i, unsigned long k, struct dstate *st, uint64_t w)
{
	uint32_t n = (uint32_t)o->domains;
	uint32_t who[5] = { (uint32_t)((i + 1) % n), (uint32_t)((i + 2) % n), XG_BEHIND_IDLE, XG_BEHIND_XEN,
		(uint32_t)((i + 3 + k % 4) % n) };
	static const unsigned pct[5] = { 40, 25, 15, 10, 10 };
	uint64_t left = w;
	for (int p = 0; p < 5; p++) {
		uint64_t ns = p == 4 ? left : w / 100 * pct[p] + w % 100 * pct[p] / 100;
		left -= ns;
		st->wlast[p] = (struct xg_wait_part){ who[p], ns };
		unsigned q = 0;
		while (q < st->nwb && st->wb[q].who != who[p])
			q++;
		if (q == st->nwb && st->nwb < 16)
			st->wb[st->nwb++] = (struct xg_wait_part){ who[p], 0 };
		if (q < 16)
			st->wb[q].ns += ns;
	}
	st->wait_ival = w;
	st->wtotal += w;
	uint64_t pairs = w / 4500000;
	st->wcount += 2 * pairs;
	st->wsum += pairs * 4500000;
	st->wbucket[4] += pairs;   /* 0.5 ms < 2^19 ns */
	st->wbucket[7] += pairs;   /* 4 ms < 2^22 ns */
}

/* The top n parts of p (biggest first, ties by id) into out. */
static uint32_t gen_top(const struct xg_wait_part *p, unsigned np, struct xg_wait_part *out)
{
	bool used[16] = { false };
	uint32_t k = 0;
	for (; k < XG_BEHIND_TOP; k++) {
		int best = -1;
		for (unsigned q = 0; q < np; q++)
			if (!used[q] && p[q].ns &&
			    (best < 0 || p[q].ns > p[best].ns || (p[q].ns == p[best].ns && p[q].who < p[best].who)))
				best = (int)q;
		if (best < 0)
			break;
		used[best] = true;
		out[k] = p[best];
	}
	return k;
}

static void fill_waits(struct xg_sample *s, struct xg_dom *d, const struct dstate *st)
{
	struct xg_waits *w = sample_add_waits(s, d);
	w->total_ns = st->wtotal;
	w->ntop = gen_top(st->wb, st->nwb, w->top);
	w->nlast = gen_top(st->wlast, st->wait_ival ? 5 : 0, w->last);
	w->count = st->wcount;
	w->sum_ns = st->wsum;
	memcpy(w->bucket, st->wbucket, sizeof(w->bucket));
	dom_set(d, XG_F_BEHIND_WAIT_NS, st->wait_ival);
	if (w->nlast) {
		dom_set(d, XG_F_BEHIND_ID, w->last[0].who);
		dom_set(d, XG_F_BEHIND_NS, w->last[0].ns);
		dom_set(d, XG_F_WAIT_P50_NS, 500000);
		dom_set(d, XG_F_WAIT_P99_NS, 4000000);
	} else {
		for (int f = XG_F_BEHIND_NS; f <= XG_F_WAIT_P99_NS; f++)
			dom_invalid(s, d, (enum xg_field)f, "no wait ended in the interval");
	}
}

/* With --psi, domain i's pressure in % of the interval: cpu some 2 (i mod
 * 5), full half of it; memory some i mod 3, full 0; io some i mod 4, full
 * half of it (counters of stall ns). */
static void step_psi(const struct opts *o, unsigned long i, unsigned long k, struct dstate *st)
{
	uint32_t id = (uint32_t)i, g = st->gen;
	double pct[XG_PSI_RES_COUNT] = { 2.0 * (double)(i % 5), (double)(i % 3), (double)(i % 4) };
	double full[XG_PSI_RES_COUNT] = { 0.5, 0, 0.5 };
	for (int r = 0; r < XG_PSI_RES_COUNT; r++) {
		uint64_t some = inc(o, id, g, 12 + (unsigned)r, k, pct[r] / 100 * 1e9);
		st->v[psi_field((enum xg_psi_res)r, XG_PSI_SOME)] += some;
		st->v[psi_field((enum xg_psi_res)r, XG_PSI_FULL)] += (uint64_t)((double)some * full[r]);
	}
}

/* With --vms, domain i's emulator CPU is 1 + i mod 4 % of a pCPU, its
 * exits 1000 * (1 + i mod 5) per second, its halt polling 2 * (i mod 3) %
 * of a pCPU (counters), and (i mod 4) * 64 MiB of it is swapped out
 * (fill_dom). */
static void step_vm(const struct opts *o, unsigned long i, unsigned long k, struct dstate *st)
{
	uint32_t id = (uint32_t)i, g = st->gen;
	st->v[XG_F_EMU_NS] += inc(o, id, g, 9, k, (1.0 + (double)(i % 4)) / 100 * 1e9);
	st->v[XG_F_VM_EXITS] += inc(o, id, g, 10, k, 1000.0 * (double)(1 + i % 5));
	st->v[XG_F_HALT_POLL_NS] += inc(o, id, g, 11, k, 2.0 * (double)(i % 3) / 100 * 1e9);
}

static void step_dom(const struct opts *o, unsigned long i, unsigned long k, const struct role *r,
                     struct dstate *st, uint64_t ival_ns)
{
	uint32_t id = (uint32_t)i, g = st->gen;
	uint64_t wait_all = 0;
	for (unsigned v = 0; v < r->vcpus && v < 8; v++) {
		uint64_t run = (uint64_t)llround(r->cpu / 100 * (double)ival_ns * (1 + jitter(o, id, g, 100 + v, k)));
		uint64_t wait = (uint64_t)llround(r->wait / 100 * (double)ival_ns * (1 + jitter(o, id, g, 200 + v, k)));
		uint64_t blk = run + wait < ival_ns ? ival_ns - run - wait : 0;
		st->vc[v][0] += run;
		st->vc[v][1] += wait;
		st->vc[v][2] += blk;
		wait_all += wait;
	}
	if (o->waits)
		step_waits(o, i, k, st, wait_all);
	uint64_t rx = inc(o, id, g, 1, k, r->rx), tx = inc(o, id, g, 2, k, r->tx);
	st->v[XG_F_NET_RX_BYTES] += rx;
	st->v[XG_F_NET_TX_BYTES] += tx;
	st->v[XG_F_NET_RX_PKTS] += (uint64_t)((double)rx / r->pkt);
	st->v[XG_F_NET_TX_PKTS] += (uint64_t)((double)tx / r->pkt);
	st->v[XG_F_NET_RX_DROP] += inc(o, id, g, 3, k, r->rx_drop);
	uint64_t rd = inc(o, id, g, 4, k, r->rd_ops), wr = inc(o, id, g, 5, k, r->wr_ops);
	st->v[XG_F_DISK_RD_OPS] += rd;
	st->v[XG_F_DISK_WR_OPS] += wr;
	st->v[XG_F_DISK_RD_BYTES] += rd * (uint64_t)r->rd_size;
	st->v[XG_F_DISK_WR_BYTES] += wr * (uint64_t)r->wr_size;
	uint64_t ref = inc(o, id, g, 6, k, r->llc_ref), ins = inc(o, id, g, 7, k, r->instr);
	double ipc = o->contention ? r->ipc * (1 + jitter(o, id, g, 13, k)) : r->ipc;
	uint64_t ev[XG_PMU_EVENT_COUNT] = { ref, (uint64_t)llround((double)ref * r->miss), ins,
		(uint64_t)llround((double)ins / ipc) };
	for (int e = 0; e < XG_PMU_EVENT_COUNT; e++) {
		uint64_t gu = ev[e] * 7 / 10, gk = ev[e] * 2 / 10;
		st->pmu[XG_PMU_GUEST_USER][e] += gu;
		st->pmu[XG_PMU_GUEST_KERNEL][e] += gk;
		st->pmu[XG_PMU_HOST][e] += ev[e] - gu - gk;
	}
	st->v[XG_F_LLC_REF] += ev[0];
	st->v[XG_F_LLC_MISS] += ev[1];
	st->v[XG_F_INSTR] += ev[2];
	st->v[XG_F_CYCLES] += ev[3];
	uint64_t mbm = inc(o, id, g, 8, k, r->mbm);
	st->v[XG_F_MBM_TOTAL] += mbm;
	st->v[XG_F_MBM_LOCAL] += mbm * 8 / 10;
	for (unsigned q = 0; q < o->sockets; q++) {
		if (o->contention) {   /* all of it on the domain's socket */
			bool home = q == contention_socket(i);
			st->sk[q][0] += home ? mbm : 0;
			st->sk[q][1] += home ? mbm * 8 / 10 : 0;
			continue;
		}
		st->sk[q][0] += sock_share(mbm, q, o->sockets);
		st->sk[q][1] += sock_share(mbm * 8 / 10, q, o->sockets);
	}
	if (o->vms)
		step_vm(o, i, k, st);
	if (o->psi)
		step_psi(o, i, k, st);
}

/* pCPU p's busy share in percent: 0, 10, .. 100, then again from 0. */
static double pcpu_busy_pct(unsigned long p)
{
	return 10.0 * (double)(p % 11);
}

/* Per-pCPU times: each interval splits into busy (the share above, with
 * the usual jitter, at most the interval) and idle (the rest); 0 in the
 * first sample. */
static void fill_pcpus(const struct opts *o, struct xg_sample *s, uint64_t (*pc)[2], unsigned long k,
                       uint64_t ival_ns)
{
	struct xg_pcpu *p = o->pcpus ? sample_add_pcpus(s, o->pcpus) : NULL;
	for (unsigned long q = 0; q < o->pcpus; q++) {
		if (k) {
			double share = pcpu_busy_pct(q) / 100 * (1 + jitter(o, (uint32_t)q, 0, 300, k));
			uint64_t busy = (uint64_t)llround(share * (double)ival_ns);
			busy = busy > ival_ns ? ival_ns : busy;
			pc[q][0] += busy;
			pc[q][1] += ival_ns - busy;
		}
		p[q].id = (uint32_t)q;
		p[q].valid = 1u << XG_PC_BUSY | 1u << XG_PC_IDLE;
		p[q].ns[XG_PC_BUSY] = pc[q][0];
		p[q].ns[XG_PC_IDLE] = pc[q][1];
	}
}

static void handle_of(const struct opts *o, uint32_t id, uint32_t gen, uint8_t *h)
{
	uint64_t a = mix(o->seed ^ mix((uint64_t)id << 32 | gen)), b = mix(a);
	memcpy(h, &a, 8);
	memcpy(h + 8, &b, 8);
	h[6] = (uint8_t)((h[6] & 0x0f) | 0x40);
	h[8] = (uint8_t)((h[8] & 0x3f) | 0x80);
}

static void fill_dom(const struct opts *o, struct xg_sample *s, unsigned long i, unsigned long k,
                     const struct role *r, struct dstate *st, bool last)
{
	struct xg_dom *d = sample_add_dom(s, (uint32_t)i);
	d->gen = st->gen;
	handle_of(o, d->id, d->gen, d->handle);
	if (r->name)
		snprintf(d->name, sizeof(d->name), "%s", r->name);
	else if (d->gen)
		snprintf(d->name, sizeof(d->name), "vm-%03lu.%u", i, d->gen);
	else
		snprintf(d->name, sizeof(d->name), "vm-%03lu", i);
	d->state = r->cpu >= 50 || i == 0 ? XG_ST_RUNNING : XG_ST_BLOCKED;
	if (last)
		d->state = XG_ST_SHUTDOWN | XG_ST_DYING;
	struct xg_vcpu *v = sample_add_vcpus(s, d, r->vcpus);
	uint64_t sums[4] = { 0 };
	for (unsigned c = 0; c < r->vcpus; c++) {
		v[c].id = c;
		v[c].online = 1;
		v[c].valid = 0x0f | XG_VCPU_CPU_VALID;
		for (int q = 0; q < 4; q++) {
			v[c].sched_ns[q] = st->vc[c][q];
			sums[q] += st->vc[c][q];
		}
		v[c].cpu_ns = v[c].sched_ns[0];
	}
	for (int f = 0; f < XG_F_COUNT; f++)
		if (f != XG_F_SSID && (o->vms || !vm_field(f)) && (o->psi || !is_psi_field(f)) && !is_wait_field(f))
			dom_set(d, (enum xg_field)f, st->v[f]);
	dom_set(d, XG_F_CPU_NS, sums[0]);
	dom_set(d, XG_F_RUN_NS, sums[0]);
	dom_set(d, XG_F_WAIT_NS, sums[1]);
	dom_set(d, XG_F_BLK_NS, sums[2]);
	dom_set(d, XG_F_OFF_NS, sums[3]);
	if (o->waits)
		fill_waits(s, d, st);
	dom_set(d, XG_F_VCPUS, r->vcpus);
	dom_set(d, XG_F_VCPUS_MAX, r->vcpus_max);
	uint64_t mem = i == 0 ? 4 * GIB : (1 + i % 4) * GIB;
	dom_set(d, XG_F_MEM, mem);
	dom_set(d, XG_F_MAXMEM, i == 0 ? UINT64_MAX : mem + 256 * MIB);
	dom_set(d, XG_F_NETS, 1);
	dom_set(d, XG_F_VBDS, 1);
	dom_set(d, XG_F_L3_OCC, (uint64_t)(r->l3_mib * MIB));
	if (o->vms)
		dom_set(d, XG_F_SWAP, (i % 4) * 64 * MIB);
	if (o->sockets) {
		/* As Xen's CMT reader does: one entry per socket, the domain's
		 * figures their sums; entries stay (invalid) when the CPU lacks
		 * the events (nocache below). */
		struct xg_sock *ks = sample_add_socks(s, d, o->sockets);
		uint64_t occ = d->v[XG_F_L3_OCC];
		for (unsigned q = 0; q < o->sockets; q++) {
			ks[q].socket = q;
			ks[q].v[XG_SOCK_L3_OCC] = !o->contention ? sock_share(occ, q, o->sockets)
					       : q == contention_socket(i) ? occ : 0;
			ks[q].v[XG_SOCK_MBM_TOTAL] = st->sk[q][0];
			ks[q].v[XG_SOCK_MBM_LOCAL] = st->sk[q][1];
			ks[q].valid = (1u << XG_SOCK_EVENT_COUNT) - 1;
			if (r->nocache) {
				memset(ks[q].v, 0, sizeof(ks[q].v));
				ks[q].valid = 0;
			}
		}
	}
	if (r->breakdown) {
		memcpy(d->pmu, st->pmu, sizeof(d->pmu));
		d->pmu_valid = (1ull << (XG_PMU_WHERE_COUNT * XG_PMU_EVENT_COUNT)) - 1;
	}
	if (r->nocache) {
		static const enum xg_field pmu[] = { XG_F_LLC_REF, XG_F_LLC_MISS, XG_F_INSTR, XG_F_CYCLES };
		static const enum xg_field cmt[] = { XG_F_L3_OCC, XG_F_MBM_TOTAL, XG_F_MBM_LOCAL };
		/* As a source would: nothing measured, value 0, a reason. */
		for (size_t q = 0; q < 4; q++) {
			dom_invalid(s, d, pmu[q], "no PMU access for this domain (xgtop-gen)");
			d->v[pmu[q]] = 0;
		}
		for (size_t q = 0; q < 3; q++) {
			dom_invalid(s, d, cmt[q], "CMT/MBM not supported (xgtop-gen)");
			d->v[cmt[q]] = 0;
		}
		d->pmu_valid = 0;
		memset(d->pmu, 0, sizeof(d->pmu));
	}
	(void)k;
}

/* A pool (--hosts N), as the remote source builds one: domain i goes to
 * host i * N / domains, ids counted from 0 again on each host (so hosts
 * share ids, as separate machines do), one peer entry per host with its
 * own clocks. Host 1 misses every fifth refresh: it is stale, with a
 * reason, and keeps the clocks of its last answer. */
static void fill_peers(const struct opts *o, struct xg_sample *s, unsigned long k, uint64_t ival)
{
	unsigned long n = o->domains ? o->domains : 1, N = o->hosts;
	for (size_t j = 0; j < s->ndom; j++) {
		struct xg_dom *d = &s->dom[j];
		unsigned long i = d->id, h = i * N / n;
		d->host = (uint16_t)h;
		d->id = (uint32_t)(i - (h * n + N - 1) / N);
	}
	for (unsigned long h = 0; h < N; h++) {
		char name[32];
		snprintf(name, sizeof(name), "gen-%lu", h);
		struct xg_peer *p = sample_add_peer(s, name);
		p->stale = h == 1 && k % 5 == 4;
		if (p->stale)
			p->why = sample_reason(s, "host gen-1: no answer (xgtop-gen)");
		unsigned long at = p->stale ? k - 1 : k;
		p->host = s->host;
		p->host.self_cpu_ns = 0;   /* not a pool host's figure */
		p->host.valid &= ~(1u << XG_H_SELF_CPU);
		p->host.mono_ns = 2000000000000ull * (h + 1) + at * ival;
		p->host.real_ns = s->host.real_ns - (k - at) * ival;
		p->host.mem_total = (h + 1) * 32 * GIB;
		p->host.mem_free = (h + 1) * GIB;
		snprintf(p->host.hostname, sizeof(p->host.hostname), "%s", name);
	}
}

static int generate(const struct opts *o, const char *out)
{
	struct xg_err err = { 0 };
	if (!o->append && unlink(out) < 0 && errno != ENOENT) {
		fprintf(stderr, "xgtop-gen: %s: %s\n", out, strerror(errno));
		return 1;
	}
	struct xg_recorder *rec = recorder_open(out, &err);
	if (!rec) {
		fprintf(stderr, "xgtop-gen: %s\n", err.msg);
		return 1;
	}
	unsigned long n = o->domains, t = o->samples ? o->samples : 30;
	struct dstate *st = calloc(n, sizeof(*st));
	uint64_t (*pc)[2] = calloc(o->pcpus ? o->pcpus : 1, sizeof(*pc));
	uint64_t ival = (uint64_t)llround(o->interval * 1e9);
	struct xg_sample s, last;   /* last: appended before s, the recorder's baseline */
	sample_init(&s);
	sample_init(&last);
	uint64_t self = 0, append_ns = 0, doms = 0;
	for (unsigned long k = 0; !o->samples || k < o->samples; k++) {
		sample_clear(&s);
		snprintf(s.host.source, sizeof(s.host.source), "xen");
		snprintf(s.host.hypervisor, sizeof(s.host.hypervisor), "Xen 4.17.0 (xgtop-gen)");
		snprintf(s.host.hostname, sizeof(s.host.hostname), "xgtop-gen");
		snprintf(s.host.sched, sizeof(s.host.sched), "credit2");
		if (!o->nopmu)
			snprintf(s.host.cache_events, sizeof(s.host.cache_events), "LLC references/misses (xgtop-gen)");
		s.host.mono_ns = 1000000000000ull + k * ival;
		s.host.real_ns = 1767225600000000000ull + k * ival;
		s.host.pcpus = o->pcpus ? (uint32_t)o->pcpus : n <= 64 ? 16 : 64;
		s.host.cpu_khz = 2400000;
		s.host.mem_total = n <= 64 ? 64 * GIB : 16384 * GIB;
		self += 2000000 + 2000 * n;
		s.host.self_cpu_ns = self;
		s.host.valid = 1u << XG_H_PCPUS | 1u << XG_H_CPU_KHZ | 1u << XG_H_MEM | 1u << XG_H_SELF_CPU |
			       (o->vms ? 1u << XG_H_VMS : 0) | (o->psi ? 1u << XG_H_PSI : 0) |
			       (o->waits ? 1u << XG_H_WAITS : 0);
		sample_invalid_all(&s, XG_F_SSID, "no XSM/FLASK policy (xgtop-gen)");
		fill_pcpus(o, &s, pc, k, ival);
		uint64_t used = 0;
		for (unsigned long i = 0; i < n; i++) {
			struct role r;
			role_of(o, i, k, &r);
			r.nocache |= o->nopmu;
			if (!present(o, i, k)) {
				st[i].alive = false;
				continue;
			}
			restart(o, i, k, &st[i]);
			if (st[i].alive)
				step_dom(o, i, k, &r, &st[i], ival);
			st[i].alive = true;
			fill_dom(o, &s, i, k, &r, &st[i], i == 9 && k + 1 == 2 * t / 3);
			used += s.dom[s.ndom - 1].v[XG_F_MEM];
		}
		s.host.mem_free = s.host.mem_total > used ? s.host.mem_total - used : 0;
		if (o->hosts)
			fill_peers(o, &s, k, ival);
		uint64_t t0 = xg_now_mono_ns();
		int arc = recorder_append(rec, k ? &last : NULL, &s, &err);
		append_ns += xg_now_mono_ns() - t0;
		doms += s.ndom;
		if (arc < 0) {
			fprintf(stderr, "xgtop-gen: %s\n", err.msg);
			return 1;
		}
		struct xg_sample t = last;
		last = s;
		s = t;
		if (o->progress) {
			printf("appended %lu\n", k + 1);
			fflush(stdout);
		}
		if (o->slow_ms > 0)
			nanosleep(&(struct timespec){ o->slow_ms / 1000, (o->slow_ms % 1000) * 1000000 }, NULL);
	}
	sample_free(&s);
	sample_free(&last);
	free(st);
	free(pc);
	if (recorder_close(rec, &err) < 0) {
		fprintf(stderr, "xgtop-gen: %s\n", err.msg);
		return 1;
	}
	if (o->stats && o->samples) {
		struct stat stt;
		if (stat(out, &stt) == 0)
			printf("%lu samples, %" PRIu64 " domain-samples, %lld bytes, %.2f bytes/domain-sample, "
			       "%.3f ms per append\n", o->samples, doms, (long long)stt.st_size,
			       (double)stt.st_size / (double)(doms ? doms : 1),
			       (double)append_ns / 1e6 / (double)o->samples);
	}
	return 0;
}

enum readback { RB_VERIFY, RB_DUMP, RB_DUMP_PCPUS, RB_DUMP_HOSTS };

/* A TSV value: the number, or '-' when not measured. */
static void put_value(bool valid, uint64_t v)
{
	if (valid)
		printf("\t%" PRIu64, v);
	else
		printf("\t-");
}

static void dump_doms(unsigned long n, const struct xg_sample *sp)
{
	for (size_t i = 0; i < sp->ndom; i++) {
		const struct xg_dom *d = &sp->dom[i];
		printf("%lu\t%" PRIu64 "\t%u\t%u\t", n, sp->host.mono_ns, d->id, d->gen);
		for (const char *c = d->name; *c; c++)
			printf("%02x", (unsigned char)*c);
		for (int f = 0; f < XG_F_COUNT; f++)
			put_value(dom_has(d, (enum xg_field)f), d->v[f]);
		/* socket:valid(hex):occupancy:mbm_total:mbm_local, ... */
		printf("\t");
		if (!d->sock_count)
			printf("-");
		for (uint32_t q = 0; q < d->sock_count; q++) {
			const struct xg_sock *k = &sample_socks(sp, d)[q];
			printf("%s%u:%x:%" PRIu64 ":%" PRIu64 ":%" PRIu64, q ? "," : "", k->socket,
			       k->valid, k->v[0], k->v[1], k->v[2]);
		}
		printf("\n");
	}
}

/* One line per pCPU entry: sample mono_ns pcpu busy_ns idle_ns ('-' =
 * invalid), or one line "sample mono_ns - why" when there are none and a
 * reason is given. */
static void dump_pcpus(unsigned long n, const struct xg_sample *sp)
{
	if (!sp->npcpu && sp->pcpu_why && sp->pcpu_why < sp->nreason)
		printf("%lu\t%" PRIu64 "\t-\t%s\n", n, sp->host.mono_ns, sp->reason[sp->pcpu_why]);
	for (size_t i = 0; i < sp->npcpu; i++) {
		const struct xg_pcpu *p = &sp->pcpu[i];
		printf("%lu\t%" PRIu64 "\t%u", n, sp->host.mono_ns, p->id);
		for (int t = 0; t < XG_PC_COUNT; t++)
			put_value(pcpu_has(p, (enum xg_pcpu_time)t), p->ns[t]);
		printf("\n");
	}
}

static void put_hex(const char *s)
{
	printf("\t");
	if (!*s)
		printf("-");
	for (; *s; s++)
		printf("%02x", (unsigned char)*s);
}

/* One line per pool host: sample mono_ns host name_hex stale why_hex ndom
 * mono real pcpus cpu_khz mem_total mem_free lost valid(hex), its five
 * texts in hex ('-' = empty), and the ids of its domains in order. */
static void dump_hosts(unsigned long n, const struct xg_sample *sp)
{
	for (size_t i = 0; i < sp->npeer; i++) {
		const struct xg_peer *p = &sp->peer[i];
		const struct xg_host *h = &p->host;
		size_t nd = 0;
		for (size_t j = 0; j < sp->ndom; j++)
			nd += sp->dom[j].host == i;
		printf("%lu\t%" PRIu64 "\t%zu", n, sp->host.mono_ns, i);
		put_hex(p->name);
		printf("\t%u", p->stale);
		put_hex(p->why && p->why < sp->nreason ? sp->reason[p->why] : "");
		printf("\t%zu", nd);
		const uint64_t num[] = { h->mono_ns, h->real_ns, h->pcpus, h->cpu_khz, h->mem_total,
			h->mem_free, h->lost_records };
		for (size_t k = 0; k < XG_ARRAY_LEN(num); k++)
			printf("\t%" PRIu64, num[k]);
		printf("\t%" PRIx64, h->valid);
		const char *text[] = { h->source, h->hypervisor, h->hostname, h->sched, h->cache_events };
		for (size_t k = 0; k < XG_ARRAY_LEN(text); k++)
			put_hex(text[k]);
		printf("\t");
		const char *sep = "";
		for (size_t j = 0; j < sp->ndom; j++)
			if (sp->dom[j].host == i) {
				printf("%s%u", sep, sp->dom[j].id);
				sep = ",";
			}
		printf("%s\n", *sep ? "" : "-");
	}
}

static int read_back(const char *path, enum readback mode)
{
	struct xg_err err = { 0 };
	struct xg_reader *r = reader_open(path, &err);
	if (!r) {
		fprintf(stderr, "xgtop-gen: %s\n", err.msg);
		return 1;
	}
	struct xg_sample sv[2];
	sample_init(&sv[0]);
	sample_init(&sv[1]);
	unsigned long n = 0;
	size_t last = 0, doms = 0;
	int rc;
	if (mode == RB_DUMP) {
		printf("sample\tmono_ns\tid\tgen\tname_hex");
		for (int f = 0; f < XG_F_COUNT; f++)
			printf("\t%s", field_name((enum xg_field)f));
		printf("\tsockets\n");
	}
	if (mode == RB_DUMP_PCPUS)
		printf("sample\tmono_ns\tpcpu\tbusy_ns\tidle_ns\n");
	if (mode == RB_DUMP_HOSTS)
		printf("sample\tmono_ns\thost\tname_hex\tstale\twhy_hex\tndom\thost_mono\thost_real\tpcpus\t"
		       "cpu_khz\tmem_total\tmem_free\tlost\tvalid\tsource\thypervisor\thostname\tsched\t"
		       "cache_events\tids\n");
	while ((rc = reader_next(r, n ? &sv[(n - 1) & 1] : NULL, &sv[n & 1], &err)) == 0) {
		const struct xg_sample *sp = &sv[n & 1];
		if (mode == RB_DUMP)
			dump_doms(n, sp);
		else if (mode == RB_DUMP_PCPUS)
			dump_pcpus(n, sp);
		else if (mode == RB_DUMP_HOSTS)
			dump_hosts(n, sp);
		n++;
		last = sp->ndom;
		doms += sp->ndom;
	}
	unsigned torn = reader_torn(r);
	reader_close(r);
	sample_free(&sv[0]);
	sample_free(&sv[1]);
	if (rc < 0) {
		fprintf(stderr, "xgtop-gen: %s\n", err.msg);
		return 1;
	}
	if (mode == RB_VERIFY)
		printf("samples %lu torn %u domains %zu last_domains %zu\n", n, torn, doms, last);
	return 0;
}

static void usage(FILE *f)
{
	fprintf(f, "usage: xgtop-gen [--domains N] [--samples T] [--interval S] [--seed K]\n"
	           "                 [--steady] [--nopmu] [--sockets N] [--pcpus N] [--hosts N] [--vms] [--psi]\n"
	           "                 [--waits]\n"
	           "                 [--slow MS] [--churn N] [--duel] [--contention]\n"
	           "                 [--progress] [--stats] [--append] OUT\n"
	           "       xgtop-gen --verify FILE | --dump FILE | --dump-pcpus FILE | --dump-hosts FILE\n"
	           "Writes a recording with the scripted load of doc/recording.md (T = 0: forever).\n");
}

static bool num(const char *s, double *v)
{
	return s && xg_parse_double(s, v);
}

int main(int argc, char **argv)
{
	struct opts o = { .domains = 12, .samples = 30, .interval = 1, .seed = 1 };
	const char *out = NULL;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		double d;
		uint64_t u;
		static const struct { const char *opt; enum readback mode; } rb[] = {
			{ "--verify", RB_VERIFY }, { "--dump", RB_DUMP }, { "--dump-pcpus", RB_DUMP_PCPUS },
			{ "--dump-hosts", RB_DUMP_HOSTS },
		};
		size_t m = 0;
		while (m < XG_ARRAY_LEN(rb) && strcmp(a, rb[m].opt))
			m++;
		if (m < XG_ARRAY_LEN(rb)) {
			if (!v) {
				usage(stderr);
				return 2;
			}
			return read_back(v, rb[m].mode);
		} else if (!strcmp(a, "--domains") && v && xg_parse_u64(v, &u) && u <= 1000000) {
			o.domains = (unsigned long)u;
		} else if (!strcmp(a, "--samples") && v && xg_parse_u64(v, &u)) {
			o.samples = (unsigned long)u;
		} else if (!strcmp(a, "--interval") && num(v, &d) && d > 0) {
			o.interval = d;
		} else if (!strcmp(a, "--seed") && v && xg_parse_u64(v, &u)) {
			o.seed = u;
		} else if (!strcmp(a, "--sockets") && v && xg_parse_u64(v, &u) && u <= SOCK_MAX) {
			o.sockets = (unsigned)u;
		} else if (!strcmp(a, "--pcpus") && v && xg_parse_u64(v, &u) && u <= 65536) {
			o.pcpus = (unsigned long)u;
		} else if (!strcmp(a, "--hosts") && v && xg_parse_u64(v, &u) && u >= 1 && u <= 64) {
			o.hosts = (unsigned long)u;
		} else if (!strcmp(a, "--churn") && v && xg_parse_u64(v, &u)) {
			o.churn = (unsigned long)u;
		} else if (!strcmp(a, "--slow") && v && xg_parse_u64(v, &u)) {
			o.slow_ms = (long)u;
		} else if (!strcmp(a, "--contention")) {
			o.contention = true;
			continue;
		} else if (!strcmp(a, "--duel")) {
			o.duel = true;
			continue;
		} else if (!strcmp(a, "--steady")) {
			o.steady = true;
			continue;
		} else if (!strcmp(a, "--append")) {
			o.append = true;
			continue;
		} else if (!strcmp(a, "--nopmu")) {
			o.nopmu = true;
			continue;
		} else if (!strcmp(a, "--vms")) {
			o.vms = true;
			continue;
		} else if (!strcmp(a, "--waits")) {
			o.waits = true;
			continue;
		} else if (!strcmp(a, "--psi")) {
			o.psi = true;
			continue;
		} else if (!strcmp(a, "--stats")) {
			o.stats = true;
			continue;
		} else if (!strcmp(a, "--progress")) {
			o.progress = true;
			continue;
		} else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			usage(stdout);
			return 0;
		} else if (a[0] != '-' && !out) {
			out = a;
			continue;
		} else {
			fprintf(stderr, "xgtop-gen: bad argument '%s'\n", a);
			usage(stderr);
			return 2;
		}
		i++;
	}
	if (!out) {
		usage(stderr);
		return 2;
	}
	if (o.contention) {   /* its six domains, on two sockets */
		o.domains = 6;
		if (!o.sockets)
			o.sockets = 2;
	}
	return generate(&o, out);
}
