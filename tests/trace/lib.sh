# SPDX-License-Identifier: GPL-2.0-or-later
# Shared by tests/trace/test_*.sh: locates the repository, the xgtop trace
# entry point and the shared data folder (../shared beside the clone).
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
. "$ROOT/tests/shared-data.sh"
SHARED_DATA=${SHARED_DATA:-$ROOT/../shared/data}   # for the SKIP lines' "absent" path
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

[ -x "$ROOT/xgtop" ] || { echo "xgtop is not built (run make and make tools)"; exit 1; }
XGTRACE=("$ROOT/xgtop" trace)
GEN=$ROOT/build/tools/xentrace-gen

need_xenalyze() {
	command -v xenalyze >/dev/null || { echo "SKIP: xenalyze not installed (Debian package xen-utils-common)"; exit 77; }
}
