#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Synthetic traces (tests/tools/xentrace-gen): large domids, a vCPU with no
# record for most of the trace, wrap padding, records without TSC, unknown
# events, older short layouts, lost records. Exact native figures at 1 GHz
# (1 cycle = 1 ns), and xenalyze agreement where xenalyze accepts the file:
# compat mode equal, native mode within the documented differences. Without
# xenalyze the exact checks still run, then the test says SKIP (exit 77).
. "$(dirname "$0")/lib.sh"
[ -x "$GEN" ] || { echo "xentrace-gen not built (make tools)"; exit 1; }
fail=0
row() {  # csv domid vcpu expected-rest
	local got
	got=$(awk -F, -v d="$2" -v v="$3" '$1==d && $2==v' "$1" | cut -d, -f3-)
	if [ "$got" != "$4" ]; then
		echo "FAIL $1 d$2v$3: got '$got' want '$4'"; fail=1
	else
		echo "ok   d$2v$3 $4"
	fi
}
vs_xenalyze() {  # trace states
	command -v xenalyze >/dev/null || return 0
	if ! xenalyze --summary --cpu-hz=1000000000 "$1" >"$1.xa" 2>"$1.xaerr"; then
		echo "FAIL: xenalyze rejects $(basename "$1"):"; tail -n 3 "$1.xaerr"; fail=1; return
	fi
	"${XGTRACE[@]}" --cpu-hz 1G --xenalyze-compat -o csv "$1" >"$1.compat.csv" 2>"$1.compat.err"
	if grep -q "xenalyze would" "$1.compat.err"; then
		echo "FAIL: compat predicts a xenalyze failure that did not happen"; cat "$1.compat.err"; fail=1; return
	fi
	python3 "$ROOT/tests/trace/xenalyze_compare.py" "$1.xa" "$1.compat.csv" 1e9 --states "$2" || fail=1
	"${XGTRACE[@]}" --cpu-hz 1G -o csv "$1" >"$1.native.csv"
	python3 "$ROOT/tests/trace/native_vs_xenalyze.py" "$1.xa" "$1.native.csv" 1e9 || fail=1
}

# --- A: domids 40 and 32000; d32000v3 runs with no record for 9.998 ms ---
cat >"$TMP/a.txt" <<'S'
cpu 0
rs 1000 32767 0 0 1
rs 1000 40 0 1 0
cpu 1
rs 2000 32767 1 0 1
rs 2000 32000 3 1 0
cpu 0
rs 5001000 40 0 0 2
rs 5001000 32767 0 1 0
rs 9000000 40 0 2 1
rs 9500000 32767 0 0 1
rs 9500000 40 0 1 0
cpu 1
cont 10000000 32000 3
S
"$GEN" "$TMP/a.bin" <"$TMP/a.txt"
"${XGTRACE[@]}" --cpu-hz 1G -o csv "$TMP/a.bin" >"$TMP/a.csv"
#                running_s   runnable_s  blocked_s   offline_s   lost_s      n...
row "$TMP/a.csv" 40 0    0.005500000,0.000500000,0.003999000,0.000000000,0.000000000,2,1,1,0
row "$TMP/a.csv" 32000 3 0.009998000,0.000001000,0.000000000,0.000000000,0.000000000,1,1,0,0
row "$TMP/a.csv" 32767 0 0.004499000,0.005500000,0.000000000,0.000000000,0.000000000,1,2,0,0
[ "$(tail -n +2 "$TMP/a.csv" | cut -d, -f1 | sort -un | tr '\n' ' ')" = "40 32000 32767 " ] || { echo "FAIL: domain set"; fail=1; }
"${XGTRACE[@]}" --cpu-hz 1G -o json "$TMP/a.bin" | python3 -c '
import json,sys; j=json.load(sys.stdin)
d={x["domid"]:x for x in j["domains"]}
assert abs(d[32000]["running_pct"]-100*9998000/9999000) < 1e-3, d[32000]
assert j["span_s"] == 0.009999 and j["complete"], j' || { echo "FAIL: json"; fail=1; }
vs_xenalyze "$TMP/a.bin" running,runnable,blocked
# d40v0's first record, at the trace start, ends a wait seen from its end
# only (0 ns long); its wait 9.0-9.5 ms is whole, with --behind or not.
lat() { "${XGTRACE[@]}" --cpu-hz 1G "$@" "$TMP/a.bin" | sed -n '/^run-queue latency/,$p'; }
lat_plain=$(lat) lat_behind=$(lat --behind)
if [ "$lat_plain" = "$lat_behind" ] && grep -Eq '^d40 +1 +0\.52' <<<"$lat_plain"; then
	echo "ok   latency of d40: one wait of 0.5 ms (P50 0.52 within its bucket), with and without --behind"
else
	printf 'FAIL: latency of d40 (one wait of 0.5 ms)\nplain:\n%s\n--behind:\n%s\n' "$lat_plain" "$lat_behind"; fail=1
fi

# --- B: wrap padding, no-TSC records, unknown events, old layouts ---
cat >"$TMP/b.txt" <<'S'
cpu 0
rs 1000 5 0 1 0
rec 0x00082001 - 1 2 3
wrap 5
rec 0x0001f0ff 1500 7 7 7 7 7 7 7
infprev2 1600 5 600
rs5 2000 5 0 0 2
cpu 1
wrap 0
rec 0x0002800e 1700 5 0
rs 3000 5 0 2 1
rs 3500 32767 1 0 1
rs 3500 5 0 1 0
wrap 7
rec 0x00021001 3600
rs 4000 5 0 0 1
S
"$GEN" "$TMP/b.bin" <"$TMP/b.txt"
"${XGTRACE[@]}" --cpu-hz 1G -o csv "$TMP/b.bin" >"$TMP/b.csv" 2>"$TMP/b.err"
row "$TMP/b.csv" 5 0 0.000001500,0.000000500,0.000001000,0.000000000,0.000000000,2,1,1,0
grep -q "1 runstate records were too short" "$TMP/b.err" || { echo "FAIL: short record not reported"; cat "$TMP/b.err"; fail=1; }
vs_xenalyze "$TMP/b.bin" running,runnable,blocked

# --- C: lost records on pCPU 1: state unknown until each vCPU's next record ---
cat >"$TMP/c.txt" <<'S'
cpu 0
rs 1000 32767 0 0 1
rs 1000 1 0 1 0
cpu 1
rs 1000 32767 1 0 1
rs 1000 2 0 1 0
cpu 0
rs 2000000 1 0 0 2
rs 2000000 32767 0 1 0
cpu 1
lost 6000000 3000000 42 2 0
rs 7000000 2 0 0 1
rs 7000000 32767 1 1 0
cpu 0
rs 8000000 1 0 2 1
rs 8000000 32767 0 0 1
rs 8000000 1 0 1 0
cpu 1
cont 9001000 32767 1
S
"$GEN" "$TMP/c.bin" <"$TMP/c.txt"
"${XGTRACE[@]}" --cpu-hz 1G -o csv "$TMP/c.bin" >"$TMP/c.csv"
# d1v0 ran 1-2 ms, blocked from 2 ms; lost from 3 ms (first lost TSC) to
# its next record at 8 ms; then runs to the end (9.001 ms).
row "$TMP/c.csv" 1 0 0.003000000,0.000000000,0.001000000,0.000000000,0.005000000,2,0,1,0
# d2v0 ran on pCPU 1 where records were lost: lost 3-6 ms, running again
# from 6 ms (the lost record names it current), runnable from 7 ms.
row "$TMP/c.csv" 2 0 0.003999000,0.002001000,0.000000000,0.000000000,0.003000000,2,1,0,0
"${XGTRACE[@]}" --cpu-hz 1G "$TMP/c.bin" | grep -q "lost records: 42 in 1 TRC_LOST_RECORDS" || { echo "FAIL: lost count"; fail=1; }
vs_xenalyze "$TMP/c.bin" running,runnable,blocked,lost

# --- D: TSC rate from context-switch records, new (3-word) and old (2-word) layouts ---
{
	echo "cpu 0"
	t=1000000
	for i in $(seq 1 12); do
		echo "rs $t 32767 0 0 1"; echo "rs $t 3 0 2 0"
		# d3v0 runs 1 ms (2,500,000 cycles at 2.5 GHz), then is switched out
		echo "infprev $((t + 2500000)) 3 0 1000000"
		echo "rs $((t + 2500000)) 3 0 0 2"; echo "rs $((t + 2500000)) 32767 0 1 0"
		t=$((t + 5000000))
		echo "rs $t 32767 0 0 1"; echo "rs $t 3 0 2 0"
		echo "infprev2 $((t + 5000000)) 3 2000000"
		echo "rs $((t + 5000000)) 3 0 0 2"; echo "rs $((t + 5000000)) 32767 0 1 0"
		t=$((t + 7500000))
	done
} >"$TMP/d.txt"
"$GEN" "$TMP/d.bin" <"$TMP/d.txt"
"${XGTRACE[@]}" "$TMP/d.bin" >"$TMP/d.out" 2>"$TMP/d.err"
if grep -q "at 2.500000 GHz (estimated from 24 context switches" "$TMP/d.out" && [ ! -s "$TMP/d.err" ]; then
	echo "ok   TSC rate estimated from 24 switches (12 of each layout)"
else
	echo "FAIL: TSC rate estimate"; head -n 3 "$TMP/d.out"; fail=1
fi

[ $fail -ne 0 ] && exit 1
command -v xenalyze >/dev/null ||
	{ echo "SKIP: xenalyze not installed (Debian package xen-utils-common): exact figures checked, xenalyze comparisons not run"; exit 77; }
exit 0
