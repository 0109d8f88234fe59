#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The pool view against exporters this test starts (xgtop replaying two
# different recordings with --export on loopback ports):
#  1. both hosts' domains in one table, sorted across hosts, every figure
#     equal to what the host's own xgtop shows for that domain (rates come
#     from the counters, over the host's own sample interval);
#  2. --hosts FILE names the hosts; --record keeps the HOST column;
#  3. one exporter killed mid-run: its rows stay, marked stale with the
#     reason, while the other host's rows keep updating; three hosts that
#     accept connections and never answer cost the refresh one time limit
#     (half the interval), not one each.
cd "$(dirname "$0")/../.." || exit 2
. tests/remote/lib.sh
two_hosts

# 1. One table, sorted across hosts, the hosts' own figures.
./xgtop --source remote "http://$ha,http://$hb" -b -o csv -n 2 -d 0.5 --sort cpu >"$TMP/pool.csv" ||
	fail "the pool view failed"
./xgtop --replay "$TMP/a.xgrec" -b -o csv -n 3 --speed 0 >"$TMP/a.csv"
./xgtop --replay "$TMP/b.xgrec" -b -o csv -n 3 --speed 0 >"$TMP/b.csv"
python3 - "$TMP" "$ha" "$hb" <<'EOF' || fail "pool table (above)"
import csv, sys
tmp, ha, hb = sys.argv[1:]
def load(p):
    return list(csv.DictReader(open(p, newline="")))
pool = load(f"{tmp}/pool.csv")
local = {ha: load(f"{tmp}/a.csv"), hb: load(f"{tmp}/b.csv")}
last = {h: {r["name"]: r for r in rows if r["time"] == rows[-1]["time"]} for h, rows in local.items()}
iters = sorted({r["time"] for r in pool})
assert len(iters) == 2, f"{len(iters)} refreshes printed, want 2"
checked = 0
for t in iters:
    rows = [r for r in pool if r["time"] == t]
    hosts = [r["host"] for r in rows]
    want = {ha: len(last[ha]), hb: len(last[hb])}
    got = {h: hosts.count(h) for h in want}
    assert got == want and len(rows) == sum(want.values()), f"rows per host {got}, want {want} ({set(hosts)})"
    cpu = [float(r["cpu_pct"]) for r in rows]
    assert cpu == sorted(cpu, reverse=True), f"not sorted by CPU% across hosts: {cpu}"
    assert {hosts[0], hosts[1]} == {ha, hb}, f"the busiest domain of each host should lead: {hosts[:4]}"
    for r in rows:
        mine = last[r["host"]].get(r["name"])
        assert mine, f"{r['host']} {r['name']}: not in that host's own view"
        for k, v in r.items():
            if k in ("time", "interval_s", "host", "cpu_s") or v == "" or mine.get(k, "") == "":
                continue
            a, b = (float(v), float(mine[k])) if k not in ("name", "state") else (v, mine[k])
            ok = a == b if isinstance(a, str) else abs(a - b) <= 1e-6 * max(1.0, abs(b))
            assert ok, f"{r['host']} {r['name']} {k}: pool {v}, the host's own view {mine[k]}"
            checked += 1
print(f"one table: {len(rows)} rows of 2 hosts sorted by CPU%, {checked} figures equal the hosts' own")
EOF

# 2. A hosts file names the hosts; a recording of the pool replays with them.
printf '# the test pool\nhttp://%s/metrics alpha\n\n%s beta   # no scheme, default path\n' "$ha" "$hb" >"$TMP/hosts"
./xgtop --hosts "$TMP/hosts" -b -n 2 -d 0.5 --sort name --record "$TMP/pool.xgrec" >"$TMP/named.txt" ||
	fail "--hosts failed"
grep -q '^HOST ' "$TMP/named.txt" || fail "no HOST column in the pool's text output"
for h in alpha beta; do
	grep -q "^$h  *[0-9]" "$TMP/named.txt" || fail "host $h not shown: $(head -20 "$TMP/named.txt")"
done
./xgtop --replay "$TMP/pool.xgrec" -b -n 1 --speed 0 --sort name | grep -c '^\(alpha\|beta\) ' >"$TMP/n" || true
[ "$(cat "$TMP/n")" = 16 ] || fail "the replayed pool recording shows $(cat "$TMP/n") rows with their host, want 16"
./xgtop --replay "$TMP/pool.xgrec" -b -n 1 --speed 0 | grep -q '^HOST ' || fail "replay lost the HOST column"
echo "--hosts: alpha and beta named; the recording replays 16 rows with their host"

# 3. A host killed mid-run; three hosts that never answer.
mutes=""
for _ in 1 2 3; do
	p=$(free_port) && start_mute "$p" && mutes="$mutes,http://127.0.0.1:$p"
done
kill_b=${pool_pids[1]}
./xgtop --source remote "http://$ha,http://$hb$mutes" -b -o json -n 8 -d 0.5 >"$TMP/run.json" 2>"$TMP/run.err" &
pool=$!
# (the host to kill is seen answering first; the checks look at the last
# three refreshes, after the kill)
three() { [ "$(wc -l <"$TMP/run.json")" -ge 3 ]; }
wait_until 30 three || { cat "$TMP/run.err"; fail "the pool view printed no 3 refreshes within 30 s"; }
kill -KILL "$kill_b"
wait "$pool" || { cat "$TMP/run.err"; fail "the pool view failed after a host died"; }
python3 - "$TMP/run.json" "$ha" "$hb" <<'EOF' || fail "host killed (above)"
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
ha, hb = sys.argv[2:]
assert len(lines) == 8, f"{len(lines)} refreshes, want 8"
for i, l in enumerate(lines):
    # 0.5 s interval + at most one 0.25 s time limit; serial waits would
    # take 0.75 s for the three silent hosts alone.
    assert l["interval_s"] < 0.95, f"refresh {i}: {l['interval_s']:.3f} s between samples"
after = lines[-3:]
cpu_s = []
for l in after:
    a = [d for d in l["domains"] if d["host"] == ha]
    b = [d for d in l["domains"] if d["host"] == hb]
    assert len(a) == 11 and len(b) == 5, f"rows: {len(a)} of {ha}, {len(b)} of {hb}"
    assert all(d.get("host_stale") for d in b), "the killed host's rows are not marked stale"
    assert all(d["cpu_pct"] is None and "no answer" in d["why"]["cpu_pct"] for d in b), \
        f"the killed host's rates: {b[0]['cpu_pct']} {b[0]['why']}"
    assert not any(d.get("host_stale") for d in a) and all(d["cpu_pct"] is not None for d in a), \
        "the live host's rows stopped updating"
    cpu_s.append(sum(d["cpu_s"] for d in a))
assert cpu_s[0] < cpu_s[1] < cpu_s[2], f"the live host's counters do not move: {cpu_s}"
print("killed host: 5 rows kept, stale, with the reason;", b[0]["why"]["cpu_pct"])
print(f"live host: 11 rows updating; intervals {min(l['interval_s'] for l in lines):.3f}..{max(l['interval_s'] for l in lines):.3f} s with 3 silent hosts")
EOF
exit 0
