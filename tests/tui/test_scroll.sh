#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Up/Down/PgUp/PgDn/Home/End scroll the domain list (100 domains, 33 rows
# on a 40-line screen with the memory meter line); only whole rows are
# drawn, the summary stays.
. "$(dirname "$0")/lib.sh"
make_rec 4 --domains 100
start_shell
start_xgtop --speed 50
wait_for "end of recording"
wait_for 'rows 99'   # gone-09 has left
list() { names | tr '\n' ' '; }
page=$((H - $(header_no) - 1))
first=$(list)
[ "$(names | wc -l)" -eq "$page" ] || fail "want $page rows on screen, got $(names | wc -l)"
[ "$(names | head -n 1)" = busy-03 ] || fail "first row is not busy-03"
all=$(names)

keys Down
t0=$SECONDS
while [ "$(names | head -n 1)" != "$(echo "$all" | sed -n 2p)" ]; do
	[ $((SECONDS - t0)) -ge 5 ] && fail "Down did not scroll by one row"
	sleep 0.05
done
keys Up
t0=$SECONDS
while [ "$(list)" != "$first" ]; do
	[ $((SECONDS - t0)) -ge 5 ] && fail "Up did not scroll back"
	sleep 0.05
done
# A page keeps one row of context: the last row becomes the first.
keys PageDown
t0=$SECONDS
while [ "$(names | head -n 1)" != "$(echo "$all" | tail -n 1)" ]; do
	[ $((SECONDS - t0)) -ge 5 ] && fail "PgDn did not move a page"
	sleep 0.05
done
# The end: the last row of the order (the least busy, vm-098 at 0.5 %,
# highest id among its ties) on the bottom line, no blank rows.
keys End
t0=$SECONDS
while [ "$(names | tail -n 1)" != vm-098 ]; do
	[ $((SECONDS - t0)) -ge 5 ] && fail "End does not show vm-098 last"
	sleep 0.05
done
[ "$(names | wc -l)" -eq "$page" ] || fail "End leaves blank rows"
keys PageUp Home
t0=$SECONDS
while [ "$(list)" != "$first" ]; do
	[ $((SECONDS - t0)) -ge 5 ] && fail "Home did not go back to the top"
	sleep 0.05
done
screen | sed -n 1p | grep -q '^xgtop replay' || fail "summary scrolled away"
keys q
check_restored
echo "ok: the list scrolls by row, page and to both ends"
