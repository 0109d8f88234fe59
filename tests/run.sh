#!/bin/bash
# Runs xgtop's test suites and prints one closing line "N passed, N failed".
# Usage: tests/run.sh [suite...]   suites: unit record batch tui linux kvm trace docs exporter remote pkg pmu
# A script passes with exit 0, is skipped with exit 77 (it says why), and
# fails otherwise. Unit tests are the cmocka binaries under build/tests.
cd "$(dirname "$0")/.." || exit 2
suites=("$@")
[ ${#suites[@]} -eq 0 ] && suites=(unit record batch tui linux kvm trace docs exporter remote pkg)
pass=0 fail=0 skip=0 failed=()
logdir=build/test-logs
mkdir -p "$logdir"
# Nobody's own settings file (~/.config/xgtop/xgtoprc) changes what the
# tests see, and no test writes one there.
XDG_CONFIG_HOME=$(mktemp -d) && export XDG_CONFIG_HOME
trap 'rm -rf "$XDG_CONFIG_HOME"' EXIT

run_one() {  # name, command...
	local name=$1; shift
	local log="$logdir/${name//\//_}.log" t0=$SECONDS rc
	"$@" >"$log" 2>&1; rc=$?
	case $rc in
	0) pass=$((pass + 1)); printf 'PASS %-40s %3ds\n' "$name" $((SECONDS - t0)) ;;
	77) skip=$((skip + 1)); printf 'SKIP %-40s %s\n' "$name" "$(tail -n 1 "$log")" ;;
	*) fail=$((fail + 1)); failed+=("$name"); printf 'FAIL %-40s (exit %d)\n' "$name" $rc
	   sed 's/^/    | /' "$log" | tail -n 40 ;;
	esac
}

for s in "${suites[@]}"; do
	if [ "$s" = unit ]; then
		for t in build/tests/test_*; do
			[ -x "$t" ] && run_one "unit/${t##*/}" "$t"
		done
		continue
	fi
	for t in tests/"$s"/test_*.sh; do
		[ -e "$t" ] && run_one "$s/$(basename "$t" .sh)" bash "$t"
	done
done
echo
[ ${#failed[@]} -gt 0 ] && echo "failed: ${failed[*]}"
echo "$pass passed, $fail failed, $skip skipped"
[ $fail -eq 0 ]
