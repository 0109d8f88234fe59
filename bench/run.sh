#!/bin/bash
# Runs every benchmark in bench/ and prints its figures. Benchmarks print
# measurements and ratios against a peer; they are not pass/fail tests, but
# a benchmark that cannot run at all makes this exit non-zero.
cd "$(dirname "$0")/.." || exit 2
status=0
for b in bench/*.sh; do
	[ "$b" = bench/run.sh ] && continue
	echo "=== $b"
	bash "$b" || { echo "=== $b failed (exit $?)"; status=1; }
done
exit $status
