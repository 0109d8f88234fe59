#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Hardware test (in make test, and alone as make test-pmu): with the
# default cache events, a process walking randomly over 128 MiB (far
# beyond any LLC) has a lower HIT% than one walking over 4 MiB (beyond L2,
# within the LLC). Skips (77) where there is no hardware PMU, with the
# reason the module gives.
. "$(dirname "$0")/lib.sh"

out=$($PROBE -- $WORK walk 64 1) || { echo "probe failed"; exit 1; }
if [ "$(get ref)" = - ] || [ "$(get miss)" = - ]; then
	echo "no cache counters here: $(get why.ref)"
	exit 77
fi
echo "counting: $(get label)"

hit() {  # KIB: HIT% of a 2-second walk over KIB KiB
	out=$($PROBE -- $WORK walk "$1" 2) || { echo "probe failed"; exit 1; }
	local r m; r=$(get ref) m=$(get miss)
	[ "$r" -ge 10000 ] || { echo "walk $1 KiB: only $r references, too few for a ratio"; exit 1; }
	awk -v r="$r" -v m="$m" 'BEGIN { printf "%.2f\n", 100 * (1 - m / r) }'
}
friendly=$(hit 4096) || exit 1
thrash=$(hit 131072) || exit 1
echo "HIT%: 4 MiB walk $friendly, 128 MiB walk $thrash"
awk -v f="$friendly" -v t="$thrash" 'BEGIN { exit !(t < f) }' ||
	{ echo "FAIL: the cache-thrashing walk does not have the lower HIT%"; exit 1; }
echo "ok"
