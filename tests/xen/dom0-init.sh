#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# /init of the lab's dom0: brings up the Xen control plane by hand (what
# xencommons does on an installed host), runs dom0-tests.sh, writes its
# results as a tar onto the virtio disk and powers the machine off.
# Console lines starting with "XGLAB:" tell the host how far it got.
# The one Xen toolstack the initrd holds (mkinitrd.sh: 4.17 or 4.20).
XENBIN=$(echo /usr/lib/xen-*/bin)
export PATH=/usr/local/bin:$XENBIN:/usr/sbin:/usr/bin:/sbin:/bin
export HOME=/root TERM=dumb
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mkdir -p /dev/pts /dev/shm
mount -t devpts devpts /dev/pts
# udev would create these; Xen's hotplug scripts lock through /dev/stdin
# and spin forever without it.
ln -sfn /proc/self/fd /dev/fd
ln -sfn /proc/self/fd/0 /dev/stdin
ln -sfn /proc/self/fd/1 /dev/stdout
ln -sfn /proc/self/fd/2 /dev/stderr
mount -t tmpfs tmpfs /run
ln -sfn /run /var/run
mkdir -p /var/run/xen /var/run/xenstored /var/lib/xen /var/lib/xenstored /var/lib/xglab \
	/var/log/xen/console /var/run/xen-hotplug /var/lock
OUT=/tmp/xglab-out
mkdir -p $OUT
up() { cut -d' ' -f1 /proc/uptime; }
say() { echo "XGLAB: $*"; }

export_results() {
	dmesg > $OUT/dom0-dmesg.txt 2>&1
	cp /var/log/xen/*.log /var/log/xen/console/*.log $OUT/ 2>/dev/null
	if modprobe virtio_pci && modprobe virtio_blk; then
		for i in $(seq 1 20); do [ -b /dev/vda ] && break; sleep 0.25; done
	fi
	if [ -b /dev/vda ] && tar -C /tmp -cf /dev/vda xglab-out && sync; then
		say "EXPORT ok"
	else
		say "EXPORT failed"
	fi
	say "DONE t=$(up)"
	sync
	poweroff -f
	sleep 10
	reboot -f
}

say "DOM0_INIT t=$(up) kernel=$(uname -r)"
for m in xen-evtchn xen-gntdev xen-gntalloc xen-privcmd xenfs xen-blkback xen-netback loop bridge; do
	modprobe $m || say "MODPROBE_FAIL $m"
done
mount -t xenfs xenfs /proc/xen || say "XENFS_FAIL"
say "CAPS $(cat /proc/xen/capabilities 2>/dev/null)"
# No IPv6 chatter on the lab bridge: the network counters are compared
# with the guest's own.
sysctl -qw net.ipv6.conf.all.disable_ipv6=1 net.ipv6.conf.default.disable_ipv6=1 2>/dev/null

xenstored --pid-file=/var/run/xenstored.pid
for i in $(seq 1 100); do xenstore-read -s / >/dev/null 2>&1 && break; sleep 0.1; done
if ! xen-init-dom0 > $OUT/xen-init-dom0.txt 2>&1; then
	say "XEN_INIT_DOM0_FAIL"
	export_results
fi
xenconsoled --pid-file=/var/run/xenconsoled.pid --log=guest --log-dir=/var/log/xen/console
ip link add name xenbr0 type bridge
ip addr add 169.254.77.1/24 dev xenbr0
ip link set xenbr0 up
dd if=/dev/zero of=/var/lib/xglab/io-disk.img bs=1M count=16 2>/dev/null
dd if=/dev/zero of=/srv/blob bs=64k count=16 2>/dev/null
httpd -p 8080 -h /srv
say "DOM0_READY t=$(up)"

# xgtrace=1 on the kernel command line (run.sh: XGLAB_TRACE=1): every
# command of the suite on the console, to see where a lab hangs.
if grep -q 'xgtrace=1' /proc/cmdline; then
	/bin/sh -x /usr/local/bin/dom0-tests.sh $OUT 2> /dev/console > $OUT/dom0-tests.log
else
	/bin/sh /usr/local/bin/dom0-tests.sh $OUT > $OUT/dom0-tests.log 2>&1
fi
say "TESTS rc=$? t=$(up)"
export_results
