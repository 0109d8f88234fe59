#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Bad batch options: exit status 2 and a message that says what is wrong.
. "$(dirname "$0")/common.sh"
expect2() {  # description, args...
	local what=$1; shift
	./xgtop "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
	local rc=$?
	[ $rc -eq 2 ] || fail "$what: exit $rc, want 2 (stderr: $(head -c 300 "$tmp/err"))"
	[ -s "$tmp/err" ] || fail "$what: nothing on stderr"
	[ ! -s "$tmp/out" ] || fail "$what: wrote to stdout: $(head -c 200 "$tmp/out")"
}
expect2 "-o yaml" -b -n 1 -o yaml
grep -qi yaml "$tmp/err" || fail "-o yaml: the message does not name the format: $(cat "$tmp/err")"
grep -Eqi 'text|csv|json' "$tmp/err" || fail "-o yaml: the message does not list the formats"
expect2 "unknown option" -b --no-such-option
grep -q -- "--help" "$tmp/err" || fail "unknown option: no pointer to --help: $(cat "$tmp/err")"
expect2 "-n with junk" -b -n 3x
expect2 "negative delay" -b -d -1
expect2 "-d without a value" -b -d
expect2 "--source prometheus recorded" --source prometheus http://127.0.0.1:9 -b -n 1 --record "$tmp/p.xgrec"
grep -q "server keeps the history" "$tmp/err" || fail "--source prometheus --record: $(cat "$tmp/err")"
[ ! -e "$tmp/p.xgrec" ] || fail "--source prometheus --record: a recording was started"
expect2 "--source prometheus exported" --source prometheus http://127.0.0.1:9 -b -n 1 --export 127.0.0.1:0
echo "ok: bad options exit 2 with a message"
