#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Builds the Debian package (make deb): dpkg-buildpackage -us -uc -b in a
# copy of the tree at OUT/xgtop, so the work tree stays clean and the .deb
# lands in OUT (default build/deb) instead of the tree's parent directory.
# parallel=: the compile runs on every core (dpkg-buildpackage -J left
# debhelper at make -j1 here).
set -e
cd "$(dirname "$0")/.."
out=${1:-build/deb}
command -v dpkg-buildpackage >/dev/null && command -v dh >/dev/null || {
	echo "build-deb: needs dpkg-dev and debhelper (make deps)" >&2; exit 1; }
rm -rf "$out"
mkdir -p "$out/xgtop"
tar --exclude=./build --exclude=./.git --exclude=./xgtop -cf - . | tar -C "$out/xgtop" -xf -
t0=$(date +%s)
(cd "$out/xgtop" && DEB_BUILD_OPTIONS="${DEB_BUILD_OPTIONS:-} parallel=$(nproc)" dpkg-buildpackage -us -uc -b) >"$out/build.log" 2>&1 || {
	tail -n 30 "$out/build.log" >&2; echo "build-deb: failed, log in $out/build.log" >&2; exit 1; }
ls "$out"/xgtop_*.deb
echo "build-deb: built in $(($(date +%s) - t0)) s (log in $out/build.log)"
