#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Rows that hold still (on by default): on a recording where vm-012 and
# vm-013 swap places in the exact order every sample (102 % and 98 % CPU in
# turn, xgtop-gen --duel), they keep their places through 30 refreshes while
# the selection stays on vm-013; vm-014, which jumps from 80 % to 135 % at
# sample 35, is above both in the refresh that first shows it. With
# --stable-order off the same two swap (so the first check can fail).
. "$(dirname "$0")/lib.sh"
JUMP=35
make_rec 70 --domains 15 --duel
start_shell

# look: one capture (with attributes) read once: the recorded second,
# the lines of vm-012, vm-013 and vm-014 in the list, and the selected
# domain (reverse video), blank separated ('-' for none).
look() {
	tm capture-pane -e -p -t t | python3 -c '
import re, sys
rev, secs, pos, sel, n = False, "-", {}, "-", 0
for line in sys.stdin.read().split("\n"):
    first = None
    for m in re.finditer(r"\x1b\[([0-9;]*)m|([^\x1b])", line):
        if m.group(2) is None:
            for p in (m.group(1) or "0").split(";"):
                if p in ("0", "", "27"):
                    rev = False
                elif p == "7":
                    rev = True
        elif first is None:
            first = rev
    text = re.sub(r"\x1b\[[0-9;]*m", "", line)
    t = re.search(r"recorded [0-9-]+ ([0-9]+):([0-9]+):([0-9]+)", text)
    if t:
        secs = str(int(t.group(1)) * 3600 + int(t.group(2)) * 60 + int(t.group(3)))
    w = text.split()
    if len(w) > 1 and w[0].isdigit() and re.match(r"^ *[0-9]+ ", text):
        n += 1
        pos[w[1]] = n
        if first:
            sel = w[1]
print(secs, *(pos.get(d, "-") for d in ("vm-012", "vm-013", "vm-014")), sel)
'
}
# step: one sample forward while frozen; then $secs $p12 $p13 $p14 $sel
# describe the screen that shows it.
step() {
	local was=$secs t0=$SECONDS
	keys .
	while :; do
		read -r secs p12 p13 p14 sel < <(look)
		[ "$secs" != "$was" ] && [ "$p12" != - ] && [ "$p13" != - ] && break
		[ $((SECONDS - t0)) -ge 10 ] && fail ". did not step from sample $was"
		sleep 0.05
	done
}
# order: "above" when vm-012 is above vm-013, else "below".
order() { [ "$p12" -lt "$p13" ] && echo above || echo below; }

start_xgtop
wait_match 'Interval [0-9.]+s'
keys Space
wait_for FROZEN
secs=$(rec_secs)
step
# Select vm-013 (the first Down selects the top row).
for _ in $(seq 12); do
	[ "$(selected)" = vm-013 ] && break
	keys Down
	sleep 0.05
done
wait_sel vm-013 "moving to vm-013"
first=$(order)
for i in $(seq 30); do
	step
	[ "$secs" -lt "$JUMP" ] || fail "the recording reached sample $JUMP before 30 refreshes"
	[ "$(order)" = "$first" ] || fail "refresh $i (sample $secs): vm-012 and vm-013 swapped (4 % apart)"
	[ "$sel" = vm-013 ] || fail "refresh $i: the selection left vm-013 for '$sel'"
done
while [ "$secs" -lt "$JUMP" ]; do
	step
	[ "$(order)" = "$first" ] || fail "sample $secs: vm-012 and vm-013 swapped (4 % apart)"
	[ "$sel" = vm-013 ] || fail "sample $secs: the selection left vm-013 for '$sel'"
done
[ "$secs" = "$JUMP" ] || fail "stepped past sample $JUMP to $secs"
if [ "$p14" -ge "$p12" ] || [ "$p14" -ge "$p13" ]; then fail "sample $JUMP: vm-014 (135 %, 30 % ahead) at line $p14, not above vm-012 ($p12) and vm-013 ($p13)"; fi
[ "$sel" = vm-013 ] || fail "after the overtaking: the selection left vm-013 for '$sel'"
keys q
wait_prompt

# The same recording with --stable-order off: the exact order swaps them.
start_xgtop --stable-order off
wait_match 'Interval [0-9.]+s'
keys Space
wait_for FROZEN
secs=$(rec_secs)
step
first=$(order) swapped=0
for _ in 1 2 3; do
	step
	[ "$(order)" != "$first" ] && swapped=1
done
[ "$swapped" = 1 ] || fail "--stable-order off: vm-012 and vm-013 did not swap in 3 refreshes"
keys q
check_restored
echo "ok: two domains 4 % apart hold their places for 30 refreshes, one 30 % ahead passes at once, the selection stays; off swaps them"
