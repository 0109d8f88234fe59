#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The golden guard of a refactor: every output of the fixture recordings
# (batch text, CSV, JSON, xentop, report, --explain; with vCPU rows, pools,
# VMs, sockets) and of `xgtop trace` on the shared capture, written to
# OUTDIR, one file each. Run it with the binaries before and after a
# change and compare the two directories: `diff -r` must be empty. What
# differs from run to run by nature (xgtop's own CPU time per refresh, the
# wall clock of a trace source run) is masked.
# Usage: tests/golden.sh OUTDIR   (XGTOP and XGTOP_GEN name other binaries)
set -eu
cd "$(dirname "$0")/.."
out=${1:?usage: tests/golden.sh OUTDIR}
xg=${XGTOP:-./xgtop}
gen=${XGTOP_GEN:-build/tools/xgtop-gen}
data=${XGTOP_SHARED:-../shared}/data
mkdir -p "$out"
out=$(cd "$out" && pwd)
xg=$(realpath "$xg")
gen=$(realpath "$gen")
data=$(realpath "$data")
rec=$(mktemp -d)
trap 'rm -rf "$rec"' EXIT
# run NAME CMD...: CMD's output (and exit status, when not 0) in NAME.
run() {
	local name=$1 rc=0
	shift
	"$@" >"$out/$name" 2>&1 || rc=$?
	[ $rc = 0 ] || echo "exit $rc" >>"$out/$name"
	sed -i -e 's/xgtop used [0-9.]* ms CPU/xgtop used N ms CPU/' -e 's/"self_cpu_ms":[0-9.]*/"self_cpu_ms":N/' "$out/$name"
}
cd "$rec"
export TZ=UTC LC_ALL=C
# The fixtures: made by the generator the tests use, same seeds each run.
"$gen" --samples 40 default.xgrec >/dev/null
"$gen" --domains 40 --samples 30 --seed 7 --sockets 2 --pcpus 8 sockets.xgrec >/dev/null
"$gen" --steady --samples 30 --vms vms.xgrec >/dev/null
"$gen" --samples 20 --hosts 3 pool.xgrec >/dev/null
"$gen" --domains 200 --samples 20 --churn 5 --seed 3 churn.xgrec >/dev/null
for r in *.xgrec; do
	n=${r%.xgrec}
	for o in text csv json xentop; do
		run "$n.$o" "$xg" -b --replay "$r" --speed 0 -o $o
		run "$n.v.$o" "$xg" -b --replay "$r" --speed 0 -v -o $o
	done
	run "$n.report" "$xg" report --replay "$r"
	run "$n.explain" "$xg" --replay "$r" --explain
done
t=$data/xentrace-csched2-hvm/xentrace.bin
if [ -f "$t" ]; then
	for o in text csv json; do
		run "trace.$o" "$xg" trace "$t" -o $o
		run "trace.compat.$o" "$xg" trace "$t" -o $o --xenalyze-compat
	done
	run trace-source.csv "$xg" -b --source trace "$t" -o csv -v
	sed -i 's/^[^,]*,//' "$out/trace-source.csv"   # its time column is the wall clock of the run
else
	echo "golden: no $t: xgtop trace not covered" >&2
fi
ls "$out" | wc -l
