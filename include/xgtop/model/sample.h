/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A host sample: what one source saw at one instant. Counters are
 * cumulative (never rates); every field has a validity bit, and an invalid
 * field keeps the reason it could not be measured. */
#ifndef XGTOP_SAMPLE_H
#define XGTOP_SAMPLE_H

#include "xgtop/core/common.h"

/* Per-domain fields. Counters (C) are cumulative since some origin the
 * source chooses; gauges (G) are instantaneous. The order is part of the
 * recording format: append only, never reorder. */
enum xg_field {
	XG_F_CPU_NS,        /* C ns of CPU time used by all vCPUs */
	XG_F_VCPUS,         /* G vCPUs online (or threads for a process group) */
	XG_F_VCPUS_MAX,     /* G vCPUs configured (xentop's VCPUS) */
	XG_F_MEM,           /* G bytes of memory in use */
	XG_F_MAXMEM,        /* G bytes of memory limit (UINT64_MAX = no limit) */
	XG_F_NETS,          /* G number of network interfaces */
	XG_F_NET_RX_BYTES,  /* C bytes received by the guest */
	XG_F_NET_TX_BYTES,  /* C bytes sent by the guest */
	XG_F_NET_RX_PKTS,   /* C */
	XG_F_NET_TX_PKTS,   /* C */
	XG_F_NET_RX_ERRS,   /* C */
	XG_F_NET_TX_ERRS,   /* C */
	XG_F_NET_RX_DROP,   /* C */
	XG_F_NET_TX_DROP,   /* C */
	XG_F_VBDS,          /* G number of block devices */
	XG_F_DISK_RD_OPS,   /* C read requests */
	XG_F_DISK_WR_OPS,   /* C write requests */
	XG_F_DISK_RD_BYTES, /* C bytes read (sectors x 512 on Xen) */
	XG_F_DISK_WR_BYTES, /* C bytes written */
	XG_F_DISK_OO,       /* C blkback out-of-request events */
	XG_F_RUN_NS,        /* C ns running, summed over vCPUs/threads */
	XG_F_WAIT_NS,       /* C ns runnable but waiting for a CPU */
	XG_F_BLK_NS,        /* C ns blocked (sleeping / waiting for an event) */
	XG_F_OFF_NS,        /* C ns offline (vCPU down / paused) */
	XG_F_LLC_REF,       /* C LLC references (scaled for multiplexing) */
	XG_F_LLC_MISS,      /* C LLC misses (scaled) */
	XG_F_INSTR,         /* C instructions retired (scaled) */
	XG_F_CYCLES,        /* C CPU cycles (scaled) */
	XG_F_L3_OCC,        /* G bytes of L3 occupied (Intel CMT) */
	XG_F_MBM_TOTAL,     /* C bytes of memory traffic (Intel MBM total) */
	XG_F_MBM_LOCAL,     /* C bytes of local memory traffic (Intel MBM local) */
	XG_F_SSID,          /* G XSM ssidref */
	XG_F_EMU_NS,        /* C ns of CPU used by a VM's threads that are not
	                       vCPUs (emulator, I/O); cpu_ns = vCPUs + this */
	XG_F_VM_EXITS,      /* C exits from guest mode (KVM) */
	XG_F_HALT_POLL_NS,  /* C ns the vCPUs spent halt-polling (KVM) */
	XG_F_SWAP,          /* G bytes swapped out */
	/* Linux pressure stall information (PSI) of the domain's cgroup: the
	 * `total=` of the some/full lines of cpu.pressure, memory.pressure and
	 * io.pressure, in ns (the files count us). In resource order cpu,
	 * memory, io, some before full: psi_field() indexes them. */
	XG_F_PSI_CPU_SOME,  /* C ns some task of the group waited for a CPU */
	XG_F_PSI_CPU_FULL,  /* C ns all its non-idle tasks waited for a CPU */
	XG_F_PSI_MEM_SOME,  /* C ns some task stalled on memory (reclaim, swap-in, thrashing) */
	XG_F_PSI_MEM_FULL,  /* C ns all its non-idle tasks stalled on memory */
	XG_F_PSI_IO_SOME,   /* C ns some task waited for I/O */
	XG_F_PSI_IO_FULL,   /* C ns all its non-idle tasks waited for I/O */
	/* Who the domain waited behind, and how long each wait was, over the
	 * source's last interval (Xen's live scheduler trace): gauges of the
	 * waits (runnable intervals) that ended in it. */
	XG_F_BEHIND_WAIT_NS, /* G ns of those waits, all culprits (the parts add up to it) */
	XG_F_BEHIND_NS,     /* G ns of it behind the top culprit */
	XG_F_BEHIND_ID,     /* G the top culprit: a domid, XG_BEHIND_IDLE or XG_BEHIND_XEN */
	XG_F_WAIT_P50_NS,   /* G median length of the waits that ended in running */
	XG_F_WAIT_P99_NS,   /* G their 99th percentile */
	XG_F_COUNT
};
/* XG_F_BEHIND_ID's values that are not a domain: the pCPU was idle, or
 * Xen itself ran there (between two vCPUs, or nothing known). */
#define XG_BEHIND_IDLE 32767u
#define XG_BEHIND_XEN 65536u
/* Pressure: the resources and the two lines of each file. */
enum xg_psi_res { XG_PSI_CPU, XG_PSI_MEM, XG_PSI_IO, XG_PSI_RES_COUNT };
enum xg_psi_kind { XG_PSI_SOME, XG_PSI_FULL, XG_PSI_KIND_COUNT };
static inline enum xg_field psi_field(enum xg_psi_res r, enum xg_psi_kind k)
{
	return (enum xg_field)(XG_F_PSI_CPU_SOME + r * XG_PSI_KIND_COUNT + k);
}
/* Valid masks (and a recording's 'd' lines) have one bit per field. */
_Static_assert(XG_F_COUNT <= 64, "at most 64 domain fields");

/* Where PMU events happened, for the cache breakdown (`m` key). The
 * XG_F_LLC_* fields above hold the sum over all of these. */
enum xg_pmu_where {
	XG_PMU_GUEST_USER,
	XG_PMU_GUEST_KERNEL,
	XG_PMU_HOST,        /* host kernel / hypervisor on behalf of the domain */
	XG_PMU_WHERE_COUNT
};
enum xg_pmu_event { XG_PMU_REF, XG_PMU_MISS, XG_PMU_INSTR, XG_PMU_CYCLES, XG_PMU_EVENT_COUNT };

/* State flags, in xentop's letter order d s b c p r. */
enum xg_state {
	XG_ST_DYING    = 1u << 0,
	XG_ST_SHUTDOWN = 1u << 1,
	XG_ST_BLOCKED  = 1u << 2,
	XG_ST_CRASHED  = 1u << 3,
	XG_ST_PAUSED   = 1u << 4,
	XG_ST_RUNNING  = 1u << 5,
};

/* Per-socket CMT/MBM events: occupancy, MBM total, MBM local. */
enum xg_sock_event { XG_SOCK_L3_OCC, XG_SOCK_MBM_TOTAL, XG_SOCK_MBM_LOCAL, XG_SOCK_EVENT_COUNT };

#define XG_NAME_MAX 128
#define XG_REASON_MAX 64   /* distinct reasons per sample; index 0 = none */

/* Where a vCPU's time goes, as Xen's runstates name it (on Linux: on a CPU,
 * runnable but waiting for one, sleeping). Indexes xg_vcpu.sched_ns and the
 * RUN%/WAIT%/BLK%/OFF% columns, in that order; part of the recording format. */
enum xg_runstate {
	XG_RS_RUNNING,
	XG_RS_RUNNABLE,     /* waiting for a pCPU: WAIT% */
	XG_RS_BLOCKED,
	XG_RS_OFFLINE,
	XG_RS_COUNT
};

struct xg_vcpu {
	uint32_t id;
	uint8_t online;
	uint8_t valid;        /* bit r set: sched_ns[r] valid; XG_VCPU_CPU_VALID: cpu_ns */
	uint64_t cpu_ns;      /* C */
	uint64_t sched_ns[XG_RS_COUNT]; /* C ns per enum xg_runstate */
};
#define XG_VCPU_CPU_VALID 0x80
/* Every runstate bit of xg_vcpu.valid. */
#define XG_VCPU_SCHED_ALL ((1u << XG_RS_COUNT) - 1)

/* The domain field that sums runstate r over the domain's vCPUs. */
static inline enum xg_field sched_field(enum xg_runstate r)
{
	_Static_assert(XG_F_WAIT_NS == XG_F_RUN_NS + XG_RS_RUNNABLE &&
		       XG_F_BLK_NS == XG_F_RUN_NS + XG_RS_BLOCKED &&
		       XG_F_OFF_NS == XG_F_RUN_NS + XG_RS_OFFLINE, "runstate fields in runstate order");
	return (enum xg_field)(XG_F_RUN_NS + r);
}
static inline bool vcpu_has_sched(const struct xg_vcpu *v, enum xg_runstate r)
{
	return (v->valid >> r) & 1;
}
static inline bool vcpu_has_cpu(const struct xg_vcpu *v)
{
	return v->valid & XG_VCPU_CPU_VALID;
}

struct xg_dom {
	uint32_t id;                /* domid, cgroup/process-group id */
	uint8_t handle[16];         /* uuid / handle; all zero when unknown */
	uint32_t gen;               /* bumped by the source when it knows the
	                               domain restarted under the same id */
	char name[XG_NAME_MAX];     /* raw bytes as the source gave them */
	uint32_t state;             /* enum xg_state bits */
	uint8_t guest_reported;     /* PMU figures published by an in-guest agent */
	uint64_t valid;             /* bit f set: v[f] measured */
	uint8_t why[XG_F_COUNT];    /* reason index when invalid, 0 = none given */
	uint64_t v[XG_F_COUNT];
	uint64_t pmu_valid;         /* bit (where*XG_PMU_EVENT_COUNT+ev) */
	uint64_t pmu[XG_PMU_WHERE_COUNT][XG_PMU_EVENT_COUNT];
	uint32_t vcpu_first, vcpu_count;  /* slice of xg_sample.vcpu */
	uint32_t sock_first, sock_count;  /* slice of xg_sample.sock */
	uint16_t host;              /* index in xg_sample.peer (pool view), else 0;
	                               (host, id) is the domain's identity */
	uint32_t wait_ix;           /* its xg_waits entry + 1 in xg_sample.wait, 0 none */
};

/* "Is this the same domain as before?" Ids alone do not say it: Xen reuses
 * domids, cgroup and process ids come back. A consumer that keeps state per
 * domain between samples keeps its xg_dom_ident and asks dom_same(). */
struct xg_dom_ident {
	uint32_t id;
	uint32_t gen;
	uint8_t handle[16];
	char name[XG_NAME_MAX];
};
/* How much of the identity must match. */
enum xg_same {
	/* Same id, handle (uuid) and gen: the same object in the hypervisor
	 * or kernel. A rename (xl rename keeps domid, handle and RMID) is the
	 * same object, so what belongs to the object carries over: CMT's RMID
	 * (attached once, detached once), the guest agent's totals. */
	XG_SAME_OBJECT,
	/* ... and the same name: the same row for a reader. A rename starts a
	 * new rate baseline (metrics) and a new 'D' record (recorder). */
	XG_SAME_ROW,
};
struct xg_dom_ident dom_ident(const struct xg_dom *d);
/* Whether now is the domain was was, as far as `how` asks. Names compare
 * as raw bytes up to their NUL or XG_NAME_MAX. */
bool dom_same(const struct xg_dom_ident *was, const struct xg_dom *now, enum xg_same how);
/* The same rule between two samples' domains, without copying was's
 * identity first (metrics asks it for every domain and refresh). */
bool dom_same_dom(const struct xg_dom *was, const struct xg_dom *now, enum xg_same how);
/* Two names of XG_NAME_MAX bytes each (whole arrays: it reads them in
 * words): equal up to the first NUL, as strncmp(a, b, XG_NAME_MAX) == 0. */
bool dom_names_equal(const char *a, const char *b);

/* Per-domain state a consumer carries from one sample to the next (CMT's
 * RMIDs, the guest agent's totals): entries of `size` bytes, each starting
 * with its domain's struct xg_dom_ident, in id order. Each refresh:
 * carry_begin, carry_take for domains of a sorted sample in id order,
 * carry_end; entries not taken again are dropped. */
struct xg_carry {
	size_t size;           /* bytes per entry */
	void *cur;             /* the last refresh's entries, n of them */
	size_t n, cap;
	void *next;            /* this refresh's, being taken */
	size_t nnext, next_cap;
	size_t cursor;         /* how far this refresh has walked cur */
};
void carry_init(struct xg_carry *c, size_t size);
void carry_free(struct xg_carry *c);
/* Room for max entries this refresh: the first max that carry_take
 * returns stay where they are until the next carry_begin. */
void carry_begin(struct xg_carry *c, size_t max);
/* d's entry for this refresh: a copy of last refresh's entry if d is still
 * that domain (dom_same with `how`), else zeroed; either way its identity
 * is now d's. */
void *carry_take(struct xg_carry *c, const struct xg_dom *d, enum xg_same how);
void carry_end(struct xg_carry *c);
/* Entry i (< c->n) of the last refresh. */
static inline void *carry_at(const struct xg_carry *c, size_t i)
{
	return (char *)c->cur + i * c->size;
}

/* Intel CMT/MBM of one domain on one socket (L3 domain), for the breakdown
 * under `m`; the domain's XG_F_L3_OCC / XG_F_MBM_* fields hold the sums.
 * Kept in a pool beside the domains (like vCPUs): most domains have none,
 * and a fixed array in every domain cost 200 bytes each. */
struct xg_sock {
	uint32_t socket;      /* socket index, 0.. */
	uint8_t valid;        /* bit e set: v[e] measured (enum xg_sock_event) */
	uint64_t v[XG_SOCK_EVENT_COUNT]; /* same units and rules as the sums */
};

/* Who a domain waited behind, by culprit, and how long its waits were:
 * cumulative counters since the source began attributing waits (Xen's
 * live trace), kept in a pool beside the domains (most sources have
 * none). Culprits are domids, XG_BEHIND_IDLE or XG_BEHIND_XEN. Bounded:
 * the source keeps every culprit's running total and gives the
 * XG_BEHIND_TOP largest; the rest is total_ns minus them, which never
 * decreases (it is the sum of the smallest totals). */
#define XG_BEHIND_TOP 3
/* Wait-length buckets: bucket i counts the waits shorter than
 * xg_wait_le_ns[i] and not shorter than xg_wait_le_ns[i - 1]; the last
 * one (i == XG_WAIT_LE_N) the longer ones. Powers of two of ns, so they
 * are edges of the trace accounting's finer histogram. */
#define XG_WAIT_LE_N 13
extern const uint64_t xg_wait_le_ns[XG_WAIT_LE_N];
struct xg_wait_part {
	uint32_t who;
	uint64_t ns;
};
struct xg_waits {
	uint64_t total_ns;          /* C WAIT of the waits that ended, all culprits */
	uint32_t ntop;              /* entries of top[] in use */
	struct xg_wait_part top[XG_BEHIND_TOP]; /* C the largest culprits' totals, biggest first */
	uint32_t nlast;             /* entries of last[] in use */
	struct xg_wait_part last[XG_BEHIND_TOP]; /* G the last interval's largest parts of
	                               XG_F_BEHIND_WAIT_NS, biggest first */
	uint64_t count;             /* C waits that ended in running (the lengths) */
	uint64_t sum_ns;            /* C their lengths */
	uint64_t bucket[XG_WAIT_LE_N + 1]; /* C of those waits, per length bucket */
};

/* One physical CPU's time: cumulative ns since an origin the source
 * chooses, for the per-pCPU meters. Kept in a pool beside the domains, in
 * pCPU id order. A source that knows only the idle time (Xen) leaves busy
 * invalid: metrics then take the rest of the interval as busy. */
enum xg_pcpu_time { XG_PC_BUSY, XG_PC_IDLE, XG_PC_COUNT };

struct xg_pcpu {
	uint32_t id;          /* pCPU number, 0.. */
	uint8_t valid;        /* bit t set: ns[t] measured (enum xg_pcpu_time) */
	uint64_t ns[XG_PC_COUNT];
};

static inline bool pcpu_has(const struct xg_pcpu *p, enum xg_pcpu_time t)
{
	return (p->valid >> t) & 1;
}

struct xg_host {
	char source[16];            /* "xen", "linux", "replay", "trace" */
	char hypervisor[64];        /* "Xen 4.17.7", "Linux 6.1.0 (KVM)" */
	char hostname[64];
	char sched[32];             /* scheduler name when known */
	char cache_events[96];      /* what the cache columns count, e.g.
	                               "LLC_REFERENCES/LLC_MISSES (Intel arch.)" */
	uint64_t mono_ns;           /* when the sample was taken (monotonic) */
	uint64_t real_ns;           /* the same instant, wall clock */
	uint32_t pcpus;
	uint64_t cpu_khz;
	uint64_t mem_total, mem_free;  /* bytes */
	uint64_t self_cpu_ns;       /* the monitor's own CPU time (C) */
	uint64_t lost_records;      /* C trace records lost */
	uint64_t valid;             /* bit per enum xg_host_field */
};
/* XG_H_VMS is a flag, not a value: the domains are virtual machines (a
 * KVM host), so the VM columns (EMU%, EXITS/s, POLL%, SWAP) apply.
 * XG_H_PSI too: the source reads Linux pressure stall information, so the
 * pressure columns apply (each domain's figure or its reason). */
/* XG_H_WAITS: the source attributes waits (Xen's live trace), so the wait
 * columns (BEHIND, WAIT-P50 ...) apply. */
enum xg_host_field { XG_H_PCPUS, XG_H_CPU_KHZ, XG_H_MEM, XG_H_SELF_CPU, XG_H_LOST, XG_H_VMS,
	XG_H_PSI, XG_H_WAITS };

static inline bool host_has(const struct xg_host *h, enum xg_host_field f)
{
	return (h->valid >> f) & 1;
}
static inline void host_mark(struct xg_host *h, enum xg_host_field f)
{
	h->valid |= 1ull << f;
}

/* One host of a pool (--source remote): the name the HOST column shows,
 * and that host's own facts and clocks at the sample its domains come
 * from, so rates divide by its interval and MEM% by its memory. */
#define XG_PEER_NAME_MAX 64
#define XG_PEER_MAX 1024
struct xg_peer {
	char name[XG_PEER_NAME_MAX];
	struct xg_host host;
	uint8_t stale;              /* no new answer this refresh: its domains are
	                               those of its last answer, rates are `-` */
	uint8_t why;                /* reason index when stale */
	uint32_t counter_scale;     /* 0 or 1: counters as counted; K: this host's
	                               counters and clock advance K times their
	                               real change (the Prometheus source keeps
	                               the server's rates to 1/K of a unit) */
};

/* Totals over every domain a source holds, computed by the source itself
 * where it does not send every domain's figures (the Prometheus source in
 * the full-screen view asks hidden rows only for the sort column): the
 * summary line takes them instead of adding up the rows. */
struct xg_totals {
	bool cpu, wait, states;     /* which of them came */
	double cpu_pct;             /* sum of the domains' CPU% */
	double wait_pct;            /* as xg_summary.wait_pct */
	unsigned nstate[6];         /* domains by state, xentop's priority:
	                               running, blocked, paused, shutdown, crashed, dying */
	bool rows_partial;          /* some domains carry only what the sort needs (those off
	                               screen): what is made from the rows covers the others */
	uint64_t rows_fields;       /* then the fields every domain carries (the sort's) */
	bool busy;                  /* busy_vcpus came */
	double busy_vcpus;          /* the domains' running and runnable seconds per second of
	                               the interval, over every domain */
};

struct xg_sample {
	struct xg_host host;        /* a pool: the collecting host, sums of the rest */
	struct xg_peer *peer;       /* pool hosts, NULL for a local source */
	size_t npeer, peer_cap;
	struct xg_dom *dom;
	size_t ndom, dom_cap;
	struct xg_vcpu *vcpu;
	size_t nvcpu, vcpu_cap;
	struct xg_sock *sock;
	size_t nsock, sock_cap;
	struct xg_pcpu *pcpu;       /* per-pCPU times, by id; none when unknown */
	size_t npcpu, pcpu_cap;
	uint8_t pcpu_why;           /* reason index: why there are none (or some
	                               are invalid), 0 = none given */
	struct xg_waits *wait;      /* per-domain wait totals (xg_dom.wait_ix) */
	size_t nwait, wait_cap;
	uint8_t wait_why;           /* reason index: why a domain has no entry,
	                               0 = the reason of its XG_F_BEHIND_WAIT_NS */
	/* Reason strings, interned; reason[0] is unused (no reason). Reasons
	 * that apply to every domain may be given once via host_why. */
	char *reason[XG_REASON_MAX];
	size_t nreason;
	uint8_t host_why[XG_F_COUNT]; /* default reason for an invalid field */
	struct xg_totals totals;    /* from the source, when it gives them */
};

void sample_init(struct xg_sample *s);
void sample_free(struct xg_sample *s);
/* Empties s, keeping its buffers. */
void sample_clear(struct xg_sample *s);
/* Deep copy (buffers of dst reused). */
void sample_copy(struct xg_sample *dst, const struct xg_sample *src);
/* Appends a zeroed domain (all fields invalid) with the given id. */
struct xg_dom *sample_add_dom(struct xg_sample *s, uint32_t id);
/* Appends n zeroed vCPUs to the last domain added; returns the first. */
struct xg_vcpu *sample_add_vcpus(struct xg_sample *s, struct xg_dom *d, size_t n);
/* (NULL, not NULL + 0, while the sample has none: C leaves that undefined.) */
static inline struct xg_vcpu *sample_vcpus(const struct xg_sample *s, const struct xg_dom *d)
{
	return s->vcpu ? s->vcpu + d->vcpu_first : NULL;
}
/* Appends n zeroed per-socket entries to d (once per domain and sample);
 * returns the first. */
struct xg_sock *sample_add_socks(struct xg_sample *s, struct xg_dom *d, size_t n);
static inline struct xg_sock *sample_socks(const struct xg_sample *s, const struct xg_dom *d)
{
	return s->sock ? s->sock + d->sock_first : NULL;
}
/* d's wait totals: a zeroed entry the first time; returns it. */
struct xg_waits *sample_add_waits(struct xg_sample *s, struct xg_dom *d);
static inline const struct xg_waits *sample_waits(const struct xg_sample *s, const struct xg_dom *d)
{
	return d->wait_ix && d->wait_ix <= s->nwait ? &s->wait[d->wait_ix - 1] : NULL;
}
/* Why d has no wait totals (NULL when it has them). */
const char *sample_waits_why(const struct xg_sample *s, const struct xg_dom *d);
/* Appends n zeroed pCPU entries (all invalid); returns the first. */
struct xg_pcpu *sample_add_pcpus(struct xg_sample *s, size_t n);
/* Interns reason text; returns its index (1..), or 0 if the table is full. */
uint8_t sample_reason(struct xg_sample *s, const char *text);
/* Sets field f of d to v and marks it valid. */
static inline void dom_set(struct xg_dom *d, enum xg_field f, uint64_t v)
{
	d->v[f] = v;
	d->valid |= 1ull << f;
}
static inline bool dom_has(const struct xg_dom *d, enum xg_field f)
{
	return (d->valid >> f) & 1;
}
/* The same for the cache breakdown, d->pmu[w][e]. */
static inline void dom_set_pmu(struct xg_dom *d, enum xg_pmu_where w, enum xg_pmu_event e, uint64_t v)
{
	d->pmu[w][e] = v;
	d->pmu_valid |= 1ull << (w * XG_PMU_EVENT_COUNT + e);
}
static inline bool dom_has_pmu(const struct xg_dom *d, enum xg_pmu_where w, enum xg_pmu_event e)
{
	return (d->pmu_valid >> (w * XG_PMU_EVENT_COUNT + e)) & 1;
}
/* And for one socket's event e, k->v[e]. */
static inline void sock_set(struct xg_sock *k, enum xg_sock_event e, uint64_t v)
{
	k->v[e] = v;
	k->valid |= (uint8_t)(1u << e);
}
static inline void sock_invalid(struct xg_sock *k, enum xg_sock_event e)
{
	k->valid &= (uint8_t)~(1u << e);
}
static inline bool sock_has(const struct xg_sock *k, enum xg_sock_event e)
{
	return (k->valid >> e) & 1;
}
/* Marks field f of d invalid with a reason. */
void dom_invalid(struct xg_sample *s, struct xg_dom *d, enum xg_field f, const char *why);
/* Marks field f invalid for every domain (present and future) of s. */
void sample_invalid_all(struct xg_sample *s, enum xg_field f, const char *why);
/* The reason field f of d is invalid, or NULL. */
const char *dom_why(const struct xg_sample *s, const struct xg_dom *d, enum xg_field f);
/* Why no domain of s has LLC references or misses counted: the reason the
 * first such domain gives (else the host default, else "not counted").
 * NULL when some domain has them, or s has no domains: then the events in
 * host.cache_events are what the cache columns count. */
const char *sample_cache_uncounted(const struct xg_sample *s);
/* Appends a pool host (zeroed, named); returns it. */
struct xg_peer *sample_add_peer(struct xg_sample *s, const char *name);
/* The host a domain was measured on: its pool host, else the sample's. */
static inline const struct xg_host *sample_dom_host(const struct xg_sample *s, const struct xg_dom *d)
{
	return d->host < s->npeer ? &s->peer[d->host].host : &s->host;
}
/* Orders domains by (host, id). */
static inline int dom_order(const struct xg_dom *x, const struct xg_dom *y)
{
	if (x->host != y->host)
		return x->host < y->host ? -1 : 1;
	return (x->id > y->id) - (x->id < y->id);
}
/* Sorts domains by (host, id) (the order metrics and the recorder expect). */
void sample_sort(struct xg_sample *s);
/* Finds a domain by id in a sorted sample. Like strchr, the result is not
 * const: a source that owns s fills the domain it found. */
struct xg_dom *sample_find(const struct xg_sample *s, uint32_t id);

/* Stable lower-case names of the fields ("cpu_ns", "net_rx_bytes" ...), used
 * by the recorder and the JSON/CSV sinks. */
const char *field_name(enum xg_field f);

#endif
