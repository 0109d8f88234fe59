#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Oracle: on a real credit2 capture, xgtop trace --xenalyze-compat gives the
# same per-vCPU running/runnable/blocked counts and seconds as xenalyze
# --summary (within 0.5 % or 1 ms), and native mode accounts every vCPU for
# the whole span, with every state at least what xenalyze counts and no
# more than the time xenalyze leaves out (native_vs_xenalyze.py).
. "$(dirname "$0")/lib.sh"
need_xenalyze
F=$SHARED_DATA/xentrace-csched2-hvm/xentrace.bin
[ -r "$F" ] || { echo "SKIP: $F absent (shared data folder not beside the repository)"; exit 77; }
HZ=2400000000
set -e
xenalyze --summary --cpu-hz=$HZ "$F" >"$TMP/xa.txt" 2>"$TMP/xa.err"
"${XGTRACE[@]}" --cpu-hz $HZ --xenalyze-compat -o csv "$F" >"$TMP/compat.csv"
python3 "$ROOT/tests/trace/xenalyze_compare.py" "$TMP/xa.txt" "$TMP/compat.csv" $HZ
# The derived summary shipped with the data is what xenalyze printed too.
grep -q '^   running:     267  0.03s' "$SHARED_DATA/xentrace-csched2-hvm/derived/xenalyze-summary.debian-4.17.7.txt"
awk -F, '$1==0 && $2==0 {exit !($8==267)}' "$TMP/compat.csv"
# Native: within the documented differences from xenalyze, and each vCPU's
# states add up to the trace span (nothing unaccounted).
"${XGTRACE[@]}" --cpu-hz $HZ -o csv "$F" >"$TMP/native.csv"
python3 "$ROOT/tests/trace/native_vs_xenalyze.py" "$TMP/xa.txt" "$TMP/native.csv" $HZ
"${XGTRACE[@]}" --cpu-hz $HZ -o json "$F" >"$TMP/native.json"
python3 - "$TMP/native.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
span = j["span_s"]
for d in j["domains"]:
    for v in d["vcpu"]:
        tot = sum(v[k + "_s"] for k in ("running", "runnable", "blocked", "offline", "lost"))
        assert abs(tot - span) < 1e-6, (d["domid"], v["vcpu"], tot, span)
assert {d["domid"] for d in j["domains"]} == {0, 14, 32767}, j["domains"]
print("native: %d domains, every vCPU sums to the %.6f s span" % (len(j["domains"]), span))
PY
