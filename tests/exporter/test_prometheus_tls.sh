#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A real Prometheus (Debian's package) on loopback scrapes xgtop over TLS
# with basic auth and a client certificate (--web-config, the test's own
# CA made with openssl), every second, asking for gzip as it always does:
# the job with the right password is up and holds xgtop's series; a second
# job with a wrong password is down with a 401, and a third that speaks
# plain HTTP to the TLS port is down too.
. "$(dirname "$0")/common.sh"
command -v prometheus >/dev/null || { echo "SKIP: prometheus (Debian package prometheus) is not installed"; exit 77; }
. "$(dirname "$0")/webcfg_lib.sh"

build/tools/xgtop-gen --steady --interval 0.5 --samples 2000 "$tmp/fx.xgrec" >/dev/null
cat >"$tmp/web.yml" <<YML
tls_server_config:
  cert_file: srv.crt
  key_file: srv.key
  client_ca_file: ca.crt
  client_auth_type: RequireAndVerifyClientCert
basic_auth_users:
  prometheus: $(bcrypt 'scrape me')
YML
start_exporter tls --web-config "$tmp/web.yml" --replay "$tmp/fx.xgrec" --speed 1
pport=$(free_port)
printf '%s' 'scrape me' >"$tmp/pass"
printf '%s' 'not me' >"$tmp/wrong"
tls="    tls_config: { ca_file: $tmp/ca.crt, cert_file: $tmp/client.crt, key_file: $tmp/client.key }"
cat >"$tmp/prometheus.yml" <<YML
global:
  scrape_interval: 1s
  scrape_timeout: 1s
scrape_configs:
  - job_name: good
    scheme: https
$tls
    basic_auth: { username: prometheus, password_file: $tmp/pass }
    static_configs: [ { targets: ['127.0.0.1:$port'] } ]
  - job_name: wrong
    scheme: https
$tls
    basic_auth: { username: prometheus, password_file: $tmp/wrong }
    static_configs: [ { targets: ['127.0.0.1:$port'] } ]
  - job_name: plain
    static_configs: [ { targets: ['127.0.0.1:$port'] } ]
YML
prometheus --config.file="$tmp/prometheus.yml" --storage.tsdb.path="$tmp/data" \
	--web.listen-address="127.0.0.1:$pport" --log.level=warn >"$tmp/prometheus.log" 2>&1 &
pids+=($!)
wait_until 30 curl -sf --max-time 1 "http://127.0.0.1:$pport/-/ready" -o /dev/null ||
	{ cat "$tmp/prometheus.log"; fail "prometheus did not start"; }

# targets: "JOB HEALTH LASTERROR" per target.
targets() {
	curl -sf --max-time 5 "http://127.0.0.1:$pport/api/v1/targets" | python3 -c 'import json, sys
for t in json.load(sys.stdin)["data"]["activeTargets"]:
    print(t["labels"]["job"], t["health"], t["lastError"] or "-")' | sort
}
all_scraped() { [ "$(targets | grep -vc ' unknown ')" = 3 ]; }
wait_until 60 all_scraped || fail "Prometheus did not scrape all three jobs: $(targets)"
good_up() { targets | grep -q '^good up '; }
wait_until 30 good_up || fail "the TLS + basic auth + client certificate job is not up: $(targets)"
targets | grep -q '^wrong down .*401' || fail "the wrong password's job is not down with a 401: $(targets)"
targets | grep -q '^plain down ' || fail "the plain HTTP job is not down: $(targets)"
targets | sed 's/^/target: /'

n=$(curl -sf --max-time 5 "http://127.0.0.1:$pport/api/v1/query" \
	--data-urlencode 'query=count(xgtop_domain_cpu_seconds_total{job="good"})' |
	python3 -c 'import json, sys; r = json.load(sys.stdin)["data"]["result"]; print(r[0]["value"][1] if r else 0)')
[ "$n" -ge 10 ] || fail "Prometheus holds $n CPU series of the TLS job, expected the recording's domains"
echo "Prometheus holds $n domains' CPU series, scraped over TLS with basic auth and a client certificate"
