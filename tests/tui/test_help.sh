#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# h and ? show the help screen: every key, every column with its formula
# and unit, and why the values on screen show "-". It scrolls; q and any
# other key return to the monitor.
. "$(dirname "$0")/lib.sh"
make_rec 4
start_shell
start_xgtop --speed 50
wait_for "end of recording"

keys h
wait_for 'Keys'
for k in 'quit (Ctrl-C' 'reverse the sort order' 'filter domains by name' 'freeze the display' \
	 'write the current view'; do
	wait_for "$k" 5
done

# help_find REGEX: from the top, page down until a line matches.
help_find() {
	local cur t0
	keys Home
	wait_for 'Keys'
	while :; do
		cur=$(screen)
		echo "$cur" | grep -qE -- "$1" && return 0
		keys PageDown
		t0=$SECONDS
		while [ "$(screen)" = "$cur" ]; do
			# Nothing moves at the end of the help.
			[ $((SECONDS - t0)) -ge 2 ] && fail "help lacks /$1/"
			sleep 0.05
		done
		sleep 0.05  # let the page finish drawing
	done
}
# Formulas and units come from the column table; * marks shown columns.
help_find '100 \* delta\(cpu_ns\) / delta\(t_ns\)'
help_find '^\* CPU% +\[%\]'
help_find '^\* MEM +\[bytes\]'
# MPKI is on (cache columns) but 160 columns leave it no room: +.
help_find '^\+ MPKI +\[ratio\] +1000 \* delta\(LLC misses\) / delta\(instructions\)'
# The breakdown columns are off (m): no mark.
help_find '^  MISS-GU/s +\[1/s\]'
# nocache-07's PMU fields are invalid in the recording, with a reason:
# listed with the column, the count of rows and an example.
help_find 'Why values on screen show "-"'
help_find 'LLC-MISS/s +no PMU access for this domain .*\(1 row, e\.g\. nocache-07\)'
keys End
wait_for 'Why values on screen show "-"'

keys q
wait_gone 'Keys'
wait_for 'Domains'
keys '?'
wait_for 'Keys'
keys x
wait_for 'Domains'
keys q
check_restored
echo "ok: help lists keys, formulas, units and reasons; scrolls; returns"
