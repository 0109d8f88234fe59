# SPDX-License-Identifier: GPL-2.0-or-later
# Sourced by tests/remote/test_promsrc_*.sh, after tests/remote/lib.sh: a
# real Prometheus or VictoriaMetrics (the Debian packages) on a free
# loopback port with a data directory of the test's own, their default
# settings but for the scrape interval (1 s) and the targets given.

# tui_server: the set-up of the full-screen view's tests (after
# tests/tui/lib.sh and tests/remote/lib.sh): sets server from SERVER
# (prometheus, or victoria), skips without its binary, curl, python3 or
# the exporter, and stops the exporters and servers on exit.
tui_server() {
	server=${SERVER:-prometheus}
	local bin=prometheus t
	[ "$server" = victoria ] && bin=victoria-metrics
	for t in curl $bin python3; do
		command -v "$t" >/dev/null || skip "$t is not installed (make deps)"
	done
	"$XGTOP" --help | grep -q -- --export || skip "built without libmicrohttpd: no exporter to read"
	trap 'pool_cleanup; cleanup' EXIT
}

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

# start_server NAME LOG PORT CMD...: a server whose query API answers on
# PORT within 30 s (else the end of LOG and a failure); its pid is the last
# of pool_pids.
start_server() {
	local name=$1 log=$2 port=$3
	shift 3
	"$@" >>"$log" 2>&1 &
	pool_pids+=($!)
	wait_until 30 server_answers "$port" && return 0
	tail -5 "$log"
	echo "FAIL: $name on port $port did not answer within 30 s"
	exit 1
}

# start_prometheus DIR PORT CONFIG: Prometheus.
start_prometheus() {
	start_server Prometheus "$1/prometheus.log" "$2" prometheus --config.file="$3" \
		--storage.tsdb.path="$1/prom-data" --web.listen-address="127.0.0.1:$2"
}

# start_victoria DIR PORT CONFIG: VictoriaMetrics (single node, its own
# scraper).
start_victoria() {
	start_server VictoriaMetrics "$1/victoria.log" "$2" victoria-metrics -storageDataPath="$1/vm-data" \
		-httpListenAddr="127.0.0.1:$2" -promscrape.config="$3"
}

# seen_for PORT SECONDS: the server on PORT answers with at least SECONDS
# of both (all) hosts' scrapes (VictoriaMetrics: of those older than 30 s),
# so that every rate window starts after a host's first scrape.
seen_for() {
	curl -sf --max-time 2 "http://127.0.0.1:$1/api/v1/query" \
		--data-urlencode "query=count_over_time(xgtop_collector_refreshes_total[${2}s])" | python3 -c '
import json, sys
r = json.load(sys.stdin)["data"]["result"]
sys.exit(0 if len(r) >= 2 and all(float(x["value"][1]) >= int(sys.argv[1]) - 1 for x in r) else 1)' "$2"
}

# figures_in PORT N [ARGS...]: the Prometheus source on PORT shows at
# least N rows, every one with a CPU% figure, at its second refresh (-d 2:
# a query may take up to the refresh's delay, and the sanitizer build on a
# loaded machine is slow).
figures_in() {
	local port=$1 n=$2
	shift 2
	./xgtop --source prometheus "http://127.0.0.1:$port" -b -o json -n 2 -d 2 "$@" 2>/dev/null |
		tail -n 1 | python3 -c '
import json, sys
d = json.loads(sys.stdin.read() or "{}").get("domains", [])
sys.exit(0 if len(d) >= int(sys.argv[1]) and all(x["cpu_pct"] is not None for x in d) else 1)' "$n"
}

# check_table SOURCE.csv A.csv B.csv HOST_A HOST_B: the Prometheus source's
# last refresh (SOURCE.csv, --sort cpu) has every domain of both hosts,
# HOST their instance, sorted by CPU%, each figure within 0.5 % of the
# host's own xgtop's (A.csv, B.csv: the replays' own batch CSV), and every
# column either host shows is there (B's VM and pressure columns: the
# hosts' flags carried), but VICTIM: each host judges its own domains
# against their own baselines, and a fleet source (like the pool view)
# leaves its keys out (doc/pool.md).
check_table() {
	python3 - "$@" <<'PY'
import csv, sys
tab, fa, fb, ha, hb = sys.argv[1:]
load = lambda p: list(csv.DictReader(open(p, newline="")))
prom = load(tab)
local = {ha: load(fa), hb: load(fb)}
own = {h: {r["name"]: r for r in rows if r["time"] == rows[-1]["time"]} for h, rows in local.items()}
rows = [r for r in prom if r["time"] == prom[-1]["time"]]
host_only = {"interval_s", "victim", "victim_windows"}
lack = [k for h in own for k in local[h][0] if k not in prom[0] and k not in host_only]
assert not lack, f"columns the hosts show and this source does not: {sorted(set(lack))}"
got = {h: sum(r["host"] == h for r in rows) for h in own}
want = {h: len(own[h]) for h in own}
assert got == want and len(rows) == sum(want.values()), f"rows per host {got}, want {want}"
missing = [f'{r["host"]} {r["name"]}' for r in rows if r["cpu_pct"] == ""]
assert not missing, f"no CPU% for {missing}"
cpu = [float(r["cpu_pct"]) for r in rows]
assert cpu == sorted(cpu, reverse=True), f"not sorted by CPU% across hosts: {cpu}"
checked = 0
for r in rows:
    mine = own[r["host"]].get(r["name"])
    assert mine, f"{r['host']} {r['name']}: not in that host's own view"
    for k, v in r.items():
        if k in ("time", "interval_s", "host", "id", "cpu_s") or mine.get(k, "") == "":
            continue
        assert v != "", f"{r['host']} {r['name']} {k}: no figure, the host's own is {mine[k]}"
        if k in ("name", "state"):
            assert v == mine[k], f"{r['host']} {r['name']} {k}: {v}, own {mine[k]}"
        else:
            a, b = float(v), float(mine[k])
            assert abs(a - b) <= 0.005 * max(1.0, abs(b)), f"{r['host']} {r['name']} {k}: server {a}, own {b}"
        checked += 1
print(f"one table: {len(rows)} rows of 2 hosts by CPU%, {checked} figures within 0.5 % of the hosts' own")
PY
}

# check_vcpus SOURCE.csv A.csv B.csv HOST_A HOST_B: with -v, the
# Prometheus source's last refresh has every vCPU row of both hosts (the
# hosts' own batch CSV with -v), state as theirs and each figure within
# 0.5 % of theirs (CPU(s) aside: the replays start over).
check_vcpus() {
	python3 - "$@" <<'PY'
import csv, sys
tab, fa, fb, ha, hb = sys.argv[1:]
load = lambda p: list(csv.DictReader(open(p, newline="")))
prom = load(tab)
rows = [r for r in prom if r["time"] == prom[-1]["time"] and r["vcpu"] != ""]
own = {}
for h, p in ((ha, fa), (hb, fb)):
    rs = load(p)
    for r in rs:
        if r["time"] == rs[-1]["time"] and r["vcpu"] != "":
            own[(h, r["name"], r["vcpu"])] = r
got = {(r["host"], r["name"], r["vcpu"]): r for r in rows}
assert set(got) == set(own), f"vCPU rows: {len(got)}, the hosts' own {len(own)}; missing {sorted(set(own) - set(got))[:5]}, extra {sorted(set(got) - set(own))[:5]}"
checked = 0
for k, mine in own.items():
    r = got[k]
    assert r["state"] == mine["state"], f"{k} state: {r['state']}, own {mine['state']}"
    for c in ("cpu_pct", "run_pct", "wait_pct", "blk_pct", "off_pct"):
        if mine[c] == "":
            continue
        assert r[c] != "", f"{k} {c}: no figure, the host's own is {mine[c]}"
        a, b = float(r[c]), float(mine[c])
        assert abs(a - b) <= 0.005 * max(1.0, abs(b)), f"{k} {c}: server {a}, own {b}"
        checked += 1
assert checked >= len(own) * 4, f"only {checked} figures of {len(own)} vCPU rows"
print(f"vCPU rows: {len(own)} of 2 hosts, {checked} figures within 0.5 % of the hosts' own")
PY
}
