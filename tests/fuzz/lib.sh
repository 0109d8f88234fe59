# SPDX-License-Identifier: GPL-2.0-or-later
# What tests/fuzz/run.sh needs to run one libFuzzer harness; sourced from
# the top of the tree. The harnesses are built by `make FUZZ=1 fuzz-bins`
# (clang, -fsanitize=fuzzer,address,undefined) into build/fuzz.
OUT=build/fuzz
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1}
CLANG=${CLANG:-clang}
command -v "$CLANG" >/dev/null || { echo "SKIP: clang not installed (Debian: clang, libclang-rt-14-dev)"; exit 77; }

# fuzz_replay NAME: runs every input of tests/fuzz/regress/NAME once (each
# once made the harness fail); 1 when one still does.
fuzz_replay() {
	local name=$1 dir=tests/fuzz/regress/$1
	[ -d "$dir" ] && [ -n "$(ls -A "$dir")" ] || return 0
	if ! "$OUT/$name" -runs=1 "$dir"/* >"$OUT/$name-regress.log" 2>&1; then
		echo "FAIL: $name: an input of $dir fails again"; tail -n 30 "$OUT/$name-regress.log"
		return 1
	fi
	echo "$name: $(ls "$dir" | wc -l) regression inputs pass"
}

# fuzz_run NAME SECONDS: fuzzes NAME from its seeds and the corpus kept in
# $OUT/corpus/NAME; prints "NAME SECONDS EXECS CORPUS" on success, 1 on a
# finding (the input is kept as $OUT/NAME-crash-* and the like).
fuzz_run() {
	local name=$1 secs=$2 seeds=$OUT/seeds/$1 corpus=$OUT/corpus/$1 rc
	rm -rf "$seeds"
	mkdir -p "$seeds" "$corpus"
	"seed_${name#fuzz_}" "$seeds" || { echo "FAIL: $name: could not write its seeds"; return 1; }
	"$OUT/$name" -max_total_time="$secs" -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
		-artifact_prefix="$OUT/$name-" -print_final_stats=1 "$corpus" "$seeds" >"$OUT/$name.log" 2>&1
	rc=$?
	if [ $rc -ne 0 ]; then
		echo "FAIL: $name: fuzzer finding (exit $rc), see $OUT/$name.log:"
		grep -m 1 -A 25 'ERROR\|==ERROR\|runtime error\|deadly signal' "$OUT/$name.log"
		ls "$OUT/$name"-* 2>/dev/null | grep -v '\.log$'
		return 1
	fi
	printf '%-10s %5ss %12s execs %6s corpus\n' "$name" "$secs" \
		"$(sed -n 's/^stat::number_of_executed_units: *//p' "$OUT/$name.log")" "$(ls "$corpus" | wc -l)"
}
