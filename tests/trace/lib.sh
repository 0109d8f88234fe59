# SPDX-License-Identifier: GPL-2.0-or-later
# Shared by tests/trace/test_*.sh: locates the repository, the xgtop trace
# entry point and the shared data folder (../shared beside the clone).
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
SHARED_DATA=${XGTOP_SHARED_DATA:-$(cd "$ROOT/.." && pwd)/shared/data}
if [ ! -d "$SHARED_DATA" ]; then
	# A git worktree lives elsewhere: try beside the main checkout.
	common=$(git -C "$ROOT" rev-parse --path-format=absolute --git-common-dir 2>/dev/null)
	[ -n "$common" ] && [ -d "$(dirname "$common")/../shared/data" ] &&
		SHARED_DATA=$(cd "$(dirname "$common")/../shared/data" && pwd)
fi
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

[ -x "$ROOT/xgtop" ] || { echo "xgtop is not built (run make and make tools)"; exit 1; }
XGTRACE=("$ROOT/xgtop" trace)
GEN=$ROOT/build/tools/xentrace-gen

need_xenalyze() {
	command -v xenalyze >/dev/null || { echo "SKIP: xenalyze not installed (Debian package xen-utils-common)"; exit 77; }
}
