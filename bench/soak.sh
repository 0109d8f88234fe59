#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Soak: the full-screen view in a 200x60 tmux pane replays DOMAINS (2,000)
# domains with churn for SOAK_SECONDS (600) at RATE (10) refreshes a
# second, recording what it shows and exporting it, while
# bench/soak_scrape.py scrapes the exporter back to back. The replay is
# xgtop-gen --churn: every sample CHURN (10) domains are destroyed and as
# many come back with their old ids, a new name and counters from 0, and as
# many have their network counters reset (so 100 of each a second).
# Fails on: xgtop dying or exiting non-zero, a bad scrape, a negative
# number on screen, a negative or absurd figure in any row of the
# recording played back as CSV, or the peak resident memory (VmHWM)
# growing between the end of the warm-up (WARMUP s, once the history is
# full) and the end by more than 10 % + 4 MB. The peak, not the resident
# size at one instant: each refresh and scrape builds and frees buffers
# of several MB, so VmRSS swings by about 25 MB between two reads (66 MB
# and 85 MB at 40 s in two runs of the same build); a leak raises the
# peak with the rest. Prints both resident sizes and both peaks.
# The short version (SOAK_SECONDS=60, in CI) runs the same checks.
# Usage: bench/soak.sh   (env: SOAK_SECONDS DOMAINS RATE CHURN WARMUP)
cd "$(dirname "$0")/.." || exit 2
make -s xgtop tools >/dev/null || exit 2
command -v tmux >/dev/null || { echo "soak: tmux is not installed (make deps)"; exit 2; }
secs=${SOAK_SECONDS:-600} domains=${DOMAINS:-2000} rate=${RATE:-10} churn=${CHURN:-10}
warmup=${WARMUP:-40}
[ "$warmup" -lt "$secs" ] || warmup=$((secs / 2))
tmp=$(mktemp -d)
sock=xgtop-soak-$$
scraper=
cleanup() {
	tmux -L "$sock" kill-server 2>/dev/null
	[ -n "$scraper" ] && kill "$scraper" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
fail() { echo "soak: FAIL: $*"; status=1; }
status=0

# The replay runs a few seconds longer than the soak, so it never ends
# (and freezes) before the soak does.
samples=$(((secs + 10) * rate))
interval=$(awk -v r="$rate" 'BEGIN { printf "%.6f", 1 / r }')
t0=$SECONDS
build/tools/xgtop-gen --domains "$domains" --samples "$samples" --interval "$interval" --churn "$churn" \
	"$tmp/rec.xgr" >/dev/null || exit 1
echo "soak: $domains domains, $samples samples ($interval s apart, churn $churn a sample) written in $((SECONDS - t0)) s"
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
cmd="./xgtop --replay $tmp/rec.xgr --record $tmp/out.xgr --export 127.0.0.1:$port --no-config"
tmux -L "$sock" new-session -d -x 200 -y 60 "$cmd; echo \$? >$tmp/exit; sleep 600"
pid=
for _ in $(seq 100); do
	pid=$(pgrep -f "^$cmd" | head -n 1)
	[ -n "$pid" ] && curl -sf -o /dev/null "http://127.0.0.1:$port/metrics" && break
	sleep 0.1
done
[ -n "$pid" ] || { tmux -L "$sock" capture-pane -p; echo "soak: xgtop did not start"; exit 1; }
rss_kb() { awk '/^VmRSS/ {print $2}' "/proc/$pid/status" 2>/dev/null; }
hwm_kb() { awk '/^VmHWM/ {print $2}' "/proc/$pid/status" 2>/dev/null; }
refreshes() { curl -s "http://127.0.0.1:$port/metrics" | sed -n 's/^xgtop_collector_refreshes_total //p'; }
python3 bench/soak_scrape.py "http://127.0.0.1:$port/metrics" "$tmp/stop" >"$tmp/scrape" 2>&1 &
scraper=$!

# Every 2 s: alive, and no negative number in the pane (a value cell that
# starts with '-' and a digit; unmeasured figures are a lone '-').
start=$SECONDS rss0= hwm0= ref0= negative=0
while [ $((SECONDS - start)) -lt "$secs" ]; do
	sleep 2
	kill -0 "$pid" 2>/dev/null || { fail "xgtop died after $((SECONDS - start)) s"; break; }
	screen=$(tmux -L "$sock" capture-pane -p)
	if grep -Eq '(^|[[:space:]])-[0-9]' <<<"$screen"; then
		[ $negative = 0 ] && { echo "soak: negative figure on screen:"; grep -E '(^|[[:space:]])-[0-9]' <<<"$screen" | head -n 5; }
		negative=$((negative + 1))
	fi
	if [ -z "$rss0" ] && [ $((SECONDS - start)) -ge "$warmup" ]; then
		rss0=$(rss_kb) hwm0=$(hwm_kb) ref0=$(refreshes) t_rss0=$SECONDS
	fi
done
rss1=$(rss_kb) ref1=$(refreshes)
hwm=$(hwm_kb)
touch "$tmp/stop"
wait "$scraper"
scrape_rc=$?
scraper=
[ $negative = 0 ] || fail "a negative figure on screen in $negative of the captures"
cat "$tmp/scrape"
[ $scrape_rc = 0 ] || fail "bad scrapes (above)"

kill -0 "$pid" 2>/dev/null && tmux -L "$sock" send-keys q
for _ in $(seq 100); do [ -s "$tmp/exit" ] && break; sleep 0.1; done
[ "$(cat "$tmp/exit" 2>/dev/null)" = 0 ] ||
	{ tmux -L "$sock" capture-pane -p | tail -n 5; fail "xgtop exited with '$(cat "$tmp/exit" 2>/dev/null)'"; }

if [ -n "$rss0" ] && [ -n "$rss1" ] && [ -n "$hwm0" ] && [ -n "$hwm" ]; then
	mb() { echo "$1 / 1024" | bc -l; }
	printf 'soak: resident memory %.1f MB after %d s, %.1f MB at the end (%d s)\n' \
		"$(mb "$rss0")" "$warmup" "$(mb "$rss1")" "$secs"
	printf 'soak: peak resident memory %.1f MB after %d s, %.1f MB at the end\n' "$(mb "$hwm0")" "$warmup" "$(mb "$hwm")"
	[ "$hwm" -le $((hwm0 + hwm0 / 10 + 4096)) ] || fail "peak memory grew: $hwm0 kB -> $hwm kB"
	awk -v a="$ref0" -v b="$ref1" -v t=$((SECONDS - t_rss0)) \
		'BEGIN { printf "soak: %.1f refreshes a second after the warm-up\n", (b - a) / t }'
fi

# Every row of what was recorded, as CSV: rates never negative; no
# percentage past 100 (CPU%: 100 per vCPU); no other rate past 1e11/s (the
# script's largest is 8e9).
t0=$SECONDS
verify=$(build/tools/xgtop-gen --verify "$tmp/out.xgr") || fail "the recording does not read back: $verify"
./xgtop --replay "$tmp/out.xgr" --speed 0 -b -o csv --no-config | awk -F, '
	NR == 1 { for (i = 1; i <= NF; i++) col[i] = $i; next }
	{
		rows++
		for (i = 6; i <= NF; i++) {
			if ($i == "" || col[i] !~ /_(pct|bps|pps|iops|ps)$|^mpki$/) continue
			v = $i + 0
			lim = col[i] == "cpu_pct" ? 100 * $8 * 1.05 : col[i] ~ /_pct$/ ? 100.5 : 1e11
			if (v < 0 || v > lim) { bad++; if (bad <= 5) print "soak: bad " col[i] " " $i " in: " $0 }
		}
	}
	END { printf "soak: %d rows of the recording played back, %d bad figures\n", rows, bad; exit bad > 0 }' ||
	fail "negative or absurd figures in the recording"
echo "soak: recording: $verify; checked in $((SECONDS - t0)) s"
[ $status = 0 ] && echo "soak: passed ($secs s, $domains domains, churn $churn a sample)"
exit $status
