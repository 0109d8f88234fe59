#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# kill -9 a process that appends to a recording at several moments: the
# reader must get back every sample whose append had returned and at most
# one more, and appending afterwards must cut the torn tail so the file is
# valid gzip again.
cd "$(dirname "$0")/../.." || exit 2
gen=build/tools/xgtop-gen
[ -x "$gen" ] || { echo "FAIL: $gen missing (make tools)"; exit 1; }
d=$(mktemp -d) || exit 2
trap 'rm -rf "$d"' EXIT
fail=0 torn_seen=0

verify() {  # file -> sets n torn
	local out
	out=$("$gen" --verify "$1") || { echo "FAIL: reader error on $1"; return 1; }
	n=$(awk '{print $2}' <<<"$out")
	torn=$(awk '{print $4}' <<<"$out")
}

for i in 1 2 3 4 5 6 7 8; do
	f=$d/k$i.xgrec
	"$gen" --domains 300 --samples 0 --progress "$f" >"$d/progress" &
	pid=$!
	sleep "0.$((i * 37 % 9 + 1))"
	kill -9 $pid
	wait $pid 2>/dev/null
	written=$(tail -n 1 "$d/progress" | awk '{print $2}')
	written=${written:-0}
	verify "$f" || { fail=1; continue; }
	echo "kill $i: appends returned $written, reader got $n, torn $torn"
	if [ "$n" -lt "$written" ] || [ "$n" -gt $((written + 1)) ] || [ "$torn" -gt 1 ]; then
		echo "FAIL: kill $i lost samples"; fail=1; continue
	fi
	[ "$torn" = 1 ] && torn_seen=$((torn_seen + 1))
	# Appending repairs the tail: the file is complete gzip afterwards.
	"$gen" --append --domains 300 --samples 3 "$f" || { echo "FAIL: append after kill"; fail=1; continue; }
	before=$n
	verify "$f" || { fail=1; continue; }
	if [ "$n" != $((before + 3)) ] || [ "$torn" != 0 ]; then
		echo "FAIL: after append: $n samples (want $((before + 3))), torn $torn"; fail=1
	fi
	gzip -t "$f" || { echo "FAIL: gzip -t after repair"; fail=1; }
done
echo "torn tails seen and skipped: $torn_seen of 8 kills"

# The real program, once it records (the core is merged from main).
if [ -x ./xgtop ] && ./xgtop --help 2>&1 | grep -q -- '--record'; then
	f=$d/xgtop.xgrec
	./xgtop -b -d 0.1 --record "$f" >/dev/null 2>&1 &
	pid=$!
	sleep 1.3
	kill -9 $pid
	wait $pid 2>/dev/null
	verify "$f" || fail=1
	echo "xgtop killed: reader got $n samples, torn $torn"
	if [ "${n:-0}" -lt 5 ] || [ "${torn:-9}" -gt 1 ]; then
		echo "FAIL: xgtop recording after kill -9"; fail=1
	fi
else
	echo "note: ./xgtop with --record not built yet; generator only"
fi
exit $fail
