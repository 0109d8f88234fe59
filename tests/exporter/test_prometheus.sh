#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A real Prometheus server (Debian's package) on loopback, scraping every
# second, with its own storage in the scratch directory, scrapes xgtop
# replaying the fixture script at --speed 1 (so it sees real-time rates).
# The recording takes a sample every 50 ms, so that a scrape sees counters
# at most 50 ms old and a 20 s rate() is exact to 0.25 %. Through the HTTP
# API:
# - rate() of CPU seconds and of runstate seconds, over the rate of the
#   replay's own sample clock (a loaded machine slows the replay, and
#   wall-clock rates with it: 3.61 for 3.8 at load 9), equals the script's
#   rates within 1 %;
# - each domain appears once in xgtop_domain_info, with its domid, a uuid and
#   source "xen";
# - gone-09, which leaves the recording at 30 s, goes stale: no value at all
#   once it has left, while the others still have theirs.
# The queries are evaluated at the times of Prometheus's own scrapes (the
# API's time=), chosen by the replay position each scrape recorded, so no
# check depends on where the replay is after so many seconds of a loaded
# machine: the test waits for Prometheus to hold the scrapes it needs,
# within a generous bound.
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

# query EXPR [TIME]: one line per result, "label=value,... VALUE", sorted;
# evaluated at TIME (Unix seconds) when given.
query() {
	curl -sf --max-time 5 "http://127.0.0.1:$pport/api/v1/query" --data-urlencode "query=$1" \
		${2:+--data-urlencode "time=$2"} |
		python3 -c 'import json, sys
r = json.load(sys.stdin)
assert r["status"] == "success", r
for s in r["data"]["result"]:
    m = s["metric"]
    print(",".join("%s=%s" % (k, m[k]) for k in sorted(m) if k not in ("job", "instance", "__name__")), s["value"][1])' | sort
}
# scrapes: every scrape Prometheus holds, "UNIX_TIME REPLAY_SECONDS" (the
# recording's clock starts at 1000 s).
scrapes() {
	curl -sf --max-time 5 "http://127.0.0.1:$pport/api/v1/query" \
		--data-urlencode 'query=xgtop_sample_monotonic_seconds[10m]' |
		python3 -c 'import json, sys
r = json.load(sys.stdin)
for s in r["data"]["result"]:
    for t, v in s["values"]:
        print(t, float(v) - 1000)'
}
# near NAME GOT WANT: GOT, per second of the replay's own clock (CLOCK,
# the rate of its sample clock over the same window: 1 when the replay
# keeps pace, less when a loaded machine slows it), within 1 % of WANT.
near() {
	python3 -c "import sys; g, w = float('$2') / float('$CLOCK'), float('$3'); sys.exit(0 if abs(g - w) <= 0.01 * w else 1)" ||
		fail "$1: rate $2 over a replay clock rate of $CLOCK, the recording's $3 (more than 1 % apart)"
	echo "$1: rate $2 (replay clock rate $CLOCK), recording $3"
}

# Until Prometheus holds a scrape of the replay after gone-09 left (30 s),
# at most 3 minutes. Then the times to look at:
# - t1, the last scrape before 29.5 s: all 12 domains (late-08 came at
#   15 s; reuse-10 gave way to reuse-10b at 22.5 s, so its series went
#   stale at an earlier scrape), and a window of up to 20 s of scrapes
#   before it for rate();
# - t2, the first scrape from 30.5 s on: gone-09 stale.
for _ in $(seq 360); do
	scrapes >"$tmp/scrapes" 2>/dev/null
	awk '$2 >= 30.5 { f = 1 } END { exit !f }' "$tmp/scrapes" && break
	sleep 0.5
done
awk '$2 >= 30.5 { f = 1 } END { exit !f }' "$tmp/scrapes" ||
	fail "Prometheus holds no scrape from 30.5 s of the replay on after 3 minutes: $(tail -n 3 "$tmp/scrapes")"
read -r t1 w t2 < <(awk '
	NR == 1 { first = $1 }
	$2 >= 22.6 && $2 < 29.5 && prev_after_reuse { t1 = $1 }
	$2 >= 22.6 { prev_after_reuse = 1 }
	$2 >= 30.5 && !t2 { t2 = $1 }
	END { w = int(t1 - first - 1); if (w > 20) w = 20; print t1, w, t2 }' "$tmp/scrapes")
[ -n "$t1" ] && [ "$w" -ge 8 ] ||
	fail "Prometheus did not scrape the replay long enough before 29.5 s (window ${w:-?} s): $(head -n 3 "$tmp/scrapes")"
echo "evaluating at the scrapes of $(awk -v t="$t1" '$1 == t { print $2 }' "$tmp/scrapes") s" \
	"(rate window ${w} s) and $(awk -v t="$t2" '$1 == t { print $2 }' "$tmp/scrapes") s of the replay"

cpu=$(query "rate(xgtop_domain_cpu_seconds_total[${w}s])" "$t1")
CLOCK=$(query "rate(xgtop_sample_monotonic_seconds[${w}s])" "$t1" | awk '{print $NF}')
[ -n "$CLOCK" ] || fail "no rate of the replay's sample clock"
rs=$(query "rate(xgtop_domain_runstate_seconds_total{domain=\"sched-06\"}[${w}s])" "$t1")
info=$(query 'xgtop_domain_info' "$t1")
gone_before=$(query 'xgtop_domain_cpu_seconds_total{domain="gone-09"}' "$t1")
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
[ "$(echo "$info" | wc -l)" = 12 ] || fail "expected 12 domains before gone-09 left, got: $info"
for d in Domain-0:0 busy-03:3 late-08:8 gone-09:9 reuse-10b:10 'utf8-\xc3(-01:1' 'ctl\x1b[2J\x07-11:11'; do
	n=$(echo "$info" | grep -cF "domain=${d%:*},domid=${d##*:},source=xen,uuid=")
	[ "$n" = 1 ] || fail "${d%:*} (domid ${d##*:}) appears $n times: $info"
done
[ "$(echo "$info" | sed 's/.*uuid=\([^ ]*\) .*/\1/' | sort -u | wc -l)" = 12 ] || fail "uuids not unique: $info"
echo "12 domains, each once in xgtop_domain_info with domid, uuid and source"

# gone-09 leaves the recording at 30 s: stale from the next scrape on.
[ -n "$gone_before" ] || fail "gone-09 had no CPU counter before it left"
gone_after=$(query 'xgtop_domain_cpu_seconds_total{domain="gone-09"}' "$t2")
[ -z "$gone_after" ] || fail "gone-09 still has a value after it left: $gone_after"
[ -n "$(query 'xgtop_domain_cpu_seconds_total{domain="busy-03"}' "$t2")" ] || fail "busy-03 went stale too"
[ "$(query 'count(xgtop_domain_info)' "$t2" | awk '{print $NF}')" = 11 ] || fail "not 11 domains after gone-09 left"
echo "gone-09 stale after it left the recording; 11 domains remain"
up=$(query 'up{job="xgtop"}' "$t2")
[ "${up##* }" = 1 ] || fail "the scrape target is not up: $up"
