#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The pool view full screen: two exporters the test starts; the table shows
# the HOST column and both hosts' domains sorted together by CPU%, and the
# meter line says why there are no pCPU meters; the
# filter picks one host by name; one exporter killed: its rows stay, HOST
# marked with '?', while the other host's figures keep changing.
. "$(dirname "$0")/lib.sh"
. "$ROOT/tests/remote/lib.sh"
command -v curl >/dev/null || skip "curl is not installed (make deps)"
"$XGTOP" --help | grep -q -- --export || skip "built without libmicrohttpd: no exporter to read"
trap 'pool_cleanup; cleanup' EXIT
make_recs "$TMP" || fail "xgtop-gen failed"
pa=$(free_port) && start_exporter "$pa" "$TMP/a.xgrec" --speed 4
pb=$(free_port) && start_exporter "$pb" "$TMP/b.xgrec" --speed 4
start_shell
keys "$XGTOP --source remote http://127.0.0.1:$pa,http://127.0.0.1:$pb -d 0.5" Enter
wait_for "HOST"
wait_for "127.0.0.1:$pb"
# No pCPU meters across a pool: the meter line says why.
wait_for "pCPU meters: - (pool view: the hosts' exporters publish no per-pCPU times)"
# Both busiest domains (busy-03 on each host) lead the CPU% order once
# the second refresh gave rates.
lead() { screen | grep -E '^ *127\.0\.0\.1:' | head -n 2 | awk '{print $1, $3}' | sort; }
want=$(printf '127.0.0.1:%s busy-03\n127.0.0.1:%s busy-03' "$pa" "$pb" | sort)
leading() { [ "$(lead)" = "$want" ]; }
wait_until 30 leading || fail "the two busy-03 rows do not lead after 30 s: $(lead)"
[ "$(screen | grep -cE '^ *127\.0\.0\.1:')" -ge 16 ] || fail "not all 16 domains shown"

# The filter matches host names too.
keys /
wait_for 'Filter names'
keys C-u ":$pb\$" Enter
wait_gone "127.0.0.1:$pa "
keys /
wait_for 'Filter names'
keys C-u Enter
wait_for "127.0.0.1:$pa "

# A host dies: its rows are kept and marked, the other keeps updating.
kill -KILL "${pool_pids[1]}"
wait_for "127.0.0.1:$pb?"
live_cpu_s() { screen | grep "^ *127.0.0.1:$pa  *3 busy-03" | awk '{print $6}'; }
a1=$(live_cpu_s)
[ -n "$a1" ] || fail "no CPU(s) for the live host's busy-03"
moved() { a2=$(live_cpu_s); [ "$a1" != "$a2" ]; }
wait_until 30 moved || fail "the live host's CPU(s) did not move in 30 s: '$a1' then '$a2'"
screen | grep "^ *127.0.0.1:$pb?  *3 busy-03" | grep -q ' - ' || fail "the dead host's rates are not '-'"
keys q
wait_prompt
