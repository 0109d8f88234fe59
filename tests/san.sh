#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# make SANITIZE=1 check: the test suites on the AddressSanitizer + UBSan
# build in BUILD (build/san). The tests run ./xgtop and build/tools/*, so
# they run in a copy of the tree, BUILD/root, whose xgtop and build/ are
# the instrumented ones and whose files are hard links to the tree's. Every
# sanitizer report goes to a file under BUILD/san-logs (instead of the
# test's output): any report fails the run, whatever the test made of the
# exit status it caused.
# Usage: tests/san.sh BUILD [SUITE...]; default suites: SAN_SUITES below.
cd "$(dirname "$0")/.." || exit 2
build=${1:?usage: tests/san.sh BUILD [SUITE...]}
shift
# Every suite but pkg (it builds a Debian package from the plain tree),
# kvm (real guests: minutes of TCG, nothing the others do not parse) and
# docs (it compares the documents with --help and the key tables: text,
# not memory); the longest first, as in tests/run.sh.
suites=("$@")
[ ${#suites[@]} -eq 0 ] && read -ra suites <<<"${SAN_SUITES:-remote tui exporter record trace batch unit linux pmu fuzz xen}"

root=$build/root
rm -rf "$root" "$build/san-logs"
mkdir -p "$root" "$build/san-logs"
chmod 1777 "$build/san-logs"   # tests run xgtop as another user too
for e in * .[!.]*; do
	case $e in build | xgtop | .git) continue ;; esac
	cp -al "$e" "$root/"
done
ln -s .. "$root/build"
ln -s ../xgtop "$root/xgtop"

logs=$PWD/$build/san-logs
# The Prometheus source's tests against VictoriaMetrics drive the same
# xgtop code as those against Prometheus (the same queries, parser and
# view; what differs is the server's, checked in make test): here, where
# every test runs 2-3 times slower, they would add 2.5 minutes to CI.
export TEST_EXCLUDE="${TEST_EXCLUDE-remote/test_promsrc_victoria remote/test_promsrc_report_victoria \
	tui/test_promsrc_screen_victoria}"
# AddressSanitizer, UBSan and LeakSanitizer. The instrumented build keeps
# the optional libraries loaded once opened (src/core/dynlib.c):
# LeakSanitizer's tracer crashed on what an unloaded one left behind.
export ASAN_OPTIONS="halt_on_error=1:abort_on_error=0:detect_leaks=1:log_path=$logs/asan:log_exe_name=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1:log_path=$logs/ubsan:log_exe_name=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
export LSAN_OPTIONS="suppressions=$PWD/tests/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
(cd "$root" && tests/run.sh "${suites[@]}")
rc=$?
reports=$(find "$logs" -type f | sort)
if [ -n "$reports" ]; then
	echo
	echo "sanitizer reports ($(echo "$reports" | wc -l)):"
	for f in $reports; do
		echo "--- $f"
		head -n 30 "$f"
	done
	exit 1
fi
echo "no sanitizer reports (ASan, UBSan, LeakSanitizer) in suites: ${suites[*]}"
exit $rc
