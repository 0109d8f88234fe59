#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Per-socket CMT/MBM rows with --nosumcache, on a replayed fixture whose
# rates are known exactly (xgtop-gen --sockets 2 --steady: socket k gets
# weight k+1 of the domain's L3 occupancy and MBM traffic, doc/recording.md):
# JSON "sockets" lists, CSV `socket` rows, text sub-rows, --explain
# reasons; nothing of it without --nosumcache, and -o xentop unchanged.
. "$(dirname "$0")/common.sh"
gen=build/tools/xgtop-gen
[ -x "$gen" ] || fail "$gen missing (make tools)"
"$gen" --sockets 2 --steady --samples 6 "$tmp/s.xgrec" >/dev/null || fail "generator"
run() { ./xgtop -b --replay "$tmp/s.xgrec" --speed 0 "$@" 2>"$tmp/err" || fail "xgtop $*: exit $?: $(cat "$tmp/err")"; }

run -o json --nosumcache >"$tmp/json"
python3 - "$tmp/json" <<'PY' || exit 1
import json, sys
MIB = 1 << 20
lines = [json.loads(l) for l in open(sys.argv[1], encoding="utf-8")]
# Batch prints from the second sample on (rates need two): line n is sample n + 1.
assert len(lines) == 5, "want 5 refreshes, got %d" % len(lines)
def dom(line, name):
    return next(d for d in lines[line]["domains"] if d["name"] == name)
keys = None
for n, l in enumerate(lines):
    for d in l["domains"]:
        s = d["sockets"]
        assert [x["socket"] for x in s] == [0, 1], (d["name"], s)
        for x in s:
            ks = sorted(x)
            keys = keys or ks
            assert ks == keys == ["l3_occ_bytes", "mem_bw_bps", "socket", "why"], ks
            for k, why in x["why"].items():
                assert x[k] is None and why, (d["name"], x)
# The last refresh: exact shares, and they add up to the domain's figures.
want = {"busy-03": (12 * MIB, 2e9), "cache-05": (24 * MIB, 4e9), "Domain-0": (4 * MIB, 1e7)}
for name, (occ, bw) in want.items():
    d = dom(4, name)
    s = d["sockets"]
    occ0, bw0 = occ // 3, int(bw) // 3
    assert s[0]["l3_occ_bytes"] == occ0 and s[1]["l3_occ_bytes"] == occ - occ0, (name, s)
    assert abs(s[0]["mem_bw_bps"] - bw0) < 1e-3 and abs(s[1]["mem_bw_bps"] - (bw - bw0)) < 1e-3, (name, s)
    assert d["l3_occ_bytes"] == sum(x["l3_occ_bytes"] for x in s), d
    assert abs(d["mem_bw_bps"] - sum(x["mem_bw_bps"] for x in s)) < 1e-3, d
# The CPU lacks the events: every socket value null, the domain's reason.
d = dom(4, "nocache-07")
for x in d["sockets"]:
    assert x["l3_occ_bytes"] is None and x["mem_bw_bps"] is None, x
    assert x["why"]["l3_occ_bytes"] == d["why"]["l3_occ_bytes"] == "CMT/MBM not supported (xgtop-gen)", x
# late-08 appears in sample 2, reuse-10b takes id 10 over in sample 3: no
# rates there (a reason, never 0), rates from the next sample on.
for line, name, why in ((1, "late-08", "first sample"), (2, "reuse-10b", "counter reset")):
    for x in dom(line, name)["sockets"]:
        assert x["mem_bw_bps"] is None and why in x["why"]["mem_bw_bps"], (name, x)
    assert all(x["mem_bw_bps"] is not None for x in dom(line + 1, name)["sockets"]), name
print("ok: json: %d domains with 2 sockets each, exact shares" % len(lines[4]["domains"]))
PY

run -o csv --nosumcache >"$tmp/csv"
python3 - "$tmp/csv" <<'PY' || exit 1
import csv, sys
f = open(sys.argv[1], encoding="utf-8", newline="")
head = f.readline()
assert head.startswith("time,interval_s,id,socket,name,state,"), head
rows = list(csv.DictReader([head] + f.readlines()))
last = rows[-1]["time"]
busy = [r for r in rows if r["time"] == last and r["name"] == "busy-03"]
assert [r["socket"] for r in busy] == ["", "0", "1"], busy
dom_row, s0, s1 = busy
assert s1["l3_occ_bytes"] == str(12 * 1048576 - 12 * 1048576 // 3), s1
assert float(s1["mem_bw_bps"]) == 2e9 - 666666666, s1
assert s0["state"] == "" and s0["cpu_pct"] == "" and s0["mem_bytes"] == "", s0
assert dom_row["cpu_pct"] != "" and dom_row["state"] != "", dom_row
print("ok: csv: socket rows under their domain")
PY

run -o text --nosumcache >"$tmp/text"
python3 - "$tmp/text" <<'PY' || exit 1
import sys
lines = open(sys.argv[1], encoding="utf-8").read().split("\n")
hdr = max(i for i, l in enumerate(lines) if l.lstrip().startswith("ID NAME"))
h = lines[hdr]
occ, bw = h.index("L3-OCC") + 6, h.index("MEM-BW") + 6
at = next(i for i in range(hdr, len(lines)) if " busy-03 " in lines[i])
s0, s1 = lines[at + 1], lines[at + 2]
assert s0.split() and s0.split()[:2] == ["socket", "0"], s0
assert s1.split()[:2] == ["socket", "1"], s1
assert s0[:occ].rstrip().endswith("4.0M") and s0[:bw].rstrip().endswith("636M"), s0
assert s1[:occ].rstrip().endswith("8.0M") and s1[:bw].rstrip().endswith("1.2G"), s1
assert "-" not in s0, "blank, not '-', where a column does not apply: " + s0
print("ok: text: %r" % s1.strip())
PY

./xgtop -b --replay "$tmp/s.xgrec" --explain --nosumcache >"$tmp/explain" 2>"$tmp/err" || fail "--explain: $(cat "$tmp/err")"
grep -q '^Socket rows' "$tmp/explain" || fail "--explain does not describe socket rows"
grep -qE '^  L3-OCC +2 socket rows: CMT/MBM not supported \(xgtop-gen\)$' "$tmp/explain" ||
	fail "--explain lacks the socket rows' reason: $(grep -A40 "^Why" "$tmp/explain")"

# Summed (the default): no socket field, rows or lists.
run -o csv -n 2 >"$tmp/sum.csv"
grep -q socket "$tmp/sum.csv" && fail "socket field without --nosumcache"
[ "$(wc -l <"$tmp/sum.csv")" -eq $((1 + 11 + 12)) ] || fail "rows without --nosumcache: $(wc -l <"$tmp/sum.csv")"
run -o json -n 2 >"$tmp/sum.json"
grep -q '"sockets"' "$tmp/sum.json" && fail "sockets list without --nosumcache"
# The cache columns off: nothing to show socket rows for.
run -o csv -n 2 --nosumcache --nocache >"$tmp/nocache.csv"
grep -q socket "$tmp/nocache.csv" && fail "socket field with --nocache"
# xentop's layout knows no sockets.
run -o xentop --nosumcache >"$tmp/x1"
run -o xentop >"$tmp/x2"
cmp -s "$tmp/x1" "$tmp/x2" || fail "-o xentop changed with --nosumcache: $(diff "$tmp/x1" "$tmp/x2" | head -5)"
echo "ok: summed output, --nocache and -o xentop have no socket rows"
