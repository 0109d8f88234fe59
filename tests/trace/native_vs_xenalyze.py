#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Compares `xgtop trace` native accounting (-o csv) with `xenalyze --summary`.

usage: native_vs_xenalyze.py XENALYZE_SUMMARY XGTOP_NATIVE_CSV CPU_HZ

The two differ only as doc/trace.md says: native counts every interval
xenalyze counts, and also what xenalyze leaves out (a vCPU's time before
its first record, intervals still open at the end, the time after lost
records until the vCPU shows again). So per vCPU, native's running,
runnable and blocked seconds are each at least xenalyze's, and their excess
together is at most the time xenalyze left out of those three (native's
total, the span, less xenalyze's three). Lost time is not compared:
xenalyze keeps a vCPU lost until it runs again, native until its next
record. Two states swapped in either shows as one state below xenalyze's. Tolerance: 0.1 % of xenalyze's figure plus 2 us (its
count x mean cycles is exact to a few cycles per interval)."""
import csv
import sys

from xenalyze_compare import parse_xenalyze

STATES = ("running", "runnable", "blocked")


def check_vcpu(key, x, row, hz):
    """Problems of one vCPU, as lines."""
    bad = []
    total = sum(float(row[s + "_s"]) for s in STATES + ("offline", "lost"))
    xa_total = sum(x.get(s, (0, 0))[1] / hz for s in STATES)
    excess = 0.0
    for s in STATES:
        xs, ns = x.get(s, (0, 0))[1] / hz, float(row[s + "_s"])
        tol = 2e-6 + 0.001 * xs
        if ns < xs - tol:
            bad.append("d%dv%d %s: native %.9f s < xenalyze %.9f s" % (key[0], key[1], s, ns, xs))
        excess += max(ns - xs, 0.0)
    if excess > total - xa_total + 2e-6 + 0.001 * xa_total:
        bad.append("d%dv%d: native exceeds xenalyze by %.9f s, more than the %.9f s xenalyze left out"
                   % (key[0], key[1], excess, total - xa_total))
    return bad


def main():
    xa = parse_xenalyze(sys.argv[1])
    hz = float(sys.argv[3])
    with open(sys.argv[2]) as f:
        ours = {(int(r["domid"]), int(r["vcpu"])): r for r in csv.DictReader(f)}
    if not xa:
        print("no per-vCPU runstates found in the xenalyze summary")
        return 1
    bad = []
    for key in sorted(xa):
        if key not in ours:
            bad.append("d%dv%d: in xenalyze's summary, not in xgtop's" % key)
        else:
            bad += check_vcpu(key, xa[key], ours[key], hz)
    for line in bad:
        print("MISMATCH " + line)
    print("native vs xenalyze: %d vCPUs, %d problems" % (len(xa), len(bad)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
