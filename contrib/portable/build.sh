#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# make portable: build/portable/xgtop-VERSION-linux-x86_64.tar.gz, whose
# binary runs on glibc 2.17 or later (XCP-ng 8, XenServer 8, CentOS 7 era).
#  - compiled with the glibc 2.17 cross toolchain (toolchain.sh), whose
#    sysroot's libc and kernel headers are the only ones on the include path,
#    plus the host's headers of the libraries loaded at run time (Xen tools,
#    libpfm4, libmicrohttpd) through -idirafter, so the sysroot's win;
#  - ncursesw and zlib linked in statically (deps.sh);
#  - the Xen libraries, libpfm4 and libmicrohttpd loaded at run time by
#    the sonames of the host's libraries (PROBE_CC), as in the normal build;
#  - objects and flags files in build/portable, apart from the normal build.
# gcc 4.8 warns where newer compilers do not ({0} initializers, gcc 8's
# "#pragma GCC unroll"): the build keeps -Wall -Wextra without those three
# and without -Werror, except for implicit declarations: a call that
# glibc 2.17 lacks must fail the build, not become a run-time symbol error.
set -e
cd "$(dirname "$0")/../.."
OUT=build/portable
TRIPLE=x86_64-unknown-linux-gnu
t0=$(date +%s)
TC=$(contrib/portable/toolchain.sh)
DEPS=$(contrib/portable/deps.sh "$TC")
t1=$(date +%s)

# Two directories of links to the host's headers. kernelinc: the kernel's
# uapi headers (linux/, asm/, asm-generic/), ahead of the sysroot's 3.10
# ones, which lack KVM's statistics and newer perf flags; uapi headers
# suit any libc, and each call is still answered by the running kernel.
# hostinc: the libraries loaded at run time, after the sysroot (-idirafter).
KERNELINC=$OUT/kernelinc HOSTINC=$OUT/hostinc
rm -rf "$KERNELINC" "$HOSTINC" && mkdir -p "$KERNELINC" "$HOSTINC"
ma=$(gcc -dumpmachine 2>/dev/null || echo x86_64-linux-gnu)
ln -s /usr/include/linux "$KERNELINC/linux"
ln -s /usr/include/asm-generic "$KERNELINC/asm-generic"
if [ -d "/usr/include/$ma/asm" ]; then ln -s "/usr/include/$ma/asm" "$KERNELINC/asm"
else ln -s /usr/include/asm "$KERNELINC/asm"; fi
[ -f "$KERNELINC/linux/kvm.h" ] || { echo "portable: no kernel headers in /usr/include/linux (linux-libc-dev)" >&2; exit 1; }
for f in /usr/include/xen* /usr/include/perfmon /usr/include/microhttpd.h \
	/usr/include/gnutls /usr/include/yaml.h /usr/include/cjson /usr/include/curl "/usr/include/$ma/curl" \
	/usr/include/bpf; do
	if [ -e "$f" ]; then ln -s "$f" "$HOSTINC/"; fi
done

XGTOP_PORTABLE_DEPS=$DEPS
CFLAGS="-O2 -g -Werror=implicit-function-declaration -Wno-missing-braces \
-Wno-missing-field-initializers -Wno-unknown-pragmas -I$KERNELINC -idirafter $HOSTINC \
-Icontrib/portable/compat -include contrib/portable/compat/compat.h"
LDFLAGS=
export XGTOP_PORTABLE_DEPS CFLAGS LDFLAGS
${MAKE:-make} --no-print-directory -j"${JOBS:-2}" BUILD=$OUT BIN=$OUT/xgtop \
	CC="$TC/bin/$TRIPLE-gcc" PKG="$PWD/contrib/portable/pkg-config" PROBE_CC="${PROBE_CC:-cc}" \
	"$OUT/xgtop"

version=$(sed -n 's/.*XG_VERSION "\(.*\)"/\1/p' include/xgtop/core/common.h)
name=xgtop-$version-linux-x86_64
stage=$OUT/stage/$name
rm -rf "$OUT/stage" && mkdir -p "$stage"
install -D -m 0755 "$OUT/xgtop" "$stage/bin/xgtop"
"$TC/bin/$TRIPLE-strip" "$stage/bin/xgtop"
install -D -m 0644 man/xgtop.1 "$stage/share/man/man1/xgtop.1"
install -D -m 0644 contrib/xgtop.bash-completion "$stage/share/bash-completion/completions/xgtop"
install -D -m 0644 contrib/xgtop-exporter.service "$stage/lib/systemd/system/xgtop-exporter.service"
install -D -m 0644 contrib/xgtop.default "$stage/etc/default/xgtop"
install -D -m 0644 LICENSE "$stage/LICENSE"
xen=$("$OUT/xgtop" --version | sed -n 's/^Xen \([0-9.]*\) .*/\1/p')
sed -e "s/@VERSION@/$version/g" -e "s/@XEN@/${xen:-none}/g" contrib/portable/INSTALL.in >"$stage/INSTALL"
# The same bytes for the same tree: names sorted, owner root, dates those
# of the last commit.
mtime=$(git log -1 --format=%ct 2>/dev/null || date +%s)
tar -C "$OUT/stage" --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$mtime" \
	-cf - "$name" | gzip -n -9 >"$OUT/$name.tar.gz"
rm -rf "$OUT/stage"
echo "portable: $OUT/$name.tar.gz ($(du -k "$OUT/$name.tar.gz" | cut -f1) KiB;" \
	"toolchain and static libraries $((t1 - t0)) s, build $(($(date +%s) - t1)) s)"
