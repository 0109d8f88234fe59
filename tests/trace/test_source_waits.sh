#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# `xgtop --source trace FILE` attributes waits as the live source does:
# its recording's wait totals ('w' lines) at the last window give, per
# domain, the attributed WAIT and the top culprits' seconds that
# `xgtop trace FILE --behind` gives for the whole capture (within 1 us a
# culprit: each window converts its own cycles), and the BEHIND column is
# measured in every window.
. "$(dirname "$0")/lib.sh"
F=$SHARED_DATA/xentrace-csched2-hvm/xentrace.bin
[ -r "$F" ] || { echo "SKIP: $F absent (shared data folder not beside the repository)"; exit 77; }
XG=$ROOT/xgtop
set -e
"$XG" --source trace "$F" --window 0.5 -b -o csv --speed 0 --record "$TMP/t.xgrec" >"$TMP/win.csv"
"${XGTRACE[@]}" "$F" --behind -o csv >"$TMP/behind.csv"
python3 - "$TMP/t.xgrec" "$TMP/behind.csv" "$TMP/win.csv" <<'PY'
import csv, gzip, sys
# Final 'w' values per domain: every column is a delta against the same
# domain's previous line (doc/recording.md); both domains are in every sample.
acc, cur = {}, None
for line in gzip.open(sys.argv[1], "rb").read().decode().split("\n"):
    c = line.split("\t")
    if c[0] == "d":
        cur = int(c[1])
    elif c[0] == "w":
        a = acc.setdefault(cur, [0] * 34)
        for i, x in enumerate(c[1:]):
            a[i] += int(x) if x else 0
ref = {}
for r in csv.DictReader(open(sys.argv[2])):
    if r["vcpu"] == "all":
        ref.setdefault(int(r["domid"]), {})[r["behind"]] = float(r["wait_s"])
assert set(acc) == {0, 14}, acc.keys()
for dom, a in acc.items():
    total, ntop = a[0], a[1]
    want = sum(ref[dom].values())
    assert abs(total / 1e9 - want) < 2e-6, (dom, total, want)
    assert 1 <= ntop <= 3, ntop
    for k in range(ntop):
        who, ns = a[2 + 2 * k], a[3 + 2 * k]
        name = {32767: "idle", 65536: "xen"}.get(who, str(who))
        assert abs(ns / 1e9 - ref[dom][name]) < 1e-6, (dom, name, ns, ref[dom][name])
    print("dom %d: WAIT %.9f s attributed (xgtop trace --behind: %.9f), top %s" %
          (dom, total / 1e9, want, ", ".join("%s" % {32767: "idle", 65536: "xen"}.get(a[2 + 2 * k], a[2 + 2 * k])
                                             for k in range(ntop))))
rows = [r for r in csv.DictReader(open(sys.argv[3])) if r["run_pct"]]
assert rows and all(r["behind"] for r in rows), "BEHIND '-' in some window"
PY
