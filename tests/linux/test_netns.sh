#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A domain in a network namespace of its own (a container) has interfaces
# of its own, so it gets network figures from its /proc/PID/net/dev: UDP
# sent to it over a veth pair shows as its NET-RX/s, at the rate the host
# end of the pair says it sent. Domains sharing the host's namespace stay
# empty (the kernel does not count traffic per process or cgroup).
. "$(dirname "$0")/common.sh"
[ "$(id -u)" = 0 ] || skip "needs root to make a network namespace and a veth pair"
command -v unshare >/dev/null && command -v nsenter >/dev/null && command -v ip >/dev/null ||
	skip "unshare/nsenter (util-linux) or ip (iproute2) missing"
spawn <<'W'
ns unshare -n sleep 60
host sleep 60
W
ns=$(pid_of ns) host=$(pid_of host)
own_netns() { is_comm "$ns" sleep && [ "$(readlink /proc/"$ns"/ns/net)" != "$(readlink /proc/self/ns/net)" ]; }
wait_until 30 own_netns || fail "unshare -n did not give the worker a network namespace of its own within 30 s"
a=xgt$$a b=xgt$$b
ip link add "$a" type veth peer name "$b" netns "$ns" 2>/dev/null || skip "cannot create a veth pair here"
trap 'ip link del "$a" 2>/dev/null; cleanup' EXIT
ip addr add 10.213.7.1/30 dev "$a" && ip link set "$a" up &&
	nsenter -t "$ns" -n sh -c "ip addr add 10.213.7.2/30 dev $b && ip link set $b up && ip link set lo up" ||
	fail "cannot configure the veth pair"
# 1000 packets/s of 1400-byte UDP into the namespace, on a schedule that
# catches up after a late wake-up so the rate holds on a busy host (no
# listener needed: the interface counts what arrives)
python3 -c '
import socket, time
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
t0, sent = time.monotonic(), 0
while sent < 60000:
    due = int((time.monotonic() - t0) * 1000)
    while sent < due:
        s.sendto(b"x" * 1400, ("10.213.7.2", 9))
        sent += 1
    time.sleep(0.005)
' &
pids+=($!)
sending() { [ "$(cat /sys/class/net/$a/statistics/tx_packets)" -gt 300 ]; }
wait_until 30 sending || fail "the UDP sender did not send 300 packets within 30 s"
tx0=$(cat /sys/class/net/$a/statistics/tx_bytes); t0=$(date +%s.%N)
xg_csv "$tmp/out" --group process -n 3 -d 1
tx1=$(cat /sys/class/net/$a/statistics/tx_bytes); t1=$(date +%s.%N)
python3 - "$tmp/out" "$ns" "$host" "$tx0" "$tx1" "$t0" "$t1" <<'PY' || exit 1
import csv, sys
path, ns, host = sys.argv[1:4]
tx0, tx1, t0, t1 = (float(x) for x in sys.argv[4:8])
ref = (tx1 - tx0) / (t1 - t0)
rows = list(csv.DictReader(open(path, newline="")))
def vals(ident, key):
    return [float(r[key]) for r in rows if r["id"] == ident and r[key] != ""]
rx = vals(ns, "net_rx_bps")
if not rx:
    sys.exit("FAIL: the namespaced domain has no NET-RX/s: %r" % [r for r in rows if r["id"] == ns])
rx = rx[1:] if len(rx) > 1 else rx
got = sum(rx) / len(rx)
print("host end sent %.0f B/s, xgtop says the namespace received %.0f B/s" % (ref, got))
if not 0.7 <= got / ref <= 1.3:
    sys.exit("FAIL: NET-RX/s / sent = %.2f, want 0.7 .. 1.3" % (got / ref))
pps = vals(ns, "net_rx_pps")
if not pps or max(pps) < 100:
    sys.exit("FAIL: packets/s %r, want about 1000" % pps)
if vals(host, "net_rx_bps"):
    sys.exit("FAIL: a process in the host namespace shows network figures")
print("ok: NET-RX/s / sent = %.2f, %.0f packets/s; host-namespace domain empty" % (got / ref, pps[-1]))
PY
