#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Per-pCPU times survive recording: the generator's known busy pattern is
# what the reader gives back, the real xgtop replaying a recording while
# recording gives back the very same pCPU times, and a recording of the
# format before pCPU lines (1.1) still replays, with the same figures.
. "$(dirname "$0")/lib.sh"

# Steady: pCPU p is busy 10 * (p mod 11) % of each second, idle the rest.
"$gen" --domains 5 --samples 6 --steady --pcpus 24 "$d/st.xgrec" || exit 1
"$gen" --dump-pcpus "$d/st.xgrec" >"$d/st.tsv" || exit 1
bad=$(awk -F'\t' 'NR > 1 { n++; want = $1 * ($3 % 11) * 100000000;
	if ($4 != want || $4 + $5 != $1 * 1000000000) print }
	END { if (n != 6 * 24) print "rows " n }' "$d/st.tsv")
[ -z "$bad" ] && echo "known pattern: 6 samples x 24 pCPUs" || { echo "FAIL: pattern: $bad" | head -n 5; fail=1; }

# With jitter, through the real program.
"$gen" --domains 14 --samples 20 --pcpus 64 "$d/fx.xgrec" || exit 1
./xgtop -b --replay "$d/fx.xgrec" --speed 0 --record "$d/re.xgrec" >/dev/null || { echo "FAIL: replay"; exit 1; }
"$gen" --dump-pcpus "$d/fx.xgrec" >"$d/a.tsv" && "$gen" --dump-pcpus "$d/re.xgrec" >"$d/b.tsv" || exit 1
if [ "$(wc -l <"$d/a.tsv")" -eq $((20 * 64 + 1)) ] && cmp -s "$d/a.tsv" "$d/b.tsv"; then
	echo "replayed and re-recorded: $((20 * 64)) pCPU entries identical"
else
	echo "FAIL: re-recorded pCPU times differ"; diff "$d/a.tsv" "$d/b.tsv" | head -n 5; fail=1
fi

# Version 1.1 (no pCPU lines, no pCPU columns on 'S'): still replays.
"$gen" --domains 14 --samples 8 "$d/new.xgrec" || exit 1
zcat "$d/new.xgrec" | grep -q $'^p\t' && { echo "FAIL: pCPU lines without --pcpus"; fail=1; }
zcat "$d/new.xgrec" | sed '1s/^xgtop-recording\t1\t[0-9]*\t/xgtop-recording\t1\t1\t/' | gzip >"$d/old.xgrec"
zcat "$d/old.xgrec" | head -n 1 | grep -q $'\t1\t1\t' || { echo "FAIL: could not make a 1.1 file"; exit 1; }
./xgtop -b --replay "$d/new.xgrec" --speed 0 -o csv >"$d/new.csv" &&
	./xgtop -b --replay "$d/old.xgrec" --speed 0 -o csv >"$d/old.csv" || { echo "FAIL: replay of 1.1"; fail=1; }
if [ -s "$d/old.csv" ] && cmp -s "$d/new.csv" "$d/old.csv"; then
	echo "a 1.1 recording replays: $(wc -l <"$d/old.csv") identical CSV lines"
else
	echo "FAIL: the 1.1 recording replays differently"; fail=1
fi
exit $fail
