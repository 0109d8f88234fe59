#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The /proc files xgtop keeps open between refreshes: a process that exits
# takes its kept files with it at the next refresh (no descriptor is left
# behind), and under a low RLIMIT_NOFILE xgtop keeps at most half of it and
# reads the rest by path, with the same figures: every sleeper is there,
# one thread, blocked.
. "$(dirname "$0")/common.sh"
n=200
spawn < <(for i in $(seq $n); do echo "s$i sleep 60"; done)
sleepers() { awk '{ print $2 }' "$tmp/pids"; }
fds() { ls "/proc/$1/fd" 2>/dev/null | wc -l; }

# (as many iterations as a slow machine may need: SIGTERM ends it)
./xgtop -b -o csv --source linux --group process --nocache -d 0.3 -n 1000 >"$tmp/out" 2>"$tmp/xgtop.err" &
xg=$!
pids+=($xg)
# Its first printed iteration comes after its second refresh: by then it
# has opened the files of every sleeper.
last=$(sleepers | tail -n 1)
shown() { grep -q "^[^,]*,[^,]*,$last," "$tmp/out"; }
wait_until 60 shown || fail "xgtop printed no iteration with the sleepers within 60 s: $(cat "$tmp/xgtop.err")"
with=$(fds $xg)
kill $(sleepers)
# Until a refresh after the exits has closed their files.
closed() { kill -0 $xg && [ $((with - $(fds $xg))) -ge $((3 * n)) ]; }
wait_until 30 closed
without=$(fds $xg)
kill -0 $xg || fail "xgtop exited before the check: $(cat "$tmp/xgtop.err")"
kill -TERM $xg
wait $xg || fail "xgtop: exit $?: $(cat "$tmp/xgtop.err")"
echo "xgtop's descriptors: $with with $n sleepers, $without after they exited"
# each sleeper kept at least its stat, statm and schedstat
[ $((with - without)) -ge $((3 * n)) ] ||
	fail "only $((with - without)) descriptors closed for $n exited processes within 30 s"

# The same with a limit of 100 descriptors (soft and hard): a budget of 50
: >"$tmp/pids"
spawn < <(for i in $(seq $n); do echo "s$i sleep 60"; done)
bash -c 'ulimit -n 100 && exec ./xgtop -b -o csv --source linux --group process --nocache -d 0.3 -n 6' \
	>"$tmp/low" 2>"$tmp/xgtop.err" &
xg=$!
pids+=($xg)
# The most it held at any time of its run (however long a loaded machine
# makes that run).
most=0
while kill -0 $xg 2>/dev/null; do
	now=$(fds $xg)
	[ "$now" -gt "$most" ] && most=$now
	sleep 0.05
done
wait $xg || fail "xgtop under ulimit -n 100: exit $?: $(cat "$tmp/xgtop.err")"
echo "under ulimit -n 100: $most descriptors open"
[ "$most" -le 70 ] || fail "$most descriptors open under a limit of 100 (budget 50, plus xgtop's own)"
check_csv "$tmp/low" $(sleepers) <<'PY' || exit 1
last = {}
for r in rows:
    if r.get("vcpu", "") == "":
        last[r["id"]] = r
bad = [p for p in ARGS if p not in last or last[p]["vcpus"] != "1" or last[p]["blk_pct"] == ""
       or float(last[p]["blk_pct"]) < 90]
if bad:
    sys.exit("FAIL: %d of %d sleepers missing or not one blocked thread, e.g. %s: %s" %
             (len(bad), len(ARGS), bad[0], last.get(bad[0])))
print("ok: all %d sleepers shown, one blocked thread each" % len(ARGS))
PY
