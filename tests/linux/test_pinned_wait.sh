#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Two busy loops pinned to one CPU share it: each runs about half the time
# and waits on the runqueue the other half (schedstat run_delay -> WAIT%).
. "$(dirname "$0")/common.sh"
command -v taskset >/dev/null || skip "taskset (util-linux) is not installed"
cpu=$(first_cpu)
[ -n "$cpu" ] || skip "cannot read this shell's CPU affinity"
spawn <<W
a taskset -c $cpu bash -c 'while :; do :; done'
b taskset -c $cpu bash -c 'while :; do :; done'
W
a=$(pid_of a) b=$(pid_of b)
xg_csv "$tmp/out" --group process -n 3 -d 1
ra=$(csv_mean "$tmp/out" "$a" run_pct) wa=$(csv_mean "$tmp/out" "$a" wait_pct)
rb=$(csv_mean "$tmp/out" "$b" run_pct) wb=$(csv_mean "$tmp/out" "$b" wait_pct)
for x in a b; do
	r=r$x w=w$x
	expect "loop $x WAIT%" "${!w}" '>=' 38
	expect "loop $x RUN%" "${!r}" '>=' 5
	expect "loop $x RUN%+WAIT%" "$(python3 -c "print(${!r} + ${!w})")" '>=' 85
done
# one CPU between them: together they cannot run more than all of it (on an
# idle host each runs about 50 % and waits about 50 %; other load on that
# CPU lowers RUN% and raises WAIT% for both alike)
expect "RUN% a + b" "$(python3 -c "print($ra + $rb)")" '<=' 105
# the scheduler is fair between two equal loops
expect "RUN% difference" "$(python3 -c "print(abs($ra - $rb))")" '<=' 15
