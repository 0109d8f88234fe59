#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# space freezes the display (a replay pauses: the recorded time stops),
# FROZEN shows on the status line, . steps one sample, space resumes.
. "$(dirname "$0")/lib.sh"
make_rec 600
start_shell
start_xgtop
wait_match 'Interval [0-9.]+s'

recorded() { screen | grep -oE 'recorded [0-9-]+ [0-9:]+' | head -n 1 | awk '{print $3}'; }
secs() { local h m s; IFS=: read -r h m s <<<"$1"; echo $((10#$h * 3600 + 10#$m * 60 + 10#$s)); }

keys Space
wait_for FROZEN
t1=$(recorded)
# (the time in which the replay must not move: two samples or more
# unfrozen; a longer wait on a loaded machine only makes it stricter)
sleep 2.5
t2=$(recorded)
[ "$t1" = "$t2" ] || fail "recorded time moved while frozen: $t1 -> $t2"

keys .
t0=$SECONDS
while [ "$(recorded)" = "$t2" ]; do
	[ $((SECONDS - t0)) -ge 5 ] && fail ". did not step while frozen"
	sleep 0.05
done
t3=$(recorded)
[ $(($(secs "$t3") - $(secs "$t2"))) -eq 1 ] || fail ". stepped from $t2 to $t3, want one 1-second sample"
screen | grep -qF FROZEN || fail "no longer frozen after ."

keys Space
wait_gone FROZEN
t0=$SECONDS
while [ "$(recorded)" = "$t3" ]; do
	[ $((SECONDS - t0)) -ge 5 ] && fail "replay did not resume after space"
	sleep 0.05
done
keys q
check_restored
echo "ok: freeze pauses the replay, . steps, space resumes"
