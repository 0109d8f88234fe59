#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# TUI refresh cost: metrics, filter+sort and drawing for 10,000 domains
# into a 200x60 screen, from a recording (so the source's cost is not in
# the figure). Target: under 5 ms of CPU per refresh. Printed, not
# asserted.
cd "$(dirname "$0")/.." || exit 2
make -s tools >/dev/null || exit 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
build/tools/xgtop-gen --domains "${DOMAINS:-10000}" --samples 3 "$tmp/rec.xgr" || exit 1
echo "tui_refresh: target under 5 ms CPU per refresh"
exec build/tools/xgtop-tuibench --rows 60 --cols 200 --refreshes "${REFRESHES:-200}" "$tmp/rec.xgr"
