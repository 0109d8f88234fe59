#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A click on a column title sorts by that column; a second click on it
# reverses. The click is the xterm SGR mouse report (what xterm-256color's
# terminfo asks for) typed into the pane.
. "$(dirname "$0")/lib.sh"
make_rec 4
start_shell
start_xgtop --speed 50
wait_for "end of recording"
wait_names "$BY_CPU"

click() {  # click X Y (0-based screen cell)
	local seq
	seq=$(printf '\033[<0;%d;%dM\033[<0;%d;%dm' $(($1 + 1)) $(($2 + 1)) $(($1 + 1)) $(($2 + 1)) | od -An -tx1)
	# shellcheck disable=SC2086
	tm send-keys -t t -H $seq
}
# The column of the NAME title on the header line (under the meters).
x=$(header | awk '{ print index($0, "NAME") }')
y=$(($(header_no) - 1))
[ "$x" -gt 0 ] || fail "no NAME in the header"
click $((x + 1)) $y
wait_for 'sort NAME▲'
wait_names "$BY_NAME"
click $((x + 1)) $y
wait_for 'sort NAME▼'
# A click on a row does nothing.
click 10 8
settle
screen | grep -qF 'sort NAME▼' || fail "a click on a row changed the sort"
keys q
check_restored
echo "ok: clicking a title sorts by it, again reverses"
