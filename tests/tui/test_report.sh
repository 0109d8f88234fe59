#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# W writes the current view as a text report named
# xgtop-report-YYYYmmdd-HHMMSS.txt in the current directory and says so; a
# failure to write is reported on the status line.
. "$(dirname "$0")/lib.sh"
make_rec 4
start_shell
start_xgtop --speed 50
wait_for "end of recording"
# Narrow the view first: the report holds what the view selects.
keys /
wait_for 'Filter names'
keys -- '-0[2-4]' Enter
wait_names "busy-03 net-04 disk-02"

keys W
wait_match 'report written to xgtop-report-[0-9]{8}-[0-9]{6}\.txt'
name=$(screen | grep -oE 'xgtop-report-[0-9]{8}-[0-9]{6}\.txt' | head -n 1)
[ -s "$TMP/$name" ] || fail "no report file $TMP/$name"
for d in busy-03 net-04 disk-02; do
	grep -q "$d" "$TMP/$name" || fail "report lacks $d: $(cat "$TMP/$name")"
done
grep -q 'cache-05' "$TMP/$name" && fail "report holds cache-05, which the filter hides"

# Twice in the same second: a second file, not an overwrite.
keys W
wait_match 'report written to xgtop-report-'
[ "$(ls "$TMP"/xgtop-report-*.txt | wc -l)" -ge 2 ] || fail "second W did not write a second file"
keys q
check_restored

# The current directory vanishes under xgtop: W reports the error.
mkdir "$TMP/gone"
keys "cd $TMP/gone && sh -c 'echo \$\$ > $TMP/pid; exec $XGTOP --replay $REC --speed 50'" Enter
wait_for "end of recording"
rmdir "$TMP/gone"
keys W
wait_match 'cannot write xgtop-report-[0-9-]+\.txt: No such file or directory'
keys q
check_restored
echo "ok: W writes the filtered view; errors are shown"
