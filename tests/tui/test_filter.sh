#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The / filter: a regex narrows the rows (case-insensitive, extended); a bad
# regex is reported on the status line and the old filter stays; Esc
# cancels; an empty line clears.
. "$(dirname "$0")/lib.sh"
make_rec 4
start_shell
start_xgtop --speed 50
wait_for "end of recording"
all="web-01 db-01 web-02 Domain-0 evil\\x1b[31mred idle-vm"
wait_names "$all"

keys /
wait_for 'Filter names'
keys 'web' Enter
wait_names "web-01 web-02"
wait_for 'filter /web/'

# A bad regex: error shown, rows and filter unchanged.
keys /
wait_for 'Filter names'
keys C-u '(' Enter
wait_match 'bad filter: .*\('
wait_names "web-01 web-02"
wait_for 'filter /web/'

# Case-insensitive alternation.
keys /
wait_for 'Filter names'
keys C-u 'DB|IDLE' Enter
wait_names "db-01 idle-vm"

# Esc leaves the filter as it was.
keys /
wait_for 'Filter names'
keys C-u 'nothing-matches' Escape
wait_for 'filter unchanged'
wait_names "db-01 idle-vm"

# A filter matching nothing shows no rows, and says so.
keys /
wait_for 'Filter names'
keys C-u 'nothing-matches' Enter
wait_for 'rows 0'
[ -z "$(names)" ] || fail "rows shown for a filter matching nothing"

keys /
wait_for 'Filter names'
keys C-u Enter
wait_for 'filter cleared'
wait_names "$all"
screen | grep -qF 'filter /' && fail "summary still shows a filter"
keys q
check_restored
echo "ok: filter narrows, bad regex reported, Esc cancels, empty clears"
