#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Builds the libFuzzer harness for the xentrace decoder with clang
# (-fsanitize=fuzzer,address,undefined) and runs it for FUZZ_SECONDS
# (default 60). Seeds: synthetic traces and the start of the real capture
# when ../shared/data is present. Exit 0 = no finding, 77 = no clang.
cd "$(dirname "$0")/../.." || exit 2
. tests/fuzz/lib.sh
fuzz_build fuzz_xentrace tests/fuzz/fuzz_xentrace.c \
	"src/trace/xentrace_decode.c src/trace/xentrace_events.c src/trace/xentrace_account.c src/trace/xentrace_compat.c src/core/common.c" -lm
# Seeds: first byte = feed piece size, then a trace.
mkdir -p "$OUT/seeds"
gen=build/tools/xentrace-gen
if [ -x "$gen" ]; then
	printf 'cpu 0\nrs 100 32767 0 0 1\nrs 100 40 0 1 0\nwrap 3\nrec 0x00082001 - 1 2\ncpu 1\nlost 900 500 3 40 0\nrs 1000 40 0 0 2\ninfprev2 1100 40 5000\ncont 1200 32767 1\n' |
		"$gen" "$OUT/seeds/t.bin" && { printf '\x07'; cat "$OUT/seeds/t.bin"; } >"$OUT/seeds/synthetic"
fi
REAL=$(cd .. && pwd)/shared/data/xentrace-csched2-hvm/xentrace.bin
[ -r "$REAL" ] && { printf '\x28'; head -c 16384 "$REAL"; } >"$OUT/seeds/real-head"
rm -f "$OUT/seeds/t.bin"
fuzz_run fuzz_xentrace "the xentrace decoder" "$OUT/corpus" "$OUT/seeds"
