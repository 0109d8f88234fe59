#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Per-cgroup counting (one group per CPU, PERF_FLAG_PID_CGROUP) with
# software events on real cgroup v2 directories.
. "$(dirname "$0")/lib.sh"
need_counting
root=$(cgroup2_root) || exit $?
busy=$root/xgtop-pmu-test-$$-busy idle=$root/xgtop-pmu-test-$$-idle
cleanup() { rmdir "$busy" "$idle" 2>/dev/null; }
trap cleanup EXIT
mkdir "$busy" "$idle" || { echo "cannot create cgroups under $root"; exit 77; }
ncpu=$(getconf _NPROCESSORS_ONLN)

# Every process of the cgroup counts, children included.
out=$($PROBE --events $SW --cgroup "$busy" -- $WORK forks 3 700) || fail "probe failed"
atleast ref 2100
[ "$(get fds)" = $((2 * ncpu)) ] || fail "expected 2 events x $ncpu CPUs of fds, got $(get fds)"

# A cgroup with nothing in it counted exactly nothing (0, not '-').
out=$($PROBE --events $SW --cgroup "$idle" --ms 300) || fail "probe failed"
[ "$(get ref)" = 0 ] && [ "$(get miss)" = 0 ] || fail "idle cgroup: expected 0 and 0"
echo "ok: idle cgroup counts 0"

# Breakdown per cgroup.
out=$($PROBE --nosumcache --events $SW --cgroup "$busy" -- $WORK kpages 1200) || fail "probe failed"
atleast host.ref 1200
[ $(( $(get guest_user.ref) + $(get host.ref) )) -eq "$(get ref)" ] || fail "slices do not sum to the total"

# A missing cgroup says so.
out=$($PROBE --events $SW --cgroup "$root/xgtop-no-such-cgroup" --ms 10) || fail "probe failed"
has why.ref "cannot open cgroup"
echo "per-cgroup counting works"
