#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Three real guests, as an operator's host has them: a spinner (2 vCPUs,
# one busy), a reader that sleeps and reads its disk (and receives UDP on
# a tap device), and an idle one inside a libvirt-style cgroup scope
# (machine-qemu\x2d7\x2d<cut name>.scope) with a name longer than the
# scope keeps. The full-screen view runs in tmux with --record; the frozen
# screen is compared with CSV and JSON replays of that recording, and the
# figures with what the guests do. Then one guest is destroyed.
. "$(dirname "$0")/lib.sh"
command -v tmux >/dev/null || skip "tmux is not installed (make deps)"
command -v ip >/dev/null || skip "ip (iproute2) is not installed (make deps)"
cgroot=$(awk '$9 == "cgroup2" { print $5; exit }' /proc/self/mountinfo)
[ -n "$cgroot" ] || skip "no cgroup v2 hierarchy is mounted (for the libvirt-style scope)"
long=xgtest-scoped-guest-with-a-name-longer-than-its-scope
scope="machine.slice/machine-qemu\\x2d7\\x2dxgtest\\x2dscoped\\x2dg.scope"
[ -d "$cgroot/machine.slice" ] || { mkdir "$cgroot/machine.slice" && cgdirs+=("$cgroot/machine.slice"); }
# An earlier run that was killed leaves its scope behind, empty: take it
# over (rmdir refuses a scope that still has processes).
rmdir "$cgroot/$scope" 2>/dev/null
mkdir "$cgroot/$scope" || skip "cannot create a cgroup under $cgroot"
cgdirs=("$cgroot/$scope" "${cgdirs[@]}")
printf 'echo $$ >"%s/cgroup.procs" && exec "$@"\n' "$cgroot/$scope" >"$tmp/inscope.sh"
tap=xgtap$$
ip tuntap add dev "$tap" mode tap 2>/dev/null || skip "cannot create a tap device"
taps+=("$tap")
ip addr add 169.254.77.1/24 dev "$tap" && ip link set "$tap" up

start_guest xgtest-spin spin 2 160
XG_APPEND="xg.ip=169.254.77.2" start_guest xgtest-read read 1 128 \
	-netdev "tap,id=n0,ifname=$tap,script=no,downscript=no" -device virtio-net-pci,netdev=n0
XG_WRAP="sh $tmp/inscope.sh" start_guest "$long" idle 1 144
wait_ready xgtest-spin xgtest-read "$long"
grep -qx "$(guest_pid "$long")" "$cgroot/$scope/cgroup.procs" || fail "the scoped guest is not in its scope"

# host -> guest UDP (dropped by the guest, answered with a rate-limited
# ICMP error): the guest receives far more than it sends
python3 -c '
import socket, sys, time
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
while True:
    s.sendto(b"x" * 1400, ("169.254.77.2", 9))
    time.sleep(0.02)' &
udp=$!
trap 'kill $udp 2>/dev/null; cleanup' EXIT

# What the host sent the reader (its tap transmits what the guest receives),
# logged with the wall-clock time every 0.1 s: the check takes the part of
# it within the interval that xgtop measured, whatever pace the sender kept
# on a loaded machine.
while :; do echo "$(date +%s.%N) $(cat /sys/class/net/$tap/statistics/tx_bytes)"; sleep 0.1; done >"$tmp/taplog" &
taplog=$!
trap 'kill $udp $taplog 2>/dev/null; cleanup' EXIT
XG_TMUX=xgtop-kvm-$$
tm() { tmux -L "$XG_TMUX" -f /dev/null "$@"; }
tm new-session -d -s t -x 260 -y 50 "env TERM=xterm-256color LANG=C.UTF-8 TZ=UTC ./xgtop --group vm -v -d 2 --record $tmp/rec.xgrec"
tm set-option -t t status off >/dev/null
t0=$SECONDS
samples() { gzip -dc "$tmp/rec.xgrec" 2>/dev/null | grep -c '^S'; }
until tm capture-pane -p -t t | grep -q "EMU%" && [ "$(samples)" -ge 4 ]; do
	[ $((SECONDS - t0)) -ge 40 ] && { tm capture-pane -p -t t; fail "the full-screen view did not show 4 samples"; }
	sleep 0.5
done
tm send-keys -t t Space
sleep 0.5
tm capture-pane -p -t t >"$tmp/screen"
tm send-keys -t t q
sleep 0.5
./xgtop -b --replay "$tmp/rec.xgrec" --speed 0 -v -o csv >"$tmp/csv" 2>"$tmp/err" || fail "replay csv: $(cat "$tmp/err")"
./xgtop -b --replay "$tmp/rec.xgrec" --speed 0 -v -o json >"$tmp/json" 2>"$tmp/err" || fail "replay json: $(cat "$tmp/err")"
kill $taplog
python3 tests/kvm/check_guests.py "$tmp/screen" "$tmp/csv" "$tmp/json" "$ACCEL" \
	"$(guest_pid xgtest-spin)" "$(guest_pid xgtest-read)" "$long" "$tmp/taplog" || exit 1

# destroying a guest removes its row (and only its row)
reader=$(guest_pid xgtest-read)
kill "$reader"
for _ in $(seq 50); do kill -0 "$reader" 2>/dev/null || break; sleep 0.1; done
./xgtop -b -o csv --group vm -n 1 -d 0.5 >"$tmp/after" 2>"$tmp/err" || fail "xgtop: $(cat "$tmp/err")"
python3 - "$tmp/after" "$reader" "$long" <<'PY' || exit 1
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
names = {r["name"] for r in rows}
if sys.argv[2] in {r["id"] for r in rows} or "xgtest-read" in names:
    sys.exit("FAIL: the destroyed guest is still listed: %s" % sorted(names))
if not {"xgtest-spin", sys.argv[3], "host"} <= names:
    sys.exit("FAIL: other rows went with it: %s" % sorted(names))
print("ok: the destroyed guest's row is gone, the others stay")
PY
