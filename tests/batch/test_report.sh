#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# xgtop report: the mean, 95th percentile and maximum per domain and column
# against the fixture generator's scripted rates (steady: every interval
# has exactly the script's figure), and against an oracle computed here in
# awk from the generator's raw counters (--dump) for a jittered recording;
# --from/--to in ISO 8601 and relative form pick the same intervals; CSV,
# JSON and text outputs; errors.
. "$(dirname "$0")/common.sh"
GEN=build/tools/xgtop-gen
[ -x "$GEN" ] || { echo "SKIP: no $GEN (make tools)"; exit 77; }

# --- steady load: the script's figures exactly ---------------------------
"$GEN" --samples 30 --steady "$tmp/steady.xgr" || fail "generator"
./xgtop report --replay "$tmp/steady.xgr" -o csv >"$tmp/steady.csv" || fail "report -o csv"
# field: id,name,from,to,column,intervals,mean,p95,max,why
want() {  # name column intervals value
	local line
	line=$(awk -F, -v n="$1" -v c="$2" '$2 == n && $5 == c' "$tmp/steady.csv")
	[ -n "$line" ] || fail "no line for $1 $2"
	awk -F, -v w="$4" -v k="$3" -v l="$line" '
		{ bad = $6 != k; for (i = 7; i <= 9; i++) if ($i == "" || ($i - w) > 0.0005 || (w - $i) > 0.0005) bad = 1 }
		END { exit bad }' <<<"$line" || fail "$1 $2: want $3 intervals and mean = p95 = max = $4, got: $line"
}
# 29 intervals between 30 samples; CPU% = vCPUs x the role's CPU share.
want busy-03 cpu_pct 29 380
want busy-03 run_pct 29 95
want sched-06 wait_pct 29 60
want net-04 net_rx_bps 29 50000000
want net-04 net_tx_bps 29 20000000
want disk-02 disk_rd_iops 29 200
want disk-02 disk_rd_bps 29 6553600
want disk-02 disk_wr_bps 29 6553600
want cache-05 hit_pct 29 60
want cache-05 llc_miss_ps 29 80000000
want Domain-0 cpu_pct 29 30
want busy-03 mem_bytes 29 4294967296
# late-08 arrives at sample 10: 19 intervals with rates (its first has none).
want late-08 cpu_pct 19 50
# domid 10 is reused half way: two domains, each with its own figures.
want reuse-10 cpu_pct 14 20
want reuse-10b cpu_pct 14 70
# Not measured: no figures, the reason instead.
grep -q '^7,nocache-07,.*,llc_miss_ps,0,,,,no PMU access for this domain (xgtop-gen)$' "$tmp/steady.csv" ||
	fail "nocache-07 llc_miss_ps is not empty with its reason: $(grep '^7,.*llc_miss_ps' "$tmp/steady.csv")"
grep -q '^0,Domain-0,.*,maxmem_bytes,0,,,,no memory limit set$' "$tmp/steady.csv" ||
	fail "Domain-0 maxmem_bytes should say there is no limit"
# Escaped names stay one CSV field.
grep -q '^11,"ctl\\x1b\[2J\\x07-11",' "$tmp/steady.csv" || fail "the control-character name is not escaped and quoted"

# --- jittered load: against an oracle from the raw counters ---------------
"$GEN" --samples 60 --seed 5 "$tmp/jit.xgr" || fail "generator"
"$GEN" --dump "$tmp/jit.xgr" >"$tmp/dump.tsv" || fail "dump"
./xgtop report --replay "$tmp/jit.xgr" -o csv >"$tmp/jit.csv" || fail "report"
# Per domain (id, gen, name) and interval: CPU%, WAIT%, NET-RX/s; then the
# mean (all intervals are 1 s), nearest-rank p95 and max of each. A domain
# is keyed by its id and the second its first interval starts (domid 10 is
# reused half way).
awk -F'\t' '
	NR == 1 { for (i = 1; i <= NF; i++) f[$i] = i; next }
	{
		k = $3 SUBSEP $4 SUBSEP $5
		if (!(k in first)) first[k] = $1 > 0 ? $1 - 1 : 0
		if ((k in t) && t[k] == $1 - 1) {
			dt = $2 - m[k]
			cpu = 100 * ($(f["cpu_ns"]) - c[k]) / dt
			tot = ($(f["run_ns"]) - r[k]) + ($(f["wait_ns"]) - w[k]) + ($(f["blocked_ns"]) - b[k]) + ($(f["off_ns"]) - o[k])
			wt = 100 * ($(f["wait_ns"]) - w[k]) / tot
			rx = ($(f["net_rx_bytes"]) - x[k]) / (dt / 1e9)
			n[k]++; id[k] = $3
			v[k, "cpu_pct", n[k]] = cpu; v[k, "wait_pct", n[k]] = wt; v[k, "net_rx_bps", n[k]] = rx
		}
		t[k] = $1; m[k] = $2; c[k] = $(f["cpu_ns"]); r[k] = $(f["run_ns"]); w[k] = $(f["wait_ns"])
		b[k] = $(f["blocked_ns"]); o[k] = $(f["off_ns"]); x[k] = $(f["net_rx_bytes"])
	}
	END {
		split("cpu_pct wait_pct net_rx_bps", cols, " ")
		for (k in n) for (ci = 1; ci <= 3; ci++) {
			col = cols[ci]; cnt = n[k]; s = 0; mx = ""
			for (i = 1; i <= cnt; i++) { a[i] = v[k, col, i]; s += a[i]; if (mx == "" || a[i] > mx) mx = a[i] }
			for (i = 2; i <= cnt; i++) { y = a[i]; for (j = i - 1; j >= 1 && a[j] > y; j--) a[j + 1] = a[j]; a[j + 1] = y }
			rank = int((95 * cnt + 99) / 100)
			printf "%s:%02d:%s:%d,%.6f,%.6f,%.6f\n", id[k], first[k], col, cnt, s / cnt, a[rank], mx
		}
	}' "$tmp/dump.tsv" | sort >"$tmp/oracle.csv"
[ "$(wc -l <"$tmp/oracle.csv")" -ge 30 ] || fail "oracle has too few lines: $(cat "$tmp/oracle.csv")"
awk -F, 'NR > 1 && ($5 == "cpu_pct" || $5 == "wait_pct" || $5 == "net_rx_bps") && $6 > 0 {
	print $1 ":" substr($3, 18, 2) ":" $5 ":" $6 "," $7 "," $8 "," $9 }' "$tmp/jit.csv" | sort >"$tmp/got.csv"
# Same domains and counts; figures equal to the CSV's three decimals.
join -t, -j1 "$tmp/oracle.csv" "$tmp/got.csv" >"$tmp/joined.csv"
[ "$(wc -l <"$tmp/joined.csv")" -eq "$(wc -l <"$tmp/oracle.csv")" ] &&
	[ "$(wc -l <"$tmp/joined.csv")" -eq "$(wc -l <"$tmp/got.csv")" ] ||
	fail "report and oracle disagree on domains or counts:
$(diff <(cut -d, -f1 "$tmp/oracle.csv") <(cut -d, -f1 "$tmp/got.csv"))"
awk -F, '{ for (i = 2; i <= 4; i++) { d = $i - $(i + 3); if (d < 0) d = -d
	if (d > 0.0006 + 1e-9 * ($i < 0 ? -$i : $i)) { print "mismatch: " $0; bad = 1 } } }
	END { exit bad }' "$tmp/joined.csv" || fail "report figures differ from the oracle"
# The jitter is real: p95 and max differ from the mean somewhere.
awk -F, '$5 == "cpu_pct" && $7 != $9 { found = 1 } END { exit !found }' "$tmp/jit.csv" ||
	fail "jittered recording shows no spread"

# --- --from / --to ----------------------------------------------------------
# Samples are 1 s apart from 2026-01-01T00:00:00Z: seconds 10 .. 24 make
# 14 intervals, given as ISO times or relative to the ends.
TZ=UTC ./xgtop report --replay "$tmp/steady.xgr" --from +10s --to -5s -o csv >"$tmp/rel.csv" || fail "relative range"
./xgtop report --replay "$tmp/steady.xgr" --from 2026-01-01T00:00:10Z --to '2026-01-01 00:00:24+00:00' \
	-o csv >"$tmp/iso.csv" || fail "ISO range"
cmp -s "$tmp/rel.csv" "$tmp/iso.csv" || fail "relative and ISO ranges differ: $(diff "$tmp/rel.csv" "$tmp/iso.csv" | head)"
TZ=Europe/Paris ./xgtop report --replay "$tmp/steady.xgr" --from 2026-01-01T01:00:10 --to 2026-01-01T01:00:24 \
	-o csv >"$tmp/local.csv" || fail "local-time range"
cmp -s "$tmp/rel.csv" "$tmp/local.csv" || fail "a time without a zone is not local time"
awk -F, '$2 == "busy-03" && $5 == "cpu_pct" { exit !($6 == 14 && $3 == "2026-01-01T00:00:10.000Z" && $4 == "2026-01-01T00:00:24.000Z") }' \
	"$tmp/rel.csv" || fail "range: want 14 intervals from 00:00:10 to 00:00:24: $(grep 'busy-03.*cpu_pct' "$tmp/rel.csv")"
TZ=UTC ./xgtop report --replay "$tmp/steady.xgr" --from +1h30m 2>"$tmp/err" && fail "an empty range is not an error"
grep -q "no interval of" "$tmp/err" || fail "empty range message: $(cat "$tmp/err")"
# 18 parts of 1e9 s each fit, their sum in ns does not: it used to wrap
# round to a time inside the recording (found by tests/fuzz/fuzz_args).
huge=+$(printf '1e9s%.0s' $(seq 18))
./xgtop report --replay "$tmp/steady.xgr" --from "$huge" >"$tmp/out" 2>"$tmp/err" && fail "--from $huge gave a report"
grep -q "bad TIME" "$tmp/err" || fail "--from $huge: $(cat "$tmp/err")"

# --- text and JSON ----------------------------------------------------------
TZ=UTC ./xgtop report --replay "$tmp/steady.xgr" >"$tmp/out.txt" || fail "text"
head -n 1 "$tmp/out.txt" | grep -q '2026-01-01 00:00:00 UTC .. 2026-01-01 00:00:29 UTC  29 intervals' ||
	fail "text header: $(head -n 1 "$tmp/out.txt")"
grep -qE '^ +3 busy-03 +CPU% +29 +380\.0 +380\.0 +380\.0$' "$tmp/out.txt" || fail "text line for busy-03 CPU%"
# Aligned: every measured line is as long as the header.
hdr=$(grep -m1 ' COLUMN ' "$tmp/out.txt" | awk '{ print length($0) }')
awk -v h="$hdr" '/^ +[0-9]+ / && !/not measured/ && length($0) != h { print; bad = 1 } END { exit bad }' \
	"$tmp/out.txt" || fail "text lines are not aligned with the header"
./xgtop report --replay "$tmp/jit.xgr" -o json >"$tmp/out.json" || fail "json"
python3 - "$tmp/out.json" "$tmp/jit.csv" <<'EOF' || fail "JSON does not match CSV"
import csv, json, sys
j = json.load(open(sys.argv[1]))
assert j["percentile"] == 95 and j["percentile_method"] == "nearest-rank", j.keys()
rows = list(csv.DictReader(open(sys.argv[2])))
# JSON names are the raw bytes (as JSON strings), CSV's are escaped: match
# domains by id and the start of their first interval.
doms = {(d["id"], d["from"]): d for d in j["domains"]}
assert len(doms) == len({(r["id"], r["from"]) for r in rows}), "domain count"
for r in rows:
    c = doms[(int(r["id"]), r["from"])]["columns"][r["column"]]
    assert c["intervals"] == int(r["intervals"]), (r, c)
    for k in ("mean", "p95", "max"):
        if r[k] == "":
            assert c[k] is None and (c.get("why") or "") == r["why"], (r, c)
        else:
            assert abs(c[k] - float(r[k])) < 1e-9, (r, c)
EOF

# --- errors -------------------------------------------------------------------
./xgtop report 2>/dev/null; [ $? -eq 2 ] || fail "no --replay: want exit 2"
./xgtop report --replay "$tmp/steady.xgr" --from yesterday 2>"$tmp/err"; [ $? -eq 2 ] || fail "bad TIME: want exit 2"
grep -q "bad TIME 'yesterday'" "$tmp/err" || fail "bad TIME message: $(cat "$tmp/err")"
./xgtop report --replay "$tmp/steady.xgr" -o xml 2>/dev/null; [ $? -eq 2 ] || fail "-o xml: want exit 2"
./xgtop report --replay "$tmp/nonexistent.xgr" 2>"$tmp/err"; [ $? -eq 1 ] || fail "missing file: want exit 1"
grep -q "nonexistent.xgr" "$tmp/err" || fail "missing file message: $(cat "$tmp/err")"
echo "ok: report figures match the script and the oracle; ranges, formats and errors"
