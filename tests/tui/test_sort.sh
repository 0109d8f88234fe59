#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Sorting: by CPU% the busiest domain comes first and the order is numeric
# (380 > 160 > 70 > 60, which text order would mix up); r reverses;
# < and > move the sort column; the o menu picks one.
. "$(dirname "$0")/lib.sh"
make_rec 4
start_shell
start_xgtop --speed 50
wait_for "end of recording"

wait_names "$BY_CPU"
[ "$(sort_shown)" = "CPU%▼" ] || fail "summary shows sort '$(sort_shown)'"
wait_for '▼CPU%'   # the header's mark (the summary puts it after)

keys r
wait_names "$BY_CPU_UP"
[ "$(sort_shown)" = "CPU%▲" ] || fail "after r the summary shows sort '$(sort_shown)'"
keys r
wait_names "$BY_CPU"

keys '>'
wait_for 'sort CPU(s)▼'
wait_for '▼CPU(s)'
keys '<' '<'
wait_for 'sort STATE'
keys '<'
wait_for 'sort NAME▲'
wait_names "$BY_NAME"

# The menu lists the visible columns; Home goes to the first (ID).
keys o
wait_for 'Sort by'
keys Home Enter
wait_gone 'Sort by'
wait_for 'sort ID▲'
wait_names "$BY_ID"
# F6 is the same menu; Esc leaves the sort alone.
keys F6
wait_for 'Sort by'
keys Escape
wait_gone 'Sort by'
wait_for 'sort ID▲'
keys q
check_restored
echo "ok: numeric sort, reverse, < >, menu"
