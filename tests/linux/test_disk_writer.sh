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
wait_until 30 test -s "$tmp/chunks" || fail "the writer wrote no chunk within 30 s"
c0=$(wc -l <"$tmp/chunks"); t0=$(date +%s.%N)
xg_csv "$tmp/out" --group process -n 4 -d 1
c1=$(wc -l <"$tmp/chunks"); t1=$(date +%s.%N)
# what the writer itself says it wrote per second over the same span
check_csv "$tmp/out" "$w" "$c0" "$c1" "$t0" "$t1" <<'PY' || exit 1
w = ARGS[0]
c0, c1, t0, t1 = (float(x) for x in ARGS[1:])
ref = (c1 - c0) * 4 * 1048576 / (t1 - t0)
got = mean(w, "disk_wr_bps")
print("writer: %.0f bytes/s by its own count, xgtop says %.0f" % (ref, got))
expect("writer rate (MiB/s)", ref / 1048576, ">=", 0.5)
expect("DISK-WR/s / real rate", got / ref, ">=", 0.6)
expect("DISK-WR/s / real rate", got / ref, "<=", 1.5)
# request counts are not per process: the column is empty, never 0
ops = {r["disk_wr_iops"] for r in rows if r["id"] == w}
if ops != {""}:
    sys.exit("FAIL: disk_wr_iops should be empty (not measured) in process mode, got %r" % ops)
print("ok: disk_wr_iops empty in process mode")
PY
