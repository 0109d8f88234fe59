#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A recording is ordinary gzip text: zcat and gzip -t read it, a short
# Python reader written from doc/recording.md decodes the same values as
# xgtop's reader, and zcat still shows every complete sample of a torn file.
cd "$(dirname "$0")/../.." || exit 2
gen=build/tools/xgtop-gen
[ -x "$gen" ] || { echo "FAIL: $gen missing (make tools)"; exit 1; }
d=$(mktemp -d) || exit 2
trap 'rm -rf "$d"' EXIT
f=$d/f.xgrec
"$gen" --domains 14 --samples 25 --seed 3 --sockets 3 --pcpus 5 "$f" || exit 1
gzip -t "$f" || { echo "FAIL: gzip -t"; exit 1; }
head=$(zcat "$f" | head -n 1)
case "$head" in
xgtop-recording$'\t'1$'\t'*) ;;
*) echo "FAIL: first line '$head'"; exit 1 ;;
esac
samples=$(zcat "$f" | grep -c '^S'$'\t')
[ "$samples" = 25 ] || { echo "FAIL: zcat shows $samples samples"; exit 1; }

if command -v python3 >/dev/null; then
	"$gen" --dump "$f" >"$d/c.tsv" || exit 1
	python3 tests/record/read_xgrec.py "$f" >"$d/py.tsv" || { echo "FAIL: python reader"; exit 1; }
	if ! cmp -s "$d/c.tsv" "$d/py.tsv"; then
		echo "FAIL: the Python reader disagrees with xgtop's reader"
		diff "$d/c.tsv" "$d/py.tsv" | head -n 10
		exit 1
	fi
	echo "python reader agrees on $(wc -l <"$d/c.tsv") rows"
	"$gen" --dump-pcpus "$f" >"$d/cp.tsv" || exit 1
	python3 tests/record/read_xgrec.py --pcpus "$f" >"$d/pyp.tsv" || { echo "FAIL: python reader (pCPUs)"; exit 1; }
	[ "$(wc -l <"$d/cp.tsv")" = $((25 * 5 + 1)) ] || { echo "FAIL: $(wc -l <"$d/cp.tsv") pCPU rows"; exit 1; }
	if ! cmp -s "$d/cp.tsv" "$d/pyp.tsv"; then
		echo "FAIL: the Python reader disagrees with xgtop's reader on pCPU times"
		diff "$d/cp.tsv" "$d/pyp.tsv" | head -n 10
		exit 1
	fi
	echo "python reader agrees on $(wc -l <"$d/cp.tsv") pCPU rows"
else
	echo "note: no python3, skipped the independent reader"
fi

# Torn: cut in the middle of the last sample's bytes.
size=$(stat -c %s "$f")
head -c $((size - 300)) "$f" >"$d/torn.xgrec"
got=$(gzip -dc "$d/torn.xgrec" 2>/dev/null | grep -c '^E'$'\t')
[ "$got" -ge 23 ] || { echo "FAIL: zcat of a torn file shows $got complete samples"; exit 1; }
echo "zcat of a torn file: $got complete samples"
