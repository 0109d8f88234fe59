#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# `m` adds one row per socket under each domain with per-socket CMT/MBM
# values (a replay of xgtop-gen --sockets 2: socket k has weight k+1 of the
# domain's L3 occupancy and MBM traffic), `m` again or `c` removes them.
. "$(dirname "$0")/lib.sh"
make_rec 600 --sockets 2
start_shell
# Without the disk, network and scheduler columns, L3-OCC and MEM-BW fit
# 160 columns next to the breakdown.
start_xgtop --nodisk --nonet --notrace
wait_match 'Interval [0-9.]+s'
keys Space
wait_for FROZEN
settle
screen | grep -q 'socket 0' && fail "socket rows before m"

keys m
wait_for 'by where they happened'
wait_for '  socket 1'
# busy-03 (first by CPU%) and right under it its sockets: 12 MiB and
# 2e9 B/s split 1:2, other columns blank.
hdr=$(header)
first=$(list_lines | head -n 3)
echo "$first" | sed -n 1p | grep -q 'busy-03' || fail "first row is not busy-03: $first"
cell() {  # cell LINE HEADER: the text of LINE right-aligned under HEADER
	local end
	end=$(awk -v h="$hdr" -v c="$2" 'BEGIN { print index(h, c) + length(c) - 1 }')
	echo "$1" | cut -c"$((end - 7))-$end" | tr -d ' '
}
s0=$(echo "$first" | sed -n 2p)
s1=$(echo "$first" | sed -n 3p)
echo "$s0" | grep -qE '^ +socket 0 ' || fail "no socket 0 row under busy-03: $first"
echo "$s1" | grep -qE '^ +socket 1 ' || fail "no socket 1 row under busy-03: $first"
[ "$(cell "$s0" L3-OCC)" = 4.0M ] || fail "socket 0 L3-OCC '$(cell "$s0" L3-OCC)', want 4.0M: $s0"
[ "$(cell "$s1" L3-OCC)" = 8.0M ] || fail "socket 1 L3-OCC '$(cell "$s1" L3-OCC)', want 8.0M: $s1"
[ "$(cell "$s0" MEM-BW)" = 636M ] || fail "socket 0 MEM-BW '$(cell "$s0" MEM-BW)', want 636M: $s0"
[ "$(cell "$s1" MEM-BW)" = 1.2G ] || fail "socket 1 MEM-BW '$(cell "$s1" MEM-BW)', want 1.2G: $s1"
[ "$(cell "$s1" CPU%)" = "" ] || fail "socket row shows a CPU%: $s1"
echo "$s1" | grep -q -- ' - ' && fail "socket row shows '-' where a column does not apply: $s1"
# nocache-07's sockets: '-' (the CPU lacks the events), and the help
# screen counts them with the domain row under one reason (3 rows).
nc=$(screen | grep -A2 'nocache-07' | sed -n 2p)
[ "$(cell "$nc" L3-OCC)" = - ] || fail "nocache-07 socket 0 L3-OCC is not '-': $nc"
keys h
wait_for 'help: keys, columns'
keys End
wait_for 'Why values on screen show'
wait_match 'L3-OCC +CMT/MBM not supported \(xgtop-gen\) \(3 rows, e\.g\. nocache-07\)'
keys q
wait_for 'socket 1'

# c hides the cache columns and with them the socket rows; c brings both back.
keys c
wait_for 'cache columns off'
wait_gone 'socket 0'
keys c
wait_for '  socket 0'
# m again: summed, no socket rows.
keys m
wait_for 'cache counters summed'
wait_gone 'socket 0'
keys q
check_restored
echo "ok: m shows socket rows with busy-03's shares (4.0M/636M, 8.0M/1.2G); m and c remove them"
