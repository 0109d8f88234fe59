#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The Xen 4.20 lab's Debian 13 (trixie) root: debootstrap'd once under
# $XGLAB_WORK/trixie-root (XGLAB_XEN=4.20: /var/tmp/xgtop-xenlab-4.20) with
# Xen 4.20's hypervisor, toolstack and headers and what xgtop builds with.
# The lab builds xgtop in it and makes dom0's initrd from it (run.sh).
# The archive is the one this machine's apt already uses for Debian
# (apt-get indextargets), so no host name is written down here.
# Usage: trixie-root.sh            (creates or updates the root)
#        trixie-root.sh run CMD... (CMD inside it, as root, with /proc,
#                                   /sys and /dev mounted for CMD only)
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/lib.sh"
R=$XGLAB_WORK/trixie-root
SUITE=trixie

# in_root CMD...: CMD in the root, in a mount namespace of its own, so
# nothing stays mounted when it ends (or is killed). $XGLAB_WORK is mounted
# at its own path in there: the lab's files have one name on both sides.
in_root() {
	mkdir -p "$R$XGLAB_WORK"
	unshare -m --propagation private /bin/sh -c '
		R=$1 W=$2; shift 2
		mount -t proc proc "$R/proc" && mount -t sysfs sysfs "$R/sys" &&
		mount --rbind /dev "$R/dev" && mount -t tmpfs tmpfs "$R/tmp" &&
		mount --bind "$W" "$R$W" || exit 1
		exec chroot "$R" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
			LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive "$@"' sh "$R" "$XGLAB_WORK" "$@"
}

if [ "${1:-}" = run ]; then
	shift
	[ -x "$R/bin/sh" ] || { echo "trixie-root: no root at $R (run trixie-root.sh)" >&2; exit 1; }
	in_root "$@"
	exit
fi
[ "$(id -u)" = 0 ] || { echo "trixie-root: must run as root (debootstrap, chroot)" >&2; exit 1; }

# Packages in the root: Xen 4.20 for dom0, what the initrd is made of,
# what `make deb` and lintian need, and the package's own Build-Depends
# (read from debian/control, so that a new build dependency reaches the
# root without anyone listing it here).
REPO=$(cd "$HERE/../.." && pwd)
BUILD_DEPS=$(awk '/^Build-Depends:/ {on = 1; sub(/^Build-Depends:/, "")}
	on && /^[^ \t]/ && !/^Build-Depends:/ {on = 0} on' "$REPO/debian/control" |
	tr ',' '\n' | sed 's/[[(].*//; s/^[ \t]*//; s/[ \t]*$//; s/^debhelper-compat$/debhelper/' | grep -v '^$')
[ -n "$BUILD_DEPS" ] || { echo "trixie-root: no Build-Depends in $REPO/debian/control" >&2; exit 1; }
PKGS="xen-hypervisor-4.20-amd64 xen-utils-4.20 xenstore-utils build-essential $(echo $BUILD_DEPS)
      busybox-static bash util-linux cpio kmod gzip xz-utils zstd binutils ncurses-base
      dpkg-dev lintian python3 curl"

if [ ! -e "$R/.xglab-base" ]; then
	command -v debootstrap >/dev/null || {
		apt-cache show debootstrap >/dev/null 2>&1 || apt-get update -q
		apt-get install -y -q --no-install-recommends debootstrap >&2; }
	# The Debian archive this machine's apt uses (its main suite, not the
	# security one).
	MIRROR=$(apt-get indextargets --format '$(ORIGIN)|$(LABEL)|$(REPO_URI)' 2>/dev/null |
		awk -F'|' '$1 == "Debian" && $2 == "Debian" {print $3; exit}')
	[ -n "$MIRROR" ] || { echo "trixie-root: no Debian archive among this machine's apt sources" >&2; exit 1; }
	xglab_log "debootstrap $SUITE from $MIRROR into $R"
	rm -rf "$R"
	mkdir -p "$R"
	debootstrap --variant=minbase --keyring=/usr/share/keyrings/debian-archive-keyring.gpg \
		"$SUITE" "$R" "$MIRROR" >&2
	printf 'deb %s %s main\n' "$MIRROR" "$SUITE" > "$R/etc/apt/sources.list"
	# No daemon starts in the root (xen-utils ships init scripts).
	printf '#!/bin/sh\nexit 101\n' > "$R/usr/sbin/policy-rc.d"
	chmod 0755 "$R/usr/sbin/policy-rc.d"
	touch "$R/.xglab-base"
fi
cp /etc/resolv.conf "$R/etc/resolv.conf" 2>/dev/null || true
missing=$( (in_root dpkg-query -W -f='${db:Status-Abbrev} ${Package}\n' $PKGS 2>/dev/null || true) |
	awk '$1 == "ii" {print $2}' | sort | comm -13 - <(printf '%s\n' $PKGS | sort) | tr '\n' ' ')
if [ -n "${missing// /}" ]; then
	xglab_log "trixie root: apt-get install $missing"
	in_root apt-get update -q >&2
	in_root apt-get install -y -q --no-install-recommends $missing >&2
	in_root apt-get clean
fi
xglab_log "trixie root ready: $(in_root dpkg-query -W -f='${Package} ${Version}' xen-utils-4.20)"
