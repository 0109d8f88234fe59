#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Builds the libFuzzer harness for the recording reader with clang
# (-fsanitize=fuzzer,address,undefined) and runs it for FUZZ_SECONDS
# (default 60), seeded with generator output (files and their text).
# Exit 0 = no finding, 77 = no clang or no libFuzzer runtime.
cd "$(dirname "$0")/../.." || exit 2
SECS=${FUZZ_SECONDS:-60}
CLANG=${CLANG:-clang}
command -v "$CLANG" >/dev/null || { echo "SKIP: clang not installed (Debian: clang, libclang-rt-14-dev)"; exit 77; }
OUT=build/fuzz
mkdir -p "$OUT/corpus-record" "$OUT/seeds-record"
SRCS="src/record_read.c src/record_write.c src/record_fmt.c src/sample.c src/common.c"
if ! "$CLANG" -std=c11 -D_GNU_SOURCE -g -O1 -Iinclude -fsanitize=fuzzer,address,undefined \
	-fno-sanitize-recover=undefined -DFUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION \
	tests/fuzz/fuzz_record.c $SRCS -lz -lm -o "$OUT/fuzz_record" 2>"$OUT/build-record.log"; then
	if grep -q -i 'libclang_rt.fuzzer\|cannot find.*fuzzer' "$OUT/build-record.log"; then
		echo "SKIP: clang has no libFuzzer runtime (Debian: libclang-rt-14-dev)"; exit 77
	fi
	cat "$OUT/build-record.log"; exit 1
fi
make -s tools >/dev/null || exit 1
for s in 1 2 3; do
	f=$OUT/seed$s.xgrec
	build/tools/xgtop-gen --domains $((s * 3)) --samples $((s + 2)) --seed $s "$f" >/dev/null || exit 1
	{ printf '\001'; cat "$f"; } >"$OUT/seeds-record/file$s"
	{ printf '\000'; zcat "$f"; } >"$OUT/seeds-record/text$s"
	rm -f "$f"
done
echo "fuzzing the recording reader for ${SECS}s"
"$OUT/fuzz_record" -max_total_time="$SECS" -max_len=65536 -timeout=10 -rss_limit_mb=1024 \
	-artifact_prefix="$OUT/record-" -print_final_stats=1 "$OUT/corpus-record" "$OUT/seeds-record" \
	2>"$OUT/fuzz-record.log"
rc=$?
tail -n 12 "$OUT/fuzz-record.log"
[ $rc -eq 0 ] || { echo "fuzzer finding: see $OUT/fuzz-record.log and $OUT/record-crash-*"; exit 1; }
