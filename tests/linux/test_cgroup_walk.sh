#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Cgroup mode takes the processes' cgroups from the cgroups' cgroup.procs
# lists (where processes outnumber cgroups): each process must get the path
# its /proc/PID/cgroup shows. On a test tree below the cgroup2 root: a
# sleeper in the test cgroup itself, one in a child, one two levels down,
# and one whose main thread is in a thread cgroup of a threaded subtree
# (listed by the subtree's domain cgroup: the walk must leave it to
# /proc/PID/cgroup). Then xgtop --group cgroup groups them as their paths
# say.
. "$(dirname "$0")/common.sh"
root=$(awk '$9 == "cgroup2" && $4 == "/" { print $5; exit }' /proc/self/mountinfo)
[ -n "$root" ] || skip "no cgroup v2 hierarchy is mounted"
[ -x build/tools/xgtop-linux-dump ] || fail "build/tools/xgtop-linux-dump is not built (make tools)"
top=xgtop-walk-$$
cg=$root/$top
mkdir "$cg" 2>/dev/null || skip "cannot create a cgroup in $root (need root and a writable cgroup2 mount)"
cgdirs=("$cg/t/x" "$cg/t" "$cg/a/deep" "$cg/a" "$cg")
mkdir -p "$cg/a/deep" "$cg/t/x" || fail "mkdir below $cg"
threaded=y
echo threaded >"$cg/t/x/cgroup.type" 2>/dev/null || threaded=n
# each sleeper moves itself (or, for tx, its only thread) into its cgroup
for w in top:. a:a deep:a/deep tx:t; do
	printf 'echo $$ >%s/%s/cgroup.procs || exit 1\n' "$cg" "${w#*:}" >"$tmp/${w%%:*}.sh"
done
[ $threaded = y ] && echo "echo \$\$ >$cg/t/x/cgroup.threads || exit 1" >>"$tmp/tx.sh"
for w in top a deep tx; do echo 'exec sleep 60' >>"$tmp/$w.sh"; done
spawn <<W
top bash $tmp/top.sh
a bash $tmp/a.sh
deep bash $tmp/deep.sh
tx bash $tmp/tx.sh
W
in_cgroup() { grep -qx "0::/$top$2" "/proc/$(pid_of "$1")/cgroup" && is_comm "$(pid_of "$1")" sleep; }
want() {  # name path: the worker's /proc/PID/cgroup must say path
	wait_until 30 in_cgroup "$1" "$2" ||
		fail "worker $1 is not running sleep in /$top$2 after 30 s: $(cat "/proc/$(pid_of "$1")/cgroup")"
}
want top ""
want a /a
want deep /a/deep
if [ $threaded = y ]; then want tx /t/x; else want tx /t; fi
build/tools/xgtop-linux-dump cgmap "$(pid_of top)" "$(pid_of a)" "$(pid_of deep)" "$(pid_of tx)" >"$tmp/map" ||
	fail "the walk placed a process elsewhere than /proc/PID/cgroup: $(cat "$tmp/map")"
cat "$tmp/map"
placed() {  # name walk-path ("-": left to /proc/PID/cgroup)
	grep -qx "pid $(pid_of "$1"): walk $2, .*" "$tmp/map" || fail "worker $1: want walk $2"
}
placed top "/$top"
placed a "/$top/a"
placed deep "/$top/a/deep"
if [ $threaded = y ]; then
	placed tx -
else
	echo "SKIP part: no threaded cgroups here (cgroup.type)"
	placed tx "/$top/t"
fi
# the domains: <top> holds top, a and deep (a deeper cgroup counts towards
# the top-level one), tx too (its /proc path is <top>/t/x)
xg_csv "$tmp/out" --group cgroup -n 2 -d 0.5
python3 - "$tmp/out" "$top" <<'PY' || exit 1
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1], newline="")) if r.get("vcpu", "") == ""]
mine = [r for r in rows if r["name"] == sys.argv[2]]
if not mine:
    sys.exit("FAIL: no domain %s (names: %s)" % (sys.argv[2], sorted({r["name"] for r in rows})))
for r in mine:
    if int(r["vcpus"]) != 4:
        sys.exit("FAIL: domain %s has %s threads, want the 4 sleepers'" % (sys.argv[2], r["vcpus"]))
print("ok: domain %s holds the 4 sleepers' threads" % sys.argv[2])
PY
