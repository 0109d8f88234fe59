#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The triage line and the cache victims on replays. The fixture recording
# names sched-06, which waits 60 % (the WAIT% rule warns at 10 %), and
# with that rule at 70 % says "nothing stands out". The noisy-neighbour script (xgtop-gen --contention: an antagonist floods the
# cache from T-5 on, a decoy in two windows only, a domain on the other
# socket floods with the antagonist) ends with the victim flagged, its
# suspect named on the triage line, VICTIM "yes 4/5" on its row, "no" on
# the decoy's and the far socket's, and the detail pane ranking the
# antagonist (SUSPECT) above the decoy (not flagged), without the far
# socket's domain.
. "$(dirname "$0")/lib.sh"

# A wait over the warn level: sched-06 waits 60 % of its vCPU time.
make_rec 12
start_shell
start_xgtop --speed 0 --no-config --filter busy
wait_for "end of recording"
# the triage is the host's, whatever the filter shows
screen | grep -qE '^Triage: CPU: [0-9.]+ runnable vCPUs on 16 pCPUs; sched-06 waits 60 %$' ||
	fail "WAIT% over its warn level: $(screen | sed -n 4p)"
keys q
wait_prompt

# Quiet: with the WAIT% rule at 70 % nothing passes a threshold (no
# pressure figures, no cache victim in a steady load).
printf 'threshold.wait_pct = 70 90\n' >"$TMP/rc"
start_xgtop --speed 0 --config "$TMP/rc"
wait_for "end of recording"
screen | grep -qE '^Triage: nothing stands out *$' || fail "quiet: $(screen | sed -n 4p)"
keys q
wait_prompt

[ -x "$GEN" ] || skip "no fixture generator $GEN (make tools)"
"$GEN" --samples 40 --contention "$REC" >"$TMP/gen.log" 2>&1 || fail "generator: $(cat "$TMP/gen.log")"
start_xgtop --speed 0 --no-config --sort victim --nonet --nodisk
wait_for "end of recording"
screen | grep -qE '^Triage: .*cache: victim victim, suspect antagonist r=(0\.9[0-9]|1\.00)' ||
	fail "no cache part on the triage line: $(screen | sed -n 4p)"
header | grep -q VICTIM || fail "no VICTIM column: $(header)"
rows | grep -qE '^ *1 +victim .* yes 4/5 *$' || fail "victim row: $(rows | grep ' victim ')"
rows | grep -qE '^ *3 +decoy .* no [0-2]/5 *$' || fail "decoy row: $(rows | grep decoy)"
rows | grep -qE '^ *4 +far-socket .* no [0-2]/5 *$' || fail "far-socket row: $(rows | grep far-socket)"
[ "$(names | head -n 1)" = victim ] || fail "sorted by VICTIM, the victim is not first: $(names | tr '\n' ' ')"

keys Down Enter
wait_for "xgtop details: victim"
all=$(pane_pages 8)
grep -qF 'Cache contention (CPI2 rule: window=1 sigma=2 hits=3/5 baseline=20 min_rise=10 min_r=0.5)' <<<"$all" ||
	fail "no contention heading in the pane"
grep -qE '^  VICTIM yes 4/5: CPI 2\.[0-9]+ now, baseline mean 1\.[0-9]+ sd 0\.[0-9]+, threshold 1\.[0-9]+' <<<"$all" ||
	fail "no victim line in the pane"
grep -qF '  suspects on socket 0, by r of their LLC misses/s with its CPI:' <<<"$all" || fail "no socket line"
sus=$(grep -E '^    (SUSPECT|-) ' <<<"$all")
[ "$(head -n 1 <<<"$sus" | awk '{print $1, $2}')" = "SUSPECT antagonist" ] || fail "antagonist not the top suspect: $sus"
grep -qE '^    - +decoy +r=0\.[0-9]+ +high in 2 of its 4 outlier windows' <<<"$sus" || fail "decoy line: $sus"
grep -q far-socket <<<"$sus" && fail "the far socket's domain is a suspect: $sus"
[ "$(grep -c '^    SUSPECT' <<<"$sus")" = 1 ] || fail "more than one suspect flagged: $sus"
keys Escape q
wait_prompt
echo "ok: triage line quiet, CPU and cache parts; VICTIM column, suspects in the detail pane"
