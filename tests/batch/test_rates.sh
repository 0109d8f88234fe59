#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# `-n 1` must already print real rates: a process spinning on a CPU shows
# a CPU% near 100, not 0 or `-`. CI machines are shared with the rest of
# the suite (load 4-8 on 2 cores seen), so the floor is a fair share of
# one CPU under that load, 10 %.
. "$(dirname "$0")/common.sh"
command -v setsid >/dev/null || { echo "SKIP: setsid (util-linux) is needed"; exit 77; }
# Detached (a child of init, its own session), so that the process grouping
# lists it under its own pid.
setsid -f bash -c 'echo $$ >"$0"; while :; do :; done' "$tmp/pid"
wait_until 30 test -s "$tmp/pid"
busy=$(cat "$tmp/pid") || fail "the busy loop did not start within 30 s"
trap 'kill $busy 2>/dev/null; rm -rf "$tmp"' EXIT
sleep 0.2
./xgtop -b -n 1 -d 0.5 -o csv --group process >"$tmp/out" 2>"$tmp/err" ||
	fail "exit $?: $(cat "$tmp/err")"
python3 - "$tmp/out" "$busy" <<'PY' || exit 1
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], encoding="utf-8", newline="")))
assert rows, "no rows"
assert all(float(r["interval_s"]) > 0.3 for r in rows), "interval_s: %s" % rows[0]["interval_s"]
busy = [r for r in rows if r["id"] == sys.argv[2]]
if not busy:
    # grouped under another leader: its group must still show the load
    busy = sorted((r for r in rows if r["cpu_pct"]), key=lambda r: -float(r["cpu_pct"]))[:1]
    assert busy, "no row has a CPU% on the first iteration"
cpu = busy[0]["cpu_pct"]
assert cpu != "", "CPU% of the busy process is not measured on the first iteration"
assert float(cpu) > 10, "CPU%% of a process spinning on a CPU is %s" % cpu
print("ok: %s (id %s) at %s%% CPU on -n 1" % (busy[0]["name"], busy[0]["id"], cpu))
PY
