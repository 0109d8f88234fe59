#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# KVM's own figures of a KVM guest: EXITS/s above 0 and POLL% present,
# from debugfs kvm/<pid>-<fd>/ (mounted by xgtop when absent). Where the
# kernel keeps them from debugfs readers (lockdown), the figures must be
# '-' with that reason, and the test is skipped with it.
. "$(dirname "$0")/lib.sh"
kvm_guest xgtest-kvm-stats 1
sleep 1
./xgtop -b -o json --group vm -n 2 -d 1 >"$tmp/out" 2>"$tmp/err" || fail "xgtop: $(cat "$tmp/err")"
python3 - "$tmp/out" "$(guest_pid xgtest-kvm-stats)" <<'PY'
import json, sys
last = json.loads(open(sys.argv[1]).read().splitlines()[-1])
d = next((d for d in last["domains"] if str(d["id"]) == sys.argv[2]), None)
if not d:
    sys.exit("FAIL: the KVM guest is not listed")
if len(d.get("vcpu_rows", [])) and d["vcpus"] != 1:
    sys.exit("FAIL: 1 vCPU wanted, %r" % d["vcpus"])
why = d.get("why", {}).get("vm_exits_ps")
if d["vm_exits_ps"] is None:
    if "TCG" in (why or "") or not why:
        sys.exit("FAIL: a KVM guest without exits and without a KVM reason: %r" % why)
    print("SKIP: KVM statistics unavailable here: %s" % why)
    sys.exit(77)
if d["vm_exits_ps"] <= 0 or d["halt_poll_pct"] is None:
    sys.exit("FAIL: EXITS/s %r POLL%% %r" % (d["vm_exits_ps"], d["halt_poll_pct"]))
print("ok: EXITS/s %.0f, POLL%% %.2f" % (d["vm_exits_ps"], d["halt_poll_pct"]))
PY
