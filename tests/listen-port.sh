# SPDX-License-Identifier: GPL-2.0-or-later
# Sourced by the tests that start an exporter on port 0.
# listen_port LOG PID: prints the port that xgtop --export 127.0.0.1:0
# (process PID, stderr in LOG) says it listens on, waiting up to 30 s (a
# loaded machine can be slow to start it) while PID lives; returns 1 when
# it never says.
listen_port() {
	local p t0=$SECONDS
	while :; do
		p=$(sed -n 's|.*listening on https\?://127\.0\.0\.1:\([0-9]*\)/metrics|\1|p' "$1")
		[ -n "$p" ] && { echo "$p"; return 0; }
		kill -0 "$2" 2>/dev/null || return 1
		[ $((SECONDS - t0)) -ge 30 ] && return 1
		sleep 0.05
	done
}
