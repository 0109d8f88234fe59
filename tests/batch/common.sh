# SPDX-License-Identifier: GPL-2.0-or-later
# Sourced by the batch tests: runs from the top of the tree, checks the
# tools they need, gives each test a scratch directory.
cd "$(dirname "$0")/../.." || exit 2
. tests/wait.sh
[ -x ./xgtop ] || { echo "FAIL: ./xgtop is not built (make)"; exit 1; }
command -v python3 >/dev/null || { echo "SKIP: python3 is needed to check the output"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
