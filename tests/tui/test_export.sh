#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# --export beside the full-screen view: /metrics serves the refreshes the
# screen shows, the server never writes on the terminal (not even when a
# client makes it complain), and q still restores the terminal.
. "$(dirname "$0")/lib.sh"
command -v curl >/dev/null || skip "curl is needed to scrape the exporter"
"$XGTOP" -b -n 1 --export 127.0.0.1:0 --replay /dev/null 2>&1 | grep -q 'without libmicrohttpd' &&
	skip "this xgtop was built without libmicrohttpd"
make_rec 600
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
start_shell
start_xgtop --export "127.0.0.1:$port"
wait_for busy-03
m=$(curl -sf --max-time 5 "http://127.0.0.1:$port/metrics") || fail "no scrape while the view runs"
echo "$m" | grep -q '^xgtop_domain_cpu_seconds_total{domain="busy-03",' || fail "busy-03 not exported"
# A request the server complains about (431), and an unknown path.
python3 -c "import socket; s = socket.create_connection(('127.0.0.1', $port)); s.sendall(b'GET / HTTP/1.1\r\nX: ' + b'a' * 30000 + b'\r\n\r\n'); s.recv(100)"
curl -s --max-time 5 "http://127.0.0.1:$port/nope" >/dev/null
settle
screen | grep -qiE 'listening|exporter|request|error|http' && fail "the exporter wrote on the terminal"
# Frozen: the last refresh stays served.
keys ' '
wait_for FROZEN
n1=$(curl -sf --max-time 5 "http://127.0.0.1:$port/metrics" | sed -n 's/^xgtop_collector_refreshes_total //p')
# (what must not happen while frozen: a refresh, one per second unfrozen;
# a longer wait on a loaded machine only makes the check stricter)
sleep 1.5
n2=$(curl -sf --max-time 5 "http://127.0.0.1:$port/metrics" | sed -n 's/^xgtop_collector_refreshes_total //p')
[ -n "$n1" ] && [ "$n1" = "$n2" ] || fail "refreshes while frozen: $n1 then $n2"
keys q
check_restored
curl -s --max-time 2 "http://127.0.0.1:$port/metrics" >/dev/null && fail "still serving after q"
echo "ok: exported while the view ran (frozen: refresh $n1 stays), nothing on the terminal, q restores it"
