#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# /init of every lab guest; the kernel command line picks its job:
#   xgmode=busy  spin on every vCPU forever
#   xgmode=io    disk and network traffic, report the guest's own counters,
#                stay quiet a while (dom0 compares then), then light I/O
#   xgmode=idle  sleep
export PATH=/sbin:/bin:/usr/sbin:/usr/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mode=$(sed -n 's/.*xgmode=\([a-z]*\).*/\1/p' /proc/cmdline)
echo "XGGUEST: up mode=$mode t=$(cut -d' ' -f1 /proc/uptime)"

io_counters() {
	set -- $(cat /sys/block/xvda/stat)
	n=/sys/class/net/eth0/statistics
	echo "XGIO-STATS rd_ios=$1 rd_sect=$3 wr_ios=$5 wr_sect=$7" \
	     "rx_bytes=$(cat $n/rx_bytes) rx_packets=$(cat $n/rx_packets)" \
	     "tx_bytes=$(cat $n/tx_bytes) tx_packets=$(cat $n/tx_packets)"
}

case $mode in
busy)
	# One spinner per vCPU: the guest then stays the busiest domain even
	# when dom0 needs one CPU for itself.
	n=$(grep -c '^processor' /proc/cpuinfo)
	i=1
	while [ $i -lt "$n" ]; do
		(while :; do :; done) &
		i=$((i + 1))
	done
	echo "XGGUEST: ready"
	while :; do :; done
	;;
io)
	echo 1 > /proc/sys/net/ipv6/conf/default/disable_ipv6 2>/dev/null
	modprobe xen-blkfront
	modprobe xen-netfront
	for i in $(seq 1 40); do [ -b /dev/xvda ] && [ -e /sys/class/net/eth0 ] && break; sleep 0.25; done
	echo 1 > /proc/sys/net/ipv6/conf/eth0/disable_ipv6 2>/dev/null
	ip link set eth0 up
	ip addr add 169.254.77.2/24 dev eth0
	dd if=/dev/urandom of=/dev/xvda bs=64k count=32 oflag=direct 2>&1 | tail -n1
	dd if=/dev/xvda of=/dev/null bs=64k count=48 iflag=direct 2>&1 | tail -n1
	for i in $(seq 1 20); do ping -c 1 -W 1 169.254.77.1 >/dev/null 2>&1 && break; done
	wget -q -O /dev/null http://169.254.77.1:8080/blob && echo "XGGUEST: fetched blob"
	ping -c 3 -i 0.3 169.254.77.1 | tail -n 1
	sync
	sleep 1
	io_counters
	echo "XGGUEST: ready"
	# Quiet: dom0 compares its counters with the line above now.
	sleep 40
	io_counters
	while :; do
		dd if=/dev/xvda of=/dev/null bs=4k count=4 skip=$((RANDOM % 2000)) iflag=direct 2>/dev/null
		ping -c 1 -W 1 169.254.77.1 >/dev/null 2>&1
		sleep 5
	done
	;;
*)
	echo "XGGUEST: ready"
	while :; do sleep 60; done
	;;
esac
