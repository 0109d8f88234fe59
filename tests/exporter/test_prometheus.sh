#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A real Prometheus server (Debian's package) on loopback, scraping every
# second, with its own storage in the scratch directory, scrapes xgtop
# replaying the fixture script at --speed 1 (so it sees real-time rates).
# The recording takes a sample every 50 ms, so that a scrape sees counters
# at most 50 ms old and a 20 s rate() is exact to 0.25 %. Through the HTTP
# API:
# - rate() of CPU seconds and of runstate seconds equals the script's rates
#   within 1 %;
# - each domain appears once in xgtop_domain_info, with its domid, a uuid and
#   source "xen";
# - gone-09, which leaves the recording at 30 s, goes stale: no value at all
#   once it has left, while the others still have theirs.
. "$(dirname "$0")/common.sh"
command -v prometheus >/dev/null || { echo "SKIP: prometheus (Debian package prometheus) is not installed"; exit 77; }

build/tools/xgtop-gen --steady --interval 0.05 --samples 900 "$tmp/fx.xgrec" >/dev/null
start_exporter fx --replay "$tmp/fx.xgrec" --speed 1
t0=$SECONDS
pport=$(free_port)
cat >"$tmp/prometheus.yml" <<YML
global:
  scrape_interval: 1s
  scrape_timeout: 1s
scrape_configs:
  - job_name: xgtop
    static_configs:
      - targets: ['127.0.0.1:$port']
YML
prometheus --config.file="$tmp/prometheus.yml" --storage.tsdb.path="$tmp/data" \
	--web.listen-address="127.0.0.1:$pport" --log.level=warn >"$tmp/prometheus.log" 2>&1 &
pids+=($!)
for _ in $(seq 100); do
	curl -sf --max-time 1 "http://127.0.0.1:$pport/-/ready" >/dev/null && break
	sleep 0.1
done
curl -sf --max-time 1 "http://127.0.0.1:$pport/-/ready" >/dev/null || { cat "$tmp/prometheus.log"; fail "prometheus did not start"; }
echo "prometheus ready $((SECONDS - t0)) s after xgtop started"

# query EXPR: one line per result, "label=value,... VALUE", sorted.
query() {
	curl -sf --max-time 5 "http://127.0.0.1:$pport/api/v1/query" --data-urlencode "query=$1" |
		python3 -c 'import json, sys
r = json.load(sys.stdin)
assert r["status"] == "success", r
for s in r["data"]["result"]:
    m = s["metric"]
    print(",".join("%s=%s" % (k, m[k]) for k in sorted(m) if k not in ("job", "instance", "__name__")), s["value"][1])' | sort
}
# until_recorded S: waits until the replay has played S seconds of the recording.
until_recorded() {
	local want=$1 now
	for _ in $(seq 600); do
		now=$(scrape | sed -n 's/^xgtop_sample_monotonic_seconds //p')
		[ -n "$now" ] && python3 -c "import sys; sys.exit(0 if $now - 1000 >= $want else 1)" && return 0
		sleep 0.1
	done
	fail "the replay did not reach $want s"
}
# near NAME GOT WANT: within 1 %.
near() {
	python3 -c "import sys; g, w = float('$2'), float('$3'); sys.exit(0 if abs(g - w) <= 0.01 * w else 1)" ||
		fail "$1: rate $2, the recording's $3 (more than 1 % apart)"
	echo "$1: rate $2, recording $3"
}

until_recorded 29
cpu=$(query 'rate(xgtop_domain_cpu_seconds_total[20s])')
rs=$(query 'rate(xgtop_domain_runstate_seconds_total{domain="sched-06"}[20s])')
info=$(query 'xgtop_domain_info')
gone_before=$(query 'xgtop_domain_cpu_seconds_total{domain="gone-09"}')
# The script's rates, seconds per second (doc/recording.md): vCPUs x CPU %.
for d in busy-03:3.8 cache-05:1.6 sched-06:0.6 net-04:0.5 gone-09:0.4 Domain-0:0.3; do
	got=$(echo "$cpu" | sed -n "s/^domain=${d%%:*},uuid=[^ ]* //p")
	[ -n "$got" ] || fail "no CPU rate for ${d%%:*}: $cpu"
	near "cpu ${d%%:*}" "$got" "${d#*:}"
done
for s in running:0.6 runnable:1.2 blocked:0.2; do
	got=$(echo "$rs" | sed -n "s/.*state=${s%%:*},uuid=[^ ]* //p")
	[ -n "$got" ] || fail "no runstate rate for sched-06 ${s%%:*}: $rs"
	near "sched-06 ${s%%:*}" "$got" "${s#*:}"
done
[ -z "$(echo "$rs" | grep 'state=offline.* [^0]')" ] || fail "sched-06 offline time grows: $rs"

# Identity: one xgtop_domain_info per domain, with its domid, uuid, source.
[ "$(echo "$info" | wc -l)" = 12 ] || fail "expected 12 domains at 29 s, got: $info"
for d in Domain-0:0 busy-03:3 late-08:8 gone-09:9 reuse-10b:10 'utf8-\xc3(-01:1' 'ctl\x1b[2J\x07-11:11'; do
	n=$(echo "$info" | grep -cF "domain=${d%:*},domid=${d##*:},source=xen,uuid=")
	[ "$n" = 1 ] || fail "${d%:*} (domid ${d##*:}) appears $n times: $info"
done
[ "$(echo "$info" | sed 's/.*uuid=\([^ ]*\) .*/\1/' | sort -u | wc -l)" = 12 ] || fail "uuids not unique: $info"
echo "12 domains, each once in xgtop_domain_info with domid, uuid and source"

# gone-09 leaves the recording at 30 s: stale on the next scrape.
[ -n "$gone_before" ] || fail "gone-09 had no CPU counter at 29 s"
until_recorded 32.5
gone_after=$(query 'xgtop_domain_cpu_seconds_total{domain="gone-09"}')
[ -z "$gone_after" ] || fail "gone-09 still has a value after it left: $gone_after"
[ -n "$(query 'xgtop_domain_cpu_seconds_total{domain="busy-03"}')" ] || fail "busy-03 went stale too"
[ "$(query 'count(xgtop_domain_info)' | awk '{print $NF}')" = 11 ] || fail "not 11 domains after gone-09 left"
echo "gone-09 stale after it left the recording; 11 domains remain"
up=$(query 'up{job="xgtop"}')
[ "${up##* }" = 1 ] || fail "the scrape target is not up: $up"
