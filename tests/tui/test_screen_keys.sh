#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Every key of the screens over or beside the list, as their key tables
# and the docs list them (the list's own keys have their tests): the help
# screen scrolls and any key leaves it; the sort menu moves, picks and
# cancels; the column chooser selects, shows and hides, moves, resets and
# closes; a prompt deletes and clears; the detail pane scrolls, steps,
# freezes, redraws, returns and quits.
. "$(dirname "$0")/lib.sh"
make_rec 4
start_shell
start_xgtop --speed 50 --no-config
wait_for "end of recording"

top_line() { screen | head -n 1; }
# wait_top TEXT: until the first screen line starts with TEXT.
wait_top() {
	local t0=$SECONDS
	while [[ "$(top_line)" != "$1"* ]]; do
		[ $((SECONDS - t0)) -ge 5 ] && fail "first line is '$(top_line)', want '$1...'"
		sleep 0.05
	done
}
wait_top_not() {
	local t0=$SECONDS
	while [[ "$(top_line)" == "$1"* ]]; do
		[ $((SECONDS - t0)) -ge 5 ] && fail "first line still '$1...'"
		sleep 0.05
	done
}

# The help screen: Down/Up by a line, PgDn/PgUp by a page, End/Home; q,
# Esc and any other key go back.
keys h
wait_top 'xgtop '
keys Down
wait_top '  Sampling goes on'
keys Up
wait_top 'xgtop '
keys PageDown
wait_top_not 'xgtop '
wait_top_not '  Sampling goes on'
keys PageUp
wait_top 'xgtop '
keys End
wait_for 'Why values on screen show "-"'
keys Home
wait_top 'xgtop '
keys q
wait_for 'end of recording'
for k in Escape x; do
	keys '?'
	wait_top 'xgtop '
	keys "$k"
	wait_for 'end of recording'
done

# The sort menu opens on the sort column: Down and Enter pick the next
# one, Up the one before; End the last; q and Esc leave the sort alone.
keys o
wait_for 'Sort by'
keys Down Enter
wait_gone 'Sort by'
wait_for 'sort CPU(s)▼'
keys o
wait_for 'Sort by'
keys Up Enter
wait_for 'sort CPU%▼'
keys o
wait_for 'Sort by'
keys End Enter
wait_for 'sort VICTIM▼'
for k in q Escape; do
	keys o
	wait_for 'Sort by'
	keys "$k"
	wait_gone 'Sort by'
	wait_for 'sort VICTIM▼'
done
keys o Home Enter
wait_for 'sort ID▲'

# The column chooser. The selection starts on HOST (the first column).
box='Columns: space show/hide'
# chooser_order: the chooser's column names in order, one line.
chooser_order() { screen | sed -n 's/^x \[[ x]\] \([^ ]*\) .*/\1/p' | tr '\n' ' '; }
wait_order() {  # wait_order "A B C" (the start of the chooser's list)
	local t0=$SECONDS
	while [[ "$(chooser_order)" != "$1"* ]]; do
		[ $((SECONDS - t0)) -ge 5 ] && fail "chooser order is '$(chooser_order)', want '$1...'"
		sleep 0.05
	done
}
keys C
wait_for "$box"
wait_order 'HOST ID NAME STATE CPU% '
keys Down Down Space
wait_for 'NAME is always shown'
keys Down Enter
wait_for '[ ] STATE'
keys Space
wait_for '[x] STATE'
keys F8
wait_order 'HOST ID NAME CPU% STATE '
keys F7
wait_order 'HOST ID NAME STATE CPU% '
keys ']'
wait_order 'HOST ID NAME CPU% STATE '
keys '[' '['
wait_order 'HOST ID STATE NAME CPU% '
keys r
wait_order 'HOST ID NAME STATE CPU% '
# End and Home select the last and first columns; PgDn, PgUp a page.
keys End Space
wait_for '[ ] TREND'
keys Space Home Space
wait_for '[ ] HOST'
keys Space PageDown PageUp Down Space
wait_for '[ ] ID'
keys Up Space
wait_for '[ ] HOST'
keys r
wait_for '[x] HOST'
wait_for '[x] ID'
for k in q C F2 Escape; do
	keys "$k"
	wait_gone "$box"
	keys C
	wait_for "$box"
done
keys Escape
wait_gone "$box"

# A prompt: Backspace, Ctrl-H, Delete and Left each take the last
# character back; Ctrl-U clears the line; Esc cancels.
label='Filter names (regex, empty clears):'
keys /
wait_for "$label"
keys busy BSpace
wait_for "$label bus"
keys C-h
wait_for "$label bu"
wait_gone "$label bus"
keys DC
wait_for "$label b"
wait_gone "$label bu"
keys Left xyz
wait_for "$label xyz"
keys C-u 'sched-0' Enter
wait_for 'filter /sched-0/: 1 rows'
keys /
wait_for "$label sched-0"
keys C-u Escape
wait_for 'filter unchanged'
wait_for 'filter /sched-0/'
keys / C-u Enter
wait_for 'filter cleared'

# The detail pane: Down/Up scroll a line, PgDn/PgUp a page, End/Home.
ident='id 3  generation 0'
keys Home Enter
wait_for 'xgtop details: busy-03'
wait_for "$ident"
keys Down
wait_gone "$ident"
keys Up
wait_for "$ident"
keys PageDown
wait_gone "$ident"
keys PageUp
wait_for "$ident"
keys End
wait_for 'Where the figures come from'
wait_gone "$ident"
keys Home
wait_for "$ident"
# Other keys say how to leave; space freezes and resumes; Left and
# Right (and , .) step the replay.
keys x
wait_for 'Esc returns to the list'
keys Space
wait_for FROZEN
keys Space
wait_gone FROZEN
keys Left
wait_for 'recorded 2026-01-01 00:00:02'
wait_for FROZEN
keys ,
wait_for 'recorded 2026-01-01 00:00:01'
keys Right
wait_for 'recorded 2026-01-01 00:00:02'
keys .
wait_for 'recorded 2026-01-01 00:00:03'
keys C-l
wait_for "$ident"
# Esc, q and Enter return to the list; Q quits from the pane.
for k in Escape q Enter; do
	keys "$k"
	wait_gone 'xgtop details'
	wait_for 'ID NAME'
	keys Enter
	wait_for 'xgtop details: busy-03'
done
keys Q
check_restored
echo "ok: the help screen, sort menu, column chooser, prompt and detail pane keys"
