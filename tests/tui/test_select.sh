#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The selection follows its domain, not its place: after a re-sort (r, <,
# the sort menu) and while new samples reorder the list; the list scrolls to
# keep it on screen; a click selects a row; PgDn/Home/End move it.
. "$(dirname "$0")/lib.sh"
make_rec 4
start_shell
start_xgtop --speed 20 --no-config
wait_for "end of recording"
wait_names "$BY_CPU"

row_of() { names | grep -nxF -- "$1" | cut -d: -f1; }

keys Down Down Down
wait_sel reuse-10b "Down x3"
[ "$(row_of reuse-10b)" = 3 ] || fail "reuse-10b is not the third row"
# Reverse: the order flips, the selection stays on reuse-10b, now 9th.
keys r
wait_names "$BY_CPU_UP"
wait_sel reuse-10b "after r"
[ "$(row_of reuse-10b)" = 9 ] || fail "reuse-10b should be the 9th row after r, is $(row_of reuse-10b)"
# By name (sort menu).
keys o
wait_for "Sort by"
keys Home Down Enter
wait_names "$BY_NAME"
wait_sel reuse-10b "after sorting by name"
[ "$(row_of reuse-10b)" = 9 ] || fail "reuse-10b should be the 9th by name"
# The selection moves from there, by place in the new order.
keys Up
wait_sel nocache-07 "Up after the re-sort"
keys Home
wait_sel busy-03 "Home"
keys End
wait_sel 'utf8-\xc3(-01' "End"
# A click on a row selects it (the fifth row under the header: Domain-0 by
# name).
click 10 $(($(header_no) + 4))
wait_sel Domain-0 "a click on the fifth row"
keys q
check_restored

# Live reordering: 100 domains on 34 rows, playing; the selected domain
# keeps its highlight while the list moves, and stays on screen.
make_rec 40 --domains 100
start_xgtop --speed 4 --no-config
wait_match 'Interval [0-9.]+s'
keys End
wait_sel vm-098 "End on 100 domains"
names | grep -qxF vm-098 || fail "the list did not scroll to the selection"
keys PageUp
t0=$SECONDS
while [ "$(selected)" = vm-098 ] || [ -z "$(selected)" ]; do
	[ $((SECONDS - t0)) -ge 5 ] && fail "PgUp did not move the selection"
	sleep 0.05
done
picked=$(selected)
names | grep -qxF -- "$picked" || fail "selected $picked is not on screen"
# reuse-10 turns into reuse-10b half way: a domain that goes hands the
# selection to the row at its place; others keep theirs while sampling:
# for 8 recorded seconds (2 s at 4 times the pace, longer when loaded), or
# to the end of the recording.
from=$(rec_secs)
[ -n "$from" ] || fail "no recorded time on screen"
moved_on() {
	local now
	now=$(rec_secs)
	{ [ -n "$now" ] && [ $((now - from)) -ge 8 ]; } || screen | grep -qF "end of recording"
}
wait_until 30 moved_on || fail "the replay did not move on by 8 recorded seconds in 30 s (from $from s, at $(rec_secs) s)"
[ "$(selected)" = "$picked" ] || fail "the selection moved from $picked to $(selected) while sampling"
keys q
check_restored
echo "ok: the selection follows its domain through re-sorts and new samples"
