#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A KVM guest whose QEMU leaves its threads unnamed (no debug-threads=on):
# its vCPU threads are found through KVM's debugfs vcpuN/pid files, which
# stay readable where the statistics are locked down, so it still has
# one row per vCPU and its RUN/WAIT/BLK split.
. "$(dirname "$0")/lib.sh"
XG_DEBUG_THREADS=off kvm_guest xgtest-kvm-unnamed 2
[ -z "$(vcpu_tids xgtest-kvm-unnamed)" ] || fail "QEMU named its threads anyway"
./xgtop -b -o csv --group vm -v -n 1 -d 1 >"$tmp/out" 2>"$tmp/err" || fail "xgtop: $(cat "$tmp/err")"
python3 - "$tmp/out" "$(guest_pid xgtest-kvm-unnamed)" <<'PY' || exit 1
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1], newline="")) if r["id"] == sys.argv[2]]
dom = [r for r in rows if r["vcpu"] == ""]
v = sorted(r["vcpu"] for r in rows if r["vcpu"] != "")
if not dom or v != ["0", "1"] or dom[0]["vcpus"] != "2" or dom[0]["run_pct"] == "":
    sys.exit("FAIL: want vCPU rows 0 and 1 and a RUN%%: domain %r, vCPU rows %r" % (dom, v))
print("ok: unnamed vCPU threads found through KVM's vcpuN/pid: rows %s, RUN%% %s" % (v, dom[0]["run_pct"]))
PY
