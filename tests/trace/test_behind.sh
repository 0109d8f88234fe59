#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# xgtop trace --behind: who each domain's WAIT was behind (doc/trace.md,
# "Who a vCPU waited behind") and the run-queue latency.
#  A. A synthetic trace at 1 GHz with exact answers: two vCPUs sharing
#     pCPU 0 wait behind each other (and Xen's switch gaps), a vCPU woken
#     on an idle pCPU waits behind idle, one that never runs is behind
#     xen; the idle domain (whose vCPUs wait while their pCPU is busy) has
#     no wait sections; the wait counts and P50 of the latency.
#  B. The real credit2 capture against an independent reference
#     (behind_reference.py, its own decoder): every (domid, vcpu, behind)
#     within 0.5 % or 1 ms, the parts of each domain's and vCPU's WAIT add
#     up to it to the ns, and the complete waits per domain agree.
#  C. The parts add up to WAIT on a trace with lost records too (two
#     stitched copies of the capture).
. "$(dirname "$0")/lib.sh"
[ -x "$GEN" ] || { echo "xentrace-gen not built (make tools)"; exit 1; }
fail=0
sums() {  # json: every behind list adds up to its runnable_s, to the ns
	python3 - "$1" <<'PY' || fail=1
import json, sys
j = json.load(open(sys.argv[1]))
bad = 0
for d in j["domains"]:
    if d["domid"] == 32767:
        assert "behind" not in d and "wait_latency" not in d, "the idle domain has wait sections"
        continue
    for o in [d] + d["vcpu"]:
        parts = sum(round(p["wait_s"] * 1e9) for p in o["behind"])
        if parts != round(o["runnable_s"] * 1e9):
            print("FAIL d%d %s: parts %d ns, WAIT %d ns" % (d["domid"], o.get("vcpu", "all"), parts,
                                                          round(o["runnable_s"] * 1e9)))
            bad = 1
        if o["runnable_s"] > 0 and abs(sum(p["share_pct"] for p in o["behind"]) - 100) > 0.01:
            print("FAIL d%d: shares add up to %s" % (d["domid"], sum(p["share_pct"] for p in o["behind"])))
            bad = 1
print("parts add up to WAIT in %d domains (and the idle domain has none)" % (len(j["domains"]) - 1))
sys.exit(bad)
PY
}

# --- A ---
cat >"$TMP/a.txt" <<'S'
cpu 0
rs 1000 2 0 2 1
rs 1001000 1 0 0 1
rs 1002000 2 0 1 0
rs 2002000 2 0 0 1
rs 2003000 1 0 1 0
rs 3003000 1 0 0 1
rs 3004000 2 0 1 0
cpu 1
rs 100000 3 0 2 1
rs 105000 32767 1 0 1
rs 106000 3 0 1 0
rs 200000 3 0 0 2
rs 200500 32767 1 1 0
cont 3500000 32767 1
cpu 2
rs 50000 4 0 2 1
S
"$GEN" "$TMP/a.bin" <"$TMP/a.txt"
"${XGTRACE[@]}" --cpu-hz 1G --behind -o csv "$TMP/a.bin" >"$TMP/a.csv"
cat >"$TMP/a.want" <<'W'
domid,vcpu,behind,wait_s,share_pct
1,all,2,0.001496000,99.7999
1,all,xen,0.000003000,0.2001
1,0,2,0.001496000,99.7999
1,0,xen,0.000003000,0.2001
2,all,1,0.002000000,99.8502
2,all,xen,0.000003000,0.1498
2,0,1,0.002000000,99.8502
2,0,xen,0.000003000,0.1498
3,all,idle,0.000005000,83.3333
3,all,xen,0.000001000,16.6667
3,0,idle,0.000005000,83.3333
3,0,xen,0.000001000,16.6667
4,all,xen,0.003450000,100.0000
4,0,xen,0.003450000,100.0000
W
if diff "$TMP/a.want" "$TMP/a.csv"; then echo "ok   A: exact parts"; else echo "FAIL A: parts differ (< want, > got)"; fail=1; fi
"${XGTRACE[@]}" --cpu-hz 1G --behind -o json "$TMP/a.bin" >"$TMP/a.json"
sums "$TMP/a.json"
python3 - "$TMP/a.json" <<'PY' || fail=1
import json, sys
d = {x["domid"]: x["wait_latency"] for x in json.load(open(sys.argv[1]))["domains"] if x["domid"] != 32767}
want = {1: 1, 2: 2, 3: 1, 4: 0}
got = {k: v["waits"] for k, v in d.items()}
assert got == want, ("complete waits", got, want)
# d2 waited 1.001 and 1.002 ms: the P50 lies in the 1/8-octave bucket holding them
assert 0.983 <= d[2]["p50_ms"] <= 1.0486, d[2]
assert d[4]["p50_ms"] is None
assert d[3]["log2_ns_hist"] == [{"k": 12, "from_ns": 4096, "n": 1}], d[3]
print("ok   A: complete waits %s, d2 P50 %.4f ms" % (got, d[2]["p50_ms"]))
PY
"${XGTRACE[@]}" --cpu-hz 1G --behind "$TMP/a.bin" | grep -q '^d1 .* d2 .* 99\.80$' || { echo "FAIL A: text"; fail=1; }
"${XGTRACE[@]}" --cpu-hz 1G "$TMP/a.bin" | grep -q '^d2 *2 ' || { echo "FAIL A: latency in the plain text output"; fail=1; }
if "${XGTRACE[@]}" --behind --xenalyze-compat "$TMP/a.bin" 2>"$TMP/err"; then echo "FAIL: --behind --xenalyze-compat accepted"; fail=1; fi
grep -q 'needs native accounting' "$TMP/err" || { echo "FAIL: no reason for refusing --behind --xenalyze-compat"; fail=1; }

# --- B and C: the real capture ---
F=$SHARED_DATA/xentrace-csched2-hvm/xentrace.bin
if [ ! -r "$F" ]; then
	[ $fail = 0 ] || exit 1
	echo "SKIP: $F absent (shared data folder not beside the repository): the reference comparison did not run"
	exit 77
fi
"${XGTRACE[@]}" --cpu-hz 2.4G --behind -o csv "$F" >"$TMP/b.csv"
"${XGTRACE[@]}" --cpu-hz 2.4G --behind -o json "$F" >"$TMP/b.json"
python3 "$ROOT/tests/trace/behind_reference.py" "$F" 2400000000 --compare "$TMP/b.csv" "$TMP/b.json" || fail=1
"$GEN" stitch "$F" 2 "$TMP/c.bin" || exit 1
"${XGTRACE[@]}" --cpu-hz 2.4G --behind -o json "$TMP/c.bin" >"$TMP/c.json"
python3 -c 'import json,sys; assert json.load(open(sys.argv[1]))["lost_records"] > 0' "$TMP/c.json" ||
	{ echo "FAIL C: the stitched trace has no lost records"; fail=1; }
sums "$TMP/c.json"
[ $fail = 0 ] && echo "PASS"
exit $fail
