#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A writer that keeps writing 4 MiB chunks with O_DIRECT (or fsync where
# the file system has no O_DIRECT) shows about the rate it really writes in
# DISK-WR/s (/proc/PID/io write_bytes in process mode, children included).
. "$(dirname "$0")/common.sh"
f=/var/tmp/xgtop-linux-test.$$.data
flag=oflag=direct
dd if=/dev/zero of="$f" bs=1M count=1 oflag=direct status=none 2>/dev/null || flag=conv=fsync
spawn <<W
writer bash -c 'while :; do dd if=/dev/zero of=$f bs=1M count=4 $flag conv=notrunc status=none; echo >>$tmp/chunks; sleep 0.1; done'
W
w=$(pid_of writer)
sleep 0.5
c0=$(wc -l <"$tmp/chunks"); t0=$(date +%s.%N)
xg_csv "$tmp/out" --group process -n 4 -d 1
c1=$(wc -l <"$tmp/chunks"); t1=$(date +%s.%N)
# what the writer itself says it wrote per second over the same span
ref=$(python3 -c "print(($c1 - $c0) * 4 * 1048576 / ($t1 - $t0))")
got=$(python3 - "$tmp/out" "$w" <<'PY'
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1], newline="")) if r["id"] == sys.argv[2]]
vals = [float(r["disk_wr_bps"]) for r in rows if r["disk_wr_bps"] != ""]
print("%.0f" % (sum(vals) / len(vals)) if vals else "missing")
PY
)
echo "writer: $ref bytes/s by its own count, xgtop says $got"
expect "writer rate (MiB/s)" "$(python3 -c "print($ref / 1048576)")" '>=' 0.5
expect "DISK-WR/s / real rate" "$(python3 -c "print($got / $ref)")" '>=' 0.6
expect "DISK-WR/s / real rate" "$(python3 -c "print($got / $ref)")" '<=' 1.5
# request counts are not per process: the column is empty, never 0
ops=$(awk -F, -v id="$w" 'NR == 1 { for (i = 1; i <= NF; i++) k[$i] = i } $3 == id { print $k["disk_wr_iops"] }' "$tmp/out" | sort -u)
[ -z "$ops" ] || fail "disk_wr_iops should be empty (not measured) in process mode, got '$ops'"
echo "ok: disk_wr_iops empty in process mode"
