#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The Prometheus source at a past time (--at), against a real Prometheus
# (its data made by promtool tsdb create-blocks-from openmetrics) and a
# real VictoriaMetrics (its /api/v1/import/prometheus), each holding two
# hours that end an hour ago of known series (tests/remote/past_data.py):
#  1. --at as Unix seconds, RFC 3339 and relative: batch CSV has the
#     figures of that time (web-01 25 % and 1 GiB in the first hour, 75 %
#     and 2 GiB in the second; db-02 50 %), and its time column is that
#     time;
#  2. a bad --at, and --at with another source: one line, exit 2.
cd "$(dirname "$0")/../.." || exit 2
. tests/remote/lib.sh
. tests/remote/promsrc_lib.sh
[ -x ./xgtop ] || { echo "SKIP: build xgtop first (make)"; exit 77; }
for t in curl python3 prometheus promtool victoria-metrics; do
	command -v $t >/dev/null || { echo "SKIP: $t is not installed (make deps)"; exit 77; }
done
TMP=$(mktemp -d)
trap 'pool_cleanup; rm -rf "$TMP"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
end=$(( $(date +%s) / 60 * 60 - 3600 ))
python3 tests/remote/past_data.py openmetrics "$end" >"$TMP/om.txt" || fail "past_data.py failed"
promtool tsdb create-blocks-from openmetrics "$TMP/om.txt" "$TMP/prom-data" >"$TMP/promtool.log" 2>&1 ||
	fail "promtool could not make blocks: $(tail -2 "$TMP/promtool.log")"
printf 'global:\n  scrape_interval: 15s\n' >"$TMP/prom.yml"
pp=$(free_port)
start_prometheus "$TMP" "$pp" "$TMP/prom.yml"
pv=$(free_port)
printf 'scrape_configs: []\n' >"$TMP/vm.yml"
start_victoria "$TMP" "$pv" "$TMP/vm.yml"
python3 tests/remote/past_data.py prometheus "$end" |
	curl -sf --data-binary @- "http://127.0.0.1:$pv/api/v1/import/prometheus" || fail "VictoriaMetrics refused the import"
curl -sf "http://127.0.0.1:$pv/internal/force_flush" >/dev/null
# past_rows PORT AT: the CSV's last refresh at --at AT.
past_rows() {
	./xgtop --source prometheus "http://127.0.0.1:$1" --at "$2" -b -o csv -n 2 -d 0.5 2>"$TMP/err" | tail -n 2
}
vm_has() { [ "$(past_rows "$pv" "$((end - 600))" | wc -l)" = 2 ]; }
wait_until 30 vm_has || fail "VictoriaMetrics shows no imported domains within 30 s: $(cat "$TMP/err")"

# check PORT AT WHEN CPU_WEB MEM_WEB: both rows as known at that time.
check() {
	past_rows "$1" "$2" >"$TMP/rows" || fail "--at $2 on port $1: $(cat "$TMP/err")"
	python3 - "$TMP/rows" "$3" "$4" "$5" <<'PY' || fail "--at $2 on port $1 (above)"
import csv, sys
rows = {r[4]: r for r in csv.reader(open(sys.argv[1]))}
when, cpu, mem = sys.argv[2:]
assert set(rows) == {"web-01", "db-02"}, f"rows {sorted(rows)}"
for name, want_cpu, want_mem in (("web-01", cpu, mem), ("db-02", "50.000", "536870912")):
    r = rows[name]
    assert r[0] == when, f"{name}: time {r[0]}, want {when}"
    assert r[2] == "10.9.9.1:9717", f"{name}: host {r[2]}"
    assert r[6] == want_cpu and r[9] == want_mem, f"{name}: CPU% {r[6]} MEM {r[9]}, want {want_cpu} {want_mem}"
print(f"{when}: web-01 {rows['web-01'][6]} % {rows['web-01'][9]} B, db-02 {rows['db-02'][6]} %")
PY
}
iso() { date -u -d "@$1" +%Y-%m-%dT%H:%M:%S; }
t1=$((end - 5400)) t2=$((end - 1200))
for port in "$pp" "$pv"; do
	check "$port" "$t1" "$(iso "$t1").000Z" 25.000 1073741824
	check "$port" "$(iso "$t2")Z" "$(iso "$t2").000Z" 75.000 2147483648
	# Relative: 80 minutes ago is in the second hour, well inside it.
	past_rows "$port" -80m >"$TMP/rows" || fail "--at -80m: $(cat "$TMP/err")"
	grep -q ',web-01,-----r,75.000,' "$TMP/rows" || fail "--at -80m on port $port: $(cat "$TMP/rows")"
done

# 2. Bad values.
for bad in yesterday 2026-13-01T00:00:00Z -5x "$(( $(date +%s) + 86400 ))"; do
	./xgtop --source prometheus "http://127.0.0.1:$pp" --at "$bad" -b -n 1 >/dev/null 2>"$TMP/err" &&
		fail "--at $bad accepted"
	[ $? = 2 ] && head -1 "$TMP/err" | grep -q -- "^xgtop: --at '$bad': give a past time" ||
		fail "--at $bad: $(cat "$TMP/err")"
done
./xgtop --at -1h -b -n 1 >/dev/null 2>"$TMP/err" && fail "--at accepted with --source auto"
head -1 "$TMP/err" | grep -q -- '^xgtop: --at goes with --source prometheus URL' || fail "--at alone: $(cat "$TMP/err")"
echo "refused: $(head -1 "$TMP/err")"
exit 0
