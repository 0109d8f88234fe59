#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Pressure (PSI) per cgroup on a saturated CPU: two cgroups below a test
# slice each run two busy loops, all four pinned to one CPU, and a third
# cgroup sleeps. CPU-P% (cpu.pressure some) is high in the busy two and
# about 0 in the idle one; CPU-P% and CPU-F% equal the rate of the files'
# total= that the test reads itself around xgtop's run; the root cgroup
# and process groups show '-' with their reasons.
. "$(dirname "$0")/common.sh"
[ -e /proc/pressure/cpu ] || skip "PSI is off (no /proc/pressure: kernel without CONFIG_PSI, or psi=0)"
test_slice xgtop-psi a b idle
[ -e "$root/$slice/a/cpu.pressure" ] || skip "no cpu.pressure in a new cgroup (PSI switched off for cgroups)"
cpu=$(first_cpu)
for w in a b; do
	cat >"$tmp/$w.sh" <<W
echo \$\$ >$root/$slice/$w/cgroup.procs || exit 1
exec taskset -c $cpu sh -c 'while :; do :; done'
W
done
cat >"$tmp/idle.sh" <<W
echo \$\$ >$root/$slice/idle/cgroup.procs || exit 1
exec sleep 120
W
spawn <<W
a1 bash $tmp/a.sh
a2 bash $tmp/a.sh
b1 bash $tmp/b.sh
b2 bash $tmp/b.sh
idle bash $tmp/idle.sh
W
procs() { [ "$(wc -l <"$root/$slice/$1/cgroup.procs")" -ge "$2" ]; }
wait_until 30 procs a 2 && wait_until 30 procs b 2 && wait_until 30 procs idle 1 ||
	fail "the workers did not move into their cgroups within 30 s"
# the loops have exec'd sh (pinned) before the window starts
spinning() {
	local p
	for p in $(cat "$root/$slice/$1/cgroup.procs"); do is_comm "$p" sh || return 1; done
	procs "$1" 2
}
wait_until 30 spinning a && wait_until 30 spinning b || fail "the busy loops did not start within 30 s"

# total= of some and full, and the time, before and after xgtop's run
totals() {
	for w in a b idle; do
		awk -v w=$w '{ sub("total=", "", $5); printf "%s_%s %s\n", w, $1, $5 }' "$root/$slice/$w/cpu.pressure"
	done
	echo "t $(date +%s.%N)"
}
totals >"$tmp/before"
xg_csv "$tmp/out" --group cgroup -n 5 -d 1
totals >"$tmp/after"

check_csv "$tmp/out" "$slice" "$tmp/before" "$tmp/after" <<'PY'
slice, before, after = ARGS
def read(p):
    return {k: float(v) for k, v in (l.split() for l in open(p))}
b, a = read(before), read(after)
dt = a["t"] - b["t"]
def by_name(name, key):
    """xgtop's figure over all its intervals: the interval-weighted mean."""
    rs = [r for r in rows if r["name"] == name and r.get("vcpu", "") == "" and r[key] != ""]
    if len(rs) < 3:
        sys.exit("FAIL: %s: only %d rows with %s (names: %s)" % (name, len(rs), key, sorted({r["name"] for r in rows})))
    w = sum(float(r["interval_s"]) for r in rs)
    return sum(float(r[key]) * float(r["interval_s"]) for r in rs) / w
for w in ("a", "b"):
    some = by_name(slice + "/" + w, "cpu_pressure_pct")
    full = by_name(slice + "/" + w, "cpu_pressure_full_pct")
    expect("CPU-P%% of busy cgroup %s" % w, some, ">=", 50)
    # the test's own reading of the file over a window that holds xgtop's
    ref_some = 100 * (a[w + "_some"] - b[w + "_some"]) / 1e6 / dt
    ref_full = 100 * (a[w + "_full"] - b[w + "_full"]) / 1e6 / dt
    print("cgroup %s: xgtop CPU-P%% %.2f CPU-F%% %.2f; the files' total= over %.2f s: %.2f %.2f"
          % (w, some, full, dt, ref_some, ref_full))
    expect("|CPU-P% - total delta rate| of " + w, abs(some - ref_some), "<=", 5)
    expect("|CPU-F% - total delta rate| of " + w, abs(full - ref_full), "<=", 5)
idle = by_name(slice + "/idle", "cpu_pressure_pct")
expect("CPU-P% of the idle cgroup", idle, "<=", 1)
expect("idle cgroup's own total= delta (ms)", (a["idle_some"] - b["idle_some"]) / 1e3, "<=", 50)
for key in ("memory_pressure_pct", "io_pressure_pct"):
    by_name(slice + "/a", key)      # measured (a figure, not '-')
root = [r for r in rows if r["name"] == "/"]
if not root or any(r["cpu_pressure_pct"] != "" for r in root):
    sys.exit("FAIL: the root cgroup has a pressure figure (its file is the whole host's)")
print("ok: the root cgroup's pressure is '-'")
PY
[ $? = 0 ] || exit 1

# The reasons behind '-': the root cgroup, and every process group.
./xgtop -b --explain --source linux --group cgroup -n 2 -d 0.2 >"$tmp/explain" 2>&1 || fail "xgtop --explain (cgroup)"
grep -q "CPU-P% .*root cgroup's pressure is the whole host's" "$tmp/explain" ||
	fail "--explain gives no reason for the root cgroup's CPU-P%: $(grep CPU-P "$tmp/explain")"
./xgtop -b --explain --source linux --group process -n 2 -d 0.2 >"$tmp/explain" 2>&1 || fail "xgtop --explain (process)"
grep -q "CPU-P% .*process group has no pressure file" "$tmp/explain" ||
	fail "--explain gives no reason for process groups' CPU-P%: $(grep CPU-P "$tmp/explain")"
echo "ok: the root cgroup and process groups say why they have no pressure"
