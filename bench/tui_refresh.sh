#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# TUI refresh cost: metrics, filter+sort and drawing for 10,000 domains
# into a 200x60 screen, from a recording (so the source's cost is not in
# the figure). Target: under 1 ms of CPU per refresh with the meters and
# history on. Printed, not asserted. Memory: the real program's peak resident set while replaying
# the same number of domains (target under 32 MB). Runs with --no-config, so
# nobody's settings file changes the figures.
cd "$(dirname "$0")/.." || exit 2
make -s tools >/dev/null || exit 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The meters are on (the default) and the host has PCPUS pCPUs (512: the
# heat strip's four lines); PCPUS=0 gives the figure without pCPU meters.
build/tools/xgtop-gen --domains "${DOMAINS:-10000}" --samples 3 --pcpus "${PCPUS:-512}" "$tmp/rec.xgr" || exit 1
echo "tui_refresh: target under 1 ms CPU per refresh with meters and history on"
build/tools/xgtop-tuibench --rows 60 --cols 200 --refreshes "${REFRESHES:-200}" "$tmp/rec.xgr" || exit 1

# The real program, replaying the same domains in a 200x60 tmux pane: its
# own figure for CPU per refresh, and its peak resident memory.
command -v tmux >/dev/null || { echo "tmux missing: real-binary figures skipped"; exit 0; }
build/tools/xgtop-gen --domains "${DOMAINS:-10000}" --samples 40 --steady --pcpus "${PCPUS:-512}" "$tmp/long.xgr" || exit 1
sock=xgtop-bench-$$
tmux -L "$sock" new-session -d -x 200 -y 60 "./xgtop --replay $tmp/long.xgr --speed 4 --no-config; sleep 30"
sleep 8
pid=$(pgrep -f "^./xgtop --replay $tmp/long.xgr" | head -n 1)
if [ -n "$pid" ]; then
	hwm=$(awk '/VmHWM/ {print $2}' /proc/$pid/status)
	self=$(tmux -L "$sock" capture-pane -p | grep -o 'self [0-9.]* ms/refresh' | head -n 1)
	printf 'xgtop --replay in 200x60: %s (includes decoding the recording), peak resident memory %.1f MB (target under 32 MB)\n' \
		"$self" "$(echo "$hwm / 1024" | bc -l)"
fi
tmux -L "$sock" kill-server 2>/dev/null
exit 0
