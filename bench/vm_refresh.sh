#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# VM mode's refresh cost: CPU time of one collect (--group vm) with VMS
# stand-in VMs (default 50) of VCPUS vCPUs (default 4) each, against the
# same host without them, in rounds that take turns (best of each kept).
# A stand-in is build/tools/xg-vm-standin run as qemu-system-x86_64 with
# QEMU's command line and thread names: CPU n/KVM, an I/O thread, two
# workers and its main thread. The figure to watch is what the VMs add:
# target under 1 ms for 50 VMs of 4 vCPUs. Collects run back to back
# unless GAP_MS says how far apart; DUMP=path/to/xgtop-linux-dump
# measures another build of the tool.
cd "$(dirname "$0")/.." || exit 2
make -s tools >/dev/null || exit 2
n=${VMS:-50} v=${VCPUS:-4} reps=${REFRESHES:-200} gap=${GAP_MS:-0}
dump=${DUMP:-build/tools/xgtop-linux-dump}
tmp=$(mktemp -d) || exit 2
ln -s "$PWD/build/tools/xg-vm-standin" "$tmp/qemu-system-x86_64"
start() {
	setsid bash -c 'echo $$ >"$1/leader"; for ((i = 1; i <= $2; i++)); do
		XG_VCPUS=$3 XG_IDLE=2 "$1/qemu-system-x86_64" -name "guest=bench-$i,debug-threads=on" \
			-m 1G -smp "$3" -uuid "$(cat /proc/sys/kernel/random/uuid)" >>"$1/ready" &
	done; wait' _ "$tmp" "$n" "$v" &
	for _ in $(seq 100); do
		[ -s "$tmp/ready" ] && [ "$(wc -l <"$tmp/ready")" -ge "$n" ] && return
		sleep 0.1
	done
	echo "vm_refresh: the stand-ins did not start"
	exit 1
}
stop() {
	[ -s "$tmp/leader" ] || return 0
	kill -- -"$(cat "$tmp/leader")" 2>/dev/null
	sleep 0.3
	rm -f "$tmp/ready" "$tmp/leader"
}
trap 'stop; rm -rf "$tmp"' EXIT
cost() {  # prints the mean CPU us of one collect, and the line
	"$dump" bench vm "$reps" "$gap" | tee -a "$tmp/log" |
		sed -n 's/.*: \([0-9]*\) us CPU,.*/\1/p'
}
best_host= best_vms=
for round in 1 2 3; do
	h=$(cost)
	start
	m=$(cost)
	stop
	[ -z "$best_host" ] || [ "$h" -lt "$best_host" ] && best_host=$h
	[ -z "$best_vms" ] || [ "$m" -lt "$best_vms" ] && best_vms=$m
	echo "round $round: host alone $h us, with $n VMs $m us"
done
sed 's/^/  /' "$tmp/log"
add=$((best_vms - best_host))
echo "one refresh with $n VMs of $v vCPUs: $best_vms us CPU; the host's own processes alone: $best_host us"
echo "the $n VMs add $add us per refresh ($((add / n)) us per VM; target under 1000 us)"
