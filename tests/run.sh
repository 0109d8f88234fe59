#!/bin/bash
# Runs xgtop's test suites and prints one closing line "N passed, N failed".
# Usage: tests/run.sh [suite|suite/test_name...]
#   suites: unit record batch tui linux kvm trace docs exporter remote fuzz pkg pmu xen
#   suite/test_name runs that one test (tui/test_live, unit/test_view).
# TEST_JOBS=N (default 1): the tests of the suites whose tests share
# nothing (PARALLEL_SUITES: each has its own temporary directory, tmux
# server, servers and ephemeral ports) run N at a time, across suites; most
# of their time is spent waiting for a refresh, a pane, a scrape or the
# minute of scrapes a Prometheus or VictoriaMetrics server of the test's
# own must hold. The package tests (LANE_SUITES) build in copies of the
# tree but share build/portable and the toolchain cache: they run one
# after another in a single background job, which takes one of the N
# places beside the others (their compiles overlap the others' waits; the
# lane's results are printed when its last test ends). The other suites
# (cgroups, guests, the PMU) run one test at a time, with nothing beside
# them; the default order puts them last, so the parallel ones form one
# queue, and puts the longest first (the lane, then the suites whose tests
# wait on servers and panes longest), so that the quick ones fill the
# places at the end instead of one long test running alone.
# A script passes with exit 0, is skipped with exit 77 (it says why), and
# fails otherwise. Unit tests are the cmocka binaries under build/tests; one
# that skips a case (cmocka's skip()) is a skip too. With CI set, a skip
# fails unless tests/skip-allow.txt lists the test with its reason: a CI
# machine that lacks something must not lose a check without anyone seeing.
# TEST_EXCLUDE="suite/test_name ...": those tests of the suites asked are
# not run (the sanitizer and valgrind stages leave out what another test
# of theirs already drives through the same code); the closing line says
# how many.
cd "$(dirname "$0")/.." || exit 2
suites=("$@")
[ ${#suites[@]} -eq 0 ] && suites=(pkg remote tui exporter record trace batch docs unit linux pmu kvm fuzz xen)
pass=0 fail=0 skip=0 left=0 failed=()
read -rd '' -a exclude <<<"${TEST_EXCLUDE:-}"   # any blanks between the names, newlines too
excluded() { [[ " ${exclude[*]} " == *" $1 "* ]] && left=$((left + 1)); }
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
	report "$name" $rc $((SECONDS - t0))
}

report() {  # name, exit status, seconds
	local name=$1 rc=$2 secs=$3
	local log="$logdir/${name//\//_}.log"
	[ "$rc" = 0 ] && grep -q '^\[  SKIPPED \]' "$log" && rc=77
	case $rc in
	0) pass=$((pass + 1)); printf 'PASS %-40s %3ds\n' "$name" "$secs" ;;
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

# Results of the tests running in the background (TEST_JOBS > 1): each
# leaves its exit status in $logdir/NAME.rc and its time in NAME.secs.
jobs_max=${TEST_JOBS:-1}
PARALLEL_SUITES="unit record batch tui trace docs exporter remote"
LANE_SUITES="pkg"
declare -A bg_name=()
bg_reap() {  # waits for one background test and reports it
	local pid= p name log rc
	wait -n -p pid "${!bg_name[@]}" 2>/dev/null || true
	if [ -z "$pid" ]; then   # already reaped: take one that has ended
		for p in "${!bg_name[@]}"; do
			kill -0 "$p" 2>/dev/null || { pid=$p; break; }
		done
		[ -n "$pid" ] || { sleep 0.1; return 0; }
	fi
	for name in ${bg_name[$pid]}; do   # a lane's job: its tests' names
		log="$logdir/${name//\//_}.log"
		rc=$(cat "$log.rc" 2>/dev/null || echo 1)
		report "$name" "$rc" "$(cat "$log.secs" 2>/dev/null || echo 0)"
		rm -f "$log.rc" "$log.secs"
	done
	unset "bg_name[$pid]"
}
bg_drain() { while [ ${#bg_name[@]} -gt 0 ]; do bg_reap; done; }
run_any() {  # suite, name, command...: in the background where allowed
	local suite=$1 name=$2; shift 2
	if [ "$jobs_max" -le 1 ] || [[ " $PARALLEL_SUITES " != *" $suite "* ]]; then
		bg_drain
		run_one "$name" "$@"
		return
	fi
	while [ ${#bg_name[@]} -ge "$jobs_max" ]; do bg_reap; done
	local log="$logdir/${name//\//_}.log"
	( t0=$SECONDS; "$@" >"$log" 2>&1; echo $? >"$log.rc"; echo $((SECONDS - t0)) >"$log.secs" ) &
	bg_name[$!]=$name
}

# run_lane SUITE: its tests one after another in one background job.
run_lane() {
	local suite=$1 t names=()
	for t in tests/"$suite"/test_*.sh; do
		[ -e "$t" ] && ! excluded "$suite/$(basename "$t" .sh)" && names+=("$suite/$(basename "$t" .sh)")
	done
	[ ${#names[@]} -gt 0 ] || return 0
	while [ ${#bg_name[@]} -ge "$jobs_max" ]; do bg_reap; done
	(
		for name in "${names[@]}"; do
			log="$logdir/${name//\//_}.log" t0=$SECONDS
			bash "tests/$name.sh" >"$log" 2>&1
			echo $? >"$log.rc"
			echo $((SECONDS - t0)) >"$log.secs"
		done
	) &
	bg_name[$!]="${names[*]}"
}

for s in "${suites[@]}"; do
	if [ "$jobs_max" -gt 1 ] && [[ " $LANE_SUITES " == *" $s "* ]]; then
		run_lane "$s"
		continue
	fi
	case $s in
	unit/*) t=$(find build/tests -name "${s#unit/}" -type f | head -n 1)
		bg_drain
		if [ -x "$t" ]; then run_one "$s" "$t"; else echo "no unit test $s (make check builds them)"; fail=$((fail + 1)); failed+=("$s"); fi
		continue ;;
	*/*) bg_drain
		if [ -f "tests/$s.sh" ]; then run_one "$s" bash "tests/$s.sh"; else echo "no test tests/$s.sh"; fail=$((fail + 1)); failed+=("$s"); fi
		continue ;;
	esac
	if [ "$s" = unit ]; then
		for t in build/tests/*/test_*; do
			[ -x "$t" ] && run_any unit "unit/${t##*/}" "$t"
		done
		continue
	fi
	for t in tests/"$s"/test_*.sh; do
		[ -e "$t" ] && ! excluded "$s/$(basename "$t" .sh)" && run_any "$s" "$s/$(basename "$t" .sh)" bash "$t"
	done
done
bg_drain
echo
[ ${#failed[@]} -gt 0 ] && echo "failed: ${failed[*]}"
echo "$pass passed, $fail failed, $skip skipped${TEST_EXCLUDE:+, $left left out (TEST_EXCLUDE)}"
[ $fail -eq 0 ]
