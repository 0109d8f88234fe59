#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The Prometheus source against a real Prometheus (Debian's, default
# settings, 1 s scrapes) on loopback, scraping two exporters this test
# starts (xgtop replaying two different recordings with --export):
#  1. every domain of both hosts in one table, HOST = the instance label,
#     every figure within 0.5 % of what the host's own xgtop shows (the
#     server's rates over the host's own sample clock); with -v, every
#     vCPU row too;
#  2. --filter and --host-match narrow the rows (pushed into the query);
#  3. one exporter killed: its rows stay, stale, and --explain says
#     "host H: last scrape HH:MM:SS, stale"; the figures' time is shown;
#  4. a query Prometheus refuses, then Prometheus stopped: each one line
#     that says what to do, exit non-zero.
cd "$(dirname "$0")/../.." || exit 2
. tests/remote/lib.sh
. tests/remote/promsrc_lib.sh
POOL_B_FLAGS="--vms --psi"
two_hosts prometheus
pp=$(free_port)
scrape_config "$TMP/prom.yml" "$ha" "$hb"
start_prometheus "$TMP" "$pp" "$TMP/prom.yml"
prom_pid=${pool_pids[-1]}
wait_until 30 seen_for "$pp" 5 || fail "Prometheus shows no 5 s of both hosts' scrapes within 30 s"
wait_until 60 figures_in "$pp" 16 || fail "no figures of both hosts' 16 domains"

# 1. One table of both hosts, each figure the host's own.
./xgtop --source prometheus "http://127.0.0.1:$pp" -b -o csv -n 2 -d 2 --sort cpu >"$TMP/prom.csv" ||
	fail "the Prometheus source failed"
./xgtop --replay "$TMP/a.xgrec" -b -o csv -n 3 --speed 0 >"$TMP/a.csv"
./xgtop --replay "$TMP/b.xgrec" -b -o csv -n 3 --speed 0 >"$TMP/b.csv"
check_table "$TMP/prom.csv" "$TMP/a.csv" "$TMP/b.csv" "$ha" "$hb" || fail "the Prometheus source's table (above)"
./xgtop --source prometheus "http://127.0.0.1:$pp" -b -o csv -n 2 -d 2 -v >"$TMP/promv.csv" ||
	fail "the Prometheus source failed with -v"
./xgtop --replay "$TMP/a.xgrec" -b -o csv -n 3 --speed 0 -v >"$TMP/av.csv"
./xgtop --replay "$TMP/b.xgrec" -b -o csv -n 3 --speed 0 -v >"$TMP/bv.csv"
check_vcpus "$TMP/promv.csv" "$TMP/av.csv" "$TMP/bv.csv" "$ha" "$hb" || fail "the vCPU rows (above)"

# 2. The filter and the host selector.
./xgtop --source prometheus "http://127.0.0.1:$pp" -b -o csv -n 1 --filter 'busy|net' >"$TMP/f.csv" ||
	fail "--filter failed"
names=$(tail -n +2 "$TMP/f.csv" | cut -d, -f3,5 | sort | tr '\n' ' ')
want=$(printf '%s\n' "$ha,busy-03" "$ha,net-04" "$hb,busy-03" "$hb,net-04" | sort | tr '\n' ' ')
[ "$names" = "$want" ] || fail "--filter 'busy|net' shows: $names; want $want"
./xgtop --source prometheus "http://127.0.0.1:$pp" -b -o csv -n 1 --host-match "127.0.0.1:$pb" >"$TMP/h.csv" ||
	fail "--host-match failed"
hosts=$(tail -n +2 "$TMP/h.csv" | cut -d, -f3 | sort -u | tr '\n' ' ')
[ "$hosts" = "$hb " ] || fail "--host-match 127.0.0.1:$pb shows hosts: $hosts"
[ "$(tail -n +2 "$TMP/h.csv" | wc -l)" = 5 ] || fail "--host-match: $(tail -n +2 "$TMP/h.csv" | wc -l) rows, want 5"
echo "--filter 'busy|net': 4 rows of 2 hosts; --host-match: host $hb's 5 rows"

# 3. A host killed: stale, and why.
kill -KILL "${pool_pids[1]}"
b_down() { ./xgtop --source prometheus "http://127.0.0.1:$pp" -b -n 1 --explain 2>/dev/null | grep -q "host $hb: last scrape [0-9:]*, stale"; }
wait_until 20 b_down || { ./xgtop --source prometheus "http://127.0.0.1:$pp" -b -n 1 --explain | tail; fail "--explain never said host $hb is stale"; }
./xgtop --source prometheus "http://127.0.0.1:$pp" -b -n 2 -d 2 -o json >"$TMP/stale.json" || fail "the source failed with a host down"
python3 - "$TMP/stale.json" "$ha" "$hb" <<'PY' || fail "stale host (above)"
import json, sys
l = [json.loads(x) for x in open(sys.argv[1])][-1]
ha, hb = sys.argv[2:]
a = [d for d in l["domains"] if d["host"] == ha]
b = [d for d in l["domains"] if d["host"] == hb]
assert len(a) == 11 and len(b) == 5, f"rows: {len(a)} of {ha}, {len(b)} of {hb}"
assert all(d.get("host_stale") for d in b) and not any(d.get("host_stale") for d in a), "stale marks"
assert all(d["cpu_pct"] is None and "stale" in d["why"]["cpu_pct"] for d in b), b[0]
assert all(d["cpu_pct"] is not None for d in a), "the live host lost its figures"
print("killed host: 5 rows kept, stale:", b[0]["why"]["cpu_pct"])
PY
./xgtop --source prometheus "http://127.0.0.1:$pp" -b -n 1 --explain | grep -q '^Source: prometheus (2 hosts, figures of [0-9:]* (' ||
	fail "--explain does not give the figures' time"

# A query the server refuses (a back-reference: POSIX has it, PromQL's RE2 not).
./xgtop --source prometheus "http://127.0.0.1:$pp" -b -n 1 --filter '(a)\1' >"$TMP/out" 2>"$TMP/err" &&
	fail "no error for a filter the server refuses"
[ "$(wc -l <"$TMP/err")" = 1 ] && grep -q 'refused the query.*regexp.*; check --filter and --host-match$' "$TMP/err" ||
	fail "refused query: $(cat "$TMP/err")"
echo "refused: $(cat "$TMP/err")"

# 4. The server down.
kill "$prom_pid"
wait "$prom_pid" 2>/dev/null
./xgtop --source prometheus "http://127.0.0.1:$pp" -b -n 1 >"$TMP/out" 2>"$TMP/err" && fail "no error with the server down"
[ "$(wc -l <"$TMP/err")" = 1 ] && grep -q "Prometheus at http://127.0.0.1:$pp: .*is the server up" "$TMP/err" ||
	fail "server down: $(cat "$TMP/err")"
echo "server down: $(cat "$TMP/err")"
exit 0
