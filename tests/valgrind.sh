#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# make test-valgrind: the full-screen view's tests (tests/tui) with ./xgtop
# under valgrind's memcheck: invalid reads and writes, uses of
# uninitialised values, bad frees and definite leaks. Each xgtop run writes
# its own log under build/valgrind (--quiet: empty unless valgrind has
# something to say); any log that is not empty fails the run, and
# --error-exitcode makes that xgtop run fail too, which its test sees.
# Usage: tests/valgrind.sh [SUITE...] (default: tui).
cd "$(dirname "$0")/.." || exit 2
command -v valgrind >/dev/null || { echo "valgrind is not installed (make deps)"; exit 1; }
[ -x ./xgtop ] || { echo "./xgtop is not built (make)"; exit 1; }
suites=("$@")
[ ${#suites[@]} -eq 0 ] && suites=(tui)
out=$PWD/build/valgrind
rm -rf "$out"
mkdir -p "$out/logs"
cat >"$out/xgtop" <<EOF
#!/bin/sh
exec valgrind --quiet --error-exitcode=99 --leak-check=full --show-leak-kinds=definite \\
	--suppressions=$PWD/tests/valgrind.supp \\
	--errors-for-leak-kinds=definite --log-file=$out/logs/vg.%p $PWD/xgtop "\$@"
EOF
chmod +x "$out/xgtop"
# As in tests/san.sh: the full-screen view against VictoriaMetrics runs
# the code it runs against Prometheus. The churning fleet's test runs the
# Prometheus source's code that test_promsrc_screen runs here, and the
# sanitizer stage runs it whole (it passed here too: 41 s).
XGTOP=$out/xgtop TEST_EXCLUDE="${TEST_EXCLUDE-tui/test_promsrc_screen_victoria tui/test_promsrc_churn}" \
	tests/run.sh "${suites[@]}"
rc=$?
runs=$(find "$out/logs" -type f | wc -l)
# (valgrind warns that it does not model some bpf() commands, the Linux
# source's wait attribution: a note about valgrind, not about xgtop)
bad=$(for f in "$out"/logs/*; do
	[ -f "$f" ] && grep -qv 'WARNING: unhandled eBPF command' "$f" && echo "$f"
done)
if [ -n "$bad" ]; then
	echo
	for f in $bad; do echo "--- $f"; head -n 40 "$f"; done
	echo "valgrind: errors in $(echo "$bad" | wc -l) of $runs xgtop runs"
	exit 1
fi
echo "valgrind: $runs xgtop runs, 0 errors (memcheck, definite leaks counted)"
exit $rc
