#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The exporter's cost of gzip and of TLS, in one run against plain HTTP:
# two xgtop --daemon --export, one plain and one with --web-config (TLS
# with a certificate made here, one basic-auth user), each replaying the
# same recording of DOMAINS domains taken every second, scraped by wrk
# as Prometheus asks (OpenMetrics preferred) for SECONDS_RUN seconds per
# phase: plain HTTP; plain HTTP with Accept-Encoding: gzip; TLS with gzip
# and the user's password. Target: at least 2,000 scrapes/s with gzip and
# with TLS, resident memory flat. Printed, not asserted.
cd "$(dirname "$0")/.." || exit 2
make -s xgtop tools >/dev/null || exit 2
for c in wrk openssl; do command -v $c >/dev/null || { echo "exporter_secure: $c is not installed"; exit 2; }; done
SECONDS_RUN=${SECONDS_RUN:-20} CONNS=${CONNS:-8} THREADS=${THREADS:-2} DOMAINS=${DOMAINS:-100}
tmp=$(mktemp -d)
xpids=()
trap 'for p in "${xpids[@]}"; do kill "$p" 2>/dev/null; done; rm -rf "$tmp"' EXIT
build/tools/xgtop-gen --domains "$DOMAINS" --samples $((4 * SECONDS_RUN + 60)) "$tmp/rec.xgrec" >/dev/null || exit 1
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout "$tmp/k.pem" \
	-out "$tmp/c.pem" -days 1 -subj /CN=127.0.0.1 2>/dev/null || exit 1
hash=$(python3 -c 'import ctypes, os
c = ctypes.CDLL("libcrypt.so.1"); c.crypt_gensalt.restype = c.crypt.restype = ctypes.c_char_p
print(c.crypt(b"bench", c.crypt_gensalt(b"$2y$", 10, os.urandom(16), 16)).decode())')
printf 'tls_server_config:\n  cert_file: c.pem\n  key_file: k.pem\nbasic_auth_users:\n  prom: %s\n' "$hash" >"$tmp/web.yml"

# start NAME ARGS...: an exporter; sets port and pid.
start() {
	local name=$1; shift
	./xgtop --daemon --export 127.0.0.1:0 --replay "$tmp/rec.xgrec" "$@" 2>"$tmp/$name.log" &
	pid=$!
	xpids+=("$pid")
	for _ in $(seq 100); do
		port=$(sed -n 's|.*listening on https\?://127\.0\.0\.1:\([0-9]*\)/metrics|\1|p' "$tmp/$name.log")
		[ -n "$port" ] && return 0
		sleep 0.05
	done
	cat "$tmp/$name.log"; echo "exporter_secure: xgtop did not start"; exit 1
}
start plain; plain_port=$port plain_pid=$pid
start tls --web-config "$tmp/web.yml"; tls_port=$port tls_pid=$pid
accept='application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1'
auth="Authorization: Basic $(printf prom:bench | base64)"
sleep 3
rss_kb() { awk '/^VmRSS/ {print $2}' "/proc/$1/status"; }
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }

echo "exporter_secure: $DOMAINS domains, a refresh every second, $CONNS connections ($THREADS wrk threads), ${SECONDS_RUN} s a phase"
# phase NAME PID URL CURL-ARGS -- WRK-HEADERS...
phase() {
	local name=$1 pid=$2 url=$3; shift 3
	local bytes r0 r1 c0 c1 rate p99 errs
	bytes=$(curl -sk -H "Accept: $accept" "$@" -o - "$url" | wc -c)
	r0=$(rss_kb "$pid"); c0=$(cpu_ticks "$pid")
	local hdr=() a
	for a in "$@"; do [ "$a" != -H ] && hdr+=(-H "$a"); done
	wrk -t"$THREADS" -c"$CONNS" -d"${SECONDS_RUN}s" --latency -H "Accept: $accept" "${hdr[@]}" "$url" >"$tmp/wrk.$name" 2>&1
	r1=$(rss_kb "$pid"); c1=$(cpu_ticks "$pid")
	rate=$(sed -n 's/^Requests\/sec: *//p' "$tmp/wrk.$name")
	p99=$(awk '$1 == "99%" {print $2}' "$tmp/wrk.$name")
	errs=$(grep -E 'Non-2xx|Socket errors' "$tmp/wrk.$name" | tr '\n' ' ')
	printf '  %-26s %6.0f scrapes/s of %6d bytes, p99 %s, xgtop %3.0f %% of a CPU, RSS %.1f -> %.1f MB%s\n' \
		"$name" "$rate" "$bytes" "$p99" "$(echo "100 * ($c1 - $c0) / $(getconf CLK_TCK) / $SECONDS_RUN" | bc -l)" \
		"$(echo "$r0 / 1024" | bc -l)" "$(echo "$r1 / 1024" | bc -l)" "${errs:+ ($errs)}"
}
phase "plain HTTP" "$plain_pid" "http://127.0.0.1:$plain_port/metrics"
phase "plain HTTP, gzip" "$plain_pid" "http://127.0.0.1:$plain_port/metrics" -H 'Accept-Encoding: gzip'
phase "TLS, basic auth, gzip" "$tls_pid" "https://127.0.0.1:$tls_port/metrics" -H 'Accept-Encoding: gzip' -H "$auth"
phase "TLS, basic auth, no gzip" "$tls_pid" "https://127.0.0.1:$tls_port/metrics" -H "$auth"
echo "  (target: >= 2000 scrapes/s with gzip and with TLS; wrk keeps its connections open, as Prometheus does)"
