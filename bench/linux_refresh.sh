#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Linux source refresh cost: CPU time of one collect (both grouping modes)
# with PROCS extra sleeping processes on the host (default 1000), against
# top's CPU time per refresh on the same host (procps top -b, which also
# reads every process each refresh). Figures are printed, not asserted.
cd "$(dirname "$0")/.." || exit 2
make -s tools >/dev/null || exit 2
command -v top >/dev/null || { echo "linux_refresh: top (procps) is not installed"; exit 77; }
n=${PROCS:-1000}
tmp=$(mktemp -d) || exit 2
# the sleepers share one process group led by a setsid'd shell, so one
# kill by that group id ends them all
setsid bash -c 'echo $$ >"$1"; for ((i = 0; i < $2; i++)); do sleep 600 & done; wait' _ "$tmp/leader" "$n" &
trap 'kill -- -"$(cat "$tmp/leader")" 2>/dev/null; rm -rf "$tmp"' EXIT
for _ in $(seq 100); do
	[ -s "$tmp/leader" ] && [ "$(pgrep -c -g "$(cat "$tmp/leader")")" -gt "$n" ] && break
	sleep 0.1
done
for mode in process cgroup; do
	build/tools/xgtop-linux-dump bench "$mode" "${REFRESHES:-50}" | sed "s/^/xgtop $mode: /" | tee -a "$tmp/x"
done
# top: CPU of 21 refreshes minus 1 (its first pass has no rates)
cpu_of() {  # prints the user+sys seconds of a command's run
	local s
	s=$( { TIMEFORMAT='%U %S'; time "$@" >/dev/null 2>&1; } 2>&1 )
	awk '{ print $1 + $2 }' <<<"$s"
}
t=$(cpu_of top -b -n 21 -d 0.05 -w 512)
t1=$(cpu_of top -b -n 1 -w 512)
top_us=$(awk -v t="$t" -v t1="$t1" 'BEGIN { printf "%.0f", (t - t1) / 20 * 1e6 }')
echo "top -b: $top_us us CPU per refresh"
x_us=$(sed -n 's/^xgtop process:.*: \([0-9]*\) us CPU,.*/\1/p' "$tmp/x")
awk -v x="$x_us" -v t="$top_us" 'BEGIN { if (t > 0) printf "ratio xgtop process mode / top: %.2f\n", x / t }'
