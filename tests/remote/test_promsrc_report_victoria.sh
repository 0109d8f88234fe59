#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# `xgtop report --source prometheus URL` against a real VictoriaMetrics
# (Debian's single node, default settings, scraping every 1 s) on
# loopback, with two exporters replaying noisy recordings: the checks of
# test_promsrc_report_prometheus.sh (report_checks in
# promsrc_report_lib.sh), with VictoriaMetrics' own delta() and
# subquery steps in the independent computation, then the server down.
cd "$(dirname "$0")/../.." || exit 2
. tests/remote/lib.sh
. tests/remote/promsrc_lib.sh
. tests/remote/promsrc_report_lib.sh
POOL_NOISY=1
two_hosts victoria-metrics
pv=$(free_port)
scrape_config "$TMP/vm.yml" "$ha" "$hb"
start_victoria "$TMP" "$pv" "$TMP/vm.yml"
vm_pid=${pool_pids[-1]}
report_checks victoria "$pv"
kill "$vm_pid"
wait "$vm_pid" 2>/dev/null
report_server_down "$pv"
exit 0
