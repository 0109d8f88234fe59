# SPDX-License-Identifier: GPL-2.0-or-later
# Sourced by tests/remote/test_promsrc_*.sh, after tests/remote/lib.sh: a
# real Prometheus or VictoriaMetrics (the Debian packages) on a free
# loopback port with a data directory of the test's own, their default
# settings but for the scrape interval (1 s) and the targets given.

# scrape_config FILE TARGET...: a scrape configuration, every 1 s.
scrape_config() {
	local f=$1 t
	shift
	{
		printf 'global:\n  scrape_interval: 1s\nscrape_configs:\n  - job_name: xgtop\n'
		printf '    static_configs:\n      - targets: ['
		local sep=""
		for t in "$@"; do printf "%s'%s'" "$sep" "$t"; sep=", "; done
		printf ']\n'
	} >"$f"
}

# server_answers PORT: its query API answers.
server_answers() { curl -sf --max-time 1 "http://127.0.0.1:$1/api/v1/query?query=1" >/dev/null; }

# start_prometheus DIR PORT CONFIG: Prometheus; its pid is the last of pool_pids.
start_prometheus() {
	prometheus --config.file="$3" --storage.tsdb.path="$1/prom-data" \
		--web.listen-address="127.0.0.1:$2" >>"$1/prometheus.log" 2>&1 &
	pool_pids+=($!)
	wait_until 30 server_answers "$2" && return 0
	tail -5 "$1/prometheus.log"
	echo "FAIL: Prometheus on port $2 did not answer within 30 s"
	exit 1
}

# start_victoria DIR PORT CONFIG: VictoriaMetrics (single node, its own
# scraper); its pid is the last of pool_pids.
start_victoria() {
	victoria-metrics -storageDataPath="$1/vm-data" -httpListenAddr="127.0.0.1:$2" \
		-promscrape.config="$3" >>"$1/victoria.log" 2>&1 &
	pool_pids+=($!)
	wait_until 30 server_answers "$2" && return 0
	tail -5 "$1/victoria.log"
	echo "FAIL: VictoriaMetrics on port $2 did not answer within 30 s"
	exit 1
}

# figures_in PORT N [ARGS...]: the Prometheus source on PORT shows at
# least N rows, every one with a CPU% figure, at its second refresh.
figures_in() {
	local port=$1 n=$2
	shift 2
	./xgtop --source prometheus "http://127.0.0.1:$port" -b -o json -n 2 -d 0.5 "$@" 2>/dev/null |
		tail -n 1 | python3 -c '
import json, sys
d = json.loads(sys.stdin.read() or "{}").get("domains", [])
sys.exit(0 if len(d) >= int(sys.argv[1]) and all(x["cpu_pct"] is not None for x in d) else 1)' "$n"
}
