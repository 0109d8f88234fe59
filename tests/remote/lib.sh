# SPDX-License-Identifier: GPL-2.0-or-later
# Sourced by the pool-view tests (tests/remote, tests/tui/test_pool.sh):
# exporters the test starts itself, replaying generated recordings on
# loopback ports, and hosts that accept connections but never answer.
POOL_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
POOL_GEN=${XGTOP_GEN:-$POOL_ROOT/build/tools/xgtop-gen}
pool_pids=()
. "$POOL_ROOT/tests/wait.sh"

pool_cleanup() {
	local p
	for p in "${pool_pids[@]}"; do
		kill -CONT "$p" 2>/dev/null
		kill "$p" 2>/dev/null
	done
	wait 2>/dev/null
}

# A port nobody listens on now (the kernel's pick; taken again at once).
free_port() {
	python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# answers PORT: GET /metrics on PORT succeeds.
answers() { curl -sf --max-time 1 "http://127.0.0.1:$1/metrics" >/dev/null; }
# accepts PORT: something accepts connections on PORT.
accepts() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# start_exporter PORT REC [ARGS...]: xgtop replaying REC (paced, so it
# keeps serving while the recording lasts) with --export on PORT; waits
# until /metrics answers. Its pid is the last of pool_pids.
start_exporter() {
	local port=$1 rec=$2
	shift 2
	"$POOL_ROOT/xgtop" --replay "$rec" --export "127.0.0.1:$port" --daemon "$@" 2>>"${POOL_LOG:-/dev/null}" &
	pool_pids+=($!)
	wait_until 30 answers "$port" && return 0
	echo "FAIL: the exporter on port $port did not answer within 30 s"
	exit 1
}

# start_mute PORT: a listener that accepts and never answers (a hung host).
start_mute() {
	python3 -c '
import socket, sys, time
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", int(sys.argv[1]))); s.listen(64)
held = []
end = time.time() + 120
s.settimeout(1)
while time.time() < end:
    try:
        held.append(s.accept()[0])
    except socket.timeout:
        pass
' "$1" &
	pool_pids+=($!)
	wait_until 30 accepts "$1" && return 0
	echo "FAIL: the silent host on port $1 did not listen within 30 s"
	exit 1
}

# make_recs DIR: two different recordings of steady load (constant rates,
# so any two samples give the same figures): A with the fixture's 12
# domains, B with 5 of them and another seed. 3000 samples: the scripted
# changes of A's domains (late-08 comes at T/3) wait 250 s at 4 times the
# pace, so the tests see the same domains however slowly a loaded machine
# runs them (with 300 samples, late-08 came 25 s in, mid-test).
# POOL_B_FLAGS: more xgtop-gen options for B (--vms --psi: a KVM host
# whose VM and pressure columns the other host lacks). POOL_NOISY=1: the
# script's noise instead of steady load (figures that vary).
make_recs() {
	local steady=--steady
	[ -n "${POOL_NOISY:-}" ] && steady=
	# shellcheck disable=SC2086
	"$POOL_GEN" $steady --samples 3000 "$1/a.xgrec" >/dev/null &&
	"$POOL_GEN" $steady --samples 3000 --domains 5 --seed 7 ${POOL_B_FLAGS:-} "$1/b.xgrec" >/dev/null
}

# two_hosts TOOL...: the pool tests' set-up. Skips without xgtop, the
# generator, the exporter or a TOOL; sets TMP (removed on exit with the
# exporters), fail and POOL_LOG; starts two exporters on the two recordings
# (refreshing every 0.25 s: the recordings' 1 s samples, 4 times faster;
# POOL_SPEED=N: N times), at ha and hb (127.0.0.1:PORT).
two_hosts() {
	local t
	[ -x ./xgtop ] && [ -x "$POOL_GEN" ] || { echo "SKIP: build xgtop and the tools first (make; make tools)"; exit 77; }
	for t in curl python3 "$@"; do
		command -v "$t" >/dev/null || { echo "SKIP: $t is not installed (make deps)"; exit 77; }
	done
	./xgtop --help | grep -q -- --export || { echo "SKIP: built without libmicrohttpd: no exporter to read"; exit 77; }
	TMP=$(mktemp -d)
	trap 'pool_cleanup; rm -rf "$TMP"' EXIT
	fail() { echo "FAIL: $*"; exit 1; }
	POOL_LOG=$TMP/exporters.log
	make_recs "$TMP" || fail "xgtop-gen failed"
	pa=$(free_port) && start_exporter "$pa" "$TMP/a.xgrec" --speed "${POOL_SPEED:-4}"
	pb=$(free_port) && start_exporter "$pb" "$TMP/b.xgrec" --speed "${POOL_SPEED:-4}"
	ha=127.0.0.1:$pa hb=127.0.0.1:$pb
}
