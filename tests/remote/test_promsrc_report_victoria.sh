#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# `xgtop report --source prometheus URL` against a real VictoriaMetrics
# (Debian's single node, default settings) holding a past minute of two
# exporters that replay noisy recordings, scraped once a recorded second
# (report_data, through its /api/v1/import/prometheus): the checks of
# test_promsrc_report_prometheus.sh (report_checks in
# promsrc_report_lib.sh), with VictoriaMetrics' own delta() and subquery
# steps in the independent computation, then the server down.
cd "$(dirname "$0")/../.." || exit 2
. tests/remote/lib.sh
. tests/remote/promsrc_lib.sh
. tests/remote/promsrc_report_lib.sh
POOL_NOISY=1 POOL_SPEED=10
two_hosts victoria-metrics
report_data prometheus >"$TMP/import.txt" || fail "could not scrape the exporters (above)"
pv=$(free_port)
printf 'scrape_configs: []\n' >"$TMP/vm.yml"
start_victoria "$TMP" "$pv" "$TMP/vm.yml"
vm_pid=${pool_pids[-1]}
curl -sf --data-binary @"$TMP/import.txt" "http://127.0.0.1:$pv/api/v1/import/prometheus" ||
	fail "VictoriaMetrics refused the import"
curl -sf "http://127.0.0.1:$pv/internal/force_flush" >/dev/null
report_checks victoria "$pv"
kill "$vm_pid"
wait "$vm_pid" 2>/dev/null
report_server_down "$pv"
exit 0
