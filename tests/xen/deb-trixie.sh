#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The Debian package for Debian 13: tests/pkg/test_deb.sh (make deb,
# lintian without errors, dpkg -i, the installed binary and the exporter
# unit's command, dpkg --purge) run inside the Xen 4.20 lab's trixie root
# (trixie-root.sh), on a copy of this tree. The .deb is left in
# /var/tmp/xgtop-xenlab-4.20/src/build/pkg-test. Run as root.
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
export XGLAB_XEN=4.20
. "$HERE/lib.sh"
export XGLAB_WORK
"$HERE/trixie-root.sh" || { echo "FAIL deb-trixie: no trixie root"; exit 1; }
SRC=$XGLAB_WORK/src
mkdir -p "$SRC"
rsync -a --delete --exclude=/.git --exclude=/build --exclude=/xgtop "$REPO/" "$SRC/" || exit 1
"$HERE/trixie-root.sh" run env CI="${CI:-}" bash "$SRC/tests/pkg/test_deb.sh"
rc=$?
echo "deb-trixie: tests/pkg/test_deb.sh in Debian 13 (trixie) exited $rc"
exit $rc
