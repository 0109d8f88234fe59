# SPDX-License-Identifier: GPL-2.0-or-later
# Sourced by tests/pkg/test_rpm*.sh: the files the RPM installs (those of
# the Debian package, in their RPM places) and the check of a list against
# them. The caller defines TMP and fail.

# rpm_expected: every path the package owns, sorted, but the build-id link.
rpm_expected() {
	cat <<-EOF
	/etc/sysconfig/xgtop
	/usr/bin/xgtop
	/usr/lib/systemd/system/xgtop-exporter.service
	/usr/share/bash-completion/completions/xgtop
	/usr/share/doc/xgtop
	/usr/share/doc/xgtop/README.md
	/usr/share/doc/xgtop/examples
	/usr/share/doc/xgtop/examples/grafana-pool.json
	/usr/share/doc/xgtop/examples/prometheus-scrape.yml
	/usr/share/doc/xgtop/examples/xgtop.rules.yml
	/usr/share/licenses/xgtop
	/usr/share/licenses/xgtop/LICENSE
	/usr/share/man/man1/xgtop.1.gz
	/var/lib/xgtop
	EOF
}

# rpm_check_list WHAT LIST BINARY: LIST (sorted paths) is rpm_expected,
# plus, where rpm made one, the build-id link (/usr/lib/.build-id/xx/...)
# of BINARY, the packaged xgtop, and no other.
rpm_check_list() {
	local what=$1 list=$2 bin=$3 id links
	diff <(rpm_expected) <(grep -v '^/usr/lib/\.build-id' "$list") >"$TMP/diff" ||
		{ cat "$TMP/diff"; fail "$what: the files differ from the expected list (< expected, > $what)"; }
	links=$(grep '^/usr/lib/\.build-id/../.' "$list")
	[ -z "$links" ] && return 0
	id=$(readelf -n "$bin" | sed -n 's/^ *Build ID: \([0-9a-f]*\)$/\1/p')
	[ "$links" = "/usr/lib/.build-id/${id:0:2}/${id:2}" ] ||
		fail "$what: build-id entries $links are not the binary's ($id)"
}

# rpm_binary RPM DIR: unpacks the RPM's /usr/bin/xgtop into DIR; prints its path.
rpm_binary() {
	rm -rf "$2" && mkdir -p "$2" || return 1
	rpm2cpio "$1" | (cd "$2" && cpio -idm --quiet ./usr/bin/xgtop) && [ -f "$2/usr/bin/xgtop" ] &&
		echo "$2/usr/bin/xgtop"
}
