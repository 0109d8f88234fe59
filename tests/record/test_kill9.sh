#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# kill -9 a process that appends to a recording at several moments: the
# reader must get back every sample whose append had returned and at most
# one more, and appending afterwards must cut the torn tail so the file is
# valid gzip again. It kills until at least one kill has left a torn tail,
# so the repair is really tried.
cd "$(dirname "$0")/../.." || exit 2
. tests/wait.sh
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
# has_samples FILE N: the recording FILE holds N samples or more (for
# wait_until: quiet while it does not exist yet).
has_samples() {
	local out
	out=$("$gen" --verify "$1" 2>/dev/null) && [ "$(awk '{print $2}' <<<"$out")" -ge "$2" ]
}

# check_kill I F WRITTEN: what the reader gets from F, which a generator
# killed after WRITTEN appends left; then an append must cut a torn tail
# away and leave complete gzip.
check_kill() {
	local i=$1 f=$2 written=$3 before
	verify "$f" || { fail=1; return; }
	echo "kill $i: appends returned $written, reader got $n, torn $torn"
	if [ "$n" -lt "$written" ] || [ "$n" -gt $((written + 1)) ] || [ "$torn" -gt 1 ]; then
		echo "FAIL: kill $i lost samples"; fail=1; return
	fi
	[ "$torn" = 1 ] && torn_seen=$((torn_seen + 1))
	"$gen" --append --domains 200 --samples 3 "$f" || { echo "FAIL: append after kill"; fail=1; return; }
	before=$n
	verify "$f" || { fail=1; return; }
	if [ "$n" != $((before + 3)) ] || [ "$torn" != 0 ]; then
		echo "FAIL: after append: $n samples (want $((before + 3))), torn $torn"; fail=1
	fi
	gzip -t "$f" || { echo "FAIL: gzip -t after repair"; fail=1; }
	rm -f "$f"
}

# kill_one I [LIMIT_KB]: kill -9 at a moment that depends on I; with a file
# size limit, the kernel stops the generator instead, in the middle of the
# write() that crosses it (SIGXFSZ), as a crash mid-append would.
kill_one() {
	local i=$1 f=$d/k$1.xgrec written
	( [ -n "$2" ] && ulimit -f "$2"; exec "$gen" --domains 200 --samples 0 --progress "$f" ) >"$d/progress" 2>/dev/null &
	pid=$!
	# (what varies is the moment of the kill, 0.1 to 0.9 s after the
	# generator has created its file; the check takes whatever it appended)
	if [ -z "$2" ]; then
		wait_until 30 test -e "$f" || { echo "FAIL: kill $i: the generator did not create $f within 30 s"; fail=1; }
		sleep "0.$((i * 37 % 9 + 1))"
		kill -9 $pid
	fi
	wait $pid 2>/dev/null
	written=$(tail -n 1 "$d/progress" | awk '{print $2}')
	check_kill "$i" "$f" "${written:-0}"
}

# Six kills -9: nothing whose append returned may be lost. A sample goes
# out in one write(), so these rarely leave a torn tail; the kills that
# follow stop the generator mid-write until one has, so the repair is
# always tried.
kills=0
while [ $kills -lt 6 ]; do kills=$((kills + 1)); kill_one $kills; done
while [ $torn_seen -eq 0 ] && [ $kills -lt 26 ]; do
	kills=$((kills + 1))
	kill_one $kills $((kills * 7 % 40 + 3))
done
echo "torn tails seen and repaired: $torn_seen of $kills kills"
[ $torn_seen -gt 0 ] || { echo "FAIL: none of $kills kills left a torn tail: the repair was never tried"; fail=1; }

# The real program: killed while it records a live source (when this host
# has one xgtop can read) and while it re-records a replay, whose samples
# must then be exactly the first ones of the fixture.
if [ -x ./xgtop ]; then
	if ./xgtop -b -n 1 >/dev/null 2>&1; then
		f=$d/live.xgrec
		./xgtop -b -d 0.1 --record "$f" >/dev/null 2>&1 &
		pid=$!
		wait_until 30 has_samples "$f" 3 || echo "note: the live recording has no 3 samples after 30 s"
		kill -9 $pid
		wait $pid 2>/dev/null
		verify "$f" || fail=1
		echo "live xgtop killed: reader got $n samples, torn $torn"
		if [ "${n:-0}" -lt 3 ] || [ "${torn:-9}" -gt 1 ]; then
			echo "FAIL: live xgtop recording after kill -9"; fail=1
		fi
	else
		echo "note: no live source works here; replay only"
	fi
	"$gen" --domains 200 --samples 300 "$d/fx.xgrec" >/dev/null || exit 1
	"$gen" --dump "$d/fx.xgrec" >"$d/fx.tsv"
	for t in 0.2 0.5; do
		f=$d/re$t.xgrec
		./xgtop -b --replay "$d/fx.xgrec" --speed 0 --record "$f" >/dev/null 2>&1 &
		pid=$!
		# (the moment of the kill: $t s after the first sample is written)
		wait_until 30 has_samples "$f" 1 || echo "note: the re-recording has no sample after 30 s"
		sleep $t
		kill -9 $pid
		wait $pid 2>/dev/null
		verify "$f" || { fail=1; continue; }
		"$gen" --dump "$f" >"$d/re.tsv"
		rows=$(($(wc -l <"$d/re.tsv")))
		echo "xgtop re-recording killed ${t}s after its first sample: $n samples, torn $torn"
		if [ "$n" -lt 1 ] || [ "$torn" -gt 1 ] || ! head -n "$rows" "$d/fx.tsv" | cmp -s - "$d/re.tsv"; then
			echo "FAIL: xgtop's recording after kill -9 is not a prefix of the fixture"; fail=1
		fi
	done
	# A replay that reaches a torn tail says so, once, and still succeeds.
	cut=$d/cut.xgrec
	head -c $(($(stat -c %s "$d/fx.xgrec") - 300)) "$d/fx.xgrec" >"$cut"
	verify "$cut" || fail=1
	if ./xgtop -b --replay "$cut" --speed 0 -o csv >/dev/null 2>"$d/cut.err"; then
		if [ "${torn:-0}" != 1 ] || [ "$(grep -c "$cut: the last sample was incomplete" "$d/cut.err")" != 1 ]; then
			echo "FAIL: replay of a torn recording (torn $torn) did not say so once:"; cat "$d/cut.err"; fail=1
		else
			echo "replay of a torn recording: $(cat "$d/cut.err")"
		fi
	else
		echo "FAIL: replay of a torn recording failed:"; cat "$d/cut.err"; fail=1
	fi
	./xgtop -b --replay "$d/fx.xgrec" --speed 0 -o csv >/dev/null 2>"$d/full.err"
	[ -s "$d/full.err" ] && { echo "FAIL: complete recording gave messages:"; cat "$d/full.err"; fail=1; }
else
	echo "note: ./xgtop not built; generator only"
fi
exit $fail
