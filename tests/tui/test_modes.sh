#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Help, the sort menu and the prompts are modes of the one event loop:
# sampling keeps its schedule while they are open (the list behind the menu
# and the prompt goes on refreshing; after the help screen the replay is
# where the clock says, not one step after where it was), and SIGTERM,
# Ctrl-C and SIGHUP restore the terminal in each of them.
. "$(dirname "$0")/lib.sh"
make_rec 600
start_shell

# The recorded time of the sample on screen, in seconds since midnight.
rec_time() {
	screen | grep -oE 'recorded [0-9-]+ [0-9:]+' | head -n 1 |
		awk '{ split($3, a, ":"); print a[1] * 3600 + a[2] * 60 + a[3] }'
}

# wait_newer T OVERLAY: until the sample on screen is later than T, with
# OVERLAY (the menu or the prompt) still shown.
wait_newer() {
	local t0=$SECONDS now
	while :; do
		now=$(rec_time)
		[ -n "$now" ] && [ "$now" -gt "$1" ] && break
		[ $((SECONDS - t0)) -ge 10 ] && fail "no new sample under '$2' (still at $now)"
		sleep 0.1
	done
	screen | grep -qF -- "$2" || fail "'$2' went away by itself"
}

# Four recorded seconds per second.
start_xgtop --speed 4
wait_match 'recorded [0-9-]+ 00:00:0[1-9]'

keys /
wait_for 'Filter names'
wait_newer "$(rec_time)" 'Filter names'
keys Escape
wait_for 'filter unchanged'

keys o
wait_for 'Sort by'
wait_newer "$(rec_time)" 'Sort by'
keys Escape
wait_gone 'Sort by'

before=$(rec_time)
keys h
wait_for 'Keys'
# (the measured interval: the help stays up at least 2 s; a loaded machine
# only makes it longer, and the replay, paced by the clock, moves further)
sleep 2
keys x
wait_for 'Domains'
after=$(rec_time)
# Two seconds of help at four recorded seconds per second; a loop that
# held sampling would have moved on by one sample at most.
[ $((after - before)) -ge 5 ] || fail "the replay moved $((after - before)) s during 2 s of help"

# A terminating signal ends the loop in every mode.
keys h
wait_for 'Keys'
kill -TERM "$(xgtop_pid)"
check_restored

start_xgtop --speed 4
keys /
wait_for 'Filter names'
keys C-c
check_restored

start_xgtop --speed 4
keys s
wait_for 'Delay in seconds'
kill -HUP "$(xgtop_pid)"
check_restored

start_xgtop --speed 4
keys F6
wait_for 'Sort by'
kill -INT "$(xgtop_pid)"
check_restored
echo "ok: sampling goes on under help, menu and prompt; signals restore the terminal in each"
