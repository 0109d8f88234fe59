#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The real xgtop with recordings: replaying a fixture while recording gives
# back the very same samples; --speed paces by the recorded gaps; a foreign
# file is refused with its name and byte offset.
. "$(dirname "$0")/lib.sh"

"$gen" --domains 14 --samples 30 "$d/fx.xgrec" || exit 1
./xgtop -b --replay "$d/fx.xgrec" --speed 0 --record "$d/re.xgrec" >"$d/out.txt" || { echo "FAIL: replay"; exit 1; }
"$gen" --dump "$d/fx.xgrec" >"$d/a.tsv" && "$gen" --dump "$d/re.xgrec" >"$d/b.tsv" || exit 1
if cmp -s "$d/a.tsv" "$d/b.tsv"; then
	echo "replayed and re-recorded: $(($(wc -l <"$d/a.tsv") - 1)) domain-samples identical"
else
	echo "FAIL: re-recorded samples differ"; diff "$d/a.tsv" "$d/b.tsv" | head -n 5; fail=1
fi
grep -q 'busy-03' "$d/out.txt" || { echo "FAIL: no busy-03 in the batch output"; fail=1; }

# 5 samples 1 s apart at --speed 4: four gaps of 0.25 s.
t0=$(date +%s%N)
./xgtop -b -n 5 --replay "$d/fx.xgrec" --speed 4 >/dev/null || fail=1
ms=$((($(date +%s%N) - t0) / 1000000))
echo "5 samples at --speed 4 took $ms ms"
if [ $ms -lt 900 ] || [ $ms -gt 10000 ]; then echo "FAIL: pacing ($ms ms, want about 1000)"; fail=1; fi

printf 'not a recording\n' >"$d/x.txt"
if err=$(./xgtop -b -n 1 --replay "$d/x.txt" 2>&1 >/dev/null); then
	echo "FAIL: a text file was replayed"; fail=1
else
	case "$err" in
	*"$d/x.txt: byte 0: not an xgtop recording"*) echo "refused: $err" ;;
	*) echo "FAIL: message '$err'"; fail=1 ;;
	esac
fi
exit $fail
