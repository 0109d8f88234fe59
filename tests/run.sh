#!/bin/bash
# Runs xgtop's test suites and prints one closing line "N passed, N failed".
# Usage: tests/run.sh [suite|suite/test_name...]
#   suites: unit record batch tui linux kvm trace docs exporter remote fuzz pkg pmu xen
#   suite/test_name runs that one test (tui/test_live, unit/test_view).
# A script passes with exit 0, is skipped with exit 77 (it says why), and
# fails otherwise. Unit tests are the cmocka binaries under build/tests; one
# that skips a case (cmocka's skip()) is a skip too. With CI set, a skip
# fails unless tests/skip-allow.txt lists the test with its reason: a CI
# machine that lacks something must not lose a check without anyone seeing.
cd "$(dirname "$0")/.." || exit 2
suites=("$@")
[ ${#suites[@]} -eq 0 ] && suites=(unit record batch tui linux pmu kvm trace docs exporter remote fuzz pkg xen)
pass=0 fail=0 skip=0 failed=()
logdir=build/test-logs
mkdir -p "$logdir"
# Nobody's own settings file (~/.config/xgtop/xgtoprc) changes what the
# tests see, and no test writes one there.
XDG_CONFIG_HOME=$(mktemp -d) && export XDG_CONFIG_HOME
trap 'rm -rf "$XDG_CONFIG_HOME"' EXIT

# May NAME skip here? Always outside CI; in CI only when allow-listed.
skip_allowed() {
	[ -z "$CI" ] || grep -q "^$1[[:space:]]" tests/skip-allow.txt 2>/dev/null
}

# Why a test skipped: a script's last line, or the cases cmocka skipped.
skip_why() {  # log
	if grep -q '^\[  SKIPPED \]' "$1"; then
		echo "cases skipped: $(grep '^\[  SKIPPED \]' "$1" | grep -v 'test(s)' | sed 's/^.*\] *//' |
			sort -u | tr '\n' ' ')"
	else
		tail -n 1 "$1"
	fi
}

run_one() {  # name, command...
	local name=$1; shift
	local log="$logdir/${name//\//_}.log" t0=$SECONDS rc
	"$@" >"$log" 2>&1; rc=$?
	[ $rc = 0 ] && grep -q '^\[  SKIPPED \]' "$log" && rc=77
	case $rc in
	0) pass=$((pass + 1)); printf 'PASS %-40s %3ds\n' "$name" $((SECONDS - t0)) ;;
	77) if skip_allowed "$name"; then
		skip=$((skip + 1)); printf 'SKIP %-40s %s\n' "$name" "$(skip_why "$log")"
	    else
		fail=$((fail + 1)); failed+=("$name")
		printf 'FAIL %-40s skipped in CI but not in tests/skip-allow.txt: %s\n' "$name" "$(skip_why "$log")"
	    fi ;;
	*) fail=$((fail + 1)); failed+=("$name"); printf 'FAIL %-40s (exit %d)\n' "$name" $rc
	   sed 's/^/    | /' "$log" | tail -n 40 ;;
	esac
}

for s in "${suites[@]}"; do
	case $s in
	unit/*) t=$(find build/tests -name "${s#unit/}" -type f | head -n 1)
		if [ -x "$t" ]; then run_one "$s" "$t"; else echo "no unit test $s (make check builds them)"; fail=$((fail + 1)); failed+=("$s"); fi
		continue ;;
	*/*) if [ -f "tests/$s.sh" ]; then run_one "$s" bash "tests/$s.sh"; else echo "no test tests/$s.sh"; fail=$((fail + 1)); failed+=("$s"); fi
		continue ;;
	esac
	if [ "$s" = unit ]; then
		for t in build/tests/*/test_*; do
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
