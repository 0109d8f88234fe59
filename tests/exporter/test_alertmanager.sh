#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# End to end, all on loopback: xgtop replays the fixture script (its
# sched-06 spins 3 vCPUs that wait for a pCPU 60 % of their time: WAIT% 60),
# a real Prometheus scrapes it every second and evaluates
# contrib/xgtop.alerts.yml, shortened for a test (windows of 20 s instead of
# 2 m, no "for"), and sends to a real Alertmanager, which posts to a webhook
# receiver inside this test. Checks: the receiver gets
# XgtopDomainWaitingForCPU firing for sched-06, and none for Domain-0 (WAIT%
# about 0).
. "$(dirname "$0")/common.sh"
command -v prometheus >/dev/null || { echo "SKIP: prometheus (Debian package prometheus) is not installed"; exit 77; }
am=$(command -v prometheus-alertmanager || command -v alertmanager) ||
	{ echo "SKIP: alertmanager (Debian package prometheus-alertmanager) is not installed"; exit 77; }

build/tools/xgtop-gen --steady --interval 0.25 --samples 2000 "$tmp/fx.xgrec" >/dev/null
start_exporter fx --replay "$tmp/fx.xgrec" --speed 1
sed 's/\[2m\]/[20s]/g; s/for: [0-9]*m/for: 0s/' contrib/xgtop.alerts.yml >"$tmp/alerts.yml"
grep -q 'XgtopDomainWaitingForCPU' "$tmp/alerts.yml" || fail "no WAIT% alert in contrib/xgtop.alerts.yml"

# The webhook receiver: every POST body, one per line.
hport=$(free_port)
python3 - "$hport" "$tmp/hooks" <<'PY' &
import http.server, sys
out = sys.argv[2]
class H(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        with open(out, "ab") as f:
            f.write(body.replace(b"\n", b" ") + b"\n")
        self.send_response(200)
        self.end_headers()
    def log_message(self, *a):
        pass
http.server.HTTPServer(("127.0.0.1", int(sys.argv[1])), H).serve_forever()
PY
pids+=($!)

aport=$(free_port)
cat >"$tmp/am.yml" <<YML
route:
  receiver: hook
  group_by: [alertname, domain]
  group_wait: 1s
  group_interval: 1s
  repeat_interval: 1h
receivers:
  - name: hook
    webhook_configs:
      - url: http://127.0.0.1:$hport/
YML
"$am" --config.file="$tmp/am.yml" --storage.path="$tmp/am" --web.listen-address="127.0.0.1:$aport" \
	--cluster.listen-address= --log.level=warn >"$tmp/am.log" 2>&1 &
pids+=($!)
wait_until 30 curl -sf --max-time 1 "http://127.0.0.1:$aport/-/ready" -o /dev/null ||
	{ cat "$tmp/am.log"; fail "alertmanager did not start"; }

pport=$(free_port)
cat >"$tmp/prometheus.yml" <<YML
global:
  scrape_interval: 1s
  scrape_timeout: 1s
  evaluation_interval: 1s
rule_files: [ $tmp/alerts.yml ]
alerting:
  alertmanagers:
    - static_configs: [ { targets: ['127.0.0.1:$aport'] } ]
scrape_configs:
  - job_name: xgtop
    static_configs: [ { targets: ['127.0.0.1:$port'] } ]
YML
prometheus --config.file="$tmp/prometheus.yml" --storage.tsdb.path="$tmp/data" \
	--web.listen-address="127.0.0.1:$pport" --log.level=warn >"$tmp/prometheus.log" 2>&1 &
pids+=($!)
wait_until 30 curl -sf --max-time 1 "http://127.0.0.1:$pport/-/ready" -o /dev/null ||
	{ cat "$tmp/prometheus.log"; fail "prometheus did not start"; }

fired() { grep -q '"alertname":"XgtopDomainWaitingForCPU".*"domain":"sched-06"\|"domain":"sched-06".*"alertname":"XgtopDomainWaitingForCPU"' "$tmp/hooks" 2>/dev/null; }
wait_until 180 fired || fail "no XgtopDomainWaitingForCPU for sched-06 reached the webhook in 3 minutes: $(cat "$tmp/hooks" 2>/dev/null | head -c 600)"
python3 - "$tmp/hooks" <<'PY' || fail "the webhook's alerts are not as expected"
import json, sys
seen = {}
for line in open(sys.argv[1]):
    for a in json.loads(line)["alerts"]:
        if a["labels"]["alertname"] == "XgtopDomainWaitingForCPU":
            seen[a["labels"]["domain"]] = (a["status"], a["annotations"]["summary"])
print("WAIT% alerts received:", seen)
assert seen["sched-06"][0] == "firing", seen
assert "Domain-0" not in seen, "Domain-0 (WAIT% about 0) fired"
PY
echo "XgtopDomainWaitingForCPU fired for sched-06 through Prometheus and Alertmanager to the webhook"
