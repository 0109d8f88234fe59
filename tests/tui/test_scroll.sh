#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Up/Down/PgUp/PgDn/Home/End move the selection through the domain list
# (100 domains, 33 rows on a 40-line screen with the memory meter line) and
# the list scrolls to keep it on screen, by whole rows; the summary stays.
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

# The first Down selects the top row; the list does not move.
keys Down
wait_sel busy-03 "first Down"
[ "$(list)" = "$first" ] || fail "the first Down scrolled"
# Down to the bottom row: still no scrolling; one more scrolls by a row.
for _ in $(seq $((page - 1))); do keys Down; done
wait_sel "$(echo "$all" | tail -n 1)" "Down to the bottom row"
[ "$(list)" = "$first" ] || fail "the list scrolled before the selection left it"
keys Down
t0=$SECONDS
while [ "$(names | head -n 1)" != "$(echo "$all" | sed -n 2p)" ]; do
	[ $((SECONDS - t0)) -ge 5 ] && fail "Down past the bottom did not scroll by one row"
	sleep 0.05
done
[ "$(names | tail -n 1)" = "$(selected)" ] || fail "the selection is not on the bottom row"
# Up back to the top row of the screen, then one more scrolls back.
for _ in $(seq $((page))); do keys Up; done
wait_sel busy-03 "Up to the first row"
[ "$(list)" = "$first" ] || fail "Up did not scroll back"
# A page moves the selection by a page less one row.
keys PageDown
wait_sel "$(echo "$all" | tail -n 1)" "PgDn"
# The end: the last row of the order (the least busy, vm-098 at 0.5 %,
# highest id among its ties) selected on the bottom line, no blank rows.
keys End
wait_sel vm-098 "End"
[ "$(names | tail -n 1)" = vm-098 ] || fail "End does not show vm-098 last"
[ "$(names | wc -l)" -eq "$page" ] || fail "End leaves blank rows"
keys PageUp Home
wait_sel busy-03 "Home"
[ "$(list)" = "$first" ] || fail "Home did not go back to the top"
screen | sed -n 1p | grep -q '^xgtop replay' || fail "summary scrolled away"
keys q
check_restored
echo "ok: the selection moves by row, page and to both ends; the list follows it"
