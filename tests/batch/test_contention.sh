#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# xgtop report --contention on the generator's noisy-neighbour script
# (xgtop-gen --contention): the victim is the one VICTIM; the antagonist,
# on its socket, is its one SUSPECT; the decoy, which floods in two of the
# victim's outlier windows only, is ranked but not flagged and never a
# victim; far-socket floods exactly with the antagonist but on the other
# socket, and is never named. The victim's CPI, its baseline and each
# neighbour's r are checked against an oracle computed here in awk from
# the generator's raw counters (--dump). A steady recording has no victim;
# one without cycles judges misses per instruction; one without any
# counters gives no verdict; bad --rule values and -o csv are refused.
. "$(dirname "$0")/common.sh"
GEN=build/tools/xgtop-gen
[ -x "$GEN" ] || { echo "SKIP: no $GEN (make tools)"; exit 77; }
export TZ=UTC

"$GEN" --contention --samples 40 "$tmp/c.xgr" >/dev/null || fail "generator"
./xgtop report --contention --replay "$tmp/c.xgr" >"$tmp/out" || fail "report --contention: $(cat "$tmp/out")"
out=$(cat "$tmp/out")
grep -q '^Rule: window=1 sigma=2 hits=3/5 baseline=20 min_rise=10 min_r=0.5 ' <<<"$out" || fail "rule line: $out"
[ "$(grep -c '^VICTIM ' <<<"$out")" = 1 ] || fail "not exactly one victim: $out"
grep -qE '^VICTIM victim \(id 1\): 2 refreshes, 2026-01-01T00:00:38\+0000 to 2026-01-01T00:00:39\+0000$' <<<"$out" ||
	fail "victim line: $out"
grep -qF '  socket 0: neighbours on it, by r of their LLC misses/s with its CPI:' <<<"$out" || fail "socket line: $out"
sus=$(grep -E '^  (SUSPECT|-) ' <<<"$out")
[ "$(grep -c '^  SUSPECT' <<<"$sus")" = 1 ] || fail "not exactly one suspect: $sus"
head -n 1 <<<"$sus" | grep -qE '^  SUSPECT +antagonist \(id 2\): r=[0-9.]+, high in 4 of its 4 outlier windows; flagged in 2 refreshes$' ||
	fail "antagonist is not the top suspect: $sus"
grep -qE '^  - +decoy \(id 3\): r=[0-9.]+, high in 2 of its 4 outlier windows \(too few windows\); flagged in 0 refreshes$' <<<"$sus" ||
	fail "decoy line: $sus"
grep -q far-socket <<<"$out" && fail "far-socket (socket 1) is named: $out"

# The oracle: per window k (sample k-1 .. k), CPI = delta cycles / delta
# instructions and misses/s = delta misses / delta t, from the dumped
# counters; at the last sample the baseline is windows 15..34 (20 before
# the last 5), r runs over windows 15..39 (baseline + last).
"$GEN" --dump "$tmp/c.xgr" >"$tmp/dump" || fail "dump"
awk -F'\t' '
NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
{
	s = $1; id = $3
	ins = $col["instructions"]; cyc = $col["cycles"]; mis = $col["llc_misses"]; t = $2 / 1e9
	if (s > 0) {
		cpi[id, s] = (cyc - pc[id]) / (ins - pi[id])
		mps[id, s] = (mis - pm[id]) / (t - pt[id])
	}
	pc[id] = cyc; pi[id] = ins; pm[id] = mis; pt[id] = t; last = s
}
function pearson(a, b,   k, n, sx, sy, mx, my, sxy, sxx, syy) {
	for (k = last - 24; k <= last; k++) { sx += mps[a, k]; sy += cpi[b, k]; n++ }
	mx = sx / n; my = sy / n
	for (k = last - 24; k <= last; k++) {
		sxy += (mps[a, k] - mx) * (cpi[b, k] - my)
		sxx += (mps[a, k] - mx) ^ 2; syy += (cpi[b, k] - my) ^ 2
	}
	return sxy / sqrt(sxx * syy)
}
END {
	for (k = last - 24; k < last - 4; k++) { m += cpi[1, k]; n++ }
	m /= n
	for (k = last - 24; k < last - 4; k++) v += (cpi[1, k] - m) ^ 2
	sd = sqrt(v / n)
	printf "cpi %.3f mean %.3f sd %.3f\n", cpi[1, last], m, sd
	printf "r2 %.2f r3 %.2f r5 %.2f\n", pearson(2, 1), pearson(3, 1), pearson(5, 1)
}' "$tmp/dump" >"$tmp/oracle" || fail "oracle"
read -r _ cpi _ mean _ sd < <(head -n 1 "$tmp/oracle")
read -r _ r2 _ r3 _ r5 < <(tail -n 1 "$tmp/oracle")
grep -qF "  last: CPI $cpi, baseline mean $mean sd $sd, threshold " <<<"$out" ||
	fail "CPI/baseline differ from the oracle's ($cpi $mean $sd): $(grep last: <<<"$out")"
for p in "antagonist $r2" "decoy $r3" "quiet $r5"; do
	set -- $p
	grep -qE "^  (SUSPECT|-) +$1 \\(id [0-9]\\): r=$2," <<<"$sus" || fail "$1: r is not the oracle's $2: $sus"
done
awk -v a="$r2" -v d="$r3" 'BEGIN { exit !(a >= 0.9 && d < a) }' || fail "antagonist r $r2, decoy r $r3"

# A stricter rule: 5 of 5 windows; the victim's 4 do not pass.
./xgtop report --contention --rule 'hits=5/5' --replay "$tmp/c.xgr" >"$tmp/out5" || fail "--rule hits=5/5"
grep -q '^no cache victim: no domain.s CPI rose above its baseline in 5 of 5 windows$' "$tmp/out5" ||
	fail "hits=5/5: $(cat "$tmp/out5")"
# --from: only the last refresh.
./xgtop report --contention --from -1s --replay "$tmp/c.xgr" | grep -q '^VICTIM victim (id 1): 1 refresh, ' ||
	fail "--from -1s"

# The ordinary fixture recording (steady): no victim, every domain judged.
"$GEN" --samples 30 --steady "$tmp/s.xgr" >/dev/null || fail "generator (steady)"
./xgtop report --contention --replay "$tmp/s.xgr" | grep -q '^no cache victim: ' || fail "steady recording"
# Without PMU counters: no verdict, and why.
"$GEN" --samples 30 --nopmu "$tmp/n.xgr" >/dev/null || fail "generator (nopmu)"
./xgtop report --contention --replay "$tmp/n.xgr" | grep -q '^no verdict: no domain had ' || fail "no counters"
# Too short to learn a baseline: no verdict either.
"$GEN" --contention --samples 8 "$tmp/short.xgr" >/dev/null || fail "generator (short)"
./xgtop report --contention --replay "$tmp/short.xgr" | grep -q '^no verdict: ' || fail "short recording"

# Bad input: one line and exit 2.
for bad in 'hits=6/5' 'baseline=2' 'sigma=x' 'colour=red' 'window=0'; do
	rc=0
	./xgtop report --contention --rule "$bad" --replay "$tmp/c.xgr" >/dev/null 2>"$tmp/err" || rc=$?
	[ "$rc" = 2 ] || fail "--rule '$bad' exits $rc"
	head -n 1 "$tmp/err" | grep -q "^xgtop report: --rule '$bad': " || fail "--rule '$bad': $(cat "$tmp/err")"
done
rc=0
./xgtop report --contention -o csv --replay "$tmp/c.xgr" >/dev/null 2>"$tmp/err" || rc=$?
[ "$rc" = 2 ] && grep -q 'text only' "$tmp/err" || fail "--contention -o csv: $rc $(cat "$tmp/err")"
rc=0
./xgtop report --rule hits=3/5 --replay "$tmp/c.xgr" >/dev/null 2>"$tmp/err" || rc=$?
[ "$rc" = 2 ] || fail "--rule without --contention exits $rc"
echo "ok: report --contention: victim, its suspect, the decoy not flagged, far socket not named; r, CPI and baseline as the oracle's"
