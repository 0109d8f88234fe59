#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The build tracks its flags (the Makefile's build/CFLAGS and
# build/LDFLAGS): a tree built before an optional library was installed
# is rebuilt with it by the next plain `make` (no target: the default goal
# must be the program), and a third `make` rebuilds
# nothing. The case a user hit: `make` without libmicrohttpd-dev, install
# it, `make` again, and xgtop still said it was built without it.
# In a copy of the tree (the work tree's build/ is left alone): xgtop is
# built with a pkg-config that does not find libmicrohttpd, then with the
# real one, then once more.
# Cost: two builds of xgtop at -O0, about 25 s of CPU each (compilers and
# make's pkg-config calls): under a minute on 2 cores, under 2 minutes
# with other jobs keeping the load at 4-8.
cd "$(dirname "$0")/../.." || exit 2
skip() { echo "$*"; exit 77; }
fail() { echo "FAIL: $*"; exit 1; }

PKG_CONFIG=$(command -v pkg-config) || skip "pkg-config is not installed (make deps)"
"$PKG_CONFIG" --exists libmicrohttpd || skip "libmicrohttpd-dev is not installed (make deps)"

TMP=$(mktemp -d "${TMPDIR:-/tmp}/xgtop-buildflags.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
mkdir "$TMP/src" "$TMP/bin"
tar --exclude=./build --exclude=./.git --exclude=./xgtop -cf - . | tar -C "$TMP/src" -xf - ||
	fail "could not copy the tree"

# The machine before libmicrohttpd-dev: a pkg-config first in PATH that
# answers as the real one, except that it does not know libmicrohttpd.
cat >"$TMP/bin/pkg-config" <<EOF
#!/bin/sh
for a; do [ "\$a" = libmicrohttpd ] && exit 1; done
exec "$PKG_CONFIG" "\$@"
EOF
chmod +x "$TMP/bin/pkg-config"

cd "$TMP/src" || exit 2
# Only the build's own variables: the caller's CC, CFLAGS or MAKEFLAGS
# would only make this a different test. -O0 without -g: the same flags
# in all three builds, and about half the compile time of -O2 -g.
unset CC CPPFLAGS LDFLAGS SANITIZE FUZZ MAKEFLAGS MFLAGS
export CFLAGS=-O0
build() {  # log, [PATH]
	local log=$1
	PATH=${2:-$PATH} make -j2 >"$log" 2>&1 || { tail -n 20 "$log"; fail "make failed (log above)"; }
}
# What --export says about the exporter in this build.
exporter() {
	timeout 10 ./xgtop -b -n 1 --export 127.0.0.1:0 --replay /dev/null 2>&1
}
t0=$SECONDS

build "$TMP/make1.log" "$TMP/bin:$PATH"
exporter | grep -q 'built without libmicrohttpd' ||
	fail "xgtop built with libmicrohttpd hidden does not say it lacks it: $(exporter | head -n 3)"
echo "without libmicrohttpd: built in $((SECONDS - t0)) s, xgtop says it lacks it"
# Everything built so far is dated a minute back, so that whatever the next
# make rebuilds is newer than the stamp, however coarse the file times.
backdate() { find build xgtop -type f -exec touch -d '-1 minute' {} +; }
backdate
touch "$TMP/built1"

t1=$SECONDS
build "$TMP/make2.log"
exporter | grep -q 'exporter listening on' ||
	fail "the plain make after libmicrohttpd appeared left xgtop without the exporter: $(exporter | head -n 3)"
stale=$(find build/obj -name '*.o' ! -newer "$TMP/built1" | sort)
[ -z "$stale" ] || fail "objects not rebuilt with the new flags: $stale"
[ xgtop -nt "$TMP/built1" ] || fail "xgtop was not relinked"
grep -q -- -DHAVE_MHD build/CFLAGS || fail "build/CFLAGS does not name HAVE_MHD: $(cat build/CFLAGS)"
grep -q -- -DMHD_SO= build/CFLAGS || fail "build/CFLAGS does not name libmicrohttpd's soname"
echo "with libmicrohttpd: $(find build/obj -name '*.o' | wc -l) objects rebuilt and xgtop relinked in $((SECONDS - t1)) s"

# Nothing changed: nothing is rebuilt, and the flags files keep their date.
backdate
touch "$TMP/built2"
build "$TMP/make3.log"
again=$(find build xgtop -type f -newer "$TMP/built2" | sort)
if [ -n "$again" ]; then
	echo "make's output:"
	cut -c 1-160 "$TMP/make3.log" | head -n 5
	fail "a third make with the same flags rewrote $(echo "$again" | wc -l) files:" $again
fi
echo "a third make rebuilt nothing"
