#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# VICTIM in batch output, on the generator's noisy-neighbour script
# (xgtop-gen --contention): CSV keys victim (1/0) and victim_windows (the
# outlier windows among the last 5); the victim is flagged in the last two
# refreshes (as report --contention says), the decoy, the far-socket
# neighbour and the antagonist never; empty while the baselines are learned.
# JSON has the same keys, null with the reason while learning. A recording
# without counters has no victim key at all.
. "$(dirname "$0")/common.sh"
GEN=build/tools/xgtop-gen
[ -x "$GEN" ] || { echo "SKIP: no $GEN (make tools)"; exit 77; }

"$GEN" --contention --samples 40 "$tmp/c.xgr" >/dev/null || fail "generator"
./xgtop -b -o csv --speed 0 --replay "$tmp/c.xgr" >"$tmp/c.csv" || fail "batch csv"
head -n 1 "$tmp/c.csv" | grep -q ',victim,victim_windows' || fail "no victim keys: $(head -n 1 "$tmp/c.csv")"
awk -F, '
NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
{
	name = $col["name"]; v = $col["victim"]; w = $col["victim_windows"]; rows++
	if (v == "") { learning++; if (w != "") bad = bad " " name ":windows-without-flag"; next }
	if (v == 1) { flagged[name]++; if (w < 3) bad = bad " " name ":flag-with-" w "-windows"; last = $1 }
	else if (v != 0 || w >= 3) bad = bad " " name ":" v "/" w
}
END {
	if (bad != "") { print "bad rows:" bad; exit 1 }
	if (flagged["victim"] != 2 || length(flagged) != 1) { for (n in flagged) print n, flagged[n]; print "want victim flagged twice, nobody else"; exit 1 }
	if (learning < 6 * 8) { print "only " learning " rows learning"; exit 1 }
	if (last != "2026-01-01T00:00:39.000Z") { print "last flagged at " last; exit 1 }
}' "$tmp/c.csv" || fail "csv verdicts"

./xgtop -b -o json --speed 0 --replay "$tmp/c.xgr" >"$tmp/c.json" || fail "batch json"
python3 - "$tmp/c.json" <<'PY' || fail "json verdicts"
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
first = {d["name"]: d for d in lines[0]["domains"]}
last = {d["name"]: d for d in lines[-1]["domains"]}
assert first["victim"]["victim"] is None and first["victim"]["victim_windows"] is None, first["victim"]
assert "learning" in first["victim"]["why"]["victim"], first["victim"]["why"]
assert last["victim"]["victim"] == 1 and last["victim"]["victim_windows"] >= 3, last["victim"]
for n in ("decoy", "far-socket", "antagonist", "quiet", "Domain-0"):
    assert last[n]["victim"] == 0, (n, last[n]["victim"])
PY

"$GEN" --samples 30 --nopmu "$tmp/n.xgr" >/dev/null || fail "generator (nopmu)"
./xgtop -b -o csv --speed 0 --replay "$tmp/n.xgr" | head -n 1 | grep -q victim && fail "a victim key without counters"
./xgtop -b -o json --speed 0 --replay "$tmp/n.xgr" | grep -q '"victim' && fail "a victim key in JSON without counters"
echo "ok: batch csv/json: victim flagged in its 2 refreshes, decoy, far socket and antagonist never; no key without counters"
