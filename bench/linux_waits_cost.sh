#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# What the Linux source's wait attribution (BPF on the scheduler's
# tracepoints, doc/linux-source.md "Wait attribution") costs at 50,000
# context switches/s: bench/tools/xg-sched-cost ping-pongs a byte between
# two processes on CPU 0 at RATE round trips/s (two switches and two
# wakeups each) while xgtop refreshes once a second, in turns with and
# without the program (XGTOP_TRACE_WAITS=0). The program's own time comes
# from the kernel's BPF statistics (kernel.bpf_stats_enabled: run time and
# runs of each program), xgtop's from its schedstat; the cost is the
# program's time plus what xgtop spends more with it (reading and sharing
# out the maps), as a share of one core. Target: at most 1 %.
# Needs root. SECS (20) per run, RATE (25000), BENCH_ROUNDS (2).
cd "$(dirname "$0")/.." || exit 2
secs=${SECS:-20} rate=${RATE:-25000} rounds=${BENCH_ROUNDS:-2}
[ "$(id -u)" = 0 ] || { echo "linux_waits_cost: needs root (BPF and the tracepoints)"; exit 1; }
[ -x ./xgtop ] && [ -x build/tools/xg-sched-cost ] || { echo "linux_waits_cost: run make xgtop tools"; exit 1; }
command -v bpftool >/dev/null || { echo "linux_waits_cost: bpftool is not installed (make deps)"; exit 1; }
old=$(sysctl -n kernel.bpf_stats_enabled)
tmp=$(mktemp -d /tmp/xgtop-waits-cost.XXXXXX) || exit 2
xp=
cleanup() {
	[ -n "$xp" ] && kill "$xp" 2>/dev/null && wait "$xp" 2>/dev/null
	sysctl -qw kernel.bpf_stats_enabled="$old"
	rm -rf "$tmp"
}
trap cleanup EXIT
sysctl -qw kernel.bpf_stats_enabled=1 || { echo "linux_waits_cost: cannot turn on kernel.bpf_stats_enabled"; exit 1; }
. tests/wait.sh

# "run_time_ns runs" summed over xgtop's programs (lw_*)
prog_stats() {
	bpftool prog show -j | python3 -c '
import json, sys
t = n = 0
for p in json.load(sys.stdin):
    if p.get("name", "").startswith("lw_"):
        t += p.get("run_time_ns", 0); n += p.get("run_cnt", 0)
print(t, n)'
}
attached() { [ "$(prog_stats | cut -d" " -f2)" != "" ] && bpftool prog show | grep -q lw_switch; }
cpu_ns() { cut -d" " -f1 "/proc/$1/schedstat"; }

# one run: with (1) or without (0) the program; prints
# "switches_per_s bpf_ns bpf_runs xgtop_ns wall_ns"
run() {
	XGTOP_TRACE_WAITS=$1 ./xgtop -b -o csv --source linux --group process -d 1 -n 100000 >/dev/null 2>"$tmp/err" &
	xp=$!
	if [ "$1" = 1 ]; then
		wait_until 30 attached || { echo "linux_waits_cost: the program did not attach: $(cat "$tmp/err")"; exit 1; }
	fi
	wait_until 10 test -s "/proc/$xp/schedstat"
	read -r b0 n0 < <(prog_stats)
	c0=$(cpu_ns "$xp") t0=$(date +%s%N)
	line=$(build/tools/xg-sched-cost --rate "$rate" "$secs")
	read -r b1 n1 < <(prog_stats)
	c1=$(cpu_ns "$xp") t1=$(date +%s%N)
	kill "$xp"; wait "$xp" 2>/dev/null; xp=
	sw=$(echo "$line" | sed -n 's/.*switches_per_s_pingpong=\([0-9]*\).*/\1/p')
	echo "$sw $((b1 - b0)) $((n1 - n0)) $((c1 - c0)) $((t1 - t0))"
}

for r in $(seq "$rounds"); do
	run 0 >>"$tmp/without"
	run 1 >>"$tmp/with"
done
python3 - "$tmp/with" "$tmp/without" "$rate" <<'PY'
import sys
w = [list(map(float, l.split())) for l in open(sys.argv[1])]
o = [list(map(float, l.split())) for l in open(sys.argv[2])]
for i, (a, b) in enumerate(zip(w, o)):
    sw, bpf, runs, xg, wall = a
    sw0, _, _, xg0, wall0 = b
    bpf_pct = 100 * bpf / wall
    more = 100 * (xg / wall - xg0 / wall0)
    print("round %d: switches/s %.0f (without: %.0f); program %.3f %% of a core (%.0f runs/s, %.0f ns/run); "
          "xgtop %.3f %% against %.3f %% without (%+.3f %%); total %.3f %% of a core (target <= 1 %%)"
          % (i + 1, sw, sw0, bpf_pct, runs / wall * 1e9, bpf / runs if runs else 0, 100 * xg / wall,
             100 * xg0 / wall0, more, bpf_pct + more))
PY
