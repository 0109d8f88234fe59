#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A build without libpfm4: the default cache events are '-' with "built
# without libpfm4", and perf generic names given to --events still count.
. "$(dirname "$0")/lib.sh"
need_counting
command -v "${CC:-cc}" >/dev/null || { echo "no C compiler"; exit 77; }
bin=build/tools/xgtop-pmu-probe-nopfm
${CC:-cc} -std=c11 -D_GNU_SOURCE -O1 -Iinclude -o "$bin" tests/tools/xgtop-pmu-probe.c \
	src/pmu/pmu_count.c src/pmu/pmu_events.c src/pmu/pmu_math.c src/model/sample.c src/core/common.c src/model/config.c src/core/osread.c -lm ||
	fail "build without libpfm4 failed"
out=$($bin -- $WORK pages 10) || fail "probe failed"
has why.ref "built without libpfm4"
has why.cycles "built without libpfm4"
out=$($bin --events $SW -- $WORK pages 500) || fail "probe failed"
atleast ref 500
if out=$($bin --events ix86arch::LLC_MISSES -- true 2>&1); then fail "a libpfm4 name was accepted"; fi
[[ "$out" == *"event 'ix86arch::LLC_MISSES' unknown: built without libpfm4"* ]] ||
	fail "unexpected message: $out"
echo "ok: libpfm4 names refused with the reason"
