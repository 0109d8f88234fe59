#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Linux source refresh cost: CPU time and syscalls of one collect (process,
# cgroup and vm grouping) with PROCS extra sleeping processes on the host
# (default 1000), against top's on the same host in the same run (procps
# top -b, which also reads every process each refresh). Both refresh
# GAP_MS apart (default 50, top's -d 0.05), so each pass finds what the
# host did in between. Figures are printed, not asserted.
# DUMP=path/to/xgtop-linux-dump measures another build of the tool.
cd "$(dirname "$0")/.." || exit 2
make -s tools >/dev/null || exit 2
command -v top >/dev/null || { echo "linux_refresh: top (procps) is not installed"; exit 77; }
n=${PROCS:-1000} gap=${GAP_MS:-50} reps=${REFRESHES:-50}
dump=${DUMP:-build/tools/xgtop-linux-dump}
tmp=$(mktemp -d) || exit 2
# the sleepers share one process group led by a setsid'd shell, so one
# kill by that group id ends them all
setsid bash -c 'echo $$ >"$1"; for ((i = 0; i < $2; i++)); do sleep 600 & done; wait' _ "$tmp/leader" "$n" &
trap 'kill -- -"$(cat "$tmp/leader")" 2>/dev/null; rm -rf "$tmp"' EXIT
for _ in $(seq 100); do
	[ -s "$tmp/leader" ] && [ "$(pgrep -c -g "$(cat "$tmp/leader")")" -gt "$n" ] && break
	sleep 0.1
done
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
for mode in process cgroup vm; do
	line=$("$dump" bench "$mode" "$reps" "$gap")
	sc=$(per_refresh xg_calls)
	echo "xgtop $mode: $line, $sc syscalls per collect" | tee -a "$tmp/x"
done
# top: CPU of 21 refreshes minus 1 (its first pass has no rates)
cpu_of() {  # prints the user+sys seconds of a command's run
	local s
	s=$( { TIMEFORMAT='%U %S'; time "$@" >/dev/null 2>&1; } 2>&1 )
	awk '{ print $1 + $2 }' <<<"$s"
}
t=$(cpu_of top -b -n 21 -d "$(awk -v g="$gap" 'BEGIN { print g / 1000 }')" -w 512)
t1=$(cpu_of top -b -n 1 -w 512)
top_us=$(awk -v t="$t" -v t1="$t1" 'BEGIN { printf "%.0f", (t - t1) / 20 * 1e6 }')
top_sc=$(per_refresh top_calls)
echo "top -b: $top_us us CPU per refresh, $top_sc syscalls per refresh"
for mode in process cgroup vm; do
	x_us=$(sed -n "s/^xgtop $mode:.*: \\([0-9]*\\) us CPU,.*/\\1/p" "$tmp/x")
	awk -v m="$mode" -v x="$x_us" -v t="$top_us" \
		'BEGIN { if (t > 0 && x > 0) printf "ratio xgtop %s mode / top: %.2f\n", m, x / t }'
done
