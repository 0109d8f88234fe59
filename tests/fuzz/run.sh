#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Fuzzes every parser of outside input with the libFuzzer harnesses
# tests/fuzz/fuzz_*.c (make fuzz builds them first). Each harness first
# replays tests/fuzz/regress/NAME/ (inputs that once made it fail), then
# fuzzes for FUZZ_SECONDS (default 60) from its seeds (seeds.sh) and the
# corpus kept in build/fuzz/corpus/NAME; with FUZZ_BUDGET set, the
# harnesses share that many seconds. Usage: tests/fuzz/run.sh [NAME...]
# Exit 0 = no finding, 1 = a finding, 77 = no clang.
cd "$(dirname "$0")/../.." || exit 2
ROOT=$PWD
. tests/fuzz/lib.sh
. tests/fuzz/seeds.sh
. tests/shared-data.sh
names=("$@")
if [ ${#names[@]} -eq 0 ]; then
	for f in tests/fuzz/fuzz_*.c; do names+=("$(basename "$f" .c)"); done
fi
secs=${FUZZ_SECONDS:-60}
[ -n "$FUZZ_BUDGET" ] && secs=$((FUZZ_BUDGET / ${#names[@]}))
[ "$secs" -ge 1 ] || secs=1
status=0
for n in "${names[@]}"; do
	n=${n#fuzz_}
	[ -x "$OUT/fuzz_$n" ] || { echo "FAIL: $OUT/fuzz_$n is not built (make FUZZ=1 fuzz-bins)"; status=1; continue; }
	fuzz_replay "fuzz_$n" || { status=1; continue; }
	fuzz_run "fuzz_$n" "$secs" || status=1
done
exit $status
