#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Colour is modest (an error in red) and NO_COLOR (set, non-empty) turns
# every colour off; attributes (reverse header, bold) stay.
. "$(dirname "$0")/lib.sh"
make_rec 4
start_shell

colours() { tm capture-pane -p -e -t t | grep -cE $'\e\\[([0-9;]*;)?(3[0-7]|9[0-7]|38;5;[0-9]+)(;[0-9]+)*m'; }

bad_filter() {
	keys /
	wait_for 'Filter names'
	keys '(' Enter
	wait_for 'bad filter'
}

start_xgtop --speed 50
wait_for "end of recording"
bad_filter
[ "$(colours)" -gt 0 ] || fail "no colour on the error line without NO_COLOR"
keys q
check_restored

XENV="NO_COLOR=1" start_xgtop --speed 50
wait_for "end of recording"
bad_filter
[ "$(colours)" -eq 0 ] || fail "colours shown with NO_COLOR=1: $(tm capture-pane -p -e -t t | cat -v | grep -m3 '\^\[\[')"
tm capture-pane -p -e -t t | grep -qE $'\e\\[([0-9;]*;)?7(;[0-9]+)*m' || fail "no reverse video header with NO_COLOR"
keys q
check_restored
echo "ok: red errors with colour; none with NO_COLOR"
