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
for k in 'quit' 'reverse the sort order' 'filter domains by name' 'freeze the display' \
	 'write the current view'; do
	screen | grep -qF -- "$k" || fail "help lacks the key text '$k'"
done
# Scroll to the end: the reasons for "-" come last.
keys End
wait_for 'Why values on screen show "-"'
keys Home
wait_for 'Keys'
# Page through and collect everything the help shows.
all=$(screen)
for i in $(seq 1 12); do
	keys PageDown
	sleep 0.1
	all+=$'\n'$(screen)
done
# Formulas and units come from the column table.
echo "$all" | grep -qF '100 * delta(cpu_ns) / delta(t_ns)' || fail "help lacks the CPU% formula"
echo "$all" | grep -qE '^\* CPU% +\[%\]' || fail "help lacks CPU% marked visible with its unit"
echo "$all" | grep -qE 'MEM +\[bytes\]' || fail "help lacks MEM with its unit"
echo "$all" | grep -qE 'MPKI' || fail "help lacks the MPKI column"
echo "$all" | grep -qF 'Why values on screen show' || fail "help lacks the reasons section"
# nocache-07's PMU fields are invalid in the recording, with a reason.
echo "$all" | grep -qF 'no PMU access for this domain' || fail "help lacks the reason for nocache-07's -"
echo "$all" | grep -qE 'LLC-MISS/s +no PMU access for this domain.*\(1 row, e\.g\. nocache-07\)' ||
	fail "help does not name the column, reason, count and example"
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
