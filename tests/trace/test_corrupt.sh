#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Truncated and corrupt traces: a clear error naming the byte offset, exit
# status 1, and the figures for everything decoded before the fault.
. "$(dirname "$0")/lib.sh"
[ -x "$GEN" ] || { echo "xentrace-gen not built (make tools)"; exit 1; }
fail=0
base='cpu 0
rs 1000 32767 0 0 1
rs 1000 7 0 1 0
rec 0x0ffff123 1500 1 2 3
rs 2000 7 0 0 2
rs 2000 32767 0 1 0
rs 3000 7 0 2 1'
expect() {  # name script-tail rc stderr-regex
	printf '%s\n%s\n' "$base" "$2" | "$GEN" "$TMP/$1.bin"
	"${XGTRACE[@]}" --cpu-hz 1G -o csv "$TMP/$1.bin" >"$TMP/$1.csv" 2>"$TMP/$1.err"
	local rc=$?
	if [ $rc -ne "$3" ] || { [ -z "$4" ] && [ -s "$TMP/$1.err" ]; } ||
	   { [ -n "$4" ] && ! grep -Eq "$4" "$TMP/$1.err"; }; then
		echo "FAIL $1: rc $rc (want $3), stderr:"; cat "$TMP/$1.err"; fail=1; return
	fi
	echo "ok   $1: $(head -n 1 "$TMP/$1.err")"
}
# Offsets: chunk header 12 bytes, runstate record 16, the 3-word record 24.
expect clean '' 0 ''
grep -q '^7,0,0.000001000,0.000000000,0.000001000,' "$TMP/clean.csv" || { echo "FAIL clean figures"; cat "$TMP/clean.csv"; fail=1; }
# The file ends 6 bytes into the last record (12 + 4*16 + 24 = 100).
expect tail_record 'truncate 10' 1 'truncated trace at byte 100: the file ends inside a record \(6 of 16 bytes present\)'
# d7v0's run 1000-2000 is still reported; its blocked spell ends at the fault.
grep -q '^7,0,0.000001000,0.000000000,' "$TMP/tail_record.csv" || { echo "FAIL: figures before the fault"; cat "$TMP/tail_record.csv"; fail=1; }
expect tail_chunk 'truncate 16' 1 "truncated trace at byte 100: pCPU 0's chunk \(started at byte 0\) lacks its last 16 bytes"
expect bad_header 'raw 0x12345678' 1 'corrupt trace at byte 116: expected a TRC_TRACE_CPU_CHANGE chunk header, found word 0x12345678'
expect overrun 'window 92' 1 "corrupt trace at byte 100: a 16-byte record overruns the end of pCPU 0's chunk \(started at byte 0\) by 12 bytes"
printf 'hello, world\n' >"$TMP/text.bin"
"${XGTRACE[@]}" --cpu-hz 1G "$TMP/text.bin" >/dev/null 2>"$TMP/text.err"; rc=$?
{ [ $rc -eq 1 ] && grep -q 'corrupt trace at byte 0: .*not an xentrace file' "$TMP/text.err"; } || { echo "FAIL text file: rc $rc"; cat "$TMP/text.err"; fail=1; }
: >"$TMP/empty.bin"
"${XGTRACE[@]}" --cpu-hz 1G "$TMP/empty.bin" >/dev/null 2>"$TMP/empty.err"; rc=$?
{ [ $rc -eq 1 ] && grep -q 'empty trace' "$TMP/empty.err"; } || { echo "FAIL empty file: rc $rc"; cat "$TMP/empty.err"; fail=1; }
"${XGTRACE[@]}" --cpu-hz 1G "$TMP/nonexistent.bin" >/dev/null 2>"$TMP/ne.err"; rc=$?
{ [ $rc -eq 2 ] && grep -q 'nonexistent.bin: No such file' "$TMP/ne.err"; } || { echo "FAIL missing file: rc $rc"; cat "$TMP/ne.err"; fail=1; }
# No --cpu-hz and nothing to estimate it from: a clear request for it.
"${XGTRACE[@]}" "$TMP/clean.bin" >/dev/null 2>"$TMP/nohz.err"; rc=$?
{ [ $rc -eq 2 ] && grep -q 'pass --cpu-hz HZ' "$TMP/nohz.err"; } || { echo "FAIL no hz: rc $rc"; cat "$TMP/nohz.err"; fail=1; }
"${XGTRACE[@]}" --cpu-hz 2.4X "$TMP/clean.bin" >/dev/null 2>"$TMP/badhz.err"; rc=$?
{ [ $rc -eq 2 ] && grep -q 'expected a TSC rate' "$TMP/badhz.err"; } || { echo "FAIL bad hz: rc $rc"; fail=1; }
exit $fail
