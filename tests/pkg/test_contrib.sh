#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# contrib/'s Prometheus and Grafana files: the scrape configuration and the
# recording rules pass promtool; the rules give the screen's CPU%, WAIT% and
# HIT% on known counters (promtool test rules); every metric they read is
# one a running exporter serves; the Grafana dashboard is valid JSON whose
# queries use the rules' names, with top-domain panels across the pool and
# a panel repeated per host.
cd "$(dirname "$0")/../.." || exit 2
command -v promtool >/dev/null || { echo "SKIP: promtool is not installed (Debian's prometheus package; make deps)"; exit 77; }
command -v python3 >/dev/null || { echo "SKIP: python3 is not installed"; exit 77; }
TMP=$(mktemp -d)
pid=
trap '[ -n "$pid" ] && kill $pid 2>/dev/null; rm -rf "$TMP"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

promtool check config contrib/prometheus-scrape.yml || fail "promtool check config"
promtool check rules contrib/xgtop.rules.yml || fail "promtool check rules"

# One domain scraped every 15 s: CPU +7.5 s per scrape (50 %); vCPU time
# running 3, runnable 1.5, blocked 10.5 s per scrape (WAIT% 10); LLC
# references +1000, misses +250 (HIT% 75, 16.67 misses/s). A second domain
# whose references stand still has no HIT% (the screen's '-').
cat >"$TMP/test.yml" <<EOF
rule_files: [ $PWD/contrib/xgtop.rules.yml ]
evaluation_interval: 15s
tests:
  - interval: 15s
    input_series:
      - series: 'xgtop_domain_cpu_seconds_total{instance="h1",domain="web"}'
        values: '0+7.5x20'
      - series: 'xgtop_domain_runstate_seconds_total{instance="h1",domain="web",state="running"}'
        values: '0+3x20'
      - series: 'xgtop_domain_runstate_seconds_total{instance="h1",domain="web",state="runnable"}'
        values: '0+1.5x20'
      - series: 'xgtop_domain_runstate_seconds_total{instance="h1",domain="web",state="blocked"}'
        values: '0+10.5x20'
      - series: 'xgtop_domain_llc_references_total{instance="h1",domain="web"}'
        values: '0+1000x20'
      - series: 'xgtop_domain_llc_misses_total{instance="h1",domain="web"}'
        values: '0+250x20'
      - series: 'xgtop_domain_llc_references_total{instance="h2",domain="idle"}'
        values: '5+0x20'
      - series: 'xgtop_domain_llc_misses_total{instance="h2",domain="idle"}'
        values: '1+0x20'
    promql_expr_test:
      - expr: round(domain:xgtop_cpu_percent:rate1m, 0.001)
        eval_time: 3m
        exp_samples:
          - labels: '{instance="h1",domain="web"}'
            value: 50
      - expr: round(domain:xgtop_wait_percent:rate1m, 0.001)
        eval_time: 3m
        exp_samples:
          - labels: '{instance="h1",domain="web"}'
            value: 10
      - expr: round(domain:xgtop_llc_hit_percent:rate1m, 0.001)
        eval_time: 3m
        exp_samples:
          - labels: '{instance="h1",domain="web"}'
            value: 75
      - expr: round(domain:xgtop_llc_misses:rate1m{domain="web"}, 0.01)
        eval_time: 3m
        exp_samples:
          - labels: '{instance="h1",domain="web"}'
            value: 16.67
EOF
promtool test rules "$TMP/test.yml" || fail "the recording rules do not give CPU% 50, WAIT% 10, HIT% 75"

# The rules read metrics a real exporter serves (names drift otherwise).
used=$(grep -o 'xgtop_domain_[a-z_]*_total' contrib/xgtop.rules.yml | sort -u)
if [ -x ./xgtop ] && [ -x build/tools/xgtop-gen ] && ./xgtop --help | grep -q -- --export; then
	build/tools/xgtop-gen --samples 5 "$TMP/r.xgrec" >/dev/null || fail "xgtop-gen"
	./xgtop --replay "$TMP/r.xgrec" --export 127.0.0.1:0 --daemon --speed 0.5 2>"$TMP/log" &
	pid=$!
	for _ in $(seq 100); do
		port=$(sed -n 's/.*listening on http:\/\/127.0.0.1:\([0-9]*\)\/.*/\1/p' "$TMP/log")
		[ -n "$port" ] && curl -sf "http://127.0.0.1:$port/metrics" >"$TMP/metrics" && break
		sleep 0.05
	done
	[ -s "$TMP/metrics" ] || { cat "$TMP/log"; fail "the exporter served nothing"; }
	for m in $used xgtop_host_info; do
		grep -q "^$m{" "$TMP/metrics" || fail "the rules or dashboard read $m, which the exporter does not serve"
	done
	echo "the rules' metrics are served: $(echo $used)"
else
	echo "no exporter built: the metric names were not checked against one"
fi

python3 - contrib/grafana-pool.json contrib/xgtop.rules.yml <<'EOF' || fail "the Grafana dashboard (above)"
import json, re, sys
dash = json.load(open(sys.argv[1]))
rules = set(re.findall(r"record:\s*(\S+)", open(sys.argv[2]).read()))
panels = [p for p in dash["panels"] if p["type"] != "row"]
exprs = [(p["title"], t["expr"]) for p in panels for t in p.get("targets", [])]
assert exprs, "no queries"
for title, e in exprs:
    names = set(re.findall(r"[a-zA-Z_:][a-zA-Z0-9_:]*:[a-zA-Z0-9_:]+", e))
    assert names and names <= rules, f"panel '{title}' queries {e}: not the recording rules {sorted(rules)}"
titles = " | ".join(t for t, _ in exprs)
for want, rule in (("WAIT%", "domain:xgtop_wait_percent:rate1m"), ("LLC misses", "domain:xgtop_llc_misses:rate1m")):
    assert any(want in t and "topk" in e and rule in e and "instance" in e for t, e in exprs), \
        f"no top-domains panel by {want} across the pool: {titles}"
var = {v["name"]: v for v in dash["templating"]["list"]}
assert "host" in var and "instance" in json.dumps(var["host"]["query"]), "no host variable over the instances"
rep = [p for p in panels if p.get("repeat") == "host"]
assert rep and all('instance="$host"' in t["expr"] for p in rep for t in p["targets"]), "no panel repeated per host"
ids = [p["id"] for p in dash["panels"]]
assert len(ids) == len(set(ids)), "panel ids repeat"
print(f"dashboard: {len(panels)} panels, {len(rep)} repeated per host, queries use {sorted(rules)}")
EOF
exit 0
