#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The detail pane's wait figures on a replay whose waits xgtop-gen --waits
# made (doc/recording.md): cache-05 (id 5, WAIT 20 ms a second) waits 40 %
# behind sched-06, 25 % behind nocache-07, 15 % idle and 20 % behind the
# rest, in the interval and since the start; its waits are as many 0.5 ms
# as 4 ms long (4 of each a second): two bars of the same length.
. "$(dirname "$0")/lib.sh"
make_rec 30 --waits
start_shell
start_xgtop --speed 20 --no-config
wait_for "end of recording"

keys Down Down
wait_sel cache-05 "Down Down did not select cache-05"
keys Enter
wait_for "xgtop details: cache-05"
settle
all=$(pane_pages 8)
grep -qE '^Waits that ended in the interval' <<<"$all" || fail "no waits heading"
grep -qE '^  behind in the interval: 0\.020 s of WAIT' <<<"$all" || fail "interval's ranked list heading"
grep -qE '^  behind since the source began: 0\.580 s of WAIT' <<<"$all" || fail "since-start ranked list heading"
for want in 'sched-06 +0\.008 s +40\.0 %' 'nocache-07 +0\.005 s +25\.0 %' 'idle +0\.003 s +15\.0 %' 'other +0\.004 s +20\.0 %' \
	'sched-06 +0\.232 s +40\.0 %' 'other +0\.116 s +20\.0 %'; do
	grep -qE "^    $want\$" <<<"$all" || fail "no ranked line '$want'"
done
grep -qE '^  wait lengths in the interval \(waits shorter than\):' <<<"$all" || fail "no histogram heading"
grep -qE '^    <  524us +4 #{40}$' <<<"$all" || fail "no 0.5 ms bar"
grep -qE '^    <  1.05ms +0 *$' <<<"$all" || fail "no empty bucket between the bars"
grep -qE '^    <  4.19ms +4 #{40}$' <<<"$all" || fail "no 4 ms bar"
grep -qE '^    <  8.39ms' <<<"$all" && fail "a bucket past the last with waits"
echo "cache-05: ranked culprits (interval and since the start) and the two-bar histogram on the pane"
