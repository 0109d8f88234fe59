#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# KVM's statistics through the vCPU statistics descriptors a QEMU keeps
# open (newer releases do; anon_inode:kvm-vcpu-stats:N), read from copies
# xgtop takes with pidfd_getfd(): this works where debugfs is locked down.
# build/tools/xg-kvm-standin is such a VMM: a real KVM VM of 2 vCPUs whose
# guest code exits to it in a loop, thousands of times a second.
. "$(dirname "$0")/lib.sh"
[ -w /dev/kvm ] || skip "no usable /dev/kvm"
standin=$PWD/build/tools/xg-kvm-standin
[ -x "$standin" ] || fail "$standin is not built (run make tools)"
ln -s "$standin" "$tmp/qemu-kvm"
XG_VCPUS=2 "$tmp/qemu-kvm" -name xgtest-statsfd -m 64 -smp 2 >"$tmp/ready" 2>"$tmp/standin.err" &
sp=$!
trap 'kill $sp 2>/dev/null; cleanup' EXIT
for _ in $(seq 100); do [ -s "$tmp/ready" ] && break; kill -0 $sp 2>/dev/null || break; sleep 0.1; done
[ -s "$tmp/ready" ] || skip "KVM cannot run a VM here: $(cat "$tmp/standin.err")"
ls -l /proc/$sp/fd | grep -q kvm-vcpu-stats || fail "the stand-in keeps no statistics descriptor"
./xgtop -b -o json --group vm -v -n 2 -d 1 >"$tmp/out" 2>"$tmp/err" || fail "xgtop: $(cat "$tmp/err")"
python3 - "$tmp/out" "$sp" <<'PY' || exit 1
import json, sys
last = json.loads(open(sys.argv[1]).read().splitlines()[-1])
d = next((d for d in last["domains"] if str(d["id"]) == sys.argv[2]), None)
if not d:
    sys.exit("FAIL: the stand-in VM is not listed")
if d["vm_exits_ps"] is None or d["vm_exits_ps"] < 200 or d["halt_poll_pct"] is None:
    sys.exit("FAIL: EXITS/s %r POLL%% %r (why: %r)" % (d["vm_exits_ps"], d["halt_poll_pct"], d.get("why")))
if d["vcpus"] != 2:
    sys.exit("FAIL: want 2 vCPUs: %r" % d["vcpus"])
print("ok: EXITS/s %.0f, POLL%% %.2f from QEMU's statistics descriptors" % (d["vm_exits_ps"], d["halt_poll_pct"]))
PY
