#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# What the screen shows after a refresh is what a repaint from scratch
# shows: the refresh writes a list line whole when it now holds another
# domain and patches it when it holds the same one, and neither may leave
# a stale character or colour behind. Steps a frozen replay of 60 domains
# back, reverses the sort and moves it, and compares each frame (text and
# attributes) with the same frame after Ctrl-L.
. "$(dirname "$0")/lib.sh"
make_rec 10 --domains 60 --seed 7
start_shell
# Rows held still would come back to the exact order on Ctrl-L (as they
# should, test_stable.sh): the frames compared here are in the exact order.
start_xgtop --speed 50 --no-config --stable-order off
wait_for "end of recording"

frame() { tm capture-pane -e -p -t t; }
# What xgtop writes to the terminal, to see when a repaint has been sent:
# Ctrl-L makes curses clear the screen (terminfo clear, ESC [2J here) and
# draw it all again.
tm pipe-pane -o -t t "cat >>$TMP/out.raw" || fail "tmux pipe-pane failed"
wait_until 30 test -e "$TMP/out.raw" || fail "tmux did not start piping the pane's output"
cleared_since() { tail -c +$(($1 + 1)) "$TMP/out.raw" | LC_ALL=C grep -qaF $'\e[2J'; }
keys Left
wait_for FROZEN
moved=0 kept=0 step=0
for key in Left r Left '>' Left r Left; do
	step=$((step + 1))
	before=$(names)
	shown=$(screen)
	keys "$key"
	# Each key changes the screen (the recorded time, the sort mark): wait
	# for that, then for the refresh to finish.
	t0=$SECONDS
	while [ "$(screen)" = "$shown" ]; do
		[ $((SECONDS - t0)) -ge 10 ] && fail "step $step ($key): the screen did not change"
		sleep 0.05
	done
	settle
	after=$(names)
	# How many list lines now hold another domain than before the step.
	moved=$((moved + $(paste -d' ' <(echo "$before") <(echo "$after") | awk '$1 != $2' | wc -l)))
	kept=$((kept + $(paste -d' ' <(echo "$before") <(echo "$after") | awk '$1 == $2' | wc -l)))
	patched=$(frame)
	sent=$(stat -c %s "$TMP/out.raw")
	keys C-l
	wait_until 30 cleared_since "$sent" || fail "step $step ($key): Ctrl-L did not clear the screen within 30 s"
	settle
	repainted=$(frame)
	if [ "$patched" != "$repainted" ]; then
		diff <(echo "$patched") <(echo "$repainted") | head -n 20
		fail "step $step ($key): the refreshed screen differs from a repaint (diff above: < refreshed, > repainted)"
	fi
done
# The check means something only if lines both changed domain and kept it.
if [ "$moved" -lt 60 ] || [ "$kept" -lt 30 ]; then
	fail "$moved list lines changed domain and $kept kept it in $step steps: both paths not exercised"
fi
keys q
check_restored
echo "ok: $step frames equal their repaint ($moved list lines changed domain, $kept kept it)"
