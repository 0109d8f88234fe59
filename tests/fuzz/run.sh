#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Builds the libFuzzer harness for the xentrace decoder with clang
# (-fsanitize=fuzzer,address,undefined) and runs it for FUZZ_SECONDS
# (default 60). Seeds: synthetic traces and the start of the real capture
# when ../shared/data is present. Exit 0 = no finding, 77 = no clang.
cd "$(dirname "$0")/../.." || exit 2
SECS=${FUZZ_SECONDS:-60}
CLANG=${CLANG:-clang}
command -v "$CLANG" >/dev/null || { echo "SKIP: clang not installed (Debian: clang, libclang-rt-14-dev)"; exit 77; }
OUT=build/fuzz
mkdir -p "$OUT/corpus" "$OUT/seeds"
SRCS="src/xentrace_decode.c src/xentrace_events.c src/xentrace_account.c src/xentrace_compat.c src/common.c"
if ! "$CLANG" -std=c11 -D_GNU_SOURCE -g -O1 -Iinclude -fsanitize=fuzzer,address,undefined \
	-fno-sanitize-recover=undefined tests/fuzz/fuzz_xentrace.c $SRCS -lm -o "$OUT/fuzz_xentrace" 2>"$OUT/build.log"; then
	if grep -q -i 'libclang_rt.fuzzer\|cannot find.*fuzzer' "$OUT/build.log"; then
		echo "SKIP: clang has no libFuzzer runtime (Debian: libclang-rt-14-dev)"; exit 77
	fi
	cat "$OUT/build.log"; exit 1
fi
# Seeds: first byte = feed piece size, then a trace.
gen=build/tools/xentrace-gen
if [ -x "$gen" ]; then
	printf 'cpu 0\nrs 100 32767 0 0 1\nrs 100 40 0 1 0\nwrap 3\nrec 0x00082001 - 1 2\ncpu 1\nlost 900 500 3 40 0\nrs 1000 40 0 0 2\ninfprev2 1100 40 5000\ncont 1200 32767 1\n' |
		"$gen" "$OUT/seeds/t.bin" && { printf '\x07'; cat "$OUT/seeds/t.bin"; } >"$OUT/seeds/synthetic"
fi
REAL=$(cd .. && pwd)/shared/data/xentrace-csched2-hvm/xentrace.bin
[ -r "$REAL" ] && { printf '\x28'; head -c 16384 "$REAL"; } >"$OUT/seeds/real-head"
rm -f "$OUT/seeds/t.bin"
echo "fuzzing the xentrace decoder for ${SECS}s"
"$OUT/fuzz_xentrace" -max_total_time="$SECS" -max_len=65536 -timeout=10 -rss_limit_mb=1024 \
	-artifact_prefix="$OUT/" -print_final_stats=1 "$OUT/corpus" "$OUT/seeds" 2>"$OUT/fuzz.log"
rc=$?
tail -n 12 "$OUT/fuzz.log"
[ $rc -eq 0 ] || { echo "fuzzer finding: see $OUT/fuzz.log and $OUT/crash-*"; exit 1; }
