# SPDX-License-Identifier: GPL-2.0-or-later
# Sourced by tests/remote/test_promsrc_report_*.sh, after lib.sh and
# promsrc_lib.sh: `xgtop report --source prometheus` against a real server
# that holds a past minute of two exporters replaying the generator's
# noisy script (every counter moves with +-2 % noise each second, so a
# period's mean, 95th percentile and maximum differ: the tests set
# POOL_NOISY=1). The minute is backfilled (report_data), as the server
# would have scraped it once a second: waiting for a minute of live
# scrapes cost each test more than a minute.

# report_data FORMAT: the exporters at ha and hb (replaying 10 times
# faster than recorded: POOL_SPEED=10), scraped until each has given
# REPORT_SAMPLES (60) distinct samples, stamped 1 s apart from
# REPORT_START (set here: 5 minutes ago, so that VictoriaMetrics, which
# answers as of 30 s ago, holds all of it) and written in FORMAT
# (scrape_past.py: openmetrics for promtool, prometheus for
# VictoriaMetrics' import). The report's period (REPORT_FROM, REPORT_TO)
# is 30 s starting 15 s in: every interval's window holds samples.
report_data() {
	REPORT_START=$(($(date +%s) - 300))
	REPORT_FROM=$((REPORT_START + 15)) REPORT_TO=$((REPORT_START + 45))
	python3 tests/remote/scrape_past.py "$1" "$REPORT_START" "${REPORT_SAMPLES:-60}" "$ha" "$hb"
}

# holds_period PORT: the server answers with both hosts' samples at the
# end of the period.
holds_period() {
	curl -sf --max-time 2 "http://127.0.0.1:$1/api/v1/query" --data-urlencode "time=$REPORT_TO" \
		--data-urlencode "query=count(count by(instance)(xgtop_sample_monotonic_seconds))" |
		grep -q '"value":\[[0-9.]*,"2"\]'
}

# check_report KIND PORT FROM TO STEP REPORT.csv: every figure of CPU% and
# NET-TX/s in REPORT.csv (xgtop report -o csv) equals the one this
# function computes itself from the server's raw samples (fetched as
# range vectors, no function applied) within 0.1 %, and its intervals the
# count. Each interval's figure is the counter's change over the window
# divided by that of the host's sample clock, the change as each server's
# delta() takes it: Prometheus from the window's first sample to its last,
# both in [t - STEP, t]; VictoriaMetrics from the last sample before
# (t - STEP, t] to the last one in it. The intervals end at the multiples
# of STEP in [FROM, TO] (Prometheus; VictoriaMetrics: (FROM, TO]); the mean is theirs, the 95th percentile
# interpolated at 0.95 (n - 1), the maximum theirs.
check_report() {
	python3 - "$@" <<'PY'
import csv, json, sys, urllib.parse, urllib.request
kind, port, t0, t1, step, path = sys.argv[1], sys.argv[2], float(sys.argv[3]), float(sys.argv[4]), int(sys.argv[5]), sys.argv[6]
def raw(metric):
    q = urllib.parse.urlencode({"query": f"{metric}[{int(t1 - t0) + 4 * step + 60}s]", "time": f"{t1:.3f}"})
    r = json.load(urllib.request.urlopen(f"http://127.0.0.1:{port}/api/v1/query?{q}", timeout=30))
    assert r["status"] == "success", r
    return r["data"]["result"]
clock = {s["metric"]["instance"]: {float(t): float(v) for t, v in s["values"]} for s in raw("xgtop_sample_monotonic_seconds")}
def change(pts, t):
    inside = [p for p in pts if t - step <= p[0] <= t] if kind == "prometheus" else [p for p in pts if t - step < p[0] <= t]
    before = [p for p in pts if p[0] <= t - step]
    if kind == "prometheus":
        return (inside[0], inside[-1]) if len(inside) >= 2 else None
    if not inside:
        return None
    first = before[-1] if before else inside[0]
    return (first, inside[-1]) if first is not inside[-1] else None
# Prometheus 2's subqueries include a start on the step, VictoriaMetrics' not.
first = -(-t0 // step) if kind == "prometheus" else t0 // step + 1
ends = [k * step for k in range(int(first), int(t1 // step) + 1)]
def summary(vals):
    if not vals:
        return None
    s = sorted(vals)
    r = 0.95 * (len(s) - 1)
    lo = int(r)
    p95 = s[lo] + (s[min(lo + 1, len(s) - 1)] - s[lo]) * (r - lo)
    return len(vals), sum(vals) / len(vals), p95, max(vals)
want = {}
for col, metric, scale in (("cpu_pct", "xgtop_domain_cpu_seconds_total", 100.0), ("net_tx_bps", "xgtop_domain_network_transmit_bytes_total", 1.0)):
    for s in raw(metric):
        inst, dom = s["metric"]["instance"], s["metric"]["domain"]
        pts = [(float(t), float(v)) for t, v in s["values"]]
        vals = []
        for t in ends:
            c = change(pts, t)
            if not c:
                continue
            dc = c[1][1] - c[0][1]
            dm = clock[inst].get(c[1][0], float("nan")) - clock[inst].get(c[0][0], float("nan"))
            if dc >= 0 and dm > 0:
                vals.append(scale * dc / dm)
        if vals:
            want[(inst, dom, col)] = summary(vals)
got = {(r["host"], r["name"], r["column"]): r for r in csv.DictReader(open(path, newline=""))}
checked, worst = 0, 0.0
for key, (n, mean, p95, mx) in sorted(want.items()):
    r = got.get(key)
    assert r, f"{key}: not in the report"
    assert int(r["intervals"]) == n, f"{key}: {r['intervals']} intervals, computed {n}"
    for name, v in (("mean", mean), ("p95", p95), ("max", mx)):
        g = float(r[name])
        err = abs(g - v) / max(abs(v), 1e-9)
        assert err <= 0.001 or abs(g - v) < 1e-6, f"{key} {name}: report {g}, computed {v}"
        worst = max(worst, err)
        checked += 1
hosts = {k[0] for k in want}
doms = {k[:2] for k in want}
assert len(hosts) == 2 and len(doms) >= 16, f"computed {len(doms)} domains of {len(hosts)} hosts"
spread = [want[k] for k in want if k[2] == "cpu_pct" and want[k][3] > want[k][1] * 1.001]
assert spread, "no domain whose CPU% max differs from its mean: the check cannot tell them apart"
print(f"{kind}: {checked} figures ({len(doms)} domains of 2 hosts, CPU% and NET-TX/s, mean/p95/max) "
      f"equal the raw samples' within {worst * 100:.4f} % (bound 0.1 %), {len(ends)} intervals of {step} s")
PY
}

# first_line FILE: the error line (a usage error's usage follows it).
first_line() { head -n 1 "$1"; }

# report_checks KIND PORT: the checks both servers pass (the test's
# header lists them), over the period report_data made, in 3 s intervals.
report_checks() {
	local kind=$1 port=$2 url=http://127.0.0.1:$2 from=$REPORT_FROM to=$REPORT_TO f t names want
	wait_until 30 holds_period "$port" || fail "$kind does not show both hosts' backfilled samples within 30 s"
	./xgtop report --source prometheus "$url" --from "$from" --to "$to" --step 3 -o csv >"$TMP/r.csv" ||
		fail "the report failed"
	check_report "$kind" "$port" "$from" "$to" 3 "$TMP/r.csv" || fail "the report's figures (above)"
	f=$(date -u -d "@$from" +%Y-%m-%dT%H:%M:%SZ)
	t=$(TZ=Europe/Paris date -d "@$to" +%Y-%m-%dT%H:%M:%S%:z)
	./xgtop report --source prometheus "$url" --from "$f" --to "$t" --step 3 -o csv >"$TMP/r3339.csv" ||
		fail "the report with RFC 3339 times failed"
	cmp -s "$TMP/r.csv" "$TMP/r3339.csv" || fail "--from $f --to $t: not the report of --from $from --to $to"
	echo "RFC 3339 ($f .. $t): the same report as Unix seconds"

	./xgtop report --source prometheus "$url" --from "$from" --to "$to" --step 3 -o json >"$TMP/r.json" ||
		fail "-o json failed"
	./xgtop report --source prometheus "$url" --from "$from" --to "$to" --step 3 >"$TMP/r.txt" || fail "text failed"
	python3 - "$TMP/r.csv" "$TMP/r.json" "$TMP/r.txt" "$ha" <<'PY' || fail "JSON and text (above)"
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
j = json.load(open(sys.argv[2]))
assert j["computed_by"] == "server" and j["step_s"] == 3, {k: j[k] for k in j if k != "domains"}
jd = {(d["host"], d["id"]): d for d in j["domains"]}
assert len(jd) == len({(r["host"], r["id"]) for r in rows}) >= 16, "domains of JSON and CSV"
for r in rows:
    c = jd[(r["host"], int(r["id"]))]["columns"][r["column"]]
    for k in ("mean", "p95", "max"):
        assert (c[k] is None and r[k] == "") or abs(c[k] - float(r[k])) <= 1e-9 * max(1, abs(c[k])), (r, c)
text = open(sys.argv[3]).read().splitlines()
assert text[0].startswith("xgtop report  http://") and "intervals of 3 s" in text[0], text[0]
head = [l for l in text if l.startswith("HOST ")]
assert head and head[0].split()[:4] == ["HOST", "ID", "NAME", "COLUMN"], head
assert any(l.startswith(sys.argv[4] + " ") and " CPU% " in l for l in text), "no CPU% line of " + sys.argv[4]
print(f"JSON: {len(rows)} figures as the CSV's; text: HOST ID NAME COLUMN N MEAN P95 MAX")
PY

	./xgtop report --source prometheus "$url" --from "$from" --to "$to" -o csv --filter 'busy|net' >"$TMP/f.csv" ||
		fail "--filter failed"
	names=$(tail -n +2 "$TMP/f.csv" | cut -d, -f1,3 | sort -u | tr '\n' ' ')
	want=$(printf '%s\n' "$ha,busy-03" "$ha,net-04" "$hb,busy-03" "$hb,net-04" | sort | tr '\n' ' ')
	[ "$names" = "$want" ] || fail "--filter 'busy|net' reports: $names; want $want"
	./xgtop report --source prometheus "$url" --from "$from" --to "$to" -o csv --host-match "127.0.0.1:$pb" \
		>"$TMP/h.csv" || fail "--host-match failed"
	names=$(tail -n +2 "$TMP/h.csv" | cut -d, -f1 | sort -u | tr '\n' ' ')
	[ "$names" = "$hb " ] || fail "--host-match 127.0.0.1:$pb reports hosts: $names"
	echo "--filter 'busy|net': 4 domains of 2 hosts; --host-match: host $hb only"

	./xgtop report --source prometheus "$url" --from "$to" --to "$from" >"$TMP/out" 2>"$TMP/err"
	[ $? = 2 ] && first_line "$TMP/err" | grep -q "^xgtop report: --from ($to) is not before --to ($from)$" ||
		fail "--from after --to: $(cat "$TMP/err")"
	./xgtop report --source prometheus "$url" --from 'last tuesday' >"$TMP/out" 2>"$TMP/err"
	[ $? = 2 ] && first_line "$TMP/err" | grep -q "^xgtop report: bad TIME 'last tuesday': give RFC 3339" ||
		fail "bad TIME: $(cat "$TMP/err")"
	./xgtop report --source prometheus "$url" --from "$from" --to "$to" --filter '(a)\1' >"$TMP/out" 2>"$TMP/err" &&
		fail "no error for a filter the server refuses"
	[ "$(wc -l <"$TMP/err")" = 1 ] && grep -q 'refused the query.*; check --filter and --host-match, or ask for a shorter period or a longer --step$' "$TMP/err" ||
		fail "refused query: $(cat "$TMP/err")"
	echo "from after to, bad TIME, refused: $(first_line "$TMP/err")"
}

# report_server_down PORT: the server stopped: one line, exit 1.
report_server_down() {
	./xgtop report --source prometheus "http://127.0.0.1:$1" --from -5m >"$TMP/out" 2>"$TMP/err"
	[ $? = 1 ] && [ "$(wc -l <"$TMP/err")" = 1 ] && grep -q "Prometheus at http://127.0.0.1:$1: .*is the server up" "$TMP/err" ||
		fail "server down: $(cat "$TMP/err")"
	echo "server down: $(cat "$TMP/err")"
}
