#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Resizing reflows: a narrow window drops the lowest-priority columns
# first (CPU% and MEM stay), nothing spills or garbles, and widening brings
# the columns back.
. "$(dirname "$0")/lib.sh"
make_rec 4
start_shell
start_xgtop --speed 50
wait_for "end of recording"

# The screen is whole at width w: a header with NAME and CPU%, every row's
# cells under it (same number of fields: the names here have no blanks),
# all domains listed, no line wider than the window. Polled, since a
# capture may fall in the middle of a redraw.
grid_ok() {  # width
	local hdr n
	hdr=$(header)
	echo "$hdr" | grep -qF 'CPU%' || return 1
	n=$(echo "$hdr" | wc -w)
	screen | awk -v w="$1" 'length($0) > w { exit 1 }' || return 1
	rows | awk -v n="$n" 'NF != n { exit 1 }' || return 1
	[ "$(rows | wc -l)" -eq "$2" ] || return 1
}
# wait_grid WIDTH ROWS CMP N: until the grid is whole and its header's
# field count compares (-lt/-gt/-eq) to N.
wait_grid() {
	local t0=$SECONDS
	until grid_ok "$1" "$2" && test "$(header | wc -w)" "$3" "$4"; do
		[ $((SECONDS - t0)) -ge 10 ] && fail "screen at width $1: want header fields $3 $4, rows $2: $(header)"
		sleep 0.05
	done
}

wait_grid 160 11 -gt 4
wide=$(header | wc -w)

tm resize-window -t t -x 80 -y 30
wait_grid 80 11 -lt "$wide"
narrow=$(header)
for c in CPU% MEM NAME; do
	echo "$narrow" | grep -qF -- "$c" || fail "narrow header lost $c: $narrow"
done
for c in LLC-REF/s OFF% PKT-RX/s MPKI; do
	echo "$narrow" | grep -qF -- "$c" && fail "narrow header kept low-priority $c: $narrow"
done
wait_names "$BY_CPU"

# 12 lines leave 4 for rows (summary 3, triage 1, memory meter 1,
# status 1, header 1, hints 1).
tm resize-window -t t -x 40 -y 12
wait_grid 40 4 -lt "$(echo "$narrow" | wc -w)"

tm resize-window -t t -x 200 -y 50
wait_grid 200 11 -gt "$wide"
keys q
check_restored
echo "ok: narrow drops low-priority columns cleanly; wide restores them"
