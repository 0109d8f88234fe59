#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Selecting a row and the detail pane: Down selects the top row, Enter opens
# the pane for it with graphs in block characters (the history of the
# replay so far), its vCPUs, disk and network sums, cache figures and
# where each comes from; the pane scrolls; Esc closes it and the list (with
# the selection) is back.
. "$(dirname "$0")/lib.sh"
make_rec 30
start_shell
start_xgtop --speed 20 --no-config
wait_for "end of recording"

[ -z "$(selected)" ] || fail "a row is selected before any key"
keys Down
wait_sel busy-03 "Down did not select the top row (busy-03)"
keys Down
wait_sel cache-05 "Down did not move the selection to cache-05"

keys Enter
wait_for "xgtop details: cache-05"
settle
pane=$(screen)
grep -q '^id 5  generation 0  uuid [0-9a-f-]\{36\}  state -----r  vCPUs 2' <<<"$pane" ||
	fail "no identity line for cache-05"
grep -q '^History: 30 of 300 samples kept' <<<"$pane" || fail "history line"
grep -qE '^CPU% +now 160\.0  min 160\.0  max 160\.0  over the last 30 samples' <<<"$pane" ||
	fail "CPU% graph label"
# The graph: full blocks (a steady load at the top of its scale), right-aligned.
grep -qE '█{25,}$' <<<"$pane" || fail "no block graph on the pane"
grep -qE '^WAIT% +now 1\.0' <<<"$pane" || fail "WAIT% graph label"
# Further down: vCPUs, disk and network sums, cache, sources; page through.
all=$(pane_pages 6)
grep -qE '^  vCPU 0 +online +CPU% 80\.0  RUN% 80\.0  WAIT% 1\.0  BLK% 19\.0' <<<"$all" || fail "vCPU 0 line"
grep -qE '^  vCPU 1 ' <<<"$all" || fail "vCPU 1 line"
grep -qF 'Disk (block devices: 1; the source gives their sums, not figures per device)' <<<"$all" ||
	fail "disk heading"
grep -qF 'Network (interfaces: 1;' <<<"$all" || fail "network heading"
grep -qE '^Cache: counts LLC references/misses \(xgtop-gen\)' <<<"$all" || fail "cache heading"
grep -qE 'HIT% 60\.0  MPKI' <<<"$all" || fail "cache figures"
grep -qE '^  CPU% +100 \* delta\(cpu_ns\)' <<<"$all" || fail "where CPU% comes from"

keys Escape
wait_for "ID NAME"
screen | grep -q "xgtop details" && fail "Esc did not close the pane"
[ "$(selected)" = cache-05 ] || fail "selection lost after the pane: '$(selected)'"

# A domain whose cache figures are not measured: the graph says why.
keys End
wait_sel 'utf8-\xc3(-01' "End did not select the last row"
keys Up Up
wait_sel nocache-07 "Up did not reach nocache-07"
keys Enter
wait_for "xgtop details: nocache-07"
keys PageDown
wait_match '^LLC-MISS/s +- +\(not measured: no PMU access for this domain \(xgtop-gen\)\)'
keys q
wait_for "ID NAME"
keys q
check_restored
echo "ok: select, Enter shows the detail pane with graphs, Esc returns"
