#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Process mode: a busy loop is runnable all the time (RUN%, or WAIT% when
# the host is crowded, never BLK%), a sleeper is blocked all the time, and
# RUN% + WAIT% + BLK% covers the whole thread-time of each.
. "$(dirname "$0")/common.sh"
spawn <<'W'
busy bash -c 'while :; do :; done'
sleeper sleep 60
W
busy=$(pid_of busy) sleeper=$(pid_of sleeper)
xg_csv "$tmp/out" --group process -n 3 -d 1
for id in "$busy" "$sleeper"; do
	grep -q "^[^,]*,[^,]*,$id," "$tmp/out" || fail "domain $id missing from: $(cut -d, -f3,4 "$tmp/out" | sort -u | tr '\n' ' ')"
done
check_csv "$tmp/out" "$busy" "$sleeper" <<'PY' || exit 1
busy, sleeper = ARGS
run, wait, blk, cpu = (mean(busy, k) for k in ("run_pct", "wait_pct", "blk_pct", "cpu_pct"))
# A shared 2-CPU CI host can take CPU from the loop: it must still run a
# fair share, and whatever it does not run it waits for (a wait still going
# on at a sample shows as blocked once, see doc/linux-source.md).
expect("busy RUN%", run, ">=", 15)
expect("busy RUN%+WAIT%", run + wait, ">=", 85)
expect("busy BLK%", blk, "<=", 15)
expect("busy |CPU% - RUN%|", abs(cpu - run), "<=", 10)
expect("busy RUN%+WAIT%+BLK%", run + wait + blk, ">=", 97)
expect("sleeper BLK%", mean(sleeper, "blk_pct"), ">=", 97)
expect("sleeper RUN%", mean(sleeper, "run_pct"), "<=", 1)
expect("sleeper CPU%", mean(sleeper, "cpu_pct"), "<=", 1)
# state letters at the last sample: the loop is runnable, the sleeper not
state = {r["id"]: r["state"] for r in rows if r.get("vcpu", "") == ""}
if state.get(busy) != "-----r" or state.get(sleeper) != "--b---":
    sys.exit("FAIL: states %r / %r, want -----r / --b---" % (state.get(busy), state.get(sleeper)))
print("ok: states -----r / --b---")
PY
