#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A QEMU process's vCPU threads are named "CPU <n>/KVM": with -v only those
# are rows, numbered n as the guest numbers them. A stand-in process names
# two of its three threads that way (vCPU 1 spins, vCPU 0 idles): once
# before xgtop starts, and once only after xgtop has first seen the threads
# (QEMU names a vCPU thread from inside it, just after creating it).
. "$(dirname "$0")/common.sh"
cat >"$tmp/fakeqemu.py" <<'P'
import os, sys, threading, time
go = sys.argv[1]
def vcpu(n, busy):
    while not os.path.exists(go):
        time.sleep(0.01)
    with open("/proc/self/task/%d/comm" % threading.get_native_id(), "w") as f:
        f.write("CPU %d/KVM" % n)
    while busy:
        pass
    time.sleep(600)
for n, busy in ((0, False), (1, True)):
    threading.Thread(target=vcpu, args=(n, busy), daemon=True).start()
time.sleep(600)
P
: >"$tmp/go-early"
spawn <<W
early python3 $tmp/fakeqemu.py $tmp/go-early
late python3 $tmp/fakeqemu.py $tmp/go-late
W
early=$(pid_of early) late=$(pid_of late)
named() { [ "$(cat /proc/"$1"/task/*/comm 2>/dev/null | grep -c '^CPU [01]/KVM$')" = 2 ]; }
started() { named "$early" && [ "$(nthreads "$late")" = 3 ]; }
wait_until 30 started
named "$early" || skip "could not rename threads through /proc/PID/task/TID/comm"
[ "$(nthreads "$late")" = 3 ] || fail "the second stand-in did not start its threads"
./xgtop -b -o csv --source linux --group process -v -n 3 -d 2 >"$tmp/out" 2>"$tmp/err" &
xg=$!
# xgtop reads a new thread's name, and once more at the next sample. Until
# its first sample reads the second stand-in (from then on it keeps the
# process's /proc files open), then the late threads name themselves: its
# next sample, 2 s later, must see the names.
reading_late() { find "/proc/$xg/fd" -lname "/proc/$late/stat" 2>/dev/null | grep -q .; }
wait_until 30 reading_late || fail "xgtop did not read the second stand-in within 30 s: $(cat "$tmp/err")"
: >"$tmp/go-late"
wait "$xg" || fail "xgtop: exit $?: $(cat "$tmp/err")"
named "$late" || fail "the late threads did not rename themselves"
python3 - "$tmp/out" "$early" "$late" <<'PY' || exit 1
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
for ident, when in ((sys.argv[2], "named before xgtop started"), (sys.argv[3], "named after xgtop first saw them")):
    mine = [r for r in rows if r["id"] == ident]
    if not mine:
        sys.exit("FAIL: domain %s missing" % ident)
    last = mine[-1]["time"]
    dom = [r for r in mine if r["vcpu"] == "" and r["time"] == last]
    v = {r["vcpu"]: r for r in mine if r["vcpu"] != "" and r["time"] == last}
    if not dom or dom[0]["vcpus"] != "3":
        sys.exit("FAIL: %s: want the domain with 3 threads: %r" % (when, dom))
    if sorted(v) != ["0", "1"]:
        sys.exit("FAIL: %s: vCPU rows %r, want exactly 0 and 1 (the CPU n/KVM threads)" % (when, sorted(v)))
    idle = float(v["0"]["blk_pct"])
    if idle < 97:
        sys.exit("FAIL: %s: vCPU 0 BLK%% %.1f, want >= 97" % (when, idle))
    if when.startswith("named before"):
        busy = float(v["1"]["run_pct"]) + float(v["1"]["wait_pct"])
        if busy < 70:
            sys.exit("FAIL: %s: vCPU 1 RUN%%+WAIT%% %.1f, want >= 70" % (when, busy))
    print("ok: %s: vCPU rows 0 and 1 only, vCPU 0 BLK%% %.1f" % (when, idle))
PY
