#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# contrib/xgtop.alerts.yml: promtool checks the rules, then runs their unit
# tests (tests/exporter/alerts_test.yml: every alert fires when it should,
# not before its "for", and not on a neighbour below the threshold), and
# the same tests must fail against a copy with the WAIT% threshold moved,
# so that they cannot pass whatever the rules say.
cd "$(dirname "$0")/../.." || exit 2
command -v promtool >/dev/null || { echo "SKIP: promtool (Debian package prometheus) is not installed"; exit 77; }
fail() { echo "FAIL: $*"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

out=$(promtool check rules contrib/xgtop.alerts.yml 2>&1) || fail "promtool check rules: $out"
echo "$out" | grep -q 'SUCCESS: 5 rules found' || fail "expected 5 rules: $out"
out=$(cd tests/exporter && promtool test rules alerts_test.yml 2>&1) || fail "promtool test rules: $out"
echo "promtool test rules: every alert of contrib/xgtop.alerts.yml as expected"

mkdir -p "$tmp/contrib" "$tmp/tests/exporter"
sed 's/          > 20$/          > 40/' contrib/xgtop.alerts.yml >"$tmp/contrib/xgtop.alerts.yml"
cmp -s contrib/xgtop.alerts.yml "$tmp/contrib/xgtop.alerts.yml" && fail "the WAIT% threshold was not found to move"
cp tests/exporter/alerts_test.yml "$tmp/tests/exporter/"
(cd "$tmp/tests/exporter" && promtool test rules alerts_test.yml >/dev/null 2>&1) &&
	fail "the unit tests pass against rules with another WAIT% threshold"
echo "and they fail against a WAIT% threshold of 40"
