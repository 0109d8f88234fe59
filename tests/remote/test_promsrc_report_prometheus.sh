#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# `xgtop report --source prometheus URL` against a real Prometheus
# (Debian's, default settings) holding a past minute of two exporters
# that replay noisy recordings, scraped once a recorded second (its
# blocks made by promtool tsdb create-blocks-from openmetrics from
# report_data):
#  1. the report's mean, 95th percentile and maximum of CPU% and NET-TX/s
#     of every domain of both hosts equal those computed here from the
#     server's raw samples (check_report), for a period given in Unix
#     seconds; the same period in RFC 3339 gives the same report;
#  2. text and JSON carry the same figures, with the HOST of each domain;
#  3. --filter and --host-match narrow the domains (in the query);
#  4. --from after --to, a bad TIME, too many series for a --filter the
#     server refuses, the server down: one line each, exit non-zero.
cd "$(dirname "$0")/../.." || exit 2
. tests/remote/lib.sh
. tests/remote/promsrc_lib.sh
. tests/remote/promsrc_report_lib.sh
POOL_NOISY=1 POOL_SPEED=10
two_hosts prometheus promtool
report_data openmetrics >"$TMP/om.txt" || fail "could not scrape the exporters (above)"
promtool tsdb create-blocks-from openmetrics "$TMP/om.txt" "$TMP/prom-data" >"$TMP/promtool.log" 2>&1 ||
	fail "promtool could not make blocks: $(tail -2 "$TMP/promtool.log")"
printf 'global:\n  scrape_interval: 15s\n' >"$TMP/prom.yml"
pp=$(free_port)
start_prometheus "$TMP" "$pp" "$TMP/prom.yml"
prom_pid=${pool_pids[-1]}
report_checks prometheus "$pp"
kill "$prom_pid"
wait "$prom_pid" 2>/dev/null
report_server_down "$pp"
exit 0
