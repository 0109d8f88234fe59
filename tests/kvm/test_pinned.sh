#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Two spinning guests whose vCPU threads are pinned to one host CPU share
# it: each vCPU runs about half the time and waits for the CPU the other
# half, which is the steal time the guest would see. WAIT% (schedstat
# run_delay of the vCPU threads) must be 50 +- 10 for each. And each waits
# behind the other (issue 20, Linux wait attribution by BPF, as root):
# BEHIND names the other guest for >= 80 % of the WAIT. The vCPU threads
# (and their QEMU's autogroup, which the scheduler weighs against other
# sessions first) run at nice -15, so that other jobs of a shared machine
# take little of that CPU: they would be a third culprit.
. "$(dirname "$0")/lib.sh"
command -v taskset >/dev/null || skip "taskset (util-linux) is not installed"
cpu=$(taskset -pc $$ | sed 's/.*: //; s/[,-].*//')
[ -n "$cpu" ] || skip "cannot read this shell's CPU affinity"
start_guest xgtest-pin-a spin 1 128
start_guest xgtest-pin-b spin 1 128
wait_ready xgtest-pin-a xgtest-pin-b
for g in xgtest-pin-a xgtest-pin-b; do
	t=$(vcpu_tids "$g")
	[ -n "$t" ] || fail "$g: no vCPU thread"
	taskset -pc "$cpu" "$t" >/dev/null || fail "cannot pin $g's vCPU thread $t"
	renice -n -15 -p "$t" >/dev/null 2>&1
	[ -w "/proc/$(guest_pid "$g")/autogroup" ] && echo -15 >"/proc/$(guest_pid "$g")/autogroup"
done
sleep 1   # let the guests' TCG settle on the shared CPU
./xgtop -b -o csv --group vm -n 3 -d 1 >"$tmp/out" 2>"$tmp/err" || fail "xgtop: $(cat "$tmp/err")"
python3 - "$tmp/out" "$(guest_pid xgtest-pin-a)" "$(guest_pid xgtest-pin-b)" <<'PY' || exit 1
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
for ident in sys.argv[2:]:
    mine = [r for r in rows if r["id"] == ident]
    if not mine:
        sys.exit("FAIL: guest %s missing" % ident)
    # the later iterations (the first may still hold the unpinned start)
    w = [float(r["wait_pct"]) for r in mine[1:]]
    run = [float(r["run_pct"]) for r in mine[1:]]
    wait = sum(w) / len(w)
    print("%s: WAIT%% %s RUN%% %s" % (mine[0]["name"], w, run))
    if not 40 <= wait <= 60:
        sys.exit("FAIL: %s WAIT%% %.1f, want 50 +- 10" % (mine[0]["name"], wait))
print("ok: both pinned vCPUs wait about half the time")
names = {}
for r in rows:
    names[r["id"]] = r["name"]
a, b = sys.argv[2:]
if "behind" not in rows[0] or all(r["behind"] == "" for r in rows if r["id"] in (a, b)):
    sys.exit("FAIL: no BEHIND figures for the guests (not root, or a build without BPF: xgtop --explain says why)")
for me, other in ((a, b), (b, a)):
    for r in [r for r in rows if r["id"] == me][1:]:
        print("%s: BEHIND %s %s%%, WAIT-P50 %s ms, WAIT-P99 %s ms"
              % (names[me], r["behind"], r["behind_pct"], r["wait_p50_ms"], r["wait_p99_ms"]))
        if r["behind"] != names[other] or float(r["behind_pct"]) < 80:
            sys.exit("FAIL: %s is BEHIND %r %s%%, want %s >= 80 %%" % (names[me], r["behind"], r["behind_pct"], names[other]))
        if not 0 < float(r["wait_p50_ms"]) <= float(r["wait_p99_ms"]):
            sys.exit("FAIL: %s: WAIT-P50 %s, WAIT-P99 %s" % (names[me], r["wait_p50_ms"], r["wait_p99_ms"]))
print("ok: each pinned guest waits behind the other")
PY
