#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Fuzzes the recording reader with libFuzzer + ASan/UBSan for $1 seconds
# (default 60), seeded with generator output. Needs clang.
cd "$(dirname "$0")/../.." || exit 2
command -v clang >/dev/null || { echo "clang not installed"; exit 77; }
secs=${1:-60}
out=build/fuzz
mkdir -p "$out/corpus-record"
clang -g -O1 -std=c11 -D_GNU_SOURCE -Iinclude -fsanitize=fuzzer,address,undefined \
	-DFUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION \
	tests/fuzz/fuzz_record.c src/record_read.c src/record_write.c src/record_fmt.c src/sample.c src/common.c \
	-lz -lm -o "$out/fuzz_record" || exit 1
make -s tools >/dev/null || exit 1
for s in 1 2 3; do
	f=$out/seed$s.xgrec
	build/tools/xgtop-gen --domains $((s * 3)) --samples $((s + 2)) --seed $s "$f" >/dev/null
	{ printf '\001'; cat "$f"; } >"$out/corpus-record/file$s"
	{ printf '\000'; zcat "$f"; } >"$out/corpus-record/text$s"
done
"$out/fuzz_record" -max_total_time="$secs" -max_len=65536 "$out/corpus-record"
