#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Builds the two initramfs images under $XGLAB_WORK:
#   guest-initrd.gz  busybox + blkfront/netfront + guest-init.sh (every domU)
#   dom0-initrd.gz   busybox, bash, the Xen $XGLAB_XEN toolstack, xentop,
#                    the guest kernel/initrd, the lab scripts and the
#                    project's binaries given as arguments (with their
#                    libraries).
# Usage: mkinitrd.sh BINARY...   (installed into dom0's /usr/local/bin)
# Env: XENLAB_DOM0_HOOK (a script dom0 runs once the guests are up, as
#      /usr/local/bin/xglab-hook), XGLAB_PORTABLE_BIN (the portable build's
#      xgtop, as /usr/local/bin/xgtop-portable). The 4.20 lab runs this in
#      the trixie root, so every tool and library comes from Debian 13.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/lib.sh"
KVER=$(xglab_kver)
[ -n "$KVER" ] || { echo "mkinitrd: run setup.sh first" >&2; exit 1; }
MODDIR=$XGLAB_KROOT/lib/modules/$KVER

# modules ROOT NAME...: the named modules, what they depend on, and depmod.
modules() {
	local root=$1 m f rel
	shift
	mkdir -p "$root/lib/modules/$KVER"
	cp "$MODDIR"/modules.order "$MODDIR"/modules.builtin "$MODDIR"/modules.builtin.modinfo \
		"$root/lib/modules/$KVER/"
	for m in "$@"; do
		for f in $(modprobe -d "$XGLAB_KROOT" -S "$KVER" --show-depends "$m" | awk '$1 == "insmod" {print $2}'); do
			rel=${f#"$MODDIR"/}
			mkdir -p "$root/lib/modules/$KVER/$(dirname "$rel")"
			cp "$f" "$root/lib/modules/$KVER/$rel"
			# Debian 13's modules are .ko.xz; busybox's modprobe takes
			# them plain.
			case $rel in *.xz) xz -df "$root/lib/modules/$KVER/$rel" ;; esac
		done
	done
	depmod -b "$root" "$KVER"
}

busybox_root() {
	local root=$1 a
	mkdir -p "$root"/{bin,sbin,usr/bin,usr/sbin,proc,sys,dev,tmp,run,etc,root}
	cp /bin/busybox "$root/bin/busybox"
	for a in $(/bin/busybox --list-full); do
		[ -e "$root/$a" ] || ln -s /bin/busybox "$root/$a"
	done
}

# elf ROOT FILE...: each file at its own path plus the libraries ldd names.
# Libraries a binary loads with dlopen() (xgtop loads the Xen libraries,
# libpfm4 and libmicrohttpd when it needs them), found by the sonames among
# its strings: the paths of those this host has. With DLOPEN_ONLY set (an
# extended regex), only the sonames it matches: a small guest's initrd must
# not carry libraries its job never loads.
dlopened() {
	local so
	for so in $(strings "$1" | grep -E '^lib[a-z0-9_+-]+\.so(\.[0-9]+)*$' |
		grep -E "${DLOPEN_ONLY:-.}" | sort -u); do
		ldconfig -p | awk -v so="$so" '$1 == so && /x86-64/ {print $NF; exit}'
	done
}

elf() {
	local root=$1 f l
	shift
	for f in "$@"; do
		mkdir -p "$root/$(dirname "$f")"
		cp -L "$f" "$root/$f"
		for l in $(ldd "$f" | awk '$2 == "=>" && $3 ~ /^\// {print $3} $1 ~ /^\/lib64\// {print $1}'); do
			[ -e "$root/$l" ] && continue
			mkdir -p "$root/$(dirname "$l")"
			cp -L "$l" "$root/$l"
		done
		for l in $(dlopened "$f"); do
			[ -e "$root/$l" ] || elf "$root" "$l"
		done
	done
}

cpio_gz() { (cd "$1" && find . | LC_ALL=C sort | cpio -o -H newc --quiet | gzip -5) > "$2"; }

T0=$(date +%s.%N)
# ---- guests ----
G=$XGLAB_WORK/guest-root
rm -rf "$G"
busybox_root "$G"
modules "$G" xen-blkfront xen-netfront
install -m 0755 "$HERE/guest-init.sh" "$G/init"
cpio_gz "$G" "$XGLAB_WORK/guest-initrd.gz"

# ---- dom0 ----
R=$XGLAB_WORK/dom0-root
rm -rf "$R"
busybox_root "$R"
mkdir -p "$R"/{boot,var/lib,var/log,lib64,usr/local/bin,srv}
files="/bin/bash /usr/bin/flock"
for b in xl xentop xenstored xen-init-dom0 xenconsoled libxl-save-helper xenstore-control; do
	files="$files $XGLAB_XENBIN/$b"
done
elf "$R" $files
# xl's pthread_cancel makes glibc dlopen libgcc_s, which ldd does not list.
elf "$R" "$(ldconfig -p | awk '/libgcc_s\.so\.1 .*x86-64/ {print $NF; exit}')"
cp -a /usr/bin/xenstore /usr/bin/xenstore-* "$R/usr/bin/"
elf "$R" /usr/bin/xenstore
for f in "$@"; do
	[ -x "$f" ] || { echo "mkinitrd: $f is not an executable" >&2; exit 1; }
	f=$(readlink -f "$f")
	elf "$R" "$f"
	mv "$R$f" "$R/usr/local/bin/$(basename "$f")"
done
cp -a /etc/xen "$R/etc/xen"
install -m 0644 "$HERE"/guest-*.cfg "$R/etc/xen/"
install -m 0755 "$HERE/dom0-init.sh" "$R/init"
install -m 0755 "$HERE/dom0-tests.sh" "$R/usr/local/bin/dom0-tests.sh"
# Extra dom0 scripts, run once the guests are up, each judged by its exit
# status and its "XGLAB-CHECK PASS|FAIL NAME [DETAIL]" lines (check.py):
# the caller's hook, and the scripts of this Xen's list that exist.
mkdir -p "$R/usr/local/lib/xglab-extra"
for f in $(xglab_dom0_extra); do
	[ -f "$HERE/$f" ] && install -m 0755 "$HERE/$f" "$R/usr/local/lib/xglab-extra/$f"
done
if [ -n "${XENLAB_DOM0_HOOK:-}" ]; then
	[ -f "$XENLAB_DOM0_HOOK" ] || { echo "mkinitrd: XENLAB_DOM0_HOOK=$XENLAB_DOM0_HOOK is no file" >&2; exit 1; }
	install -m 0755 "$XENLAB_DOM0_HOOK" "$R/usr/local/bin/xglab-hook"
fi
if [ -n "${XGLAB_PORTABLE_BIN:-}" ]; then
	f=$(readlink -f "$XGLAB_PORTABLE_BIN")
	elf "$R" "$f"
	mv "$R$f" "$R/usr/local/bin/xgtop-portable"
fi
install -m 0644 "$HERE/dom0-lib.sh" "$R/usr/local/bin/dom0-lib.sh"
# The scheduler checks (dom0-sched.sh): their tools, xentrace, and terminfo
# for the full-screen view.
install -m 0755 "$HERE/dom0-sched.sh" "$R/usr/local/bin/dom0-sched.sh"
# util-linux setpriv (busybox's cannot set the bounding set): dom0-trust.sh
# runs xgtop without any capability.
for f in "$HERE/../../build/tools/xg-tbuf-state" "$HERE/../../build/tools/xg-pty" "$XGLAB_XENBIN/xentrace" \
	/usr/bin/setpriv; do
	[ -x "$f" ] || continue
	f=$(readlink -f "$f")
	elf "$R" "$f"
	mv "$R$f" "$R/usr/local/bin/$(basename "$f")"
done
# ncurses-base's entries: /lib/terminfo on Debian 12, /usr/share/terminfo
# on Debian 13 (without it the 4.20 lab's full-screen checks could not run:
# "no terminfo entry for TERM=dumb").
for d in /lib/terminfo /usr/share/terminfo; do
	[ -d "$d" ] || continue
	mkdir -p "$R$(dirname "$d")"
	cp -a "$d" "$R$(dirname "$d")/"
done
printf 'root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/nonexistent:/bin/sh\n' > "$R/etc/passwd"
printf 'root:x:0:\nnogroup:x:65534:\n' > "$R/etc/group"
modules "$R" xen-evtchn xen-gntdev xen-gntalloc xen-privcmd xenfs xen-blkback xen-netback \
	loop bridge virtio_pci virtio_blk
# Guests get the kernel already decompressed: xl would otherwise unpack the
# xz payload under emulation on every create.
vmlinuz=$XGLAB_KROOT/boot/vmlinuz-$KVER
vmlinux=$XGLAB_WORK/vmlinux-$KVER
# Debian 12's payload is xz, Debian 13's zstd.
unpack_payload() {  # MAGIC TOOL
	local off
	off=$(LC_ALL=C grep -abo "$1" "$vmlinuz" | head -n1 | cut -d: -f1) || true
	[ -n "$off" ] && command -v "$2" >/dev/null || return 1
	tail -c +$((off + 1)) "$vmlinuz" | "$2" -dc > "$vmlinux.tmp" 2>/dev/null
	[ -s "$vmlinux.tmp" ] && [ "$(head -c4 "$vmlinux.tmp" | od -An -c | tr -d ' ')" = 177ELF ]
}
if [ ! -s "$vmlinux" ]; then
	if unpack_payload $'\xfd7zXZ\x00' xz || unpack_payload $'\x28\xb5\x2f\xfd' zstd; then
		mv "$vmlinux.tmp" "$vmlinux"
	else
		rm -f "$vmlinux.tmp"
		cp "$vmlinuz" "$vmlinux"
	fi
fi
cp "$vmlinux" "$R/boot/vmlinuz"
cp "$XGLAB_WORK/guest-initrd.gz" "$R/boot/guest-initrd.gz"
. "$HERE/cmt-agent-mkinitrd.sh"   # CMT/MBM and xgtop --agent checks
cpio_gz "$R" "$XGLAB_WORK/dom0-initrd.gz"
xglab_log "initrds built in $(awk -v a="$T0" -v b="$(date +%s.%N)" 'BEGIN {printf "%.1f", b - a}') s"
