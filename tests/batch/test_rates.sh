#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# `-n 1` must already print real rates: a process spinning on a CPU shows
# a CPU% near 100, not 0 or `-`.
. "$(dirname "$0")/common.sh"
bash -c 'while :; do :; done' &
busy=$!
trap 'kill $busy 2>/dev/null; rm -rf "$tmp"' EXIT
sleep 0.2
./xgtop -b -n 1 -d 0.5 -o csv --group process >"$tmp/out" 2>"$tmp/err" ||
	fail "exit $?: $(cat "$tmp/err")"
python3 - "$tmp/out" "$busy" <<'PY' || exit 1
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], encoding="utf-8", newline="")))
busy = [r for r in rows if r["id"] == sys.argv[2]]
assert busy, "the busy process %s is not listed" % sys.argv[2]
cpu = busy[0]["cpu_pct"]
assert cpu != "", "CPU% of the busy process is not measured on the first iteration"
assert float(cpu) > 50, "CPU% of a process spinning on a CPU is %s" % cpu
assert float(busy[0]["interval_s"]) > 0.3, busy[0]["interval_s"]
print("ok: busy process at %s%% CPU on -n 1" % cpu)
PY
