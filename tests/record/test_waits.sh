#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Wait totals in recordings (format 1.7 'w' lines): xgtop re-records a
# replay's totals byte for byte; --explain and xgtop report give the
# numbers behind BEHIND (culprits, seconds, shares) that xgtop-gen --waits
# scripted (doc/recording.md); and the same recording rewritten as format
# 1.6 (no 'w' lines) replays with the totals '-' and the reason.
. "$(dirname "$0")/lib.sh"

"$gen" --domains 12 --samples 11 --steady --waits "$d/w.xgrec" || exit 1
zcat "$d/w.xgrec" | head -n 1 | grep -q $'^xgtop-recording\t1\t7\t' || { echo "FAIL: not format 1.7"; exit 1; }
./xgtop -b --replay "$d/w.xgrec" --speed 0 --record "$d/again.xgrec" -o csv >/dev/null || { echo "FAIL: re-record"; exit 1; }
cmp -s <(zcat "$d/w.xgrec" | grep '^w') <(zcat "$d/again.xgrec" | grep '^w') ||
	{ echo "FAIL: the re-recorded 'w' lines differ"; exit 1; }
echo "re-recorded: $(zcat "$d/again.xgrec" | grep -c '^w') 'w' lines, the same bytes"

# cache-05: 2 vCPUs waiting 1 % of each second, 20 ms a second.
./xgtop -b --replay "$d/w.xgrec" --speed 0 --explain >"$d/explain" || { echo "FAIL: --explain"; exit 1; }
grep -A2 '^  5 cache-05$' "$d/explain" >"$d/c5"
grep -qx '      in the interval: WAIT 0.020000 s: sched-06 40.0 % 0.008000 s, nocache-07 25.0 % 0.005000 s, idle 15.0 % 0.003000 s, other 20.0 % 0.004000 s' "$d/c5" ||
	{ echo "FAIL: --explain, cache-05's interval:"; cat "$d/c5"; exit 1; }
# (--explain takes two samples: the totals began with the first)
grep -qx '      since the source began: WAIT 0.020000 s: sched-06 40.0 % 0.008000 s, nocache-07 25.0 % 0.005000 s, idle 15.0 % 0.003000 s, other 20.0 % 0.004000 s' "$d/c5" ||
	{ echo "FAIL: --explain, cache-05 since the start:"; cat "$d/c5"; exit 1; }

./xgtop report --replay "$d/w.xgrec" >"$d/report" || { echo "FAIL: report"; exit 1; }
grep -qE '^ +5 cache-05 +BEHIND +over 0\.200 s of WAIT: sched-06 40\.0 % 0\.080 s, nocache-07 25\.0 % 0\.050 s, idle 15\.0 % 0\.030 s, other 20\.0 % 0\.040 s$' "$d/report" ||
	{ echo "FAIL: report's BEHIND line for cache-05:"; grep cache-05 "$d/report" | tail -n 2; exit 1; }
./xgtop report --replay "$d/w.xgrec" -o json | python3 -c '
import json, sys
doms = {x["name"]: x for x in json.load(sys.stdin)["domains"]}
b = doms["cache-05"]["behind"]
parts = {p["behind"]: p for p in b["parts"]}
assert abs(b["wait_s"] - 0.2) < 1e-9, b
assert abs(sum(p["wait_s"] for p in b["parts"]) - b["wait_s"]) < 1e-8, b
assert parts["sched-06"]["share_pct"] == 40.0 and parts["other"]["share_pct"] == 20.0, b
' || { echo "FAIL: report JSON behind"; exit 1; }

# The same samples as format 1.6: header minor 6, no 'w' lines, the end
# lines' checksums recomputed.
python3 - "$d/w.xgrec" "$d/old.xgrec" <<'PY' || exit 1
import gzip, sys, zlib
out, crc = [], None
for line in gzip.open(sys.argv[1], "rb").read().split(b"\n")[:-1]:
    if line.startswith(b"xgtop-recording\t"):
        line = line.replace(b"\t1\t7\t", b"\t1\t6\t", 1)
    if line.startswith(b"w\t") or line == b"w":
        continue
    if line.startswith(b"S\t"):
        crc = 0
    if line.startswith(b"E\t"):
        line = b"E\t%08x" % crc
        crc = None
    elif crc is not None:
        crc = zlib.crc32(line + b"\n", crc)
    out.append(line)
gzip.open(sys.argv[2], "wb").write(b"\n".join(out) + b"\n")
PY
./xgtop -b --replay "$d/old.xgrec" --speed 0 --explain >"$d/old" || { echo "FAIL: replay of the 1.6 file"; exit 1; }
grep -A1 '^  5 cache-05$' "$d/old" | grep -qx '      - not in this recording (format 1.6)' ||
	{ echo "FAIL: no reason for the 1.6 recording:"; sed -n '/^Behind/,$p' "$d/old" | head; exit 1; }
echo "--explain and report: cache-05 40 % behind sched-06 (0.080 s of 0.200 s); format 1.6: '-', not in this recording"
