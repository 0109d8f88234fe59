#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# CPU cost of consuming live trace buffers (decoder, merge, accounting; not
# the buffer mapping) at 100,000 scheduler records per second. Target: at
# most 0.5 % of one core. Printed, not asserted.
cd "$(dirname "$0")/.." || exit 2
[ -x build/tools/xentrace-livebench ] || { echo "build the tools first: make tools"; exit 1; }
out=$(build/tools/xentrace-livebench "${1:-100000}" "${2:-8}" "${3:-10}") || exit 1
echo "$out"
pct=$(sed -n 's/.*, \([0-9.]*\) % of one core at.*/\1/p' <<<"$out")
[ -n "$pct" ] || { echo "no figure in the output"; exit 1; }
awk -v p="$pct" 'BEGIN { printf "target: decoding and accounting <= 0.5 %% of one core: %.2f %%, %s\n", p,
	(p <= 0.5 ? "met" : "MISSED") }'
