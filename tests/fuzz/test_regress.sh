#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Every fuzz harness, built without libFuzzer (build/fuzz-replay, make
# check builds them), runs once on each input that once made it fail
# (tests/fuzz/regress/NAME) and on its seeds (seeds.sh): a fixed finding
# that comes back, or a seed from the fixtures that breaks a harness's
# checks, fails here in every make check, and under make SANITIZE=1 check
# on the instrumented build, without clang or a fuzzing run.
cd "$(dirname "$0")/../.." || exit 2
ROOT=$PWD
. tests/fuzz/seeds.sh
. tests/shared-data.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
for src in tests/fuzz/fuzz_*.c; do
	name=$(basename "$src" .c)
	bin=build/fuzz-replay/$name
	[ -x "$bin" ] || { echo "FAIL: $bin is not built (make check builds it)"; status=1; continue; }
	mkdir "$tmp/$name"
	"seed_${name#fuzz_}" "$tmp/$name" || { echo "FAIL: $name: could not write its seeds"; status=1; continue; }
	inputs=("$tmp/$name"/*)
	[ -d "tests/fuzz/regress/$name" ] && inputs+=("tests/fuzz/regress/$name"/*)
	if ! "$bin" "${inputs[@]}" >"$tmp/$name.log" 2>&1; then
		echo "FAIL: $name on one of: ${inputs[*]}"
		tail -n 20 "$tmp/$name.log"
		status=1
		continue
	fi
	echo "ok: $name: ${#inputs[@]} inputs ($(ls "$tmp/$name" | wc -l) seeds)"
done
exit $status
