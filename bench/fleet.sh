#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The Prometheus source on a fleet: VictoriaMetrics (Debian's, default
# settings) loaded through its import API with HOSTS hosts x 50 domains
# (bench/fleet_gen.py: one real exporter's series copied per host, each
# with its own load, SAMPLES points 10 s apart up to FUTURE s from now, so
# that no host goes stale while the bench runs), read by
#  - batch mode, which asks every field of every domain (no row limit);
#  - the full-screen view in tmux (200x62: about 55 rows on screen), which
#    asks every field of the rows on screen (and half a screen either
#    side) and, of all domains, what the sort and the summary line need.
# Per refresh: bytes sent and received (a counting relay between xgtop and
# the server: the wire, gzip included) and xgtop's CPU (its /proc times
# over the refreshes the relay saw). Printed, not asserted.
cd "$(dirname "$0")/.." || exit 2
make -s xgtop tools >/dev/null || exit 2
for t in victoria-metrics tmux curl python3; do
	command -v $t >/dev/null || { echo "fleet: $t is not installed (make deps)"; exit 2; }
done
HOSTS=${HOSTS:-200} DELAY=${DELAY:-5} SAMPLES=${SAMPLES:-120} REFRESHES=${REFRESHES:-8}
tmp=$(mktemp -d)
pids=()
sess=xgtop-fleet-$$
cleanup() {
	tmux kill-session -t "$sess" 2>/dev/null
	local p
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
	wait 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
wait_for() {   # wait_for SECONDS CMD...: CMD succeeds within SECONDS
	local end=$((SECONDS + $1))
	shift
	until "$@"; do
		[ $SECONDS -lt $end ] || return 1
		sleep 0.2
	done
}

# One exporter's text: 50 domains of a generated recording.
build/tools/xgtop-gen --steady --domains 50 --samples 600 "$tmp/rec.xgrec" >/dev/null || exit 1
ep=$(free_port)
./xgtop --replay "$tmp/rec.xgrec" --export "127.0.0.1:$ep" --daemon 2>/dev/null &
pids+=($!)
wait_for 30 curl -sf -o "$tmp/snap.txt" "http://127.0.0.1:$ep/metrics" || { echo "fleet: the exporter did not answer"; exit 1; }
sleep 2   # its second sample: every counter has moved once
curl -sf -o "$tmp/snap.txt" "http://127.0.0.1:$ep/metrics"

vp=$(free_port)
victoria-metrics -storageDataPath="$tmp/vm-data" -httpListenAddr="127.0.0.1:$vp" >"$tmp/vm.log" 2>&1 &
pids+=($!)
wait_for 30 curl -sf -o /dev/null "http://127.0.0.1:$vp/api/v1/query?query=1" || { tail -5 "$tmp/vm.log"; exit 1; }
t0=$(date +%s.%N)
python3 bench/fleet_gen.py "$tmp/snap.txt" "$HOSTS" "$SAMPLES" 10 "${FUTURE:-900}" >"$tmp/fleet.jsonl" || exit 1
nseries=$(wc -l <"$tmp/fleet.jsonl")
curl -sf --data-binary "@$tmp/fleet.jsonl" "http://127.0.0.1:$vp/api/v1/import" || { echo "fleet: import refused"; exit 1; }
curl -sf "http://127.0.0.1:$vp/internal/force_flush" >/dev/null
doms() { curl -sf "http://127.0.0.1:$vp/api/v1/query" --data-urlencode 'query=count(last_over_time(xgtop_domain_info[10m]))' |
	python3 -c 'import json,sys; r=json.load(sys.stdin)["data"]["result"]; print(r[0]["value"][1] if r else 0)'; }
per=$(grep -c '^xgtop_domain_info{' "$tmp/snap.txt")
has_all() { [ "$(doms)" = $((HOSTS * per)) ]; }
wait_for 120 has_all || { echo "fleet: the server holds $(doms) domains, want $((HOSTS * per))"; exit 1; }
printf 'fleet: %d hosts x %d domains, %d series x %d points, generated and imported in %.0f s\n' \
	"$HOSTS" "$per" "$nseries" "$SAMPLES" "$(echo "$(date +%s.%N) - $t0" | bc)"

pp=$(free_port)
python3 tests/remote/relay.py "$pp" "$vp" "$tmp/count" &
pids+=($!)
wait_for 10 test -s "$tmp/count" || exit 1
url=http://127.0.0.1:$pp
reqs_at_least() { [ "$(cut -d' ' -f1 "$tmp/count")" -ge "$1" ]; }
cpu_ms() { awk '{ printf "%.0f", ($14 + $15) * 1000 / '"$(getconf CLK_TCK)"' }' "/proc/$1/stat"; }

# per_refresh LABEL PID R0 U0 D0 C0: from the relay's and the process's
# counters then (R0 requests, U0/D0 bytes, C0 ms of CPU) to now; two
# requests a refresh.
per_refresh() {
	local r u d c
	read -r r u d <"$tmp/count"
	c=$(cpu_ms "$2")
	local n=$(((r - $3) / 2))
	[ $n -gt 0 ] || { echo "$1: no refresh seen"; return 1; }
	printf '%-36s %3d refreshes: %8.1f kB received, %6.1f kB sent, %6.1f ms CPU per refresh\n' "$1" $n \
		"$(echo "($d - $5) / $n / 1000" | bc -l)" "$(echo "($u - $4) / $n / 1000" | bc -l)" \
		"$(echo "($c - $6) / $n" | bc -l)"
}

# Batch: every field of every domain.
./xgtop --source prometheus "$url" -b -o csv -n $((REFRESHES + 1)) -d "$DELAY" >"$tmp/batch.csv" 2>"$tmp/batch.err" &
bp=$!
wait_for 60 reqs_at_least 2 || { cat "$tmp/batch.err"; exit 1; }
read -r r0 u0 d0 <"$tmp/count"
c0=$(cpu_ms $bp)
wait_for 600 reqs_at_least $((r0 + 2 * REFRESHES)) || { cat "$tmp/batch.err"; exit 1; }
per_refresh "batch (all rows, every field)" $bp "$r0" "$u0" "$d0" "$c0"
wait $bp || { cat "$tmp/batch.err"; exit 1; }
rows=$(($(grep -c . "$tmp/batch.csv") - 1))

# The full-screen view: the rows on screen.
tmux new-session -d -s $sess -x 200 -y 62 "exec ./xgtop --no-config --source prometheus $url -d $DELAY 2>$tmp/tui.err"
tp=$(tmux list-panes -t $sess -F '#{pane_pid}')
read -r r1 _ <"$tmp/count"
wait_for 60 reqs_at_least $((r1 + 6)) || { tmux capture-pane -p -t $sess; exit 1; }
read -r r0 u0 d0 <"$tmp/count"
c0=$(cpu_ms "$tp")
wait_for 600 reqs_at_least $((r0 + 2 * REFRESHES)) || exit 1
per_refresh "full-screen view (rows on screen)" "$tp" "$r0" "$u0" "$d0" "$c0"
tmux capture-pane -p -t $sess >"$tmp/screen"
shown=$(grep -c 'fleet[0-9]' "$tmp/screen")
dash=$(grep 'fleet[0-9]' "$tmp/screen" | awk '{ for (i = 1; i <= NF; i++) if ($i == "-") n++ } END { print n + 0 }')
empty=$(tail -n "$shown" "$tmp/batch.csv" | awk -F, '{ for (i = 1; i <= NF; i++) if ($i == "") n++ } END { print n + 0 }')
echo "batch rows per refresh: $((rows / (REFRESHES + 1))); screen rows: $shown, '-' cells on them: $dash" \
	"(batch: $empty empty cells on as many rows)"
