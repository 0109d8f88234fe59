# SPDX-License-Identifier: GPL-2.0-or-later
# What the libFuzzer runners share; sourced from the repository root. Sets
# SECS (FUZZ_SECONDS, default 60) and OUT, and exits 77 without clang.
SECS=${FUZZ_SECONDS:-60}
CLANG=${CLANG:-clang}
command -v "$CLANG" >/dev/null || { echo "SKIP: clang not installed (Debian: clang, libclang-rt-14-dev)"; exit 77; }
OUT=build/fuzz
mkdir -p "$OUT"

# fuzz_build NAME HARNESS.c "SOURCES" [CLANG ARGS...]: builds $OUT/NAME with
# -fsanitize=fuzzer,address,undefined; exits 77 when clang has no libFuzzer
# runtime, 1 (showing the log) on any other build failure.
fuzz_build() {
	local name=$1 harness=$2 srcs=$3
	shift 3
	# shellcheck disable=SC2086 # srcs is a list of file names
	if ! "$CLANG" -std=c11 -D_GNU_SOURCE -g -O1 -Iinclude -fsanitize=fuzzer,address,undefined \
		-fno-sanitize-recover=undefined "$harness" $srcs "$@" -o "$OUT/$name" 2>"$OUT/build-$name.log"; then
		if grep -q -i 'libclang_rt.fuzzer\|cannot find.*fuzzer' "$OUT/build-$name.log"; then
			echo "SKIP: clang has no libFuzzer runtime (Debian: libclang-rt-14-dev)"; exit 77
		fi
		cat "$OUT/build-$name.log"; exit 1
	fi
}

# fuzz_run NAME WHAT CORPUS SEEDS: runs $OUT/NAME for SECS seconds; exits 1
# on a finding (artifacts $OUT/NAME-crash-* etc.).
fuzz_run() {
	local name=$1 what=$2 corpus=$3 seeds=$4 rc
	mkdir -p "$corpus" "$seeds"
	echo "fuzzing $what for ${SECS}s"
	"$OUT/$name" -max_total_time="$SECS" -max_len=65536 -timeout=10 -rss_limit_mb=1024 \
		-artifact_prefix="$OUT/$name-" -print_final_stats=1 "$corpus" "$seeds" 2>"$OUT/$name.log"
	rc=$?
	tail -n 12 "$OUT/$name.log"
	[ $rc -eq 0 ] || { echo "fuzzer finding: see $OUT/$name.log and $OUT/$name-crash-*"; exit 1; }
}
