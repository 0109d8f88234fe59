#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Installs the lab's Debian packages (when missing) and unpacks Debian's
# kernel for dom0 and the guests. The kernel package is only unpacked, not
# installed: its initramfs/bootloader hooks have no business on this host.
# The 4.20 lab runs this twice: on the host (QEMU only; XGLAB_XEN=4.20) and
# in the trixie root (XGLAB_IN_ROOT=1: Xen, the kernel, the initrd tools).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/lib.sh"
export DEBIAN_FRONTEND=noninteractive

HOST_PKGS="qemu-system-x86 python3"
DOM0_PKGS="xen-hypervisor-$XGLAB_XEN-amd64 xen-utils-$XGLAB_XEN xen-utils-common
      xenstore-utils libxen-dev busybox-static cpio kmod gzip xz-utils"
if [ -n "${XGLAB_IN_ROOT:-}" ]; then
	PKGS=$DOM0_PKGS
	HOST_ONLY=""
elif [ "$XGLAB_XEN" = 4.17 ]; then
	PKGS="$HOST_PKGS $DOM0_PKGS"
	HOST_ONLY=""
else
	# Xen, the kernel and the initrd's tools come from the trixie root.
	PKGS="$HOST_PKGS debootstrap rsync"
	HOST_ONLY=y
fi
missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing="$missing $p"
done
if [ -n "$missing" ]; then
	if [ "$(id -u)" != 0 ]; then
		echo "setup: missing packages:$missing (run as root to install them)" >&2
		exit 1
	fi
	apt-cache show qemu-system-x86 >/dev/null 2>&1 || apt-get update -q
	xglab_log "apt-get install$missing"
	apt-get install -y -q -o DPkg::Lock::Timeout=300 --no-install-recommends $missing >&2
fi

if [ -n "$HOST_ONLY" ]; then
	xglab_log "setup done on the host (Xen $XGLAB_XEN comes from the trixie root)"
	exit 0
fi

# Debian's generic kernel runs as PV dom0 and PV guest alike.
kpkg=$(apt-cache depends linux-image-amd64 | awk '/Depends: linux-image-[0-9]/ {print $2; exit}')
[ -n "$kpkg" ] || { echo "setup: cannot resolve linux-image-amd64" >&2; exit 1; }
mkdir -p "$XGLAB_WORK/debs"
if ! ls "$XGLAB_WORK/debs/${kpkg}_"*.deb >/dev/null 2>&1; then
	xglab_log "apt-get download $kpkg"
	chown _apt "$XGLAB_WORK/debs" 2>/dev/null || true
	(cd "$XGLAB_WORK/debs" && apt-get download -q "$kpkg" >&2)
fi
if [ ! -d "$XGLAB_KROOT/lib/modules" ]; then
	rm -rf "$XGLAB_KROOT.tmp"
	mkdir -p "$XGLAB_KROOT.tmp"
	dpkg-deb -x "$XGLAB_WORK/debs/${kpkg}_"*.deb "$XGLAB_KROOT.tmp"
	# Debian 13's kernel package has them under usr/ (merged /usr).
	if [ ! -d "$XGLAB_KROOT.tmp/lib/modules" ] && [ -d "$XGLAB_KROOT.tmp/usr/lib/modules" ]; then
		mkdir -p "$XGLAB_KROOT.tmp/lib"
		mv "$XGLAB_KROOT.tmp/usr/lib/modules" "$XGLAB_KROOT.tmp/lib/modules"
	fi
	# The package carries no modules.dep; modprobe in the initrds needs it.
	depmod -b "$XGLAB_KROOT.tmp" "$(ls "$XGLAB_KROOT.tmp/lib/modules")"
	mv "$XGLAB_KROOT.tmp" "$XGLAB_KROOT"
fi
# QEMU's multiboot loader takes an uncompressed ELF, Debian ships a .gz.
if [ ! -s "$XGLAB_WORK/xen.elf" ] || [ "/boot/xen-$XGLAB_XEN-amd64.gz" -nt "$XGLAB_WORK/xen.elf" ]; then
	zcat "/boot/xen-$XGLAB_XEN-amd64.gz" > "$XGLAB_WORK/xen.elf.tmp"
	mv "$XGLAB_WORK/xen.elf.tmp" "$XGLAB_WORK/xen.elf"
fi
xglab_log "setup done: kernel $(xglab_kver)"
