#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Hostile input and faults, run inside the lab's dom0 by dom0-tests.sh
# (same boot, after the agent checks, while xg-new is idle): a hostile
# writer inside xg-new (xg-hostile, started by its init once its agent
# stopped) next to a well-behaved agent in dom0; xenstored stopped for a
# moment and resumed; the full-screen view and the daemon ended by signals.
# Judged on the host by check_trust.py. Usage: dom0-trust.sh OUTDIR
OUT=${1:?outdir}
CON=/var/log/xen/console
XGTOP=/usr/local/bin/xgtop
ST=/usr/local/bin/xg-tbuf-state
PTY=/usr/local/bin/xg-pty
. /usr/local/bin/dom0-lib.sh
[ -x $XGTOP ] || exit 0
state() { $ST > "$OUT/tb-$1.out" 2>&1; }
up() { cut -d. -f1 /proc/uptime; }

# 1. A hostile guest. One xgtop runs through every phase (JSON, one line
#    per refresh); each phase is marked by how many lines it had printed,
#    so the judge knows which refreshes saw which behaviour.
G=xg-new
id=$(xl domid $G 2>/dev/null)
P=/local/domain/$id/data/xglab
J=$OUT/trust.json
lines() { wc -l < "$J" 2>/dev/null || echo 0; }
# wait_lines N SECONDS: until the run has printed N refreshes.
wait_lines() {
	i=0
	while [ "$(lines)" -lt "$1" ] && [ $i -lt $(($2 * 4)) ]; do
		sleep 0.25
		i=$((i + 1))
	done
}
# phase NAME [REFRESHES]: the guest switches, acknowledges, and dom0 lets
# that many refreshes go by (3: the one under way may predate the switch).
phase() {
	xenstore-write "$P/cmd" "$1"
	i=0
	until xenstore-read "$P/ack" 2>/dev/null | grep -q "^$1"; do
		sleep 0.25
		i=$((i + 1))
		[ $i -ge 240 ] && break
	done
	xenstore-read "$P/ack" >> "$OUT/trust-acks.out" 2>&1 || echo "$1 no-ack" >> "$OUT/trust-acks.out"
	n=$(lines)
	echo "$1 begin $n" >> "$OUT/trust-marks.out"
	wait_lines $((n + ${2:-3})) 40
	echo "$1 end $(lines)" >> "$OUT/trust-marks.out"
}
echo "$id" > "$OUT/trust-domid.out"
# xg-hostile waits for its first command once the agent has gone.
t0=$(up)
until grep -q 'xg-hostile: waiting' "$CON/guest-$G.log" 2>/dev/null || [ $(($(up) - t0)) -ge 60 ]; do
	sleep 0.25
done
# A well-behaved agent beside it: dom0's own (it publishes for Domain-0).
$XGTOP --agent --events page-faults,context-switches -d 0.5 > "$OUT/trust-agent0.out" 2>&1 &
A0=$!
t0=$(up)
until xenstore-read /local/domain/0/data/xgtop/llc_miss > /dev/null 2>&1 || [ $(($(up) - t0)) -ge 30 ]; do
	sleep 0.25
done
XGTOP_XS_STATS=1 $XGTOP --source xen --notrace -b -d 0.5 -o json > "$J" 2> "$OUT/trust.err" &
X=$!
wait_lines 2 60
phase good 4
phase huge
phase many 4
phase malformed
phase escape 4
# The same escapes through the outputs a terminal shows.
run trust-escape-text 30 $XGTOP --source xen --notrace -b -n 1 -d 0.3
run trust-escape-explain 30 $XGTOP --source xen --notrace --explain
phase churn 4
phase vanish 4
phase spoof 1
phase good 4
note "TRUST_HOSTILE"

# 2. xenstored stopped for a while (a hung daemon: every read would wait),
#    then resumed: refreshes go on, the figures xenstore gives say why, and
#    come back.
XSPID=$(cat /var/run/xenstored.pid)
n=$(lines)
kill -STOP "$XSPID"
echo "xsstop begin $n" >> "$OUT/trust-marks.out"
wait_lines $((n + 5)) 40
n=$(lines)
kill -CONT "$XSPID"
echo "xsstop end $n" >> "$OUT/trust-marks.out"
echo "recovered begin $n" >> "$OUT/trust-marks.out"
wait_lines $((n + 4)) 40
echo "recovered end $(lines)" >> "$OUT/trust-marks.out"
kill -TERM $X
wait $X
echo $? > "$OUT/trust.rc"
kill -TERM $A0
wait $A0
echo $? > "$OUT/trust-agent0.rc"
xenstore-write "$P/cmd" quit
note "TRUST_XENSTORED"

# 3. The full-screen view ended by SIGTERM, SIGHUP and Ctrl-C (the
#    terminal's SIGINT), once it traces: terminal and trace buffers back.
if [ -x $PTY ]; then
	for sig in TERM HUP INT; do
		key="u:!$sig"
		[ $sig = INT ] && key="u:^C"
		TERM=xterm $PTY "$key" $XGTOP --source xen > /dev/null 2> "$OUT/trust-tui-$sig.err" &
		p=$!
		t0=$(up)
		until $ST | grep -q 'mask=0x00021000' || [ $(($(up) - t0)) -ge 40 ]; do sleep 0.5; done
		state "trust-tui-$sig-during"
		kill -USR1 $p
		wait $p
		echo $? > "$OUT/trust-tui-$sig.rc"
		state "trust-tui-$sig-after"
	done
fi
note "TRUST_TUI"

# 4. Root without any capability (an empty bounding set) is all the Xen
#    source needs: the devices and xenstored's socket are root's own.
# (util-linux's, by its path: busybox runs its own applet for a bare name)
SETPRIV=/usr/local/bin/setpriv
NOCAPS="$SETPRIV --bounding-set -all --inh-caps -all --no-new-privs"
run trust-nocaps-dump 10 $NOCAPS $SETPRIV --dump
run trust-nocaps 60 $NOCAPS $XGTOP --source xen -b -n 2 -d 0.5 -o json
state trust-nocaps-after
note "TRUST_NOCAPS"

# 5. The daemon: SIGHUP reopens its recording and goes on tracing, SIGTERM
#    ends it with everything put back.
$XGTOP --daemon --source xen -d 0.5 --record /tmp/trust.xgrec 2> "$OUT/trust-daemon.err" &
p=$!
t0=$(up)
until $ST | grep -q 'mask=0x00021000' || [ $(($(up) - t0)) -ge 40 ]; do sleep 0.5; done
state trust-daemon-during
mv /tmp/trust.xgrec /tmp/trust.xgrec.1
kill -HUP $p
t0=$(up)
until grep -q 'SIGHUP: ' "$OUT/trust-daemon.err" || [ $(($(up) - t0)) -ge 20 ]; do sleep 0.25; done
sleep 1
state trust-daemon-hup
kill -0 $p 2>/dev/null && echo alive > "$OUT/trust-daemon-alive.out"
kill -TERM $p
wait $p
echo $? > "$OUT/trust-daemon.rc"
state trust-daemon-after
ls -l /tmp/trust.xgrec /tmp/trust.xgrec.1 > "$OUT/trust-daemon-files.out" 2>&1
rm -f /tmp/trust.xgrec /tmp/trust.xgrec.1
note "TRUST_DAEMON"
