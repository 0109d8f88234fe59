# SPDX-License-Identifier: GPL-2.0-or-later
# Shared by the tests/record scripts that run the real xgtop on generated
# recordings: the tree's root as working directory, the generator ($gen),
# a scratch directory ($d, removed on exit) and the failure flag ($fail).
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 2
gen=build/tools/xgtop-gen
[ -x "$gen" ] || { echo "FAIL: $gen missing (make tools)"; exit 1; }
[ -x ./xgtop ] || { echo "SKIP: ./xgtop is not built (make)"; exit 77; }
d=$(mktemp -d) || exit 2
trap 'rm -rf "$d"' EXIT
fail=0
