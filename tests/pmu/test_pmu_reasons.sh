#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Every figure the PMU module cannot measure is '-' with the precise reason:
# no hardware PMU, out of file descriptors, perf_event_paranoid too high
# (per task and per cgroup). The busy-PMU reason (time_running 0) needs
# hardware counters held by another tool; tests/unit/pmu/test_pmu_math.c
# checks it on recorded values.
. "$(dirname "$0")/lib.sh"

# 0. Unprivileged and refused: that reason must be precise; nothing else
#    can be checked here.
out=$($PROBE --events $SW -- $WORK pages 10) || fail "probe failed"
if [[ "$(get why.ref)" == "permission denied"* ]]; then
	has why.ref "kernel.perf_event_paranoid=$(cat /proc/sys/kernel/perf_event_paranoid)"
	echo "unprivileged here: only the permission reason could be checked"
	exit 77
fi

# 1. Default events: on a host without a PMU (this lab, CI) every cache
#    figure says so; on a host with one they are numbers.
out=$($PROBE -- $WORK pages 100) || fail "probe failed"
if compgen -G "/sys/bus/event_source/devices/cpu*" >/dev/null; then
	atleast ref 1   # a core PMU driver is registered
else
	has why.ref "no hardware PMU (virtual machine without vPMU?)"
	has why.miss "no hardware PMU"
	has why.instr "no hardware PMU"
	has why.cycles "no hardware PMU"
fi
# Software events still count, and the missing instructions say why.
out=$($PROBE --events $SW -- $WORK pages 100) || fail "probe failed"
atleast ref 100
compgen -G "/sys/bus/event_source/devices/cpu*" >/dev/null || has why.instr "no hardware PMU"

# 2. Out of file descriptors: 2 slices x 4 events need 8 descriptors.
out=$(ulimit -n 8; $PROBE --nosumcache --events page-faults,cs,cpu-clock,task-clock -- $WORK pages 10) ||
	fail "probe failed"
has why.ref "out of file descriptors (EMFILE, limit 8)"
has why.ref "ulimit -n"
has why.cycles "EMFILE"

# 3. perf_event_paranoid: counting kernel mode of a task needs <= 1, a
#    cgroup (CPU-wide counters) needs <= 0, unless privileged.
[ "$(id -u)" = 0 ] || { echo "not root: cannot run as another user or set perf_event_paranoid"; exit 77; }
command -v setpriv >/dev/null || { echo "setpriv missing (util-linux)"; exit 77; }
nobody=(setpriv --reuid=nobody --regid=nogroup --clear-groups)
"${nobody[@]}" test -x "$PROBE" && "${nobody[@]}" test -x "$WORK" || {
	echo "user nobody cannot run $PWD/$PROBE (the checkout is closed to other users, e.g. mode 0700)"
	exit 77
}
par=/proc/sys/kernel/perf_event_paranoid
old=$(cat $par)
root=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/self/mounts)
cg=${root:+$root/xgtop-pmu-test-$$}
restore() { echo "$old" >$par; [ -n "$cg" ] && rmdir "$cg" 2>/dev/null; }
trap restore EXIT
echo 2 >$par || { echo "cannot set $par"; exit 77; }
out=$("${nobody[@]}" $PROBE --events $SW -- $WORK pages 10) || fail "probe as nobody failed"
has why.ref "permission denied (EACCES, kernel.perf_event_paranoid=2)"
has why.ref "set kernel.perf_event_paranoid=1"
echo 1 >$par
out=$("${nobody[@]}" $PROBE --events $SW -- $WORK pages 300) || fail "probe as nobody failed"
atleast ref 300
if [ -n "$cg" ] && mkdir "$cg" 2>/dev/null; then
	out=$("${nobody[@]}" $PROBE --events $SW --cgroup "$cg" --ms 10) || fail "probe as nobody failed"
	has why.ref "permission denied (EACCES, kernel.perf_event_paranoid=1)"
	has why.ref "set kernel.perf_event_paranoid=0"
	echo 0 >$par
	out=$("${nobody[@]}" $PROBE --events $SW --cgroup "$cg" --ms 10) || fail "probe as nobody failed"
	[ "$(get ref)" = 0 ] || fail "paranoid 0: an empty cgroup should count 0"
	echo "ok: paranoid 0 allows cgroup counting"
fi
echo "every reason checked"
