#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# dom0 collection cost: xgtop's CPU time against xentop's for the same 30
# refreshes of the same columns (xgtop -b -o xentop --notrace --nocache,
# xentop -b), taken in turns in the dom0 of the QEMU Xen lab (make
# test-xen: Xen 4.17, PV dom0, QEMU TCG) with as many domains as the lab's
# memory holds (tests/xen/dom0-tests.sh, section 3). Runs the whole lab, a
# few minutes; its checks are summed up on the last line. Target: xgtop at
# most 0.4x xentop's CPU. Printed, not asserted.
cd "$(dirname "$0")/.." || exit 2
[ "$(id -u)" = 0 ] || { echo "dom0_vs_xentop: the lab runs as root (it installs QEMU and Xen's packages)"; exit 77; }
log=$(mktemp)
trap 'rm -f "$log"' EXIT
tests/xen/run.sh >"$log" 2>&1
rc=$?
line=$(grep '^INFO 30 refreshes in dom0' "$log")
if [ -z "$line" ]; then
	tail -n 20 "$log"
	echo "dom0_vs_xentop: the lab gave no cost figure"
	exit 1
fi
echo "${line#INFO }"
grep '^INFO source collect cost' "$log" | sed 's/^INFO //'
echo "lab checks: $(grep -E '^[0-9]+ passed, [0-9]+ failed' "$log" | tail -n 1)"
exit $rc
