#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The RPM for XCP-ng 8 and XenServer 8 (make rpm PORTABLE=1): the same
# spec packaging the portable build's binary.
#  1. it is xgtop-VERSION-1.glibc217.ARCH.rpm, with the same files as the
#     normal RPM (tests/pkg/rpm_list.sh) and no source RPM;
#  2. what it requires of the system is glibc 2.17 or older only (rpm's
#     own reading of the binary: no GLIBC_2.18 or later, no ncurses or zlib
#     library), and its binary is the portable build's, byte for byte but
#     the debug sections rpm strips (the same --version);
#  3. rpmlint reports no error;
#  4. installed into a scratch root, the binary runs under the glibc 2.17
#     sysroot's own loader and says its glibc floor.
# Cost on 2 cores: the portable build with nothing changed 3 s (tests/pkg/
# test_portable.sh, which runs first, builds it; alone, with warm caches,
# ~70 s), the package ~10 s, the rest ~5 s.
cd "$(dirname "$0")/../.." || exit 2
ROOT=$PWD
skip() { echo "$*"; exit 77; }
fail() { echo "FAIL: $*"; exit 1; }

for t in rpmbuild rpm rpm2cpio cpio rpmlint readelf objdump; do
	command -v $t >/dev/null || skip "$t is not installed (make deps)"
done
[ "$(id -u)" = 0 ] || skip "rpm -i --root needs root"
CACHE=${XGTOP_PORTABLE_CACHE:-/var/tmp/xgtop-portable}
if [ ! -f "$CACHE/toolchain-1.0.0/.complete" ] && ! command -v npm >/dev/null; then
	skip "no cached portable toolchain and no npm to fetch it (make deps)"
fi

OUT=$ROOT/build/rpm-test-portable
TMP=$(mktemp -d "${TMPDIR:-/tmp}/xgtop-rpmp.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
version=$(sed -n 's/.*XG_VERSION "\(.*\)"/\1/p' include/xgtop/core/common.h)
arch=$(uname -m)

t0=$SECONDS
PORTABLE=1 contrib/rpm/build.sh "$OUT" >"$TMP/build.log" 2>&1 || { tail -n 30 "$TMP/build.log"; fail "make rpm PORTABLE=1 failed"; }
rpm=$OUT/xgtop-$version-1.glibc217.$arch.rpm
[ -f "$rpm" ] || fail "no ${rpm#"$ROOT"/} after the build: $(ls "$OUT")"
others=$(cd "$OUT" && ls ./*.rpm | grep -vx "./$(basename "$rpm")")
[ -z "$others" ] || fail "make rpm PORTABLE=1 also left $others"
echo "package built in $((SECONDS - t0)) s: ${rpm#"$ROOT"/}, $(du -k "$rpm" | cut -f1) KiB"

. "$ROOT/tests/pkg/rpm_list.sh"
rpm -qlp "$rpm" 2>/dev/null >"$TMP/list"
bin=$(rpm_binary "$rpm" "$TMP/x") || fail "cannot unpack the binary from the RPM"
rpm_check_list "rpm -qlp" "$TMP/list" "$bin"
echo "rpm -qlp: the normal RPM's $(wc -l <"$TMP/list") entries"

# What rpm says the package needs: glibc's libraries at 2.17 at most.
rpm -qpR "$rpm" 2>/dev/null >"$TMP/req"
libs=$(sed -n 's/^\(lib[^(]*\)(.*/\1/p' "$TMP/req" | sort -u | tr '\n' ' ')
for l in $libs; do
	case $l in libc.so.6|libm.so.6|libdl.so.2|libpthread.so.0|librt.so.1) ;;
	*) fail "the package requires $l, which a glibc 2.17 dom0 may lack (ncursesw and zlib belong inside)" ;;
	esac
done
top=$(sed -n 's/.*(GLIBC_\([0-9.]*\)).*/\1/p' "$TMP/req" | sort -V | tail -n 1)
[ "$(printf '%s\n' "$top" 2.17 | sort -V | tail -n 1)" = 2.17 ] ||
	fail "the package requires GLIBC_$top, above the 2.17 floor"
echo "requires: $libs(newest symbol version GLIBC_$top)"
newest=$(objdump -T "$bin" | sed -n 's/.*GLIBC_\([0-9.]*\).*/\1/p' | sort -V | tail -n 1)
[ "$newest" = "$top" ] || fail "objdump -T says GLIBC_$newest, rpm's requirements GLIBC_$top"
[ "$("$bin" --version)" = "$(build/portable/xgtop --version)" ] ||
	fail "the packaged binary's --version differs from build/portable/xgtop's"

rpmlint -r contrib/rpm/xgtop.rpmlintrc "$rpm" >"$TMP/lint" 2>&1
sed -n 's/^\(.*: [EW]: .*\)/rpmlint: \1/p' "$TMP/lint" | sort -u
summary=$(grep -E '[0-9]+ errors, [0-9]+ warnings' "$TMP/lint")
[ -n "$summary" ] || { cat "$TMP/lint"; fail "rpmlint printed no summary"; }
case $summary in *" 0 errors,"*) ;; *) fail "rpmlint: $summary" ;; esac
echo "rpmlint: ${summary#*checked; }"

# Installed, run under the sysroot's glibc 2.17 loader.
SCRATCH=$TMP/root
mkdir "$SCRATCH"
rpm --root "$SCRATCH" --dbpath /var/lib/rpm -i --nodeps --noscripts "$rpm" 2>"$TMP/rpm.err" ||
	{ cat "$TMP/rpm.err"; fail "rpm -i --root failed"; }
SYSROOT=$CACHE/toolchain-1.0.0/x86_64-unknown-linux-gnu/sysroot
LDSO=$SYSROOT/lib64/ld-linux-x86-64.so.2
[ -x "$LDSO" ] || fail "no glibc 2.17 loader at $LDSO"
got=$("$LDSO" --library-path "$SYSROOT/lib64:$SYSROOT/usr/lib64" "$SCRATCH/usr/bin/xgtop" --version 2>&1)
[ "$(printf '%s\n' "$got" | head -n 1)" = "xgtop $version" ] &&
	printf '%s\n' "$got" | grep -qx "built for glibc 2.17 or later" ||
	fail "the installed binary under the glibc 2.17 loader says: $got"
echo "installed: under the glibc 2.17 loader, --version says: $(printf '%s\n' "$got" | tr '\n' ';')"
