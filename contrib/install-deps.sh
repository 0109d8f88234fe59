#!/bin/sh
# Installs the Debian 12 packages xgtop needs to build and test. Idempotent.
set -e
PKGS="build-essential pkg-config libncurses-dev zlib1g-dev libxen-dev libpfm4-dev
libmicrohttpd-dev libyaml-dev libgnutls28-dev libcurl4-openssl-dev libcjson-dev libcmocka-dev tmux xen-utils-common python3 procps clang libclang-rt-14-dev iproute2
curl prometheus victoria-metrics prometheus-alertmanager python3-prometheus-client wrk debhelper dpkg-dev lintian rpm rpmlint cpio
qemu-system-x86 busybox-static cpio util-linux valgrind libbpf-dev bpftool"
missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing="$missing $p"
done
# npm fetches the portable build's toolchain (contrib/portable/toolchain.sh);
# any npm on the PATH will do, not only Debian's.
command -v npm >/dev/null || missing="$missing npm"
[ -z "$missing" ] && { echo "deps: all installed"; exit 0; }
if [ "$(id -u)" != 0 ]; then
	echo "deps: missing:$missing (run 'make deps' as root)" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends $missing
