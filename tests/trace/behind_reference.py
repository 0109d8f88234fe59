#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Independent reference for `xgtop trace --behind`: decodes an xentrace
file by itself (nothing shared with the C decoder) and splits every
runnable interval by the rule of doc/trace.md.

usage: behind_reference.py TRACE CPU_HZ                  -> CSV on stdout
       behind_reference.py TRACE CPU_HZ --compare XGTOP_CSV XGTOP_JSON
       behind_reference.py TRACE CPU_HZ --evidence

Rule: a vCPU's runnable interval [t0, t1) goes, instant by instant, to
whatever occupied the pCPU on which its record at t1 puts it running: a
domain's vCPU (that domid), the idle vCPU (idle) or nothing between two
vCPUs (xen). An interval that does not end with running uses the pCPU the
vCPU last ran on. A pCPU's occupant before its first record is the vCPU
that record shows leaving running there, else nobody (xen).

Time keeping (xgtop's native rules, restated): records of all pCPUs in
TSC order (ties: lower pCPU first, then file order); a vCPU is in its
first record's old state since the first timestamp of the file; a record
whose old state is not the state we hold makes the time since the last
change unknown (not WAIT); open intervals close at the last timestamp.
Traces with TRC_LOST_RECORDS are refused (the reference does not model
them). The idle domain has no rows: its vCPUs are runnable only while
their pCPU is busy, which is no wait for a pCPU. --compare checks xgtop's CSV (--behind -o csv) against this, each
(domid, vcpu, behind) within 0.5 % or 1 ms, and xgtop's JSON: the parts of
every domain's and vCPU's WAIT add up to its runnable_s to the ns, and
the number of complete waits per domain is the same."""
import bisect
import collections
import csv
import json
import struct
import sys

RUNNING, RUNNABLE, BLOCKED, OFFLINE = 0, 1, 2, 3
IDLE = 32767
UNKNOWN = -1


def records(path):
    """(pcpu, file order, tsc or None, event, words) of every record."""
    data = open(path, "rb").read()
    pos, order = 0, 0
    while pos < len(data):
        head, cpu, size = struct.unpack_from("<III", data, pos)
        if head & 0x0FFFFFFF != 0x1F003:
            raise SystemExit("not a chunk header at byte %d" % pos)
        pos += 12
        end = pos + size
        while pos < end:
            (word,) = struct.unpack_from("<I", data, pos)
            nwords, has_tsc = (word >> 28) & 7, word >> 31
            at = pos + 4
            tsc = None
            if has_tsc:
                (tsc,) = struct.unpack_from("<Q", data, at)
                at += 8
            words = struct.unpack_from("<%dI" % nwords, data, at)
            pos = at + 4 * nwords
            order += 1
            yield cpu, order, tsc, word & 0x0FFFFFFF, words


def load(path):
    """Runstate records in merged order, and the first and last TSC."""
    last_tsc = {}
    rs, first, last, other = [], None, None, []
    for cpu, order, tsc, ev, words in records(path):
        if tsc is None:
            tsc = last_tsc.get(cpu, 0)
        else:
            last_tsc[cpu] = tsc
            first = tsc if first is None else min(first, tsc)
            last = tsc if last is None else max(last, tsc)
        if ev == 0x1F001:
            raise SystemExit("the trace has lost records; the reference does not model them")
        if ev & 0x0FFFF00F == 0x21001 and words:
            old, new = (ev >> 8) & 0xF, (ev >> 4) & 0xF
            if old <= OFFLINE and new <= OFFLINE:
                rs.append((tsc, cpu, order, words[0] >> 16, words[0] & 0xFFFF, old, new))
        elif ev & 0x0FFFF00F == 0x21002 and words:
            rs.append((tsc, cpu, order, words[0] >> 16, words[0] & 0xFFFF, RUNNING, RUNNING))
        elif ev & 0x0FFFF000 == 0x22000:
            other.append((tsc, cpu, order, ev, words))
    rs.sort()
    other.sort()
    return rs, first, last, other


class Occupancy:
    """Who was on one pCPU from when: parallel lists of TSCs and names."""

    def __init__(self):
        self.at, self.who = [], []

    def set(self, tsc, who):
        if self.who and self.who[-1] == who:
            return
        if self.at and self.at[-1] == tsc:
            self.who[-1] = who
            return
        self.at.append(tsc)
        self.who.append(who)

    def spread(self, t0, t1, out):
        """Adds the cycles of [t0, t1) per occupant to out."""
        if not self.at or t0 < self.at[0]:
            end = min(t1, self.at[0]) if self.at else t1
            out["xen"] += end - t0
            t0 = end
        i = bisect.bisect_right(self.at, t0) - 1
        while t0 < t1:
            end = self.at[i + 1] if i + 1 < len(self.at) and self.at[i + 1] < t1 else t1
            out[self.who[i]] += end - t0
            t0 = end
            i += 1


def name(dom):
    return "idle" if dom == IDLE else str(dom)


def account(rs, first, last):
    """Per vCPU: WAIT cycles by culprit, and complete waits per domain."""
    pcpus = collections.defaultdict(Occupancy)
    state, since, where = {}, {}, {}
    by = collections.defaultdict(lambda: collections.Counter())
    waits = collections.Counter()
    fresh = {}   # vCPU -> its open wait started inside the trace
    for tsc, cpu, _, dom, vcpu, old, new in rs:
        key = (dom, vcpu)
        if key not in state:
            state[key], since[key] = old, first
            fresh[key] = False
        occ = pcpus[cpu]
        if not occ.at and old == RUNNING and tsc > first:
            occ.set(first, name(dom))
        if state[key] != old:
            state[key] = None   # unknown since the last change
        if state[key] == RUNNABLE and tsc > since[key]:
            target = cpu if new == RUNNING else where.get(key)
            if target is None:
                by[key]["xen"] += tsc - since[key]
            else:
                pcpus[target].spread(since[key], tsc, by[key])
            if new == RUNNING and fresh[key]:
                waits[dom] += 1
        if old == RUNNING and new != RUNNING:
            occ.set(tsc, "xen")
        elif new == RUNNING:
            occ.set(tsc, name(dom))
        if old == RUNNING or new == RUNNING:
            where[key] = cpu
        if new == RUNNABLE and old != RUNNABLE:
            fresh[key] = True
        if old != new or state[key] is None:
            since[key] = max(since[key], tsc)
            state[key] = new
    for key, s in state.items():
        if s == RUNNABLE and last > since[key]:
            target = where.get(key)
            if target is None:
                by[key]["xen"] += last - since[key]
            else:
                pcpus[target].spread(since[key], last, by[key])
    return by, waits


def rows(by, hz):
    """{(domid, vcpu or 'all', behind): seconds}."""
    out = collections.Counter()
    for (dom, vcpu), parts in by.items():
        if dom == IDLE:
            continue   # idle vCPUs wait only while their pCPU is busy: no rows
        for who, cyc in parts.items():
            if cyc:
                out[(dom, str(vcpu), who)] += cyc / hz
                out[(dom, "all", who)] += cyc / hz
    return out


def compare(ref, waits, csv_path, json_path):
    bad = []
    with open(csv_path) as f:
        reader = csv.reader(f)
        if next(reader) != ["domid", "vcpu", "behind", "wait_s", "share_pct"]:
            bad.append("CSV header differs")
        ours = {(int(r[0]), r[1], r[2]): float(r[3]) for r in reader}
    worst = (0.0, None)
    for k in sorted(set(ref) | set(ours), key=str):
        a, b = ref.get(k, 0.0), ours.get(k, 0.0)
        diff = abs(a - b)
        if diff > max(0.005 * a, 0.001):
            bad.append("%s: reference %.9f s, xgtop %.9f s" % (k, a, b))
        if diff > worst[0]:
            worst = (diff, k)
    j = json.load(open(json_path))

    def ns(x):
        return round(x * 1e9)

    for d in j["domains"]:
        if d["domid"] == IDLE:
            if "behind" in d or "wait_latency" in d:
                bad.append("the idle domain has wait sections")
            continue
        for obj, what in [(d, "d%d" % d["domid"])] + [(v, "d%dv%d" % (d["domid"], v["vcpu"])) for v in d["vcpu"]]:
            total = sum(ns(p["wait_s"]) for p in obj["behind"])
            if total != ns(obj["runnable_s"]):
                bad.append("%s: parts add up to %d ns, WAIT is %d ns" % (what, total, ns(obj["runnable_s"])))
        if d["wait_latency"]["waits"] != waits.get(d["domid"], 0):
            bad.append("d%d: %d complete waits, reference %d" % (d["domid"], d["wait_latency"]["waits"],
                                                                waits.get(d["domid"], 0)))
    for line in bad:
        print("MISMATCH " + line)
    print("%d (domid, vcpu, behind) pairs; largest difference %.9f s at %s; parts add up to WAIT for %d domains"
          % (len(ref), worst[0], worst[1], sum(d["domid"] != IDLE for d in j["domains"])))
    return 1 if bad else 0


def evidence(rs, other, first, last, hz):
    """What the capture says about the rule (printed for doc/trace.md)."""
    rq = collections.defaultdict(set)
    tickled = collections.defaultdict(list)   # vCPU -> TSCs of the pCPU tickled for it
    for tsc, cpu, _, ev, words in other:
        if ev == 0x22215 and words:            # credit2 schedule: cpu:16, rq_id:16
            rq[words[0] >> 16].add(words[0] & 0xFFFF)
    print("credit2 runqueues named by TRC_CSCHED2_SCHEDULE: %s" %
          {k: sorted(v) for k, v in rq.items()})
    last_ran, state = {}, {}
    starts = collections.Counter()
    same = total = 0
    for tsc, cpu, _, dom, vcpu, old, new in rs:
        key = (dom, vcpu)
        if new == RUNNABLE and old != RUNNABLE and dom != IDLE:
            starts["wake" if old in (BLOCKED, OFFLINE) else "preempt"] += 1
        if new == RUNNING and old == RUNNABLE and dom != IDLE and key in last_ran:
            total += 1
            same += last_ran[key] == cpu
        if old == RUNNING or new == RUNNING:
            last_ran[key] = cpu
    print("guest waits begin with: %s" % dict(starts))
    print("guest waits that end on the pCPU the vCPU last ran on: %d of %d" % (same, total))
    # credit2 tickles one pCPU when it wakes a vCPU (TRC_CSCHED2_TICKLE,
    # word 0 = that pCPU, written on the waker's pCPU right after the
    # wake record): is it where the vCPU then ran?
    ticks = collections.defaultdict(list)
    for tsc, cpu, _, ev, words in other:
        if ev == 0x22206 and words:
            ticks[cpu].append((tsc, words[0]))
    pending, hit, woken = {}, 0, 0
    for tsc, cpu, _, dom, vcpu, old, new in rs:
        key = (dom, vcpu)
        if dom == IDLE:
            continue
        if old == BLOCKED and new == RUNNABLE:
            lst = ticks.get(cpu, [])
            i = bisect.bisect_left(lst, (tsc, -1))
            pending[key] = lst[i][1] if i < len(lst) and lst[i][0] - tsc < hz * 20e-6 else None
        elif old == RUNNABLE and new == RUNNING and key in pending:
            c = pending.pop(key)
            if c is not None:
                woken += 1
                hit += c == cpu
    print("woken guest vCPUs that ran on the pCPU credit2 tickled for them: %d of %d" % (hit, woken))
    # The runqueue-wide split, for comparison: every waiting instant split
    # equally among the occupants of all pCPUs of the (single) runqueue.
    occ = collections.defaultdict(Occupancy)
    for tsc, cpu, _, dom, vcpu, old, new in rs:
        if not occ[cpu].at and old == RUNNING:
            occ[cpu].set(first, name(dom))
        if old == RUNNING and new != RUNNING:
            occ[cpu].set(tsc, "xen")
        elif new == RUNNING:
            occ[cpu].set(tsc, name(dom))
    state, since = {}, {}
    wide = collections.Counter()
    for tsc, cpu, _, dom, vcpu, old, new in rs:
        key = (dom, vcpu)
        if dom != IDLE and state.get(key) == RUNNABLE and new == RUNNING:
            for p in occ.values():
                part = collections.Counter()
                p.spread(since[key], tsc, part)
                for who, c in part.items():
                    wide[who] += c / len(occ)
        state[key], since[key] = new, tsc
    # Under the rule: the guest WAIT that the next pCPU spent idle.
    by, _ = account(rs, first, last)
    mine = collections.Counter()
    for (dom, _), parts in by.items():
        if dom != IDLE:
            mine.update(parts)
    tot = sum(mine.values()) or 1
    print("guest WAIT by the rule: %s" % ", ".join("%s %.1f %%" % (w, 100 * c / tot) for w, c in mine.most_common()))
    tot = sum(wide.values()) or 1
    print("guest WAIT split over the whole runqueue instead: %s" %
          ", ".join("%s %.1f %%" % (w, 100 * c / tot) for w, c in wide.most_common()))


def main():
    if len(sys.argv) < 3:
        print(__doc__)
        return 2
    hz = float(sys.argv[2])
    rs, first, last, other = load(sys.argv[1])
    if len(sys.argv) > 3 and sys.argv[3] == "--evidence":
        evidence(rs, other, first, last, hz)
        return 0
    by, waits = account(rs, first, last)
    ref = rows(by, hz)
    if len(sys.argv) > 5 and sys.argv[3] == "--compare":
        return compare(ref, waits, sys.argv[4], sys.argv[5])
    print("domid,vcpu,behind,wait_s")
    for (dom, vcpu, who), s in sorted(ref.items(), key=str):
        print("%d,%s,%s,%.9f" % (dom, vcpu, who, s))
    return 0


if __name__ == "__main__":
    sys.exit(main())
