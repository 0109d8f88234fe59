#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Left (or ,) steps a replay back: the summary shows the earlier recorded
# time and the rows are that sample's (domid 10 was reuse-10 before its
# reuse, late-08 had not arrived); it freezes; Right steps forward again,
# back to the end; the detail pane steps too, its history ending at the
# sample shown. A live source says it cannot.
. "$(dirname "$0")/lib.sh"
make_rec 12
start_shell
start_xgtop --speed 20 --no-config
wait_for "end of recording"

recorded() { screen | grep -oE 'recorded [0-9-]+ [0-9:]+' | head -n 1 | awk '{print $3}'; }
wait_time() {  # wait_time HH:MM:SS what
	local t0=$SECONDS
	while [ "$(recorded)" != "$1" ]; do
		[ $((SECONDS - t0)) -ge 10 ] && fail "$2: recorded time is $(recorded), want $1"
		sleep 0.05
	done
}
[ "$(recorded)" = 00:00:11 ] || fail "the end of a 12-sample recording is not 00:00:11: $(recorded)"
keys Left
wait_time 00:00:10 "Left"
wait_for FROZEN
screen | grep -q "end of recording" && fail "still at the end after stepping back"
keys ,
wait_time 00:00:09 ","
# Far back: before late-08 arrived (sample 4) and before domid 10 was reused (sample 6).
for _ in 1 2 3 4 5 6; do keys Left; done
wait_time 00:00:03 "six more steps back"
settle
names | grep -qx reuse-10 || fail "sample 3 should show reuse-10: $(names | tr '\n' ' ')"
names | grep -qx reuse-10b && fail "sample 3 shows reuse-10b, which came at sample 6"
names | grep -qx late-08 && fail "sample 3 shows late-08, which came at sample 4"
names | grep -qx gone-09 || fail "sample 3 should show gone-09 (it left at sample 8)"
# Its figures are that sample's: reuse-10 runs at 20 % CPU.
rows | awk '$2 == "reuse-10" { exit !($4 == "20.0") }' || fail "reuse-10 row: $(rows | grep reuse-10)"
# The first sample has no rates; one step before it there is nothing.
for _ in 1 2 3; do keys Left; done
wait_time 00:00:00 "back to the first sample"
keys Left
wait_for "at the first sample of the recording"
# Forward again with Right, still frozen, to the end.
keys Right
wait_time 00:00:01 "Right"
screen | grep -qF FROZEN || fail "not frozen after stepping"
for _ in $(seq 10); do keys Right; done
wait_time 00:00:11 "Right to the end"
names | grep -qx reuse-10b || fail "the end shows reuse-10b again"
# The detail pane steps as well; its history ends at the sample shown.
keys Down Enter
wait_for "xgtop details: busy-03"
wait_for "History: 12 of 300 samples kept"
keys Left
wait_for "recorded 2026-01-01 00:00:10"
wait_for "History: 11 of 300 samples kept, 2026-01-01 00:00:00 .. 00:00:10"
# Zoom and live are the Prometheus source's: here the keys say so, and the
# graphs stay the history in memory.
keys z
wait_for "zoom 1h: only with --source prometheus; here the graphs show the history in memory"
screen | grep -q "History: 11 of 300 samples kept" || fail "z changed the graphs of a replay"
keys L
wait_for "L: only --source prometheus moves in time and back to live"
keys Escape q
check_restored

# A live source: nothing to step back into.
keys "cd $TMP && $XGTOP --source linux --no-config" Enter
wait_for "Domains"
keys Left
wait_for "stepping back needs a recording"
keys q
check_restored
echo "ok: Left steps a replay back to the earlier time and rows, Right forward"
