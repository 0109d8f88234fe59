#!/bin/bash
# The monitor's keys are listed from one table (src/tui/tui_keys.c) in
# `xgtop --help`, and by hand in README.md's Keys table, the man page's KEYS
# section and doc/tui.md's Keys table. Each of those must list the same
# bindings: one entry per binding, naming exactly its keys. A key missing
# from any of them, an extra one, or keys grouped differently fails.
set -u
cd "$(dirname "$0")/../.." || exit 2
[ -x ./xgtop ] || { echo "no ./xgtop binary (make)"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Each reader prints one line per binding: its key names, sorted, blank
# separated.
sorted_words() { tr ' ' '\n' | grep -v '^$' | LC_ALL=C sort | tr '\n' ' ' | sed 's/ $//'; echo; }

# --help: the lines under "Keys (full screen):" that start with two blanks
# and a key; the names end at the first two blanks.
from_help() {
	./xgtop --help | awk '/^Keys \(full screen/ { f = 1; next } f && /^$/ { exit }
		f && /^  [^ ]/ { s = substr($0, 3); i = index(s, "  "); print (i ? substr(s, 1, i - 1) : s) }'
}

# A Markdown table under the heading $2 in file $1: the `code` spans of
# each row's first cell.
from_md() {
	awk -v h="$2" '$0 == h { f = 1; next } f && /^#/ { exit }
		f && /^\| *`/ { split($0, c, "|"); print c[2] }' "$1" |
		while IFS= read -r cell; do
			grep -oE '`[^`]+`' <<<"$cell" | tr -d '`' | tr '\n' ' '
			echo
		done
}

# The man page's KEYS section: the line after each .TP, macro and quoted
# separators dropped, \- read as -.
from_man() {
	awk '/^\.SH KEYS/ { f = 1; next } f && /^\.SH/ { exit }
		f && tp { tp = 0; sub(/^\.[BI][RBI]? */, ""); gsub(/"[^"]*"/, " "); gsub(/\\-/, "-"); print }
		f && /^\.TP/ { tp = 1 }' man/xgtop.1.in
}

normalise() { while IFS= read -r l; do sorted_words <<<"$l"; done | LC_ALL=C sort; }

from_help | normalise >"$tmp/table"
n=$(wc -l <"$tmp/table")
# The table has about twenty bindings; fewer means --help changed shape.
[ "$n" -ge 15 ] || { echo "only $n bindings read from xgtop --help"; ./xgtop --help | tail -30; exit 1; }

fail=0
check() {  # name, file with its bindings
	if ! diff -u "$tmp/table" "$2" >"$tmp/diff"; then
		echo "$1 does not list the keys of the key table (- only in the table, + only in $1):"
		tail -n +3 "$tmp/diff" | grep '^[-+]'
		fail=1
	fi
}
from_md README.md '## Keys' | normalise >"$tmp/readme"
check README.md "$tmp/readme"
from_md doc/tui.md '## Keys' | normalise >"$tmp/tuimd"
check doc/tui.md "$tmp/tuimd"
from_man | normalise >"$tmp/man"
check man/xgtop.1.in "$tmp/man"
[ $fail -eq 0 ] && echo "ok: README, doc/tui.md, the man page and --help list the $n key bindings of the table"
exit $fail
