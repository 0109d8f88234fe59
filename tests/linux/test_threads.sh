#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Per-thread rows (-v): a process with one spinning thread and one thread
# waiting to join it is one domain of 2 threads whose split is half running
# (or waiting for a CPU), half blocked; its rows show which thread does what.
. "$(dirname "$0")/common.sh"
cat >"$tmp/spin.py" <<'P'
import threading
def spin():
    while True:
        pass
t = threading.Thread(target=spin)
t.start()
t.join()
P
spawn <<W
proc python3 $tmp/spin.py
W
p=$(pid_of proc)
wait_until 30 has_threads "$p" 2 || fail "python3 did not start its spinning thread within 30 s"
xg_csv "$tmp/out" --group process -v -n 3 -d 1
python3 - "$tmp/out" "$p" <<'PY' || exit 1
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1], newline="")) if r["id"] == sys.argv[2]]
dom = [r for r in rows if r["vcpu"] == ""]
thr = [r for r in rows if r["vcpu"] != ""]
if not dom:
    sys.exit("FAIL: domain %s missing" % sys.argv[2])
last = dom[-1]["time"]
if dom[-1]["vcpus"] != "2":
    sys.exit("FAIL: VCPU (threads) = %r, want 2" % dom[-1]["vcpus"])
t = {r["vcpu"]: r for r in thr if r["time"] == last}
if len(t) != 2 or sys.argv[2] not in t:
    sys.exit("FAIL: want 2 thread rows, the main one with the pid as id: %r" % sorted(t))
main = t.pop(sys.argv[2])
spinner = next(iter(t.values()))
def f(r, k):
    return float(r[k]) if r[k] != "" else float("nan")
checks = [
    ("main thread BLK%", f(main, "blk_pct"), lambda v: v >= 97, ">= 97"),
    ("spinning thread RUN%+WAIT%", f(spinner, "run_pct") + f(spinner, "wait_pct"), lambda v: v >= 85, ">= 85"),
    ("spinning thread CPU%", f(spinner, "cpu_pct"), lambda v: v >= 10, ">= 10"),
    ("domain BLK% (one of two threads idle)", f(dom[-1], "blk_pct"), lambda v: 42 <= v <= 60, "42 .. 60"),
    ("domain CPU% - thread CPU% sum", abs(f(dom[-1], "cpu_pct") - f(main, "cpu_pct") - f(spinner, "cpu_pct")), lambda v: v <= 3, "<= 3"),
]
for label, v, ok, want in checks:
    if not ok(v):
        sys.exit("FAIL: %s = %.3f, want %s" % (label, v, want))
    print("ok: %s = %.3f (%s)" % (label, v, want))
PY
