#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Wait attribution on Linux (BPF on sched_switch): two busy loops in two
# cgroups, pinned to one CPU, take turns on it, so each waits behind the
# other: BEHIND names the other cgroup for >= 80 % of the WAIT (issue 20),
# and the run-queue latency is there (P50 <= P99, both above 0). The loops
# run at nice -15 (and so does their session's autogroup, which the
# scheduler weighs against other sessions first), so that the rest of a
# shared machine takes little of the CPU from them: it would be a third
# culprit. A third
# cgroup that only sleeps has no wait to attribute.
. "$(dirname "$0")/common.sh"
command -v taskset >/dev/null || skip "taskset (util-linux) is not installed"
root=$(awk '$9 == "cgroup2" && $4 == "/" { print $5; exit }' /proc/self/mountinfo)
[ -n "$root" ] || skip "no cgroup v2 hierarchy is mounted"
cpu=$(first_cpu)
[ -n "$cpu" ] || skip "cannot read this shell's CPU affinity"
slice=xgtop-behind-$$.slice
mkdir "$root/$slice" 2>/dev/null || skip "cannot create a cgroup in $root (need root and a writable cgroup2 mount)"
cgdirs=("$root/$slice/a" "$root/$slice/b" "$root/$slice/idle" "$root/$slice")
for w in a b idle; do mkdir "$root/$slice/$w" || fail "mkdir $root/$slice/$w"; done
for w in a b; do
	printf 'echo $$ >%s/cgroup.procs || exit 1\n[ -w /proc/self/autogroup ] && echo -15 >/proc/self/autogroup\nexec nice -n -15 taskset -c %s bash -c "while :; do :; done"\n' \
		"$root/$slice/$w" "$cpu" >"$tmp/$w.sh"
done
printf 'echo $$ >%s/cgroup.procs || exit 1\nexec sleep 60\n' "$root/$slice/idle" >"$tmp/idle.sh"
spawn <<W
a bash $tmp/a.sh
b bash $tmp/b.sh
idle bash $tmp/idle.sh
W
in_cgroup() { grep -qx "$(pid_of "$1")" "$root/$slice/$1/cgroup.procs"; }
for w in a b idle; do
	wait_until 30 in_cgroup $w || fail "worker $w did not move into its cgroup within 30 s"
done
wait_until 30 is_comm "$(pid_of a)" bash || fail "loop a did not start"
xg_csv "$tmp/out" --group cgroup -n 4 -d 1
if ! grep -q "$slice/a,.*,$slice/b," "$tmp/out"; then
	# say why the column is empty: the reason --explain gives
	why=$(./xgtop --source linux --group cgroup --explain 2>&1 | grep -i -m1 "wait attribution")
	case $why in
	*"built without BPF"*) skip "$why" ;;
	esac
	cp "$tmp/out" /tmp/xgtop-behind-last.csv; fail "cgroup a is never BEHIND b: ${why:-its rows in /tmp/xgtop-behind-last.csv}"
fi
python3 - "$tmp/out" "$slice" <<'PY'
import csv, sys
path, sl = sys.argv[1], sys.argv[2]
rows = [r for r in csv.DictReader(open(path, newline="")) if r.get("vcpu", "") == ""]
times = sorted({r["time"] for r in rows})[1:]   # the first interval began at the program's load
def rows_of(name):
    return [r for r in rows if r["name"] == name and r["time"] in times]
def expect(label, v, op, lim):
    ok = v <= lim if op == "<=" else v >= lim
    if not ok:
        sys.exit("FAIL: %s = %.3f, want %s %s" % (label, v, op, lim))
    print("ok: %s = %.3f (%s %s)" % (label, v, op, lim))
for me, other in (("a", "b"), ("b", "a")):
    rs = rows_of(sl + "/" + me)
    if not rs:
        sys.exit("FAIL: no rows of %s/%s" % (sl, me))
    for r in rs:
        if r["behind"] != sl + "/" + other:
            sys.exit("FAIL: %s at %s is BEHIND %r, want %s/%s" % (me, r["time"], r["behind"], sl, other))
        expect("%s BEHIND%% (behind %s)" % (me, other), float(r["behind_pct"]), ">=", 80)
        p50, p99 = float(r["wait_p50_ms"]), float(r["wait_p99_ms"])
        expect("%s WAIT-P50 ms" % me, p50, ">=", 0.01)
        expect("%s WAIT-P99 - WAIT-P50 ms" % me, p99 - p50, ">=", 0)
for r in rows_of(sl + "/idle"):
    if r["behind"] or r["behind_pct"]:
        sys.exit("FAIL: the sleeping cgroup has a culprit: %r %r" % (r["behind"], r["behind_pct"]))
print("ok: the sleeping cgroup has no wait to attribute")
PY
[ $? = 0 ] || { cp "$tmp/out" /tmp/xgtop-behind-last.csv; exit 1; }
