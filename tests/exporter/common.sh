# SPDX-License-Identifier: GPL-2.0-or-later
# Sourced by the exporter tests: runs from the top of the tree, gives each
# test a scratch directory, starts xgtop exporters on free loopback ports
# and stops whatever the test started.
cd "$(dirname "$0")/../.." || exit 2
. tests/listen-port.sh
. tests/wait.sh
[ -x ./xgtop ] || { echo "FAIL: ./xgtop is not built (make)"; exit 1; }
[ -x build/tools/xgtop-gen ] || { echo "FAIL: build/tools/xgtop-gen is not built (make tools)"; exit 1; }
command -v curl >/dev/null || { echo "SKIP: curl is needed to scrape the exporter"; exit 77; }
if ./xgtop -b -n 1 --export 127.0.0.1:0 --replay /dev/null 2>&1 | grep -q 'without libmicrohttpd'; then
	echo "SKIP: this xgtop was built without libmicrohttpd"
	exit 77
fi
tmp=$(mktemp -d)
pids=()
cleanup() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
	for p in "${pids[@]}"; do wait "$p" 2>/dev/null; done
	rm -rf "$tmp"
}
trap cleanup EXIT
fail() { echo "FAIL: $*"; exit 1; }

# start_exporter NAME ARGS...: xgtop --daemon --export 127.0.0.1:0 ARGS, its
# log in $tmp/NAME.log; sets port and xpid once it listens.
start_exporter() {
	local name=$1; shift
	./xgtop --daemon --export 127.0.0.1:0 "$@" 2>"$tmp/$name.log" &
	xpid=$!
	pids+=("$xpid")
	port=$(listen_port "$tmp/$name.log" "$xpid") && return 0
	cat "$tmp/$name.log"
	fail "xgtop $* did not start listening"
}

# scrape [ACCEPT]: the body of GET /metrics.
scrape() {
	curl -sf --max-time 5 ${1:+-H "Accept: $1"} "http://127.0.0.1:$port/metrics"
}
OM='application/openmetrics-text;version=1.0.0,text/plain;version=0.0.4;q=0.5'
# refreshes: how many refreshes the exporter has served so far.
refreshes() { scrape | sed -n 's/^xgtop_collector_refreshes_total //p'; }
# refreshed N: it has served N refreshes or more (for wait_until).
refreshed() { [ "$(refreshes)" -ge "$1" ] 2>/dev/null; }

# A free TCP port on 127.0.0.1 (for programs that cannot be told port 0).
free_port() {
	python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}
