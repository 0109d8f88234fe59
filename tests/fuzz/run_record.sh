#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Builds the libFuzzer harness for the recording reader with clang
# (-fsanitize=fuzzer,address,undefined) and runs it for FUZZ_SECONDS
# (default 60), seeded with generator output (files and their text).
# Exit 0 = no finding, 77 = no clang or no libFuzzer runtime.
cd "$(dirname "$0")/../.." || exit 2
. tests/fuzz/lib.sh
fuzz_build fuzz_record tests/fuzz/fuzz_record.c \
	"src/record/record_read.c src/record/record_write.c src/record/record_fmt.c src/core/sample.c src/core/common.c" \
	-DFUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION -lz -lm
make -s tools >/dev/null || exit 1
mkdir -p "$OUT/seeds-record"
for s in 1 2 3; do
	f=$OUT/seed$s.xgrec
	build/tools/xgtop-gen --domains $((s * 3)) --samples $((s + 2)) --seed $s "$f" >/dev/null || exit 1
	{ printf '\001'; cat "$f"; } >"$OUT/seeds-record/file$s"
	{ printf '\000'; zcat "$f"; } >"$OUT/seeds-record/text$s"
	rm -f "$f"
done
fuzz_run fuzz_record "the recording reader" "$OUT/corpus-record" "$OUT/seeds-record"
