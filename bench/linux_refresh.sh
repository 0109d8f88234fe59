#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Linux source refresh cost against top's, on the same host in the same run:
# the CPU time of one collect in each grouping (process, cgroup, vm), with
# PROCS extra sleeping processes (default 1000), against the CPU time of one
# refresh of procps `top -b` (which also reads every process each refresh).
# Both refresh GAP_MS apart (default 50, top's -d 0.05), so each pass finds
# what the host did in between; both write to /dev/null. The programs take
# turns for BENCH_ROUNDS rounds (default 5) and the best round of each
# counts: other jobs on a shared machine only ever add time. Syscalls per
# collect come from strace -c. Target: xgtop <= 0.5x top in every grouping.
# Figures are printed, not asserted; DUMP=path/to/xgtop-linux-dump measures
# another build of the tool.
cd "$(dirname "$0")/.." || exit 2
make -s tools >/dev/null || exit 2
command -v top >/dev/null || { echo "linux_refresh: top (procps) is not installed"; exit 77; }
n=${PROCS:-1000} gap=${GAP_MS:-50} reps=${REFRESHES:-50} rounds=${BENCH_ROUNDS:-5}
dump=${DUMP:-build/tools/xgtop-linux-dump}
modes="process cgroup vm"
tmp=$(mktemp -d) || exit 2
# the sleepers share one process group led by a setsid'd shell, so one
# kill by that group id ends them all
setsid bash -c 'echo $$ >"$1"; for ((i = 0; i < $2; i++)); do sleep 600 & done; wait' _ "$tmp/leader" "$n" &
trap 'kill -- -"$(cat "$tmp/leader")" 2>/dev/null; rm -rf "$tmp"' EXIT
for _ in $(seq 100); do
	[ -s "$tmp/leader" ] && [ "$(pgrep -c -g "$(cat "$tmp/leader")")" -gt "$n" ] && break
	sleep 0.1
done

# the user+sys CPU microseconds of a command's run, its output to /dev/null
cpu_us() {
	local s
	s=$( { TIMEFORMAT='%3U %3S'; time "$@" >/dev/null 2>&1; } 2>&1 )
	awk '{ printf "%.0f", ($1 + $2) * 1e6 }' <<<"$s"
}
# keeps the smaller of $2 and the value of variable $1
best() { [ -z "${!1}" ] || [ "$2" -lt "${!1}" ] && printf -v "$1" '%s' "$2"; }

top_d=$(awk -v g="$gap" 'BEGIN { print g / 1000 }')
for r in $(seq "$rounds"); do
	# top: 21 refreshes minus 1 (a start and a first pass with no rates),
	# each the best of the rounds
	t21=$(cpu_us top -b -w 512 -d "$top_d" -n 21)
	t1=$(cpu_us top -b -w 512 -n 1)
	best top_n1 "$t1"
	best top_n21 "$t21"
	said="round $r: top $(((t21 - t1) / 20)) us"
	for mode in $modes; do
		line=$("$dump" bench "$mode" "$reps" "$gap")
		us=$(sed -n 's/.*: \([0-9]*\) us CPU,.*/\1/p' <<<"$line")
		[ -n "$us" ] || { echo "linux_refresh: $dump bench $mode: $line"; exit 1; }
		v=best_$mode
		[ -z "${!v}" ] || [ "$us" -lt "${!v}" ] && printf -v "line_$mode" '%s' "${line#*: }"
		best "best_$mode" "$us"
		said+=", xgtop $mode $us us"
	done
	echo "$said"
done
top_us=$(((top_n21 - top_n1) / 20))

# syscalls of a command (strace -c -f: the "total" line's calls)
calls() {
	strace -f -c -o "$tmp/strace" "$@" >/dev/null 2>&1 || return 1
	awk '$NF == "total" { print $4 }' "$tmp/strace"
}
# syscalls per refresh: the difference between 12 and 2 refreshes, over 10
# (what starting up and the first pass cost drops out); $1 runs N refreshes
per_refresh() {
	command -v strace >/dev/null || { echo "?"; return; }
	local a b
	a=$("$1" 2) && b=$("$1" 12) || { echo "?"; return; }
	echo $(((b - a) / 10))
}
xg_calls() { calls "$dump" bench "$mode" "$1"; }
top_calls() { calls top -b -w 512 -d 0.01 -n "$1"; }

echo "best of $rounds rounds, refreshes $gap ms apart, output to /dev/null:"
for mode in $modes; do
	v=line_$mode
	echo "xgtop $mode: ${!v}, $(per_refresh xg_calls) syscalls per collect"
done
echo "top -b: $top_us us CPU per refresh, $(per_refresh top_calls) syscalls per refresh" \
	"(top -b -n 1, start to end: $top_n1 us)"
for mode in $modes; do
	v=best_$mode
	awk -v m="$mode" -v x="${!v}" -v t="$top_us" 'BEGIN {
		r = x / t
		printf "ratio xgtop %s mode / top: %.2f (target <= 0.50: %s)\n", m, r,
		       r <= 0.5 ? "met" : "NOT met" }'
done
