# SPDX-License-Identifier: GPL-2.0-or-later
# Shared settings of the Xen lab scripts (sourced). Everything large lives
# under $XGLAB_WORK, never in the repository.
XGLAB_WORK=${XGLAB_WORK:-/var/tmp/xgtop-xenlab}
XGLAB_XEN=${XGLAB_XEN:-4.17}
XGLAB_XENBIN=/usr/lib/xen-$XGLAB_XEN/bin
XGLAB_KROOT=$XGLAB_WORK/kernel
mkdir -p "$XGLAB_WORK"

xglab_log() { printf '[xen-lab %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
xglab_kver() { ls "$XGLAB_KROOT/lib/modules" 2>/dev/null | head -n1; }
