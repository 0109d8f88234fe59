#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# + and - step the refresh interval through 0.1 .. 300 s; s asks for one
# (fractions allowed; below 0.05 s or not a number is refused with a
# message and the old delay stays). -d takes the same bounds as s.
. "$(dirname "$0")/lib.sh"
make_rec 4
for d in 0.05 86400; do
	"$XGTOP" --replay "$REC" --speed 0 -b -n 1 -d "$d" >/dev/null 2>"$TMP/err" ||
		fail "-d $d refused: $(cat "$TMP/err")"
done
for d in 0.04 86401 nan; do
	"$XGTOP" --replay "$REC" --speed 0 -b -n 1 -d "$d" >/dev/null 2>"$TMP/err"
	[ $? -eq 2 ] || fail "-d $d: want exit 2"
	grep -qF "0.05 to 86400" "$TMP/err" || fail "-d $d: message lacks the bounds: $(cat "$TMP/err")"
done
start_shell
start_xgtop --speed 50
wait_for "end of recording"
wait_for '(delay 1s)'
keys +
wait_for '(delay 1.5s)'
keys + +
wait_for '(delay 3s)'
keys - - - -
wait_for '(delay 0.5s)'
keys - - - - -
wait_for '(delay 0.1s)'

keys s
wait_for 'Delay in seconds:'
keys C-u '2.25' Enter
wait_for '(delay 2.25s)'
keys s
wait_for 'Delay in seconds:'
keys C-u '0.04' Enter
wait_for "bad delay '0.04': give seconds from 0.05 to 86400"
wait_for '(delay 2.25s)'
keys s
wait_for 'Delay in seconds:'
keys C-u '86401' Enter
wait_for "bad delay '86401'"
wait_for '(delay 2.25s)'
keys s
wait_for 'Delay in seconds:'
keys C-u '0.05' Enter
wait_for '(delay 0.05s)'
keys s
wait_for 'Delay in seconds:'
keys C-u '2.25' Enter
wait_for '(delay 2.25s)'
keys s
wait_for 'Delay in seconds:'
keys C-u 'fast' Enter
wait_for "bad delay 'fast'"
wait_for '(delay 2.25s)'
keys s
wait_for 'Delay in seconds:'
keys C-u '7' Escape
wait_gone 'Delay in seconds:'
wait_for '(delay 2.25s)'
keys q
check_restored
echo "ok: + - s change the delay; bad values are refused"
