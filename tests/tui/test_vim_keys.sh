#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The aliases beside the list's keys: vim's j k (selection), g g and G
# (first and last row), Ctrl-D / Ctrl-U (half a page); htop's F1 (help),
# F3 (find a name: the selection jumps, nothing is filtered), F4 (filter),
# F10 (quit); T for the TREND column (g before), and a lone g followed by
# another key does that key's work. In the help screen j k and g g / G
# scroll as Up Down Home End do.
. "$(dirname "$0")/lib.sh"
# shellcheck disable=SC2034  # lib.sh's start_shell reads it
H=13   # a short pane (with the triage line): five list lines, a page of four, half a page two rows
make_rec 4
start_shell
start_xgtop --speed 50 --no-config
wait_for "end of recording"
wait_names "busy-03 cache-05 reuse-10b sched-06 net-04"

keys j
wait_sel busy-03 "j (first press)"
keys j
wait_sel cache-05 "j"
keys k
wait_sel busy-03 "k"
keys G
wait_sel 'utf8-\xc3(-01' "G"
keys g g
wait_sel busy-03 "g g"
keys C-d
wait_sel reuse-10b "Ctrl-D (half of four rows)"
keys C-u
wait_sel busy-03 "Ctrl-U"
# A lone g waits for a second one; another key then does its own work.
keys g
wait_for "g: g again"
keys j
wait_sel cache-05 "g then j"

# F3: the selection goes to the next name that matches; nothing filtered.
keys F3
wait_for "Find name"
tm send-keys -t t -l '0[47]$'
keys Enter
wait_sel net-04 "F3 0[47]\$"
wait_for "rows 11"
keys F3
wait_for "Find name"
keys Enter
wait_sel nocache-07 "F3 Enter again (next match)"
keys F3
keys C-u "zzz" Enter
wait_for "no name matches /zzz/"

# F4 opens the filter prompt, F1 the help screen (j k g g G scroll it).
keys F4
wait_for "Filter names"
keys Escape
wait_for "filter unchanged"
keys F1
wait_match '^xgtop '
keys j
wait_match '^  Sampling goes on'
keys k
wait_match '^xgtop '
keys G
wait_gone 'Sampling goes on'
keys g g
wait_match '^xgtop '
keys q
wait_for "end of recording"

# T toggles the TREND column (g did before).
keys T
wait_for "TREND column on"
keys T
wait_for "TREND column off"

keys F10
check_restored
echo "ok: j k g g G Ctrl-D Ctrl-U F1 F3 F4 F10 T in the list, j k g g G in the help screen"
