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
run=$(csv_mean "$tmp/out" "$busy" run_pct)
wait=$(csv_mean "$tmp/out" "$busy" wait_pct)
blk=$(csv_mean "$tmp/out" "$busy" blk_pct)
cpu=$(csv_mean "$tmp/out" "$busy" cpu_pct)
# A shared 2-CPU CI host can steal CPU from the loop: it must still run a
# fair share, and whatever it does not run it waits for.
expect "busy RUN%" "$run" '>=' 15
expect "busy RUN%+WAIT%" "$(python3 -c "print($run + $wait)")" '>=' 85
expect "busy BLK%" "$blk" '<=' 15
expect "busy CPU% vs RUN%" "$(python3 -c "print(abs($cpu - $run))")" '<=' 10
expect "busy total %" "$(python3 -c "print($run + $wait + $blk)")" '>=' 97
s_run=$(csv_mean "$tmp/out" "$sleeper" run_pct)
s_blk=$(csv_mean "$tmp/out" "$sleeper" blk_pct)
s_cpu=$(csv_mean "$tmp/out" "$sleeper" cpu_pct)
expect "sleeper BLK%" "$s_blk" '>=' 97
expect "sleeper RUN%" "$s_run" '<=' 1
expect "sleeper CPU%" "$s_cpu" '<=' 1
# state letters: the loop is runnable now, the sleeper blocked
st_busy=$(awk -F, -v id="$busy" '$3 == id { s = $5 } END { print s }' "$tmp/out")
st_sleep=$(awk -F, -v id="$sleeper" '$3 == id { s = $5 } END { print s }' "$tmp/out")
[ "$st_busy" = "-----r" ] || fail "busy state '$st_busy', want -----r"
[ "$st_sleep" = "--b---" ] || fail "sleeper state '$st_sleep', want --b---"
echo "ok: states $st_busy / $st_sleep"
