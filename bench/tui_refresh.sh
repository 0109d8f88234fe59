#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# TUI refresh cost: metrics, the history (the detail pane's graphs and the
# TREND column, drawn), filter and sort, and drawing with the header meters
# for 10,000 domains into a 200x60 screen (and, of the drawing, what
# ncurses' own update of the terminal took), from a recording (so the
# source's cost is not in the figure). Target: under 1 ms of CPU per
# refresh with the meters and the history on. The history's memory for
# 1,000 domains x 300 samples: target under 32 MB. Printed, not asserted.
# Then the real program: its own figure for CPU per refresh and its peak
# resident set while replaying 10,000 domains, with the history (at most
# 32 MiB of it) and without (--history 0). Runs with --no-config, so
# nobody's settings file changes the figures. And what rows that hold
# still cost: on and off in alternating runs.
cd "$(dirname "$0")/.." || exit 2
make -s tools >/dev/null || exit 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# 4 samples: the bench goes through the 3 intervals in turn. The host has
# PCPUS pCPUs (512: the heat strip's four lines); PCPUS=0 gives the figure
# without pCPU meters.
build/tools/xgtop-gen --domains "${DOMAINS:-10000}" --samples 4 --pcpus "${PCPUS:-512}" "$tmp/rec.xgr" || exit 1
# BENCH_ROUNDS runs of each (default 5): the median of each stage, and
# the best run's in brackets (other jobs on the machine only add to it).
rounds=${BENCH_ROUNDS:-5}
stages() {
	: >"$tmp/runs"
	for i in $(seq "$rounds"); do
		build/tools/xgtop-tuibench --rows 60 --cols 200 --refreshes "${REFRESHES:-300}" "$@" "$tmp/rec.xgr" >"$tmp/out" || return 1
		[ "$i" = 1 ] && sed -n '1p;3p;4p' "$tmp/out"
		sed -n 2p "$tmp/out" >>"$tmp/runs"
	done
	k=2
	for name in metrics suspects history filter+sort draw total ncurses; do
		sort -n -k "$k,$k" "$tmp/runs" | awk -v k="$k" -v n="$rounds" -v name="$name" \
			'{ x[NR] = $k } END { printf "%s %.3f [%.3f] ms  ", name, n % 2 ? x[(n + 1) / 2] : (x[n / 2] + x[n / 2 + 1]) / 2, x[1] }'
		k=$((k + 3))
	done
	echo "CPU per refresh, median [best] of $rounds runs (ncurses: its own update of the terminal, part of draw)"
}
# Rows that hold still (--stable-order, on by default in the full-screen
# view; the runs above have it on): the filter+sort stage and the whole
# refresh with it on and off, in alternating runs (on first in odd rounds,
# off first in even ones) so both see the same neighbours.
stable_cost() {
	: >"$tmp/on"
	: >"$tmp/off"
	for i in $(seq "$rounds"); do
		order="on off"
		[ $((i % 2)) = 0 ] && order="off on"
		for s in $order; do
			build/tools/xgtop-tuibench --rows 60 --cols 200 --refreshes "${REFRESHES:-300}" --stable-order "$s" \
				"$tmp/rec.xgr" >"$tmp/out" || return 1
			sed -n 2p "$tmp/out" >>"$tmp/$s"
		done
	done
	for s in on off; do
		printf 'stable order %-3s ' "$s"
		for k in 8 14; do   # filter+sort, total
			sort -n -k "$k,$k" "$tmp/$s" | awk -v k="$k" -v n="$rounds" \
				'{ x[NR] = $k } END { m = n % 2 ? x[(n + 1) / 2] : (x[n / 2] + x[n / 2 + 1]) / 2;
				   printf "%s %.3f [%.3f] ms  ", k == 8 ? "filter+sort" : "total", m, x[1] }'
		done
		echo
	done
	echo "(rows that hold still, on and off in alternating runs: median [best] of $rounds each)"
}
# The cache suspects' step (their update and the VICTIM column) with the
# counters of the recording above and without any (xgtop-gen --nopmu: no
# PMU access, Xen without the agent), where it is one host-level test.
suspects_cost() {
	for rec in rec nopmu; do
		: >"$tmp/susp"
		for i in $(seq "$rounds"); do
			build/tools/xgtop-tuibench --rows 60 --cols 200 --refreshes "${REFRESHES:-300}" --history 0 \
				"$tmp/$rec.xgr" | sed -n 2p >>"$tmp/susp" || return 1
		done
		sort -n -k 5,5 "$tmp/susp" | awk -v n="$rounds" -v what="$rec" '{ x[NR] = $5 } END {
			printf "suspects %s %.3f [%.3f] ms per refresh\n", what == "rec" ? "with counters   " : "without counters",
			       n % 2 ? x[(n + 1) / 2] : (x[n / 2] + x[n / 2 + 1]) / 2, x[1] }'
	done
	echo "(the suspects' step alone, median [best] of $rounds runs each)"
	# States the bench above never reaches (it starts every domain's windows
	# again at its wrap): every domain judged, and 1 in 10 a victim.
	build/tools/xgtop-suspbench --domains "${DOMAINS:-10000}" || return 1
}
echo "tui_refresh: target under 1 ms CPU per refresh with meters and history on (load average $(cut -d' ' -f1-3 /proc/loadavg))"
stages || exit 1
stages --history 0 || exit 1
build/tools/xgtop-gen --nopmu --domains "${DOMAINS:-10000}" --samples 4 --pcpus "${PCPUS:-512}" "$tmp/nopmu.xgr" || exit 1
suspects_cost || exit 1
stable_cost || exit 1
echo "history memory: target under 32 MB for 1,000 domains x 300 samples"
build/tools/xgtop-gen --domains 1000 --samples 4 "$tmp/rec1k.xgr" || exit 1
build/tools/xgtop-tuibench --refreshes 50 "$tmp/rec1k.xgr" | grep '^history of' || exit 1

# The real program, replaying the same domains in a 200x60 tmux pane: its
# own figure for CPU per refresh, and its peak resident memory.
command -v tmux >/dev/null || { echo "tmux missing: real-binary figures skipped"; exit 0; }
build/tools/xgtop-gen --domains "${DOMAINS:-10000}" --samples 40 --steady --pcpus "${PCPUS:-512}" "$tmp/long.xgr" || exit 1
for hist in 300 0; do
	sock=xgtop-bench-$$-$hist
	tmux -L "$sock" new-session -d -x 200 -y 60 "./xgtop --replay $tmp/long.xgr --speed 4 --no-config --history $hist; sleep 30"
	sleep 8
	pid=$(pgrep -f "^./xgtop --replay $tmp/long.xgr --speed 4 --no-config --history $hist" | head -n 1)
	if [ -n "$pid" ]; then
		hwm=$(awk '/VmHWM/ {print $2}' /proc/$pid/status)
		self=$(tmux -L "$sock" capture-pane -p | grep -o 'self [0-9.]* ms/refresh' | head -n 1)
		printf 'xgtop --replay --history %s in 200x60: %s (includes decoding the recording), peak resident memory %.1f MB\n' \
			"$hist" "$self" "$(echo "$hwm / 1024" | bc -l)"
	fi
	tmux -L "$sock" kill-server 2>/dev/null
done
exit 0
