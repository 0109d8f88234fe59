#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A QEMU process's vCPU threads are named "CPU <n>/KVM": with -v only those
# are rows, numbered n as the guest numbers them (here a stand-in process
# names two of its three threads that way; vCPU 1 spins, vCPU 0 idles).
. "$(dirname "$0")/common.sh"
cat >"$tmp/fakeqemu.py" <<'P'
import threading, time
def vcpu(n, busy):
    with open("/proc/self/task/%d/comm" % threading.get_native_id(), "w") as f:
        f.write("CPU %d/KVM" % n)
    while busy:
        pass
    time.sleep(600)
for n, busy in ((0, False), (1, True)):
    threading.Thread(target=vcpu, args=(n, busy), daemon=True).start()
time.sleep(600)
P
spawn <<W
vm python3 $tmp/fakeqemu.py
W
p=$(pid_of vm)
named() { [ "$(cat /proc/"$p"/task/*/comm 2>/dev/null | grep -c '^CPU [01]/KVM$')" = 2 ]; }
for _ in $(seq 50); do named && break; sleep 0.1; done
named || skip "could not rename threads through /proc/PID/task/TID/comm"
xg_csv "$tmp/out" --group process -v -n 3 -d 1
python3 - "$tmp/out" "$p" <<'PY' || exit 1
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1], newline="")) if r["id"] == sys.argv[2]]
last = rows[-1]["time"]
dom = [r for r in rows if r["vcpu"] == "" and r["time"] == last]
v = {r["vcpu"]: r for r in rows if r["vcpu"] != "" and r["time"] == last}
if not dom or dom[0]["vcpus"] != "3":
    sys.exit("FAIL: want the domain with 3 threads: %r" % dom)
if sorted(v) != ["0", "1"]:
    sys.exit("FAIL: vCPU rows %r, want exactly 0 and 1 (the CPU n/KVM threads)" % sorted(v))
busy = float(v["1"]["run_pct"]) + float(v["1"]["wait_pct"])
idle = float(v["0"]["blk_pct"])
if busy < 70 or idle < 97:
    sys.exit("FAIL: vCPU 1 RUN%%+WAIT%% %.1f (want >= 70), vCPU 0 BLK%% %.1f (want >= 97)" % (busy, idle))
print("ok: vCPU rows 0 and 1 only; vCPU 1 RUN%%+WAIT%% %.1f, vCPU 0 BLK%% %.1f" % (busy, idle))
PY
