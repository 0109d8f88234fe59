#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The Debian package as an operator meets it: `make deb` builds it, lintian
# finds no error, `dpkg -i` installs it, the installed xgtop runs, the
# systemd unit's ExecStart (with /etc/default/xgtop, and the unit's own
# capability bounding set and no-new-privileges applied with setpriv as
# systemd would) runs the exporter on the local Linux source and serves
# /metrics, and `dpkg --purge` leaves no file behind.
# Cost: about 20 s on 2 cores: the package build is a clean compile in a
# copy of the tree (~10 s; the work tree's objects are built with other
# flags, so they are not reused), lintian ~3 s, install and purge ~3 s
# (man-db's trigger), the exporter and the capability check ~4 s.
cd "$(dirname "$0")/../.." || exit 2
ROOT=$PWD
skip() { echo "$*"; exit 77; }
fail() { echo "FAIL: $*"; exit 1; }

[ "$(id -u)" = 0 ] || skip "installing a package needs root"
for t in dpkg-buildpackage dh lintian setpriv curl python3; do
	command -v $t >/dev/null || skip "$t is not installed (make deps)"
done
if dpkg-query -W -f='${Status}' xgtop 2>/dev/null | grep -q installed; then
	skip "an xgtop package is installed on this machine; not replacing it"
fi

OUT=$ROOT/build/pkg-test
TMP=$(mktemp -d "${TMPDIR:-/tmp}/xgtop-pkg.XXXXXX")
pid=
cleanup() {
	[ -n "$pid" ] && kill "$pid" 2>/dev/null
	dpkg-query -W xgtop >/dev/null 2>&1 && dpkg --purge xgtop >/dev/null 2>&1
	rm -rf "$TMP"
}
trap cleanup EXIT

version=$(sed -n 's/.*XG_VERSION "\(.*\)"/\1/p' include/xgtop/core/common.h)
t0=$SECONDS
contrib/build-deb.sh "$OUT" || fail "make deb failed"
deb=$OUT/xgtop_${version}_$(dpkg --print-architecture).deb
[ -f "$deb" ] || fail "no $deb after the build (version $version)"
echo "package built in $((SECONDS - t0)) s: ${deb#"$ROOT"/}"

# lintian: no error; warnings and notes are printed for the reader.
lintian -I --tag-display-limit 0 "$OUT"/xgtop_*.changes >"$TMP/lintian" 2>&1
sed -e '/running with root privileges/d' -e 's/^/lintian: /' "$TMP/lintian"
grep -q '^E: ' "$TMP/lintian" && fail "lintian reports errors"
echo "lintian: $(grep -c '^E: ' "$TMP/lintian") errors, $(grep -c '^W: ' "$TMP/lintian") warnings"

# Everything a package may leave: the file list before install, compared
# with the one after purge. dpkg's and apt's own state changes on its own.
snapshot() {
	find /etc /usr /lib /var/lib /opt -xdev \
		-path /var/lib/dpkg -prune -o -path /var/lib/apt -prune -o \
		-path /var/lib/ucf -prune -o -print 2>/dev/null | sort
}
snapshot >"$TMP/before"

dpkg -i "$deb" >"$TMP/install.log" 2>&1 || { cat "$TMP/install.log"; fail "dpkg -i failed"; }
# The unit: /lib/systemd/system on Debian 12, /usr/lib/systemd/system on 13.
unit=$(dpkg -L xgtop | grep -xE '(/usr)?/lib/systemd/system/xgtop-exporter\.service') ||
	fail "the package ships no xgtop-exporter.service under /lib or /usr/lib/systemd/system"
for f in /usr/bin/xgtop /usr/share/man/man1/xgtop.1.gz /etc/default/xgtop \
	/usr/share/bash-completion/completions/xgtop /usr/share/doc/xgtop/examples/xgtop.rules.yml; do
	dpkg -L xgtop | grep -qx "$f" || fail "the package does not ship $f"
done
[ "$(/usr/bin/xgtop --version | head -n 1)" = "xgtop $version" ] || fail "installed xgtop --version: $(/usr/bin/xgtop --version)"
zcat /usr/share/man/man1/xgtop.1.gz | grep -q "^\.TH XGTOP 1 .*$version" || fail "man page is not the generated one for $version"
bash -c 'source /usr/share/bash-completion/completions/xgtop && complete -p xgtop' >/dev/null ||
	fail "the bash completion does not register for xgtop"
# Installed, not enabled: no wants/ link.
ls /etc/systemd/system/*.wants/xgtop-exporter.service 2>/dev/null && fail "the unit was enabled on install"
if command -v systemd-analyze >/dev/null; then
	systemd-analyze verify "$unit" >"$TMP/verify" 2>&1 ||
		{ cat "$TMP/verify"; fail "systemd-analyze verify rejects the installed unit"; }
fi

. "$ROOT/tests/pkg/unit_exec.sh"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
unit_command "$unit" "XGTOP_EXPORT=127.0.0.1:$port" >"$TMP/argv" || fail "cannot read ExecStart of $unit"
mapfile -t argv <"$TMP/argv"
echo "ExecStart: ${argv[*]}"
[ "${argv[0]}" = /usr/bin/xgtop ] || fail "ExecStart runs ${argv[0]}, not the installed /usr/bin/xgtop"
mapfile -t sandbox < <(unit_sandbox "$unit")
echo "sandbox: ${sandbox[*]}"

"${sandbox[@]}" "${argv[@]}" >"$TMP/daemon.out" 2>"$TMP/daemon.err" &
pid=$!
got=
for _ in $(seq 100); do
	kill -0 "$pid" 2>/dev/null || break
	got=$(curl -sf --max-time 2 "http://127.0.0.1:$port/metrics") && break
	sleep 0.1
done
[ -n "$got" ] || { cat "$TMP/daemon.err"; fail "the unit's command served no /metrics on port $port"; }
grep -q '^xgtop_domain_info{' <<<"$got" || fail "/metrics has no xgtop_domain_info series"
grep -q '^xgtop_domain_cpu_seconds_total{' <<<"$got" || fail "/metrics has no CPU seconds"
echo "/metrics: $(grep -c '^xgtop_domain_info{' <<<"$got") domains, $(grep -vc '^#' <<<"$got") samples"
kill -TERM "$pid"
for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
kill -0 "$pid" 2>/dev/null && fail "the daemon did not exit within 5 s of SIGTERM"
wait "$pid"; rc=$?; pid=
[ $rc = 0 ] || { cat "$TMP/daemon.err"; fail "the daemon exited $rc on SIGTERM"; }

# The capability bounding set keeps what the Linux source reads as root:
# no more figures go missing for want of a permission than under full root
# (without CAP_SYS_PTRACE every process's /proc/PID/io would be refused).
denied() {
	"$@" /usr/bin/xgtop --source linux --explain -d 0.2 2>&1 |
		awk '/permission denied|not permitted/ { n += $2 } END { print n + 0 }'
}
root_denied=$(denied env)
unit_denied=$(denied "${sandbox[@]}")
echo "permission refusals: $root_denied as root, $unit_denied under the unit's capabilities"
[ "$unit_denied" -le "$root_denied" ] || fail "the unit's capabilities refuse figures that root can read"

dpkg --purge xgtop >"$TMP/purge.log" 2>&1 || { cat "$TMP/purge.log"; fail "dpkg --purge failed"; }
snapshot >"$TMP/after"
left=
while IFS= read -r f; do
	# Another package installed meanwhile owns its files; ours would not.
	dpkg -S "$f" >/dev/null 2>&1 || left="$left $f"
done < <(comm -13 "$TMP/before" "$TMP/after")
[ -z "$left" ] || fail "purge left behind:$left"
grep -i xgtop "$TMP/after" && fail "purge left files named xgtop"
ls /var/lib/dpkg/info/xgtop.* 2>/dev/null && fail "purge left dpkg's records of xgtop"
echo "purge: nothing left ($(wc -l <"$TMP/after") paths compared)"
exit 0
