#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The Prometheus source against a real VictoriaMetrics (Debian's single
# node, default settings, scraping itself every 1 s) on loopback, with two
# exporters this test starts:
#  1. every domain of both hosts, HOST = the instance label, every figure
#     within 0.5 % of the host's own xgtop's; with -v, every vCPU row too;
#  2. VictoriaMetrics answers as of 30 s ago (-search.latencyOffset):
#     --explain gives the figures' time that far back, not the answer's
#     own time stamp, and no host is taken for stale;
#  3. a query it refuses, then VictoriaMetrics stopped: each one line that
#     says what to do, exit non-zero.
cd "$(dirname "$0")/../.." || exit 2
. tests/remote/lib.sh
. tests/remote/promsrc_lib.sh
POOL_B_FLAGS="--vms --psi"
two_hosts victoria-metrics
pv=$(free_port)
scrape_config "$TMP/vm.yml" "$ha" "$hb"
start_victoria "$TMP" "$pv" "$TMP/vm.yml"
vm_pid=${pool_pids[-1]}
# Its answers leave out the last 30 s: the first figures come after that.
wait_until 60 seen_for "$pv" 8 || fail "VictoriaMetrics shows no 8 s of both hosts' scrapes within 60 s"
wait_until 60 figures_in "$pv" 16 || fail "no figures of both hosts' 16 domains"

# 1. The hosts' own figures.
./xgtop --source prometheus "http://127.0.0.1:$pv" -b -o csv -n 2 -d 2 --sort cpu >"$TMP/vm.csv" ||
	fail "the Prometheus source failed on VictoriaMetrics"
./xgtop --replay "$TMP/a.xgrec" -b -o csv -n 3 --speed 0 >"$TMP/a.csv"
./xgtop --replay "$TMP/b.xgrec" -b -o csv -n 3 --speed 0 >"$TMP/b.csv"
check_table "$TMP/vm.csv" "$TMP/a.csv" "$TMP/b.csv" "$ha" "$hb" || fail "the table from VictoriaMetrics (above)"
./xgtop --source prometheus "http://127.0.0.1:$pv" -b -o csv -n 2 -d 2 -v >"$TMP/vmv.csv" ||
	fail "the Prometheus source failed with -v"
./xgtop --replay "$TMP/a.xgrec" -b -o csv -n 3 --speed 0 -v >"$TMP/av.csv"
./xgtop --replay "$TMP/b.xgrec" -b -o csv -n 3 --speed 0 -v >"$TMP/bv.csv"
check_vcpus "$TMP/vmv.csv" "$TMP/av.csv" "$TMP/bv.csv" "$ha" "$hb" || fail "the vCPU rows (above)"

# 2. The time the figures are of.
./xgtop --source prometheus "http://127.0.0.1:$pv" -b -n 1 --explain >"$TMP/explain" || fail "--explain failed"
ago=$(sed -n 's/^Source: prometheus (2 hosts, figures of [0-9:]* (\([0-9]*\) s ago).*/\1/p' "$TMP/explain")
[ -n "$ago" ] && [ "$ago" -ge 25 ] && [ "$ago" -le 45 ] ||
	fail "the figures' time is not VictoriaMetrics' 30 s back: $(head -1 "$TMP/explain")"
grep -q stale "$TMP/explain" && fail "a host taken for stale: $(grep stale "$TMP/explain")"
echo "figures of $ago s ago: $(head -1 "$TMP/explain")"

# A query the server refuses (a back-reference: POSIX has it, PromQL's RE2 not).
./xgtop --source prometheus "http://127.0.0.1:$pv" -b -n 1 --filter '(a)\1' >"$TMP/out" 2>"$TMP/err" &&
	fail "no error for a filter the server refuses"
[ "$(wc -l <"$TMP/err")" = 1 ] && grep -q 'refused the query.*regexp.*; check --filter and --host-match$' "$TMP/err" ||
	fail "refused query: $(cat "$TMP/err")"
echo "refused: $(cat "$TMP/err")"

# 3. The server down.
kill "$vm_pid"
wait "$vm_pid" 2>/dev/null
./xgtop --source prometheus "http://127.0.0.1:$pv" -b -n 1 >"$TMP/out" 2>"$TMP/err" && fail "no error with the server down"
[ "$(wc -l <"$TMP/err")" = 1 ] && grep -q "Prometheus at http://127.0.0.1:$pv: .*is the server up" "$TMP/err" ||
	fail "server down: $(cat "$TMP/err")"
echo "server down: $(cat "$TMP/err")"
exit 0
