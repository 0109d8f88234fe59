#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# /init of the test guests (busybox): loads the virtio modules, says
# XG-READY on the serial console, then does what xg.role= on the kernel
# command line asks:
#   spin   one busy loop (one vCPU busy, the others idle)
#   read   mostly asleep; every 0.5 s reads 2 MiB of its disk with
#          O_DIRECT (so every read reaches the host)
# With xg.ip=ADDR its virtio NIC gets that address (the tests send to it).
#   idle   asleep
/bin/busybox --install -s /bin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
# in dependency order; modules a kernel lacks or has built in just fail
for m in virtio_ring virtio virtio_pci_modern_dev virtio_pci_legacy_dev virtio_pci \
	virtio_blk failover net_failover virtio_net; do
	[ -e "/mods/$m.ko" ] && insmod "/mods/$m.ko" 2>/dev/null
done
arg() { sed -n "s/.*$1=\([^ ]*\).*/\1/p" /proc/cmdline; }
role=$(arg xg.role)
ip=$(arg xg.ip)
if [ -n "$ip" ] && [ -e /sys/class/net/eth0 ]; then
	ip addr add "$ip/24" dev eth0
	ip link set eth0 up
fi
echo "XG-READY role=$role vcpus=$(grep -c ^processor /proc/cpuinfo)"
case $role in
spin) while :; do :; done ;;
read) while :; do dd if=/dev/vda of=/dev/null bs=64k count=32 iflag=direct 2>/dev/null; sleep 0.5; done ;;
*) while :; do sleep 60; done ;;
esac
