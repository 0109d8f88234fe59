#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Hostile names: a name carrying ESC [2J (clear screen) and BEL, and one
# with invalid UTF-8, are shown escaped as \xNN; the screen is not cleared
# or shifted. Outside a UTF-8 locale the sort mark is plain ASCII.
. "$(dirname "$0")/lib.sh"
make_rec 4
start_shell
start_xgtop --speed 50
wait_for "end of recording"
wait_names "$BY_CPU"

s=$(screen)
echo "$s" | grep -qF 'ctl\x1b[2J\x07-11' || fail "escape name not shown escaped"
echo "$s" | grep -qF 'utf8-\xc3(-01' || fail "invalid UTF-8 name not shown escaped"
# ESC [2J would have wiped the summary above the rows.
echo "$s" | sed -n 1p | grep -q '^xgtop replay' || fail "summary line gone"
# Every row has the header's fields: nothing shifted by the names.
n=$(header | wc -w)
rows | awk -v n="$n" 'NF != n { print; exit 1 }' || fail "a row does not line up with the header"
# The raw bytes never reached the terminal: no bell, no clear-screen.
[ "$(tm display-message -p -t t '#{window_bell_flag}')" = 0 ] || fail "the name rang the bell"
keys q
check_restored

# A C locale: the ▼ mark becomes v, names stay escaped.
XENV="LC_ALL=C" start_xgtop --speed 50
wait_for "end of recording"
wait_for 'sort CPU%v'
wait_match '^ +ID NAME +STATE +vCPU% '   # the header's ASCII mark
screen | grep -qF 'ctl\x1b[2J\x07-11' || fail "escape name not shown escaped in the C locale"
keys q
check_restored
echo "ok: hostile names escaped, screen intact; ASCII mark outside UTF-8"
