#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The Prometheus source in the full-screen view asks the server for every
# figure of the rows on screen only (and half a screen either side), and
# for the others what the sort and the summary line need: on a terminal 10
# lines high, against a real Prometheus scraping two exporters (16
# domains), a counting relay between xgtop and the server sees fewer
# bytes per refresh than batch mode (every field of every domain) needs;
# the rows on screen have every figure, and rows scrolled into view get
# theirs within a few refreshes; every domain stays listed, with its
# domid, between the refreshes that ask every domain's info. With the
# server out of reach the view
# stays, says why, and recovers when it answers again. Sorted by another
# column than CPU%, the summary line's totals (CPU total, WAIT%, the
# domains by state) come from the server, not from the rows: with every
# row on screen they equal the sum of the rows' CPU%, their WAIT% over all
# their vCPU time and the rows' states, taken from the exporters' own sums
# and counts, and with --filter those of the rows it selects, summed and
# counted by the server. The triage line says it judges the rows on screen while
# the others lack figures, and --explain says why; its runnable vCPUs are
# of every domain all along, and sorted by WAIT% it names the most waiting
# domain of all. SERVER=victoria: the same against
# VictoriaMetrics (test_promsrc_screen_victoria.sh).
. "$(dirname "$0")/lib.sh"
. "$ROOT/tests/remote/lib.sh"
. "$ROOT/tests/remote/promsrc_lib.sh"
tui_server
make_recs "$TMP" || fail "xgtop-gen failed"
pa=$(free_port) && start_exporter "$pa" "$TMP/a.xgrec" --speed 4
pb=$(free_port) && start_exporter "$pb" "$TMP/b.xgrec" --speed 4
pp=$(free_port)
scrape_config "$TMP/prom.yml" "127.0.0.1:$pa" "127.0.0.1:$pb"
cd "$ROOT" || exit 2
start_$server "$TMP" "$pp" "$TMP/prom.yml"
wait_until 90 seen_for "$pp" 5 || fail "$server shows no 5 s of both hosts' scrapes within 90 s"
wait_until 60 figures_in "$pp" 16 || fail "no figures of both hosts' 16 domains"
rp=$(free_port)
# The relay counts the domain query's totals terms too (as the URL encodes
# them): delta() of the exporters' own sums of their domains' CPU and
# runstate times, and the server's sums over every domain's series; and
# the host queries, one a refresh (its domain queries follow it, asked at
# once, in any order, and the info query only when needed).
RELAY_GREP='delta%28xgtop_host_domains_cpu_seconds_total|delta%28xgtop_host_domains_runstate_seconds_total|'\
'sum%20by%28instance%29%28delta%28xgtop_domain_cpu_seconds_total|'\
'sum%20by%28instance%2Cstate%29%28delta%28xgtop_domain_runstate_seconds_total|'\
'max_over_time%28timestamp%28xgtop_collector_refreshes_total'
export RELAY_GREP
python3 tests/remote/relay.py "$rp" "$pp" "$TMP/count" &
relay=$!
pool_pids+=($relay)
wait_until 10 test -s "$TMP/count" || fail "the relay did not start"
# measure: sets got to what the server answered per refresh over 4
# refreshes from the 3rd on, refreshes counted by their host queries.
refreshes() { sed -n 5p "$TMP/count.grep" 2>/dev/null || echo 0; }
refreshed() { [ "$(refreshes)" -ge "$1" ]; }
measure() {
	local h0 d0 h1 d1
	h0=$(refreshes)
	wait_until 60 refreshed $((h0 + 2)) || fail "no 2 refreshes within 60 s"
	h0=$(refreshes)
	read -r _ _ d0 <"$TMP/count"
	wait_until 90 refreshed $((h0 + 4)) || fail "no 4 more refreshes within 90 s"
	h1=$(refreshes)
	read -r _ _ d1 <"$TMP/count"
	got=$(((d1 - d0) / (h1 - h0)))
}
"$XGTOP" --source prometheus "http://127.0.0.1:$rp" -b -o csv -n 100 -d 1 >/dev/null &
bp=$!
measure
all=$got
kill $bp
wait $bp 2>/dev/null
# shellcheck disable=SC2034  # lib.sh's start_shell reads it
H=10
start_shell
keys "$XGTOP --no-config --source prometheus http://127.0.0.1:$rp -d 1" Enter
measure
shown=$got
echo "bytes per refresh: batch (16 rows, every field) $all, full-screen view (10 lines) $shown"
# Measured 0.46-0.86 of batch here (with 16 domains the rows around the
# screen and the sort's fields for the rest are much of the whole);
# without the wanted rows the view took 1.6 times batch.
[ "$shown" -lt "$all" ] || fail "the full-screen view gets $shown bytes per refresh, batch $all: not fewer"

# The rows on screen have their figures; so do rows scrolled into view.
dashes() { screen | grep -E '^ *127\.0\.0\.1:' | grep -c ' - '; }
none() { [ "$(dashes)" = 0 ]; }
wait_until 20 none || fail "rows on screen without figures"
keys End
wait_until 20 none || fail "rows scrolled into view still lack figures after 20 s"
# The rows ask the fields of the columns shown only: a group shown again
# (d) has its figures with the next refreshes.
disk() { screen | grep -q 'DISK-RD/s'; }
no_disk() { ! disk; }
keys d
wait_until 10 no_disk || fail "d did not hide the disk columns"
h=$(refreshes)   # two refreshes without them
wait_until 20 refreshed $((h + 2)) || fail "no 2 refreshes within 20 s"
keys d
wait_until 10 disk || fail "d did not show the disk columns again"
wait_until 20 none || fail "the disk columns shown again still lack figures after 20 s"
# Between the refreshes that ask every domain's info (the first, then one
# in 10), the sort's series name the domains: over 5 refreshes every
# domain stays, and the rows carry their own domids (the generator's:
# below 100).
all_stay() {
	local i ids
	for i in $(seq 5); do
		screen | grep -q 'rows 16$' || fail "$1: not every domain is listed at refresh $i: $(screen | sed -n 3p)"
		ids=$(screen | sed -nE 's/^ *127\.0\.0\.1:[0-9]+ +([0-9]+) .*/\1/p')
		[ -n "$ids" ] && ! echo "$ids" | grep -qvE '^[0-9]{1,2}$' || fail "$1: rows without their domid: $ids"
		sleep 1
	done
}
# The triage line judges the rows that carry every figure, and says so.
triage() { screen | grep -m1 '^Triage: '; }
on_screen() { triage | grep -q 'on screen'; }
on_screen_cpu() { triage | grep -q 'CPU on screen: [0-9.]* runnable vCPUs'; }
wait_until 20 on_screen || fail "the triage line does not say it covers the rows on screen: $(triage)"
# The server out of reach (the relay gone): the view stays, with the last
# figures and why; back once the server answers again. (The view's part,
# whatever the server: against Prometheus only.)
if [ "$server" = prometheus ]; then
	kill "$relay"
	wait "$relay" 2>/dev/null
	retrying() { screen | grep -q "^the last figures, asking again: Prometheus at http://127.0.0.1:$rp: "; }
	wait_until 20 retrying || fail "no message while the server is out of reach: $(screen | tail -n 3)"
	screen | grep -qE '^ *127\.0\.0\.1:' || fail "the rows went with the server"
	python3 tests/remote/relay.py "$rp" "$pp" "$TMP/count" &
	pool_pids+=($!)
	gone() { ! retrying && none; }
	wait_until 20 gone || fail "the message stays, or figures lack, once the server answers again: $(screen | tail -n 3)"
fi
keys q
wait_prompt
# Sorted by LLC-MISS/s, which one domain lacks (its exporter publishes
# no such series of it): it comes with its info alone.
keys "$XGTOP --no-config --source prometheus http://127.0.0.1:$rp -d 1 --sort miss" Enter
listed() { screen | grep -q 'rows 16$'; }
wait_until 30 listed || fail "not every domain listed sorted by LLC-MISS/s: $(screen | sed -n 3p)"
all_stay "sorted by LLC-MISS/s"
keys q
wait_prompt
# Sorted by WAIT%, every domain carries it: the triage line names the most
# waiting domain of all (sched-06, 60 %), off screen in reverse order, and
# does not say "on screen".
keys "$XGTOP --no-config --source prometheus http://127.0.0.1:$rp -d 1 --sort wait --reverse" Enter
waiter() { triage | grep -q 'CPU: .*sched-06 waits 60 %'; }
wait_until 30 waiter || fail "sorted by WAIT% the triage line does not name the most waiting domain of all: $(triage)"
! screen | grep -E '^ *127\.0\.0\.1:' | grep -q sched-06 || fail "sched-06 is on screen: the check proves nothing"
# Its runnable vCPUs are of every domain (here from each domain's
# runstates, which the sort asks of all), as with every row on screen
# (below); and sorted by CPU% (from the exporters' sums of their domains'
# runstate seconds), with a warn level any row on screen passes.
demand() { triage | sed -nE 's/.* ([0-9.]+) runnable vCPUs .*/\1/p'; }
d_wait=$(demand)
keys q
wait_prompt
printf 'threshold.wait_pct = 0.1 99\n' >"$TMP/rc"
keys "$XGTOP --config $TMP/rc --source prometheus http://127.0.0.1:$rp -d 1" Enter
wait_until 30 on_screen_cpu || fail "no CPU part on screen with wait_pct's warn at 0.1: $(triage)"
d_cpu=$(demand)
keys q
wait_prompt

# totals_from WHAT: over the next 3 refreshes the domain query took the
# summary's CPU and runstate totals from WHAT only: "sums" (delta() of the
# exporters' own sums, one series a host) or "domains" (the server's sums
# over every domain's series).
totals_from() {
	local a b
	mapfile -t a <"$TMP/count.grep"
	# Four host queries on, three whole refreshes were asked in between.
	wait_until 60 refreshed $((a[4] + 4)) || fail "no 3 refreshes within 60 s"
	mapfile -t b <"$TMP/count.grep"
	local own=$(((b[0] - a[0] >= 3) + (b[1] - a[1] >= 3))) doms=$(((b[2] - a[2] >= 3) + (b[3] - a[3] >= 3)))
	local mixed=$(((b[0] > a[0]) + (b[1] > a[1]) + (b[2] > a[2]) + (b[3] > a[3])))
	echo "totals terms over 3 refreshes: exporters' sums ${a[0]}->${b[0]} ${a[1]}->${b[1]}, domains'" \
		"${a[2]}->${b[2]} ${a[3]}->${b[3]}"
	case $1 in
	sums) [ "$own" = 2 ] && [ "$mixed" = 2 ] ;;
	domains) [ "$doms" = 2 ] && [ "$mixed" = 2 ] ;;
	esac || fail "the summary's totals did not come from the $1 alone"
}

# The summary's totals from the server against the rows, every row on
# screen, sorted by MEM (so that hidden rows would carry no CPU% nor state):
# from the exporters' sums of their domains' CPU and runstate times.
tm resize-window -t t -y 40
keys "$XGTOP --no-config --source prometheus http://127.0.0.1:$rp -d 1 --sort mem" Enter
rows16() { [ "$(screen | grep -cE '^ *127\.0\.0\.1:')" = 16 ]; }
wait_until 30 rows16 || fail "not all 16 rows on a 40-line screen"
# totals_agree [ROWS]: the summary line of one screen against its rows,
# ROWS of them (default: as many as the summary's domains).
totals_agree() {
	screen | python3 -c '
import re, sys
lines = sys.stdin.read().splitlines()
m = re.search(r"Domains (\d+): (\d+) running, (\d+) blocked, (\d+) paused, (\d+) crashed, (\d+) dying, "
              r"(\d+) shutdown  CPU total ([0-9.]+)%", "\n".join(lines))
head = next((l.split() for l in lines if "STATE" in l.split() and "CPU%" in l.split()), None)
rows = [l.split() for l in lines if re.match(r"^ *127\.0\.0\.1:", l)]
if not m or not head or len(rows) != int(sys.argv[1] or m.group(1)) or not rows:
    sys.exit(1)
try:
    cpu = sum(float(r[head.index("CPU%")]) for r in rows)
    # WAIT% of all the vCPU time: the WAIT% of each row weighted by its vCPU
    # time, VCPU x the interval (the runstates of the recordings add up to it).
    vcpu = [float(r[head.index("VCPU")]) for r in rows]
    wait = sum(float(r[head.index("WAIT%")]) * v for r, v in zip(rows, vcpu)) / sum(vcpu)
except ValueError:   # a row without its figures yet
    sys.exit(1)
w = re.search(r"WAIT\[[| ]*([0-9.]+)%\]", "\n".join(lines))
# xentop priority: r b p s c d (the STATE letters are d s b c p r)
count = dict.fromkeys("rbpscd", 0)
for r in rows:
    st = r[head.index("STATE")]
    k = next((c for c in "rbpscd" if c in st), None)
    if k:
        count[k] += 1
want = [int(m.group(1))] + [count[c] for c in "rbpcds"]
got = [int(m.group(i)) for i in range(1, 8)]
total = float(m.group(8))
wall = float(w.group(1)) if w else -1
print(f"summary {got} CPU total {total} WAIT {wall}%, rows {want} CPU% sum {cpu:.1f} WAIT% {wait:.2f}")
sys.exit(0 if got == want and abs(total - cpu) <= 0.5 + 0.03 * cpu and abs(wall - wait) <= 0.15 + 0.03 * wait
         else 1)' "${1:-}"
}
wait_until 30 totals_agree 16 || fail "the summary's totals from the server are not those of the rows: $(totals_agree 16)"
totals_from sums
totals_agree 16 >/dev/null || fail "the summary's totals from the exporters' sums are not those of the rows: $(totals_agree 16)"
# Every domain on screen carries every figure: the triage line is of all.
of_all() { triage | grep -q . && ! on_screen; }
wait_until 20 of_all || fail "with every row on screen the triage line still says: $(triage)"
d_all=$(demand)
echo "runnable vCPUs on 10 lines: $d_wait sorted by WAIT%, $d_cpu by CPU%; $d_all with every row on screen"
for d in "$d_wait" "$d_cpu"; do
	python3 -c 'import sys; a, b = map(float, sys.argv[1:]); sys.exit(abs(a - b) > 0.2 + 0.02 * b)' "$d" "$d_all" ||
		fail "the triage's runnable vCPUs on 10 lines ($d) are not those of every row ($d_all)"
done
keys q
wait_prompt

# With --filter the server counts the states of the domains it selects
# (count_values), not the exporters' counts of all (xgtop_host_domains),
# and sums their CPU and runstate times, not the exporters' sums of all.
keys "$XGTOP --no-config --source prometheus http://127.0.0.1:$rp -d 1 --sort mem --filter -0" Enter
wait_until 30 totals_agree || fail "with --filter the summary's totals are not those of the rows: $(totals_agree)"
totals_from domains
keys q
wait_prompt
"$XGTOP" --source prometheus "http://127.0.0.1:$pp" -d 1 --explain >"$TMP/explain" 2>&1 ||
	fail "--explain failed: $(tail -n 1 "$TMP/explain")"
grep -q '^  scope .*"on screen"' "$TMP/explain" || fail "--explain does not say what the triage line covers"
