#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A click on a column title sorts by that column; a second click on it
# reverses; a click on a row selects it. The click is the xterm SGR mouse
# report (what xterm-256color's terminfo asks for) typed into the pane.
. "$(dirname "$0")/lib.sh"
make_rec 4
start_shell
start_xgtop --speed 50
wait_for "end of recording"
wait_names "$BY_CPU"

# The column of the NAME title on the header line (under the meters).
x=$(header | awk '{ print index($0, "NAME") }')
y=$(($(header_no) - 1))
[ "$x" -gt 0 ] || fail "no NAME in the header"
click $((x + 1)) $y
wait_for 'sort NAME▲'
wait_names "$BY_NAME"
click $((x + 1)) $y
wait_for 'sort NAME▼'
# A click on a row selects it (the fourth row, under the header); the sort
# stays.
click 10 $((y + 4))
wait_sel "$(names | sed -n 4p)" "a click on the fourth row"
screen | grep -qF 'sort NAME▼' || fail "a click on a row changed the sort"
keys q
check_restored
echo "ok: clicking a title sorts by it, again reverses; clicking a row selects it"
