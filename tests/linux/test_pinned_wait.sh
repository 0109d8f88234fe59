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
check_csv "$tmp/out" "$a" "$b" <<'PY' || exit 1
r, w = {}, {}
for x in ARGS:
    r[x], w[x] = mean(x, "run_pct"), mean(x, "wait_pct")
    expect("loop %s WAIT%%" % x, w[x], ">=", 38)
    expect("loop %s RUN%%" % x, r[x], ">=", 5)
    expect("loop %s RUN%%+WAIT%%" % x, r[x] + w[x], ">=", 85)
a, b = ARGS
# one CPU between them: together they cannot run more than all of it (on an
# idle host each runs about 50 % and waits about 50 %; other load on that
# CPU lowers RUN% and raises WAIT% for both alike)
expect("RUN% a + b", r[a] + r[b], "<=", 105)
# the scheduler is fair between two equal loops
expect("|RUN% a - RUN% b|", abs(r[a] - r[b]), "<=", 15)
PY
