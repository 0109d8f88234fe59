#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A pool's recording (format 1.3 and later) holds both additions of
# format 1.2 and 1.3: pCPU lines ('p') and the pool's hosts ('P'). The
# independent Python reader decodes the hosts, the pCPUs and every domain
# value as xgtop's reader does (its domain values never look at 'P' lines,
# as a 1.2 reader that skips them); the real xgtop replays it with its HOST
# column and re-records the same hosts, pCPUs and values; and a pool
# recording of the pool view's first builds, which called the 'P' lines
# 1.2, replays with its hosts.
. "$(dirname "$0")/lib.sh"

"$gen" --domains 14 --samples 20 --hosts 3 --pcpus 4 "$d/pool.xgrec" || exit 1
zcat "$d/pool.xgrec" | head -n 1 | grep -qE $'^xgtop-recording\t1\t([3-9]|[1-9][0-9]+)\t' ||
	{ echo "FAIL: not format 1.3 or later"; exit 1; }
for t in p P; do
	zcat "$d/pool.xgrec" | grep -q "^$t"$'\t' || { echo "FAIL: no '$t' lines"; exit 1; }
done
"$gen" --dump-hosts "$d/pool.xgrec" >"$d/h.tsv" || exit 1
# 3 hosts in each of 20 samples; gen-1 stale (with its reason) in 4 of them.
[ "$(($(wc -l <"$d/h.tsv") - 1))" = 60 ] || { echo "FAIL: $(wc -l <"$d/h.tsv") host rows"; exit 1; }
[ "$(awk -F'\t' '$5 == 1 && $4 == "67656e2d31" && $6 != "-"' "$d/h.tsv" | wc -l)" = 4 ] ||
	{ echo "FAIL: gen-1 is not stale with a reason in 4 samples"; fail=1; }

if command -v python3 >/dev/null; then
	for m in dump dump-pcpus dump-hosts; do
		py=${m#dump-}
		[ "$py" = dump ] && py= || py=--$py
		"$gen" --$m "$d/pool.xgrec" >"$d/c.tsv" || exit 1
		python3 tests/record/read_xgrec.py $py "$d/pool.xgrec" >"$d/py.tsv" ||
			{ echo "FAIL: python reader ($m)"; exit 1; }
		if cmp -s "$d/c.tsv" "$d/py.tsv"; then
			echo "python reader agrees on --$m: $(($(wc -l <"$d/c.tsv") - 1)) rows"
		else
			echo "FAIL: the Python reader disagrees on --$m"; diff "$d/c.tsv" "$d/py.tsv" | head -n 6; fail=1
		fi
	done
else
	echo "note: no python3, skipped the independent reader"
fi

# Through the real program: the table has HOST, and a re-recording keeps
# hosts, pCPUs and values.
./xgtop -b --replay "$d/pool.xgrec" --speed 0 -n 1 | grep -q '^HOST  *ID  *NAME' ||
	{ echo "FAIL: no HOST column when replaying the pool"; fail=1; }
./xgtop -b --replay "$d/pool.xgrec" --speed 0 --record "$d/re.xgrec" >/dev/null || { echo "FAIL: replay"; exit 1; }
for m in dump dump-pcpus dump-hosts; do
	"$gen" --$m "$d/pool.xgrec" >"$d/a.tsv" && "$gen" --$m "$d/re.xgrec" >"$d/b.tsv" || exit 1
	if cmp -s "$d/a.tsv" "$d/b.tsv"; then
		echo "re-recorded, --$m identical: $(($(wc -l <"$d/a.tsv") - 1)) rows"
	else
		echo "FAIL: the re-recording differs in --$m"; diff "$d/a.tsv" "$d/b.tsv" | head -n 6; fail=1
	fi
done

# The pool view's first builds wrote 'P' lines (and no pCPU lines) under
# 1.2: such a recording replays with the same hosts and figures.
"$gen" --domains 14 --samples 8 --hosts 2 "$d/new.xgrec" || exit 1
zcat "$d/new.xgrec" | sed '1s/^xgtop-recording\t1\t[0-9]*\t/xgtop-recording\t1\t2\t/' | gzip >"$d/old.xgrec"
"$gen" --dump-hosts "$d/new.xgrec" >"$d/a.tsv" && "$gen" --dump-hosts "$d/old.xgrec" >"$d/b.tsv" ||
	{ echo "FAIL: a 1.2 recording with 'P' lines does not read"; exit 1; }
./xgtop -b --replay "$d/new.xgrec" --speed 0 -o csv >"$d/new.csv" &&
	./xgtop -b --replay "$d/old.xgrec" --speed 0 -o csv >"$d/old.csv" || { echo "FAIL: replay of 1.2"; fail=1; }
if [ "$(wc -l <"$d/a.tsv")" = 17 ] && cmp -s "$d/a.tsv" "$d/b.tsv" && [ -s "$d/old.csv" ] &&
	cmp -s "$d/new.csv" "$d/old.csv" && head -n 1 "$d/old.csv" | grep -q ',host,'; then
	echo "a 1.2 pool recording replays: 16 host rows, $(wc -l <"$d/old.csv") identical CSV lines"
else
	echo "FAIL: the 1.2 pool recording reads differently"; fail=1
fi
exit $fail
