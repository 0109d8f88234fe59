#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The Prometheus source's past times and graphs in the full-screen view,
# against a real Prometheus (blocks made by promtool) and a real
# VictoriaMetrics (its import API), each holding two hours, ending an hour
# ago, of known series (tests/remote/past_data.py; web-01 at 25 % CPU in
# the first hour, 75 % in the second): started with --at, line 1 says
# NOT LIVE and the time; Left moves it back by the zoom's step (1 min at
# 5m); the detail pane's graphs come from range queries: at 5m the CPU%
# graph holds 75 % only, after z (1h) it reaches back into the 25 % hour;
# L returns to live; with the server gone, a move says so and the view
# stays live.
. "$(dirname "$0")/lib.sh"
. "$ROOT/tests/remote/lib.sh"
. "$ROOT/tests/remote/promsrc_lib.sh"
for t in curl prometheus promtool victoria-metrics python3; do
	command -v $t >/dev/null || skip "$t is not installed (make deps)"
done
trap 'pool_cleanup; cleanup' EXIT
end=$(( $(date +%s) / 60 * 60 - 3600 ))
# The series go on up to now, so that L finds live figures.
now=$(date +%s)
python3 "$ROOT/tests/remote/past_data.py" openmetrics "$end" "$now" >"$TMP/om.txt" || fail "past_data.py failed"
promtool tsdb create-blocks-from openmetrics "$TMP/om.txt" "$TMP/prom-data" >"$TMP/promtool.log" 2>&1 ||
	fail "promtool could not make blocks: $(tail -2 "$TMP/promtool.log")"
printf 'global:\n  scrape_interval: 15s\n' >"$TMP/prom.yml"
pp=$(free_port)
start_prometheus "$TMP" "$pp" "$TMP/prom.yml"
pp_pid=${pool_pids[-1]}
pv=$(free_port)
printf 'scrape_configs: []\n' >"$TMP/vm.yml"
start_victoria "$TMP" "$pv" "$TMP/vm.yml"
python3 "$ROOT/tests/remote/past_data.py" prometheus "$end" "$now" |
	curl -sf --data-binary @- "http://127.0.0.1:$pv/api/v1/import/prometheus" || fail "VictoriaMetrics refused the import"
curl -sf "http://127.0.0.1:$pv/internal/force_flush" >/dev/null
pv_pid=${pool_pids[-1]}
at=$((end - 1200))
vm_has() {
	"$XGTOP" --source prometheus "http://127.0.0.1:$pv" --at "$at" -b -o csv -n 1 2>/dev/null | grep -q web-01
}
wait_until 30 vm_has || fail "VictoriaMetrics shows no imported domains within 30 s"
hm() { date -u -d "@$1" +'%Y-%m-%d %H:%M:%S UTC'; }
# shellcheck disable=SC2034  # lib.sh's start_shell reads them
W=120 H=40
start_shell
# view PORT NAME PID: the checks on the server at PORT (process PID).
view() {
	keys "$XGTOP --no-config --source prometheus http://127.0.0.1:$1 --at $at -d 2" Enter
	wait_for "NOT LIVE: figures of $(hm "$at")" || fail "$2: no past time on line 1: $(screen | head -3)"
	keys Left
	wait_for "NOT LIVE: figures of $(hm $((at - 60)))" || fail "$2: Left did not move the view 1 min back"
	keys Enter
	wait_for "xgtop details: web-01  NOT LIVE: as of" || fail "$2: no past time in the detail pane's title"
	wait_for "zoom 5m" || fail "$2: no zoom in the detail pane"
	wait_match 'CPU% +now 75\.0 +min 75\.0 +max 75\.0 +over 5m' || fail "$2: the 5m CPU% graph is not 75 % throughout"
	keys z
	wait_for "zoom 1h" || fail "$2: z did not zoom out to 1h"
	wait_match 'CPU% +now 75\.0 +min 25\.0 +max 75\.0 +over 1h' ||
		fail "$2: the 1h CPU% graph does not reach back to the 25 % hour"
	echo "$2: $(screen | grep -E 'CPU% +now')"
	keys Escape
	keys L
	wait_gone "NOT LIVE" || fail "$2: L did not return to live: $(screen | head -3)"
	wait_for "Domains 2:" || fail "$2: no fleet after L: $(screen | head -3)"
	# The server gone (the view frozen, so that no refresh of its own comes
	# first), a move in time fails: the error on the status line, the view
	# stays live and running.
	keys Space
	wait_for "FROZEN" || fail "$2: space did not freeze"
	kill "$3"
	wait "$3" 2>/dev/null
	keys Left
	wait_for "the view stays at live: Prometheus at http://127.0.0.1:$1: " || fail "$2: no error for a move with the server gone"
	screen | grep -q "Domains 2:" || fail "$2: the view left: $(screen | head -3)"
	keys q
	wait_prompt
}
view "$pp" Prometheus "$pp_pid"
view "$pv" VictoriaMetrics "$pv_pid"
