#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# make rpm: build/rpm/xgtop-VERSION-1.ARCH.rpm and xgtop-VERSION-1.src.rpm
# from contrib/rpm/xgtop.spec, with rpmbuild (Debian's rpm package), in
# rpmbuild's own tree under OUT/top, so the work tree stays clean.
# The source tarball is the work tree as it is (uncommitted changes too),
# without build/, .git and the built binary, as make deb takes it.
# rpmbuild runs with --nodeps: the spec's BuildRequires are Fedora's and
# XCP-ng's package names (ncurses-devel, xen-devel ...), which Debian does
# not have; the Debian packages of the same libraries are in
# contrib/install-deps.sh.
# PORTABLE=1 (make rpm PORTABLE=1): the binary RPM only, holding the
# portable build's binary (make portable: glibc 2.17 or later, for XCP-ng 8
# and XenServer 8) instead of one compiled against this machine's glibc;
# it is xgtop-VERSION-1.glibc217.ARCH.rpm.
set -e
cd "$(dirname "$0")/../.."
out=${1:-build/rpm}
spec=contrib/rpm/xgtop.spec
command -v rpmbuild >/dev/null || { echo "rpm: needs rpmbuild (Debian's rpm package; make deps)" >&2; exit 1; }
version=$(sed -n 's/.*XG_VERSION "\(.*\)"/\1/p' include/xgtop/core/common.h)
specv=$(sed -n 's/^Version: *//p' "$spec")
[ "$version" = "$specv" ] || {
	echo "rpm: $spec is at version $specv but XG_VERSION is $version: update Version and add a changelog entry" >&2
	exit 1; }

t0=$(date +%s)
set --
what=-ba
if [ -n "$PORTABLE" ]; then
	contrib/portable/build.sh
	set -- --define "xg_binary $PWD/build/portable/xgtop" --define "dist .glibc217"
	what=-bb
fi

mkdir -p "$out"
top=$(cd "$out" && pwd)/top
rm -rf "$top"
mkdir -p "$top/SOURCES"
# The same bytes for the same tree: names sorted, owner root, dates those
# of the last commit.
mtime=$(git log -1 --format=%ct 2>/dev/null || date +%s)
tar --exclude=./build --exclude=./.git --exclude=./xgtop --sort=name --owner=0 --group=0 \
	--numeric-owner --mtime="@$mtime" --transform "s,^\.,xgtop-$version," -cf - . |
	gzip -n -9 >"$top/SOURCES/xgtop-$version.tar.gz"
# Only the build's own variables reach it: the spec sets CFLAGS and
# LDFLAGS from the distribution's macros.
unset CFLAGS LDFLAGS CPPFLAGS CC MAKEFLAGS MFLAGS
# __brp_compress: Debian's brp-compress (which compresses the man page)
# says #!/bin/sh but uses bash's read -d, which dash refuses.
rpmbuild --nodeps --define "_topdir $top" \
	--define "__brp_compress bash %{_rpmconfigdir}/brp-compress %{?_prefix}" \
	--define "packager xgtop maintainers <maintainers@xgtop.example.org>" "$@" $what "$spec" >"$out/build.log" 2>&1 || {
	tail -n 30 "$out/build.log" >&2; echo "rpm: rpmbuild failed, log in $out/build.log" >&2; exit 1; }
# Earlier packages of this version and kind go, so the directory holds
# what this run built.
if [ -n "$PORTABLE" ]; then
	rm -f "$out"/xgtop-"$version"-*.glibc217.*.rpm
else
	find "$out" -maxdepth 1 -name "xgtop-$version-*.rpm" ! -name '*.glibc217.*' -delete
fi
find "$top/RPMS" "$top/SRPMS" -name '*.rpm' -exec cp {} "$out/" \;
find "$top/RPMS" "$top/SRPMS" -name '*.rpm' -printf "$out/%f\n" | sort
echo "rpm: built in $(($(date +%s) - t0)) s (log in $out/build.log)"
