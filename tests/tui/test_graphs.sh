#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The TREND column (T) and the detail pane's graphs: block characters in a
# UTF-8 locale, plain ASCII with LANG=C and LC_ALL=C (then nothing on the
# screen is outside ASCII); a figure never measured draws no bars.
. "$(dirname "$0")/lib.sh"
make_rec 20
start_shell
start_xgtop --speed 20 --no-config
wait_for "end of recording"

trend_of() { rows | awk -v n="$1" '$2 == n { print $NF }'; }
header | grep -q TREND && fail "TREND shown before T"
keys T
wait_for "TREND column on"
header | grep -q ' TREND$' || fail "no TREND title at the right end: $(header)"
# busy-03: its last 10 samples of a steady 380 %, the top of its scale;
# reuse-10b's first sample (sample 10 of 20) has no rate: a blank.
[ "$(trend_of busy-03)" = "██████████" ] || fail "busy-03 trend: '$(trend_of busy-03)'"
rows | grep -qE '^ +10 reuse-10b .* █{9}$' || fail "reuse-10b trend: $(rows | grep reuse-10b)"
# Sorted by LLC-MISS/s, nocache-07 has nothing measured: a blank cell.
for _ in $(seq 40); do
	screen | grep -qF 'sort LLC-MISS/s' && break
	keys '>'
	sleep 0.1
done
wait_for "sort LLC-MISS/s"
settle
rows | grep -qE '^ +7 nocache-07 .* +- +-$' || fail "nocache-07's trend is not blank: $(rows | grep nocache)"
rows | grep -qE '^ +5 cache-05 .* █{10}$' || fail "cache-05's LLC-MISS/s trend: $(rows | grep cache-05)"
keys T
wait_for "TREND column off"
header | grep -q TREND && fail "TREND still shown after T"
keys q
check_restored

XENV="LANG=C LC_ALL=C" start_xgtop --speed 20 --no-config
wait_for "end of recording"
keys T Down Enter
wait_for "xgtop details: busy-03"
settle
pane=$(screen)
grep -qE '^CPU% +now 380\.0' <<<"$pane" || fail "CPU% graph label in the C locale"
grep -qE '#{15,}$' <<<"$pane" || fail "no ASCII graph in the C locale"
LC_ALL=C grep -q $'[\x80-\xff]' <<<"$pane" && fail "non-ASCII bytes on the pane in the C locale"
keys Escape
wait_for "ID NAME"
settle
[ "$(trend_of busy-03)" = "##########" ] ||
	fail "busy-03 ASCII trend: '$(trend_of busy-03)'"
LC_ALL=C grep -q $'[\x80-\xff]' <<<"$(screen)" && fail "non-ASCII bytes on the list in the C locale"
keys q
check_restored
echo "ok: TREND and graphs in blocks, and in ASCII outside UTF-8"
