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
wait_names "$BY_CPU"

keys /
wait_for 'Filter names'
keys -- '-0[2-4]' Enter
wait_names "busy-03 net-04 disk-02"
wait_for 'filter /-0[2-4]/'

# A bad regex: error shown, rows and filter unchanged.
keys /
wait_for 'Filter names'
keys C-u '(' Enter
wait_match 'bad filter: .*\('
wait_names "busy-03 net-04 disk-02"
wait_for 'filter /-0[2-4]/'

# Case-insensitive alternation.
keys /
wait_for 'Filter names'
keys C-u 'NET|Disk' Enter
wait_names "net-04 disk-02"

# Esc leaves the filter as it was.
keys /
wait_for 'Filter names'
keys C-u 'nothing-matches' Escape
wait_for 'filter unchanged'
wait_names "net-04 disk-02"

# A filter matching nothing shows no rows, and says so.
keys /
wait_for 'Filter names'
keys C-u 'nothing-matches' Enter
wait_for 'rows 0'
settle
[ -z "$(names)" ] || fail "rows shown for a filter matching nothing"

keys /
wait_for 'Filter names'
keys C-u Enter
wait_for 'filter cleared'
wait_names "$BY_CPU"
settle
screen | grep -qF 'filter /' && fail "summary still shows a filter"
keys q
check_restored
echo "ok: filter narrows, bad regex reported, Esc cancels, empty clears"
