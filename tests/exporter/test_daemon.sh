#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# --daemon: no terminal, one log line per event; SIGHUP reopens --record
# (the file renamed away, a new one appears, and the two replay back to back
# with no sample lost or repeated); SIGTERM and SIGINT exit 0; a refresh
# that fails is logged once, counted, and the daemon goes on; options that
# make no sense with it are refused.
. "$(dirname "$0")/common.sh"
build/tools/xgtop-gen --steady --interval 0.2 --samples 200 "$tmp/fx.xgrec" >/dev/null

# has LOG TEXT: waits up to 30 s for a line with TEXT.
has() {
	wait_until 30 grep -qF -- "$2" "$tmp/$1.log" && return 0
	cat "$tmp/$1.log"
	fail "no log line '$2' within 30 s"
}
samples() { build/tools/xgtop-gen --verify "$1" | sed -n 's/^samples \([0-9]*\) .*/\1/p'; }
# recorded FILE N: FILE holds N samples or more.
recorded() { [ "$(samples "$1" 2>/dev/null)" -ge "$2" ] 2>/dev/null; }

start_exporter hup --replay "$tmp/fx.xgrec" --record "$tmp/out.xgrec" </dev/null >"$tmp/stdout"
has hup "started: source replay, at 1 times the recorded pace, exporting on 127.0.0.1:$port, recording"
# Until each file holds the 5 samples the check below wants.
wait_until 30 recorded "$tmp/out.xgrec" 5 || fail "no 5 samples recorded within 30 s"
mv "$tmp/out.xgrec" "$tmp/out.1.xgrec"
kill -HUP "$xpid"
has hup "SIGHUP: reopened $tmp/out.xgrec"
wait_until 30 recorded "$tmp/out.xgrec" 5 || fail "no 5 samples recorded after SIGHUP within 30 s"
kill -TERM "$xpid"
wait "$xpid"
rc=$?
[ $rc = 0 ] || fail "SIGTERM: exit status $rc"
has hup "exiting on Terminated"
[ -s "$tmp/stdout" ] && fail "the daemon wrote to standard output: $(head -c 200 "$tmp/stdout")"
n1=$(samples "$tmp/out.1.xgrec") n2=$(samples "$tmp/out.xgrec")
[ "$n1" -ge 5 ] && [ "$n2" -ge 5 ] || fail "samples before and after SIGHUP: $n1, $n2"
# Back to back: the two files hold the first n1 + n2 samples of the replay.
build/tools/xgtop-gen --dump "$tmp/fx.xgrec" | awk -F'\t' 'NR > 1 {print $2}' | uniq | head -n $((n1 + n2)) >"$tmp/want"
for f in out.1 out; do build/tools/xgtop-gen --dump "$tmp/$f.xgrec" | awk -F'\t' 'NR > 1 {print $2}' | uniq; done >"$tmp/got"
cmp -s "$tmp/want" "$tmp/got" || fail "the recordings before and after SIGHUP are not the replay's samples back to back"
for f in out.1 out; do
	./xgtop -b -o csv --replay "$tmp/$f.xgrec" --speed 0 >"$tmp/$f.csv" || fail "$f.xgrec does not replay"
	grep -q ',busy-03,' "$tmp/$f.csv" || fail "$f.xgrec replays without busy-03"
done
echo "SIGHUP: $n1 samples in the renamed file, $n2 in the new one, back to back, both replay; SIGTERM: exit 0"
[ "$(grep -c . "$tmp/hup.log")" = 4 ] || { cat "$tmp/hup.log"; fail "expected 4 log lines: listening, started, SIGHUP, exiting"; }

start_exporter int --replay "$tmp/fx.xgrec"
kill -INT "$xpid"
wait "$xpid"
rc=$?
[ $rc = 0 ] || fail "SIGINT: exit status $rc"
has int "exiting on Interrupt"
echo "SIGINT: exit 0"

# A recording that turns corrupt: the refresh fails, is logged once and
# counted, and the daemon keeps serving the last good refresh.
python3 - "$tmp/fx.xgrec" "$tmp/bad.xgrec" <<'PY'
import sys
d = bytearray(open(sys.argv[1], 'rb').read())
for i in range(len(d) // 2, len(d) // 2 + 64):
    d[i] ^= 0x55
open(sys.argv[2], 'wb').write(d)
PY
start_exporter bad --replay "$tmp/bad.xgrec" --speed 5
has bad "refresh failed: $tmp/bad.xgrec: byte "
errors() { scrape | sed -n 's/^xgtop_collector_errors_total{collector="source"} //p'; }
failed_twice() { [ "$(errors)" -ge 2 ] 2>/dev/null; }
wait_until 30 failed_twice || fail "fewer than 2 failed refreshes counted within 30 s: $(errors)"
m=$(scrape)
[ "$(grep -c 'refresh failed' "$tmp/bad.log")" = 1 ] || fail "a failing refresh was logged more than once"
echo "$m" | grep -q '^xgtop_collector_up{collector="source"} 0$' || fail "source not down: $(echo "$m" | grep collector_)"
errs=$(echo "$m" | sed -n 's/^xgtop_collector_errors_total{collector="source"} //p')
[ "${errs:-0}" -ge 2 ] || fail "failed refreshes counted: ${errs:-none}"
echo "$m" | grep -q '^xgtop_domain_cpu_seconds_total{domain="busy-03"' || fail "the last good refresh is no longer served"
echo "a failing refresh: logged once, $errs counted, last good refresh still served"

# Refused combinations and addresses.
for args in "-b" "-o csv" "--explain"; do
	./xgtop --daemon $args --replay "$tmp/fx.xgrec" 2>/dev/null
	[ $? = 2 ] || fail "--daemon $args was not refused with status 2"
done
for a in 65536 '::1:9717' 'x:' 'abc'; do
	./xgtop --daemon --export "$a" --replay "$tmp/fx.xgrec" 2>"$tmp/err"
	[ $? = 2 ] || fail "--export $a was not refused with status 2"
done
start_exporter busy --replay "$tmp/fx.xgrec"
./xgtop --daemon --export "127.0.0.1:$port" --replay "$tmp/fx.xgrec" 2>"$tmp/err"
[ $? = 1 ] && grep -q "cannot listen on 127.0.0.1 port $port" "$tmp/err" || fail "a port in use: $(cat "$tmp/err")"
echo "bad combinations: status 2; a port in use: status 1, $(cat "$tmp/err")"
