#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Bad requests (badreq.py): other methods, other paths and .., huge headers
# and URLs, garbage, 100 idle connections from one client, clients that send
# half a request and stop. Each is refused or timed out, scrapes from
# another client keep working, and the refreshes keep their interval.
. "$(dirname "$0")/common.sh"
ip addr show lo 2>/dev/null | grep -q '127.0.0.1/8' || python3 -c '
import socket; s = socket.socket(); s.bind(("127.0.0.2", 0))' 2>/dev/null ||
	{ echo "SKIP: cannot use 127.0.0.2 as a second client address"; exit 77; }
# A refresh every 0.2 s for 80 s.
build/tools/xgtop-gen --steady --interval 0.2 --samples 400 "$tmp/fx.xgrec" >/dev/null
start_exporter fx --replay "$tmp/fx.xgrec" --speed 1
python3 tests/exporter/badreq.py "$port" 5 10 || exit 1
kill -0 "$xpid" || fail "xgtop died"
