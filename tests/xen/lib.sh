# SPDX-License-Identifier: GPL-2.0-or-later
# Shared settings of the Xen lab scripts (sourced). Everything large lives
# under $XGLAB_WORK, never in the repository.
# XGLAB_XEN picks the lab: 4.17 (the default) runs this machine's Debian 12
# packages; 4.20 runs Debian 13's, from a trixie root (trixie-root.sh).
XGLAB_XEN=${XGLAB_XEN:-4.17}
case $XGLAB_XEN in
4.17) XGLAB_WORK=${XGLAB_WORK:-/var/tmp/xgtop-xenlab} ;;
4.20) XGLAB_WORK=${XGLAB_WORK:-/var/tmp/xgtop-xenlab-4.20} ;;
*)
	echo "xen-lab: no lab for Xen $XGLAB_XEN (XEN=4.17: Debian 12's packages; XEN=4.20: Debian 13's)" >&2
	exit 2
	;;
esac
XGLAB_XENBIN=/usr/lib/xen-$XGLAB_XEN/bin
XGLAB_KROOT=$XGLAB_WORK/kernel
mkdir -p "$XGLAB_WORK"

# The dom0 scripts that run only in one Xen's lab (tests/xen/NAME, installed
# when present; dom0-tests.sh runs them once the guests are up, as it runs
# XENLAB_DOM0_HOOK). dom0-vbd3.sh: tapdisk3 disk statistics against xentop,
# which reads them since Xen 4.19.
xglab_dom0_extra() {
	case $XGLAB_XEN in
	4.20) echo dom0-vbd3.sh ;;
	esac
}

xglab_log() { printf '[xen-lab %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
xglab_kver() { ls "$XGLAB_KROOT/lib/modules" 2>/dev/null | head -n1; }
