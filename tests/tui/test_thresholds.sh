#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Threshold colours, read from the escape sequences tmux keeps
# (capture-pane -e): busy-03's 380 % on 4 vCPUs (95 % of what they can
# use) and sched-06's WAIT% 60 are crit (a reversed orange-red block),
# cache-05's 160 % on 2 vCPUs warn (orange, bold), disk-02 has nothing
# past a threshold. Thresholds from the settings file apply. With NO_COLOR,
# and on a monochrome terminal, the same cells carry attributes only:
# reverse and bold for crit, underline for warn.
. "$(dirname "$0")/lib.sh"
make_rec 4
start_shell

# The SGR sequences right before TEXT on the line of domain NAME, one
# match per line ("" when the text has none before it).
sgr_before() { tm capture-pane -p -e -t t | grep -F -- "$1" | grep -oE $'(\e\\[[0-9;]*m)+'"$2"; }
has() { grep -qE -- "$1"; }
COLOUR=$'\e\\[([0-9;]*;)?(3[0-7]|9[0-7]|38;5;[0-9]+)(;[0-9]+)*m'
REVERSE=$'\e\\[([0-9;]*;)?7(;[0-9]+)*m'
UNDERLINE=$'\e\\[([0-9;]*;)?4(;[0-9]+)*m'
crit_colour() { sgr_before "$1" "$2" | has '38;5;166' && sgr_before "$1" "$2" | has "$REVERSE"; }
warn_colour() { sgr_before "$1" "$2" | has '38;5;214' && ! sgr_before "$1" "$2" | has "$REVERSE"; }

start_xgtop --speed 50
wait_for "end of recording"
settle
crit_colour busy-03 '380\.0' || fail "busy-03's CPU% is not crit: $(sgr_before busy-03 '380\.0' | cat -v)"
crit_colour sched-06 '60\.0' || fail "sched-06's WAIT% is not crit"
warn_colour cache-05 '160\.0' || fail "cache-05's CPU% is not warn: $(sgr_before cache-05 '160\.0' | cat -v)"
tm capture-pane -p -e -t t | grep -F disk-02 | has "$COLOUR" && fail "disk-02 has a coloured cell"
keys q
check_restored

# The settings file: HIT% below 95 warn, below 85 crit; CPU% not judged.
mkdir -p "$TMP/.config/xgtop"
printf 'threshold.hit_pct = 95 85\nthreshold.cpu_pct = off\n' >"$TMP/.config/xgtop/xgtoprc"
start_xgtop --speed 50
wait_for "end of recording"
settle
crit_colour cache-05 '60\.0' || fail "cache-05's HIT% 60 is not crit under threshold.hit_pct = 95 85"
warn_colour Domain-0 '90\.0' || fail "Domain-0's HIT% 90 is not warn under threshold.hit_pct = 95 85"
sgr_before busy-03 '380\.0' | has '38;5' && fail "CPU% coloured with threshold.cpu_pct = off"
keys q
check_restored
rm -r "$TMP/.config"

for env in "NO_COLOR=1" "TERM=vt100"; do
	XENV="$env" start_xgtop --speed 50
	wait_for "end of recording"
	settle
	tm capture-pane -p -e -t t | has "$COLOUR" && fail "$env: colours on screen: $(tm capture-pane -p -e -t t | grep -m2 -E "$COLOUR" | cat -v)"
	sgr_before busy-03 '380\.0' | has "$REVERSE" || fail "$env: busy-03's CPU% is not reversed"
	sgr_before sched-06 '60\.0' | has "$REVERSE" || fail "$env: sched-06's WAIT% is not reversed"
	sgr_before cache-05 '160\.0' | has "$UNDERLINE" || fail "$env: cache-05's CPU% is not underlined"
	sgr_before cache-05 '160\.0' | has "$REVERSE" && fail "$env: a warn cell is reversed"
	keys q
	if [ "$env" = TERM=vt100 ]; then
		# No alternate screen on a vt100: the last frame stays; clear it.
		t0=$SECONDS
		while kill -0 "$(xgtop_pid)" 2>/dev/null; do
			[ $((SECONDS - t0)) -ge 10 ] && fail "vt100: q did not quit"
			sleep 0.05
		done
		keys clear Enter
		wait_prompt
	else
		check_restored
	fi
done
echo "ok: warn and crit cells coloured, thresholds from the settings file, attributes only without colour"
