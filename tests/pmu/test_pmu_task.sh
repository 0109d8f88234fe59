#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Per-thread counting with software events, end to end through the PMU
# module: a command that touches N new pages shows at least N page faults,
# in user or kernel mode as it took them; descendants only with --inherit.
. "$(dirname "$0")/lib.sh"
need_counting

out=$($PROBE --events $SW -- $WORK pages 2000) || fail "probe failed"
atleast ref 2000
has event.ref page-faults
# the two events share one group: one counter fd each, one task
[ "$(get fds)" = 2 ] || fail "expected 2 counter fds, got $(get fds)"

# (A sleep that ends before its task is switched out, as on a loaded
# virtual machine, has no switch: a few may be missing, not most.)
out=$($PROBE --events $SW -- $WORK sleeps 50) || fail "probe failed"
atleast miss 45

# Breakdown: user-mode faults land in the user slice, faults the kernel
# takes while filling a read() buffer in the kernel slice; parts sum up.
out=$($PROBE --nosumcache --events $SW -- $WORK pages 1500) || fail "probe failed"
atleast guest_user.ref 1500
[ "$(get guest_kernel.ref)" = - ] || fail "a process has no guest kernel slice"
[ $(( $(get guest_user.ref) + $(get host.ref) )) -eq "$(get ref)" ] || fail "slices do not sum to the total"
out=$($PROBE --nosumcache --events $SW -- $WORK kpages 1500) || fail "probe failed"
atleast host.ref 1500
atmost guest_user.ref 1000

# Threads and children created after the attach: counted with --inherit ...
out=$($PROBE --inherit --events $SW -- $WORK threads 4 500) || fail "probe failed"
atleast ref 2000
out=$($PROBE --inherit --events $SW -- $WORK forks 3 500) || fail "probe failed"
atleast ref 1500
# ... and not without it (the source attaches threads as it finds them).
out=$($PROBE --events $SW -- $WORK forks 3 500) || fail "probe failed"
atmost ref 1000

# A running process: threads found in /proc and attached, counts kept
# after they exit.
$WORK tdelay 3 400 1000 & pid=$!
out=$($PROBE --events $SW --pid $pid --ms 250 --reads 4) || fail "probe failed"
wait $pid
atleast ref 3000
echo "per-task counting works"
