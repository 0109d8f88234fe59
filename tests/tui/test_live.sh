#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The live path (Linux source on this host): the refresh interval follows
# -d, s and +; freezing stops the clock of samples; the screen says which
# source it reads.
. "$(dirname "$0")/lib.sh"
"$XGTOP" --source linux -b -n 1 >/dev/null 2>"$TMP/probe.err" ||
	skip "the linux source does not work here: $(head -n 1 "$TMP/probe.err")"
start_shell
keys "cd $TMP && sh -c 'echo \$\$ > $TMP/pid; exec $XGTOP --source linux -d 0.5'" Enter
wait_for '(linux)'
wait_match 'Interval 0\.[4-7][0-9]s \(delay 0\.5s\)'
keys s
wait_for 'Delay in seconds:'
keys C-u 0.2 Enter
wait_match 'Interval 0\.[12][0-9]s \(delay 0\.2s\)'
keys +
wait_match 'Interval 0\.[4-7][0-9]s \(delay 0\.5s\)'

# Frozen: the clock on line 1 (redrawn with each sample) stops.
keys Space
wait_for FROZEN
clock() { screen | sed -n 1p | grep -oE '[0-9]{2}:[0-9]{2}:[0-9]{2}$'; }
c1=$(clock)
[ -n "$c1" ] || fail "no clock at the end of the first line"
# (the time in which nothing may change: four refreshes unfrozen; a longer
# wait on a loaded machine only makes the check stricter)
sleep 2.2
[ "$(clock)" = "$c1" ] || fail "the screen changed while frozen: $c1 -> $(clock)"
keys Space
wait_gone FROZEN
t0=$SECONDS
while [ "$(clock)" = "$c1" ]; do
	[ $((SECONDS - t0)) -ge 5 ] && fail "sampling did not resume"
	sleep 0.05
done
keys q
check_restored
echo "ok: live delay, s, +, freeze"
