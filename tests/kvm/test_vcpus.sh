#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A booted 2-vCPU guest, under KVM or TCG alike, whose QEMU names its vCPU
# threads ("CPU 0/KVM", "CPU 1/TCG" ...; libvirt's debug-threads=on) has
# one row per vCPU, each with its own RUN/WAIT/BLK split, and its vCPU
# rows' CPU% add up to the domain's less QEMU's own threads (EMU%). One
# vCPU spins: its row runs, the other's sleeps. (Unnamed threads are
# found through KVM's debugfs: test_kvm_vcpus.)
. "$(dirname "$0")/lib.sh"
start_guest xgtest-vcpus spin 2 160
wait_ready xgtest-vcpus
gpid=$(guest_pid xgtest-vcpus)
names=$(for t in /proc/"$gpid"/task/*; do cat "$t/comm"; done | grep '^CPU [0-9]*/' | LC_ALL=C sort)
want=$(printf 'CPU 0/%s\nCPU 1/%s' "${ACCEL^^}" "${ACCEL^^}")
[ "$names" = "$want" ] || fail "QEMU's vCPU threads are named '$names', want '$want'"
./xgtop -b -o csv --group vm -v -n 2 -d 1 >"$tmp/out" 2>"$tmp/err" || fail "xgtop: $(cat "$tmp/err")"
python3 - "$tmp/out" "$gpid" "$ACCEL" <<'PY' || exit 1
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1], newline="")) if r["id"] == sys.argv[2]]
rows = rows[len(rows) // 2:]   # the second interval (the first may hold the boot)
dom = [r for r in rows if r["vcpu"] == ""]
v = {r["vcpu"]: r for r in rows if r["vcpu"] != ""}
if not dom or sorted(v) != ["0", "1"] or dom[0]["vcpus"] != "2":
    sys.exit("FAIL: want a domain row and vCPU rows 0 and 1: domain %r, vCPU rows %r" % (dom, sorted(v)))
d = dom[0]
busy = [round(float(r["run_pct"]) + float(r["wait_pct"]), 1) for r in v.values()]
blk = [round(float(r["blk_pct"]), 1) for r in v.values()]
if max(busy) < 70 or min(busy) > 30 or max(blk) < 60:
    sys.exit("FAIL: want one vCPU running (RUN+WAIT >= 70 %%) and one asleep (BLK >= 60 %%): "
             "RUN+WAIT %r, BLK %r" % (busy, blk))
s = sum(float(r["cpu_pct"]) for r in v.values()) + float(d["emu_pct"])
if abs(s - float(d["cpu_pct"])) > 0.5:
    sys.exit("FAIL: vCPUs + EMU%% = %.2f, the domain's CPU%% %s" % (s, d["cpu_pct"]))
print("ok (%s): vCPU rows 0 and 1 from threads named CPU n/%s; RUN+WAIT %s, BLK %s; "
      "vCPUs + EMU%% = CPU%% %s" % (sys.argv[3], sys.argv[3].upper(), busy, blk, d["cpu_pct"]))
PY
