#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Exporter under scrape load: xgtop --daemon --export replays a recording of
# 100 domains taken every second (the generator's noisy script, so every
# counter moves), while wrk scrapes /metrics as Prometheus asks for it
# (OpenMetrics preferred) over CONNS connections for SECONDS seconds.
# Targets: at least 2,000 scrapes/s, p99 under 10 ms, one refresh per second
# throughout, resident memory flat. Printed, not asserted.
cd "$(dirname "$0")/.." || exit 2
make -s xgtop tools >/dev/null || exit 2
command -v wrk >/dev/null || { echo "exporter_scrape: wrk is not installed (make deps)"; exit 2; }
SECONDS_RUN=${SECONDS_RUN:-60} CONNS=${CONNS:-8} THREADS=${THREADS:-2} DOMAINS=${DOMAINS:-100}
tmp=$(mktemp -d)
xpid=
trap '[ -n "$xpid" ] && kill $xpid 2>/dev/null; rm -rf "$tmp"' EXIT
build/tools/xgtop-gen --domains "$DOMAINS" --samples $((SECONDS_RUN + 30)) "$tmp/rec.xgrec" >/dev/null || exit 1
./xgtop --daemon --export 127.0.0.1:0 --replay "$tmp/rec.xgrec" 2>"$tmp/log" &
xpid=$!
for _ in $(seq 100); do
	port=$(sed -n 's|.*listening on http://127\.0\.0\.1:\([0-9]*\)/metrics|\1|p' "$tmp/log")
	[ -n "$port" ] && break
	sleep 0.05
done
[ -n "$port" ] || { cat "$tmp/log"; echo "exporter_scrape: xgtop did not start"; exit 1; }
url=http://127.0.0.1:$port/metrics
accept='application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1'
sleep 3
refreshes() { curl -s "$url" | sed -n 's/^xgtop_collector_refreshes_total //p'; }
rss_kb() { awk '/^VmRSS/ {print $2}' "/proc/$xpid/status"; }
cpu_ticks() { awk '{print $14 + $15}' "/proc/$xpid/stat"; }
bytes=$(curl -s -H "Accept: $accept" "$url" | wc -c)

# Every 5 s during the load: resident memory and refreshes done.
(
	for _ in $(seq $((SECONDS_RUN / 5))); do
		echo "$(date +%s.%N) $(rss_kb) $(refreshes)"
		sleep 5
	done
) >"$tmp/samples" &
mon=$!
c0=$(cpu_ticks)
wrk -t"$THREADS" -c"$CONNS" -d"${SECONDS_RUN}s" --latency -H "Accept: $accept" "$url" >"$tmp/wrk" 2>&1
c1=$(cpu_ticks)
wait $mon
echo "$(date +%s.%N) $(rss_kb) $(refreshes)" >>"$tmp/samples"
kill $xpid; wait $xpid 2>/dev/null; xpid=

rate=$(sed -n 's/^Requests\/sec: *//p' "$tmp/wrk")
p50=$(awk '$1 == "50%" {print $2}' "$tmp/wrk")
p99=$(awk '$1 == "99%" {print $2}' "$tmp/wrk")
errs=$(grep -E 'Non-2xx|Socket errors' "$tmp/wrk")
ms() { case $1 in *us) echo "${1%us} / 1000" | bc -l ;; *ms) echo "${1%ms}" ;; *s) echo "${1%s} * 1000" | bc -l ;; esac; }
echo "exporter_scrape: $DOMAINS domains, a refresh every second, $CONNS connections ($THREADS wrk threads), ${SECONDS_RUN} s"
printf '  %.0f scrapes/s of %d bytes (target >= 2000): %s\n' "$rate" "$bytes" \
	"$(echo "$rate >= 2000" | bc -l | sed 's/1/met/; s/0/MISSED/')"
printf '  latency p50 %s, p99 %s (target p99 < 10 ms): %s\n' "$p50" "$p99" \
	"$(echo "$(ms "$p99") < 10" | bc -l | sed 's/1/met/; s/0/MISSED/')"
[ -n "$errs" ] && echo "  wrk: $errs"
awk -v ticks="$(getconf CLK_TCK)" -v cpu=$((c1 - c0)) -v secs="$SECONDS_RUN" '
	NR == 1 { t0 = $1; r0 = $2; n0 = $3 }
	{ series = series sprintf(" %.1f", $2 / 1024); if (NR > 1 && $3 - pn < 4) short++; pn = $3 }
	# The second half of the run: allocations have settled, growth is a leak.
	$1 - t0 >= secs / 2 { if (!lo || $2 < lo) lo = $2; if ($2 > hi) hi = $2 }
	END {
		dt = $1 - t0
		printf "  refreshes: %d in %.1f s (%.3f s apart; 5 s windows with fewer than 4: %d)\n", $3 - n0, dt, dt / ($3 - n0), short
		printf "  resident memory every 5 s, MB:%s\n", series
		printf "  resident memory: %.1f MB before the load, %.1f to %.1f MB over the second half, %.1f MB at the end\n", r0 / 1024, lo / 1024, hi / 1024, $2 / 1024
		printf "  xgtop CPU: %.0f %% of one CPU (collection, rendering and serving)\n", 100 * cpu / ticks / secs
	}' "$tmp/samples"
