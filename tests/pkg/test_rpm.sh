#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The RPM (make rpm) as an RPM distribution would take it:
#  1. contrib/rpm/build.sh builds the binary RPM and the source RPM, named
#     for XG_VERSION (the spec's Version must equal it);
#  2. rpmlint (with contrib/rpm/xgtop.rpmlintrc) reports no error on the
#     two packages and the spec; its warnings are printed for the reader;
#  3. `rpm -qlp` lists exactly the files the Debian package installs, in
#     their RPM places (/etc/sysconfig/xgtop, /usr/lib/systemd/system,
#     %doc examples), the unit's /var/lib/xgtop, and the binary's build-id
#     link; the options file is a config file;
#  4. `rpm -i --root` into a scratch root (its own database there) installs
#     exactly those files, the binary runs (--version), the man page is the
#     generated one, the unit reads /etc/sysconfig/xgtop, and `rpm -e`
#     leaves only the edited options file (as .rpmsave);
#  5. the source RPM rebuilds (rpmbuild --rebuild) into a binary RPM with
#     the same file list.
# rpm runs with --nodeps (the packages' dependencies are RPM names, which
# this Debian machine's empty RPM database does not have) and --noscripts
# (the scratch root has no shell to run them; their syntax is checked
# with sh -n instead).
# Cost on 2 cores: two compiles of xgtop at -O2 -g (the package build and
# the rebuild) and rpmlint, install and removal (~5 s): 88 s of CPU in
# all; measured 40 s for one `make rpm` on a quiet machine, 5.3 min for the
# whole test with other jobs keeping the load at 14.
cd "$(dirname "$0")/../.." || exit 2
ROOT=$PWD
skip() { echo "$*"; exit 77; }
fail() { echo "FAIL: $*"; exit 1; }

for t in rpmbuild rpm rpm2cpio cpio rpmlint readelf; do
	command -v $t >/dev/null || skip "$t is not installed (make deps)"
done
[ "$(id -u)" = 0 ] || skip "rpm -i --root needs root"

OUT=$ROOT/build/rpm-test
TMP=$(mktemp -d "${TMPDIR:-/tmp}/xgtop-rpm.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
version=$(sed -n 's/.*XG_VERSION "\(.*\)"/\1/p' include/xgtop/core/common.h)
arch=$(uname -m)

t0=$SECONDS
contrib/rpm/build.sh "$OUT" || fail "make rpm failed"
rpm=$OUT/xgtop-$version-1.$arch.rpm
srpm=$OUT/xgtop-$version-1.src.rpm
[ -f "$rpm" ] || fail "no ${rpm#"$ROOT"/} after the build (version $version): $(ls "$OUT")"
[ -f "$srpm" ] || fail "no ${srpm#"$ROOT"/} after the build"
echo "packages built in $((SECONDS - t0)) s: $(du -k "$rpm" | cut -f1) KiB binary RPM, $(du -k "$srpm" | cut -f1) KiB source RPM"
q() { rpm -qp "$@" 2>/dev/null; }
[ "$(q --qf '%{NAME} %{VERSION} %{RELEASE} %{ARCH}' "$rpm")" = "xgtop $version 1 $arch" ] ||
	fail "the RPM says $(q --qf '%{NAME} %{VERSION} %{RELEASE} %{ARCH}' "$rpm"), not xgtop $version 1 $arch"

# 2. rpmlint
t1=$SECONDS
rpmlint -r contrib/rpm/xgtop.rpmlintrc "$rpm" "$srpm" contrib/rpm/xgtop.spec >"$TMP/lint" 2>&1
sed -n 's/^\(.*: [EW]: .*\)/rpmlint: \1/p' "$TMP/lint" | sort -u
summary=$(grep -E '[0-9]+ errors, [0-9]+ warnings' "$TMP/lint")
[ -n "$summary" ] || { cat "$TMP/lint"; fail "rpmlint printed no summary"; }
grep -q ': E: ' "$TMP/lint" && fail "rpmlint reports errors"
case $summary in *" 0 errors,"*) ;; *) fail "rpmlint: $summary" ;; esac
echo "rpmlint: ${summary#*checked; } ($((SECONDS - t1)) s)"

# 3. The file list (tests/pkg/rpm_list.sh says what is expected).
. "$ROOT/tests/pkg/rpm_list.sh"
q -l "$rpm" >"$TMP/list"
bin=$(rpm_binary "$rpm" "$TMP/x") || fail "cannot unpack the binary from the RPM"
rpm_check_list "rpm -qlp" "$TMP/list" "$bin"
[ "$(q -c "$rpm")" = /etc/sysconfig/xgtop ] || fail "the config files are $(q -c "$rpm"), not /etc/sysconfig/xgtop"
q --qf '[%{FILEFLAGS:fflags} %{FILENAMES}\n]' "$rpm" | grep -qx 'cn /etc/sysconfig/xgtop' ||
	fail "/etc/sysconfig/xgtop is not %config(noreplace): an upgrade would overwrite the operator's options"
echo "rpm -qlp: the $(grep -vc '^/usr/lib/\.build-id' "$TMP/list") expected entries$(grep -q '^/usr/lib/\.build-id/../.' "$TMP/list" && echo " and the binary's build-id link")"

# The scriptlets parse (they are not run here: see above).
q --qf '%{PREUN}\n' "$rpm" >"$TMP/preun"
q --qf '%{POSTUN}\n' "$rpm" >"$TMP/postun"
for s in preun postun; do
	grep -q systemctl "$TMP/$s" || fail "the %$s scriptlet does not call systemctl: $(cat "$TMP/$s")"
	sh -n "$TMP/$s" || fail "the %$s scriptlet is not valid sh"
done

# 4. Into a scratch root, with its own database.
SCRATCH=$TMP/root
mkdir "$SCRATCH"
rpmq() { rpm --root "$SCRATCH" --dbpath /var/lib/rpm "$@" 2>"$TMP/rpm.err"; }
rpmq -i --nodeps --noscripts "$rpm" || { cat "$TMP/rpm.err"; fail "rpm -i --root failed"; }
[ "$(rpmq -q xgtop)" = "xgtop-$version-1.$arch" ] || fail "the scratch root's database says: $(rpmq -q xgtop)"
(cd "$SCRATCH" && find . -path ./var/lib/rpm -prune -o ! -type d -print | sed 's/^\.//' | sort) >"$TMP/installed"
# Directories: only those the package owns.
rpm_expected | while read -r f; do [ -d "$SCRATCH$f" ] && echo "$f"; done >"$TMP/dirs"
sort "$TMP/installed" "$TMP/dirs" >"$TMP/all"
rpm_check_list "rpm -i --root" "$TMP/all" "$SCRATCH/usr/bin/xgtop"
[ "$(stat -c '%a %U' "$SCRATCH/usr/bin/xgtop")" = "755 root" ] ||
	fail "/usr/bin/xgtop is $(stat -c '%a %U' "$SCRATCH/usr/bin/xgtop")"
got=$("$SCRATCH/usr/bin/xgtop" --version 2>&1 | head -n 1)
[ "$got" = "xgtop $version" ] || fail "the installed xgtop --version says: $got"
zcat "$SCRATCH/usr/share/man/man1/xgtop.1.gz" | grep -q "^\.TH XGTOP 1 .*$version" ||
	fail "the man page is not the generated one for $version"
bash -c "source '$SCRATCH/usr/share/bash-completion/completions/xgtop' && complete -p xgtop" >/dev/null ||
	fail "the bash completion does not register for xgtop"
unit=$SCRATCH/usr/lib/systemd/system/xgtop-exporter.service
grep -qx 'EnvironmentFile=-/etc/sysconfig/xgtop' "$unit" || fail "the unit does not read /etc/sysconfig/xgtop"
# The unit's command with the scratch root's files: the options come from
# /etc/sysconfig/xgtop (the Debian file is absent there, and skipped).
. "$ROOT/tests/pkg/unit_exec.sh"
sed "s|^EnvironmentFile=-/|EnvironmentFile=-$SCRATCH/|" "$unit" >"$TMP/unit"
sed -i 's/^XGTOP_OPTS=.*/XGTOP_OPTS="--delay 7"/' "$SCRATCH/etc/sysconfig/xgtop"
unit_command "$TMP/unit" >"$TMP/argv" || fail "cannot read the unit's ExecStart"
[ "$(tr '\n' ' ' <"$TMP/argv")" = "/usr/bin/xgtop --daemon --export 127.0.0.1:9717 --web-config  --delay 7 " ] ||
	fail "with /etc/sysconfig/xgtop the unit runs: $(tr '\n' ' ' <"$TMP/argv")"
echo "rpm -i --root: $(wc -l <"$TMP/installed") files, xgtop --version: $got, the unit takes /etc/sysconfig/xgtop"
rpmq -e --nodeps --noscripts xgtop || { cat "$TMP/rpm.err"; fail "rpm -e --root failed"; }
# The edited config file is kept as .rpmsave, as rpm does with a changed
# %config file; nothing else may stay.
left=$(cd "$SCRATCH" && find . -path ./var/lib/rpm -prune -o ! -type d -print | sed 's/^\.//')
[ -e "$SCRATCH/var/lib/xgtop" ] && fail "rpm -e left /var/lib/xgtop, empty"
[ "$left" = /etc/sysconfig/xgtop.rpmsave ] || fail "rpm -e left: ${left:-nothing, not even the edited config as .rpmsave}"
echo "rpm -e: nothing left but the edited /etc/sysconfig/xgtop.rpmsave"

# 5. The source RPM rebuilds.
t2=$SECONDS
unset CFLAGS LDFLAGS CPPFLAGS CC MAKEFLAGS MFLAGS
rpmbuild --rebuild --nodeps --define "_topdir $TMP/top" \
	--define "__brp_compress bash %{_rpmconfigdir}/brp-compress %{?_prefix}" "$srpm" >"$TMP/rebuild.log" 2>&1 ||
	{ tail -n 30 "$TMP/rebuild.log"; fail "rpmbuild --rebuild of the source RPM failed"; }
re=$TMP/top/RPMS/$arch/xgtop-$version-1.$arch.rpm
[ -f "$re" ] || fail "the rebuild made no $(basename "$re")"
q -l "$re" >"$TMP/relist"
bin=$(rpm_binary "$re" "$TMP/x") || fail "cannot unpack the binary from the rebuilt RPM"
rpm_check_list "the rebuilt RPM" "$TMP/relist" "$bin"
echo "source RPM rebuilt in $((SECONDS - t2)) s, same file list"
