#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Compares `xgtop trace -o csv` with `xenalyze --summary` per vCPU.

usage: xenalyze_compare.py XENALYZE_SUMMARY XGTOP_CSV CPU_HZ [--states running,runnable,blocked]

xenalyze prints, per vCPU and state, "name: count seconds(2 decimals)
mean_cycles {percentiles}"; count x mean gives the total to within
`count` cycles, far finer than its 2-decimal seconds. A vCPU passes when
every state's count is equal and its seconds differ by less than 0.5 % or
1 ms. Prints the largest difference; exit 1 if any vCPU fails."""
import csv
import re
import sys


def parse_xenalyze(path):
    out = {}
    dom = vcpu = None
    in_rs = False
    for line in open(path, encoding="utf-8", errors="replace"):
        m = re.match(r"\|-- Domain (\d+) --\|", line)
        if m:
            dom, vcpu, in_rs = int(m.group(1)), None, False
            continue
        m = re.match(r"-- v(\d+) --", line)
        if m and dom is not None:
            vcpu, in_rs = int(m.group(1)), False
            continue
        if vcpu is not None and line.strip() == "Runstates:":
            in_rs = True
            continue
        if in_rs:
            m = re.match(r"\s+(\w+):\s+(\d+)\s+([\d.]+)s\s+(\d+)", line)
            if not m:
                in_rs = False
                continue
            if line.startswith("    ") and not line.startswith("     "):
                pass
            name = m.group(1)
            # Runnable sub-lines (wake, preempt, other) are indented deeper.
            if name in ("wake", "preempt", "other"):
                continue
            out.setdefault((dom, vcpu), {})[name] = (int(m.group(2)), int(m.group(2)) * int(m.group(4)))
    return out


def main():
    xa = parse_xenalyze(sys.argv[1])
    hz = float(sys.argv[3])
    states = ["running", "runnable", "blocked"]
    if len(sys.argv) > 5 and sys.argv[4] == "--states":
        states = sys.argv[5].split(",")
    ours = {}
    with open(sys.argv[2]) as f:
        for row in csv.DictReader(f):
            ours[(int(row["domid"]), int(row["vcpu"]))] = row
    if not xa:
        print("no per-vCPU runstates found in the xenalyze summary")
        return 1
    worst = (0.0, None)
    failures = 0
    compared = 0
    for key in sorted(set(xa) | set(ours)):
        x = xa.get(key, {})
        o = ours.get(key)
        for st in states:
            xn, xcyc = x.get(st, (0, 0))
            xs = xcyc / hz
            has_n = o is None or (st + "_n") in o
            if o is None:
                on, os_ = 0, 0.0
            else:
                on, os_ = int(o.get(st + "_n", xn)), float(o[st + "_s"])
            if not has_n:
                on = xn   # xgtop's CSV has no lost count: compare seconds only
            if xn == 0 and on == 0 and os_ == 0.0:
                continue
            compared += 1
            diff = abs(os_ - xs)
            rel = diff / xs if xs else (0.0 if diff == 0 else float("inf"))
            ok = on == xn and (diff < 0.001 or rel < 0.005)
            if diff > worst[0]:
                worst = (diff, "d%dv%d %s: xgtop %.9f s (%d) xenalyze %.9f s (%d)" % (key[0], key[1], st, os_, on, xs, xn))
            if not ok:
                failures += 1
                print("MISMATCH d%dv%d %s: xgtop %.9f s n=%d, xenalyze %.9f s n=%d" % (key[0], key[1], st, os_, on, xs, xn))
    print("compared %d vCPU states; largest difference %.9f s%s" % (compared, worst[0], (" (" + worst[1] + ")") if worst[1] else ""))
    return 1 if failures or not compared else 0


if __name__ == "__main__":
    sys.exit(main())
