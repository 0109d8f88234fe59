#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Scheduler checks in the lab's dom0 (run by dom0-tests.sh after its own,
# same boot): live trace buffers through xgtop's Xen source, a xentrace
# capture of the same workload for `xgtop trace` and xenalyze (judged on
# the host by check_sched.py), and the hypervisor's trace state before,
# during and after xgtop on every exit path.
# Usage: dom0-sched.sh OUTDIR   (leaves NAME.out/.err/.rc like dom0-tests.sh)
OUT=${1:?outdir}
CON=/var/log/xen/console
XGTOP=/usr/local/bin/xgtop
ST=/usr/local/bin/xg-tbuf-state
PTY=/usr/local/bin/xg-pty
XT=/usr/local/bin/xentrace
. /usr/local/bin/dom0-lib.sh
state() { $ST > "$OUT/tb-$1.out" 2>&1; }
# wait_rows FILE SECONDS: until xgtop has printed a data row (startup under
# emulation takes a variable while).
wait_rows() {
	i=0
	while [ $i -lt $(($2 * 4)) ]; do
		[ "$(wc -l < "$1" 2>/dev/null)" -ge 2 ] && return 0
		sleep 0.25
		i=$((i + 1))
	done
	return 1
}
# Every xgtop run reports what consuming the buffers cost it.
export XGTOP_TRACE_STATS=1
[ -x $XGTOP ] || { note "SCHED_SKIP no xgtop"; exit 0; }

# 0. Nobody traces now: the earlier lab runs of xgtop left the state clean.
state before

# The full suite adds a third spinner, xg-spin3, never pinned (the dom0
# suite, for a second Xen in CI, leaves it out: check_sched.py knows).
SUITE=$(sed -n 's/.*xgsuite=\([a-z0-9]*\).*/\1/p' /proc/cmdline)
SPINS="spin1 spin2"
[ "$SUITE" != dom0 ] && SPINS="$SPINS spin3"

# 1. Two spinners (three) booted side by side, then the two pinned to
#    pCPU 1 while dom0 and the other guests keep pCPU 0; the third stays
#    paused until the pair's checks and capture are done (4b).
for g in $SPINS; do
	run create-$g 120 xl create /etc/xen/guest-$g.cfg &
done
wait
for g in $SPINS; do
	if wait_guest "xg-$g" 'XGGUEST: ready' 120; then note "GUEST_UP $g"; else note "GUEST_FAIL $g"; fi
done
xl pause xg-spin3 > /dev/null 2>&1
for d in Domain-0 xg-io xg-new; do xl vcpu-pin "$d" all 0 > /dev/null 2>&1; done
# The I/O guest's traffic would keep pCPU 0 (and dom0's backends) busy.
xl pause xg-io > /dev/null 2>&1
xl vcpu-pin xg-spin1 all 1
xl vcpu-pin xg-spin2 all 1
run xl-list-sched 30 xl list
run xl-vcpu-sched 30 xl vcpu-list

# 2. One spinner alone on its pCPU (the other paused: offline), the idle
#    guest blocked.
xl pause xg-spin2
sleep 1
run sched-alone 60 $XGTOP --source xen -b -n 3 -d 2 -o csv -v
note "SCHED_ALONE"

# 3. Both spinners on pCPU 1: each waits half the time.
xl unpause xg-spin2
sleep 2
state during-before
run sched-shared 60 $XGTOP --source xen -b -n 3 -d 2 -o csv -v
note "SCHED_SHARED"

# 4. The same workload captured by xentrace right after (one consumer at
#    a time), for `xgtop trace` and xenalyze on the host.
run xentrace-cap 30 $XT -D -e 0x0002f000 -T 5 "$OUT/lab.xt"
$ST --set-mask 0x0ffff000     # xentrace -e leaves its mask behind
run xl-info-sched 30 xl info
note "SCHED_CAPTURE"

# 4b. The third spinner, never pinned, between two neighbours pinned one
#     to each pCPU: xg-spin1 moves to pCPU 0, xg-spin2 stays on pCPU 1,
#     and dom0 and xg-new may run on either. Credit2 has one runqueue for
#     both pCPUs here and shares it by credit, so xg-spin3 takes the time
#     its neighbours leave on both pCPUs, and each of its waits (which
#     belongs to the pCPU it ran on next) is behind xg-spin1 or xg-spin2,
#     or dom0. Its share of a pCPU grows with the load the other pCPU
#     carries besides its spinner: beside the pair on pCPU 1 it sat on
#     dom0's pCPU and waited behind dom0 alone (76 %), and with dom0 kept
#     on pCPU 0 it ran mostly on pCPU 1 (74 % behind xg-spin2 on a loaded
#     host); doc/trace-live.md. Live: the ranked lists of --explain (the
#     detail pane's; the first of "in the interval" is its BEHIND); then
#     a capture of its own.
case $SPINS in *spin3*)
	xl vcpu-pin xg-spin1 all 0
	for d in Domain-0 xg-new; do xl vcpu-pin "$d" all all; done
	xl unpause xg-spin3
	sleep 1
	run sched-three 60 $XGTOP --source xen --explain -d 2
	run xentrace-three 30 $XT -D -e 0x0002f000 -T 3 "$OUT/lab3.xt"
	$ST --set-mask 0x0ffff000
	# Its spinning would slow the rest: paused (destroying it would only
	# cost dom0 time), and the others go back where the rest had them.
	xl pause xg-spin3
	for d in Domain-0 xg-new; do xl vcpu-pin "$d" all 0; done
	xl vcpu-pin xg-spin1 all 1
	note "SCHED_THREE"
esac

# 5. xentrace running: xgtop must leave the buffers to it and say why.
$XT -e 0x0002f000 /tmp/co.xt > "$OUT/co-xentrace.out" 2>&1 &
XTPID=$!
sleep 2
state co-during
run co-csv 30 $XGTOP --source xen -b -n 2 -d 1 -o csv
run co-explain 30 $XGTOP --source xen --explain
# --notrace does not even look at the buffers: its own reason, not xentrace's.
run co-notrace 30 $XGTOP --source xen --explain --notrace
state co-after-xgtop
kill -0 $XTPID 2>/dev/null && echo alive > "$OUT/co-xentrace-alive.out"
kill -INT $XTPID
wait $XTPID
echo $? > "$OUT/co-xentrace.rc"
ls -l /tmp/co.xt > "$OUT/co-xt-size.out" 2>&1
cp /tmp/co.xt "$OUT/co.xt" 2>/dev/null
rm -f /tmp/co.xt
$ST --set-mask 0x0ffff000
state co-end
note "SCHED_COEXIST"

# 6. Every exit path puts the state back: SIGTERM, SIGINT, SIGHUP...
for sig in TERM INT HUP; do
	$XGTOP --source xen -b -d 1 -o csv > "$OUT/sig-$sig.out" 2> "$OUT/sig-$sig.err" &
	p=$!
	wait_rows "$OUT/sig-$sig.out" 60
	state "sig-$sig-during"
	kill -$sig $p
	wait $p
	echo $? > "$OUT/sig-$sig.rc"
	state "sig-$sig-after"
done
# ... `w` then `q` in the full-screen view ...
if [ -x $PTY ]; then
	t0=$(cut -d. -f1 /proc/uptime)
	$PTY "12:w,18:q" $XGTOP --source xen > "$OUT/tui-wq.out" 2> "$OUT/tui-wq.err" &
	p=$!
	# Started tracing yet? (start-up under emulation takes seconds)
	while [ $(($(cut -d. -f1 /proc/uptime) - t0)) -lt 11 ]; do
		$ST | grep -q 'mask=0x00021000' && break
		sleep 0.5
	done
	state tui-on
	# `w` goes at 12 s; the session stops at the next refresh.
	while [ $(($(cut -d. -f1 /proc/uptime) - t0)) -lt 16 ]; do sleep 0.5; done
	state tui-w-off
	wait $p
	echo $? > "$OUT/tui-wq.rc"
	state tui-after-q
fi
# ... and after SIGKILL, the next start restores what the killed one left.
$XGTOP --source xen -b -d 1 -o csv > "$OUT/kill-run.out" 2>&1 &
p=$!
wait_rows "$OUT/kill-run.out" 60
kill -KILL $p
wait $p
state kill-left
cat /run/xgtop/trace.state > "$OUT/kill-statefile.out" 2>&1
run kill-next 30 $XGTOP --source xen -b -n 1 -d 0.5 -o csv
state kill-recovered
[ -e /run/xgtop/trace.state ] && echo present > "$OUT/kill-statefile-after.out"
note "SCHED_RESTORE"
