#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A pid reused between two refreshes is a new process, not the old one: the
# files xgtop keeps open for a process belong to its task, so a busy loop
# killed and replaced by a sleeper under the same pid must give way to the
# sleeper's own figures (idle, blocked, its disk counters readable), never
# the loop's. Runs in a pid namespace of its own, where writing
# ns_last_pid makes the next process get the freed pid.
. "$(dirname "$0")/common.sh"
[ "$(id -u)" = 0 ] || skip "needs root (a pid namespace and ns_last_pid)"
command -v unshare >/dev/null || skip "unshare (util-linux) is not installed"
[ -e /proc/sys/kernel/ns_last_pid ] || skip "no /proc/sys/kernel/ns_last_pid (kernel without checkpoint/restore)"
unshare --pid --fork --mount-proc true 2>/dev/null || skip "cannot create a pid namespace here"

# In the namespace this script is pid 1, so each of its children is a
# domain of its own in process mode.
cat >"$tmp/inner.sh" <<'SH'
cd "$1" || exit 2
. tests/wait.sh
./xgtop -b -o csv --source linux --group process -n 8 -d 0.5 >"$2/out" 2>"$2/xgtop.err" &
xg=$!
bash -c 'while :; do :; done' &
old=$!
# Until xgtop has printed three rows of the loop (the checks want two
# after the first; the sleeper then has the rest of the 8).
loop_rows() { [ "$(grep -c "^[^,]*,[^,]*,$old," "$2/out")" -ge 3 ]; }
wait_until 30 loop_rows "$@" || { echo "xgtop printed no 3 rows of the busy loop within 30 s" >&2; exit 1; }
kill "$old"
wait "$old" 2>/dev/null
echo $((old - 1)) >/proc/sys/kernel/ns_last_pid
sleep 60 &
new=$!
echo "$old $new" >"$2/pids"
wait "$xg"
echo "xgtop exit $?" >>"$2/xgtop.err"
kill "$new"
SH
unshare --pid --fork --mount-proc bash "$tmp/inner.sh" "$PWD" "$tmp" ||
	fail "the namespace's script failed: $(cat "$tmp/xgtop.err" 2>/dev/null)"
grep -q "xgtop exit 0" "$tmp/xgtop.err" || fail "xgtop: $(cat "$tmp/xgtop.err")"
read -r old new <"$tmp/pids"
[ "$old" = "$new" ] || skip "the pid was not reused (got $new for $old)"
check_csv "$tmp/out" "$old" <<'PY' || exit 1
pid, = ARGS
mine = [r for r in rows if r["id"] == pid and r.get("vcpu", "") == ""]
loop = [r for r in mine if r["name"] == "bash"]
sleeper = [r for r in mine if r["name"] == "sleep"]
if len(loop) < 2 or len(sleeper) < 3:
    sys.exit("FAIL: %d rows of the loop and %d of the sleeper under pid %s" % (len(loop), len(sleeper), pid))
if mine.index(sleeper[0]) < mine.index(loop[-1]):
    sys.exit("FAIL: the loop's rows after the sleeper's")
num = lambda r, k: float(r[k]) if r[k] != "" else float("nan")
# (its last row's interval ends with the kill: the busiest of its rows
# counts. Busy is runnable all the time, RUN% + WAIT%, whatever share of a
# CPU a loaded machine leaves it: load 4-8 on 2 shared cores has given it
# less than 30 % of one, so its CPU% need only be a fair share, as in
# tests/batch/test_rates.sh.)
expect("loop RUN%+WAIT% (busiest row)", max(num(r, "run_pct") + num(r, "wait_pct") for r in loop[1:]), ">=", 85)
expect("loop CPU% (busiest row)", max(num(r, "cpu_pct") for r in loop[1:]), ">=", 10)
# the first sleeper row may have no rates (a new process: a new baseline)
for i, r in enumerate(sleeper[1:]):
    expect("sleeper CPU%% (row %d)" % (i + 2), num(r, "cpu_pct"), "<=", 1)
    expect("sleeper BLK%% (row %d)" % (i + 2), num(r, "blk_pct"), ">=", 97)
    expect("sleeper DISK-WR/s (row %d)" % (i + 2), num(r, "disk_wr_bps"), "<=", 0)
    expect("sleeper CPU(s) (row %d)" % (i + 2), num(r, "cpu_s"), "<=", 0.05)
PY
