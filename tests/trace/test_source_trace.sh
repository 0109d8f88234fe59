#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# `xgtop --source trace FILE --window S -b -o csv`: one row per domain per
# window, RUN+WAIT+BLK+OFF = 100 % of the vCPU time of each window, and the
# last cumulative CPU time equals what `xgtop trace` sums over the file.
. "$(dirname "$0")/lib.sh"
F=$SHARED_DATA/xentrace-csched2-hvm/xentrace.bin
[ -r "$F" ] || { echo "SKIP: $F absent (shared data folder not beside the repository)"; exit 77; }
[ -x "${XGTOP:-$ROOT/xgtop}" ] || { echo "SKIP: ./xgtop not built"; exit 77; }
XG=${XGTOP:-$ROOT/xgtop}
set -e
"$XG" --source trace "$F" --window 0.5 -b -o csv --speed 0 >"$TMP/win.csv"
"${XGTRACE[@]}" -o json "$F" >"$TMP/sum.json"
python3 - "$TMP/win.csv" "$TMP/sum.json" <<'PY'
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1])))
tot = json.load(open(sys.argv[2]))
doms = {d["domid"]: d for d in tot["domains"]}
assert {int(r["id"]) for r in rows} == {0, 14}, "domains (idle excluded)"
windows = [r for r in rows if r["run_pct"]]
assert len(windows) == 12, "6 windows x 2 domains, got %d" % len(windows)
for r in windows:
    s = sum(float(r[k]) for k in ("run_pct", "wait_pct", "blk_pct", "off_pct"))
    assert abs(s - 100) < 0.01, (r["id"], s)
last = {int(r["id"]): float(r["cpu_s"]) for r in rows}
for d in (0, 14):
    assert abs(last[d] - doms[d]["running_s"]) < 2e-6, (d, last[d], doms[d]["running_s"])
print("12 windows; percentages add to 100; cumulative CPU matches xgtop trace:", last)
PY
