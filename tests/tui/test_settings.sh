#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Settings files that are not right: a broken one (a line that is not
# `key = value`, or random bytes) gets a one-line warning on the status
# line, the defaults, no crash, and is never overwritten; an unknown key
# gets a warning and is kept when xgtop saves a change; --config FILE is
# read and written instead of the default file, and -d overrides its delay.
. "$(dirname "$0")/lib.sh"
make_rec 4
start_shell
mkdir -p "$TMP/.config/xgtop"
RC=$TMP/.config/xgtop/xgtoprc

printf 'sort = mem\nthis line is not a setting\n' >"$RC"
cp "$RC" "$TMP/rc.before"
start_xgtop --speed 50
wait_for "xgtoprc: line 2: expected 'key = value'; using the defaults (the file is left as it is)"
wait_for "end of recording"
[ "$(sort_shown)" = 'CPU%▼' ] || fail "not the default sort with a broken file: $(sort_shown)"
keys '>'
wait_gone 'sort CPU%▼'
keys q
wait_for 'settings not saved:'
check_restored
cmp -s "$RC" "$TMP/rc.before" || fail "the broken file was overwritten"

head -c 4096 /dev/urandom >"$RC"
start_xgtop --speed 50
wait_for 'using the defaults'
wait_for "end of recording"
wait_names "$BY_CPU"
keys q
check_restored

printf '# mine\ncolour = blue\nsort = nosuch\n' >"$RC"
start_xgtop --speed 50
wait_for "line 2: unknown key 'colour' (kept in the file) (and 1 more)"
wait_for "end of recording"
keys r
wait_for 'sort CPU%▲'
keys q
check_restored
grep -qx 'colour = blue' "$RC" || fail "the unknown key was dropped: $(cat "$RC")"
grep -qx '# mine' "$RC" || fail "the comment was dropped: $(cat "$RC")"
grep -qx 'reverse = on' "$RC" || fail "the change was not saved: $(cat "$RC")"

# --config FILE: that file, beneath the command line.
printf 'delay = 7\nsort = name\n' >"$TMP/other.rc"
start_xgtop --speed 50 --config "$TMP/other.rc" -d 3
wait_for "end of recording"
wait_for '(delay 3s)'
[ "$(sort_shown)" = 'NAME▲' ] || fail "--config file not read: sort $(sort_shown)"
keys w
wait_for 'scheduler columns off'
keys q
check_restored
grep -qx 'sched = off' "$TMP/other.rc" || fail "--config file not written: $(cat "$TMP/other.rc")"
grep -qx 'delay = 7' "$TMP/other.rc" || fail "-d was saved over the file's delay: $(cat "$TMP/other.rc")"
grep -q 'sched' "$RC" && fail "the default file was written with --config"
echo "ok: broken files warn and are left alone, unknown keys kept, --config and -d"
