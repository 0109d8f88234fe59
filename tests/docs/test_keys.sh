#!/bin/bash
# Every screen of the monitor has a key table (the list's in
# src/tui/tui_list.c, the others beside their screens), and `xgtop --help`
# prints each: "Keys (full screen):" for the list, then "Keys in the help
# screen:", "Keys in the sort menu:" ... README.md, doc/tui.md and the man
# page list the same by hand: the list's keys under "## Keys" (the man
# page's KEYS section), each other screen's under a heading of its title
# ("### Keys in the sort menu", `.SS Keys in the sort menu`). Each must list
# every screen, and for each the same bindings: one entry per binding,
# naming exactly its keys ("other" for what other keys do, when the table
# says). A key missing, an extra one, keys grouped differently or a screen
# missing fails.
set -u
cd "$(dirname "$0")/../.." || exit 2
[ -x ./xgtop ] || { echo "no ./xgtop binary (make)"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
LIST='Keys (full screen)'

# Each reader prints one line per binding: its key names, sorted, blank
# separated.
sorted_words() { tr ' ' '\n' | grep -v '^$' | LC_ALL=C sort | tr '\n' ' ' | sed 's/ $//'; echo; }

./xgtop --help >"$tmp/help"
# The screens: the headings of --help's key lists, the list's first.
screens() { sed -n 's/^\(Keys.*\):$/\1/p' "$tmp/help"; }

# --help: the lines under the heading $1 that start with two blanks and a
# key; the names end at the first two blanks.
from_help() {
	awk -v h="$1:" '$0 == h { f = 1; next } f && /^$/ { exit }
		f && /^  [^ ]/ { s = substr($0, 3); i = index(s, "  "); print (i ? substr(s, 1, i - 1) : s) }' "$tmp/help"
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
md_heading() { [ "$1" = "$LIST" ] && echo '## Keys' || echo "### $1"; }

# The man page: the line after each .TP of the KEYS section up to its
# first subsection (the list), or of the subsection titled $1; macro and
# quoted separators dropped, \- read as -.
from_man() {
	awk -v h="$1" -v list="$LIST" '
		/^\.S[HS]/ { t = $0; sub(/^\.S[HS] */, "", t); gsub(/"/, "", t)
			f = (h == list) ? (t == "KEYS") : (t == h); next }
		f && tp { tp = 0; sub(/^\.[BI][RBI]? */, ""); gsub(/"[^"]*"/, " "); gsub(/\\-/, "-"); print }
		f && /^\.TP/ { tp = 1 }' man/xgtop.1.in
}

normalise() { while IFS= read -r l; do sorted_words <<<"$l"; done | LC_ALL=C sort; }

mapfile -t all < <(screens)
[ "${all[0]:-}" = "$LIST" ] || { echo "xgtop --help does not start its keys with '$LIST:'"; exit 1; }
# The list, the help screen, the sort menu, the column chooser, a prompt,
# the detail pane: fewer means --help changed shape.
[ ${#all[@]} -ge 6 ] || { echo "only ${#all[@]} key lists in xgtop --help: ${all[*]}"; exit 1; }

fail=0 total=0
check() {  # screen, doc name, file with its bindings
	if [ ! -s "$3" ]; then
		echo "$2 lists no keys for '$1'"
		fail=1
	elif ! diff -u "$tmp/table" "$3" >"$tmp/diff"; then
		echo "$2 does not list the keys of '$1' (- only in the table, + only in $2):"
		tail -n +3 "$tmp/diff" | grep '^[-+]'
		fail=1
	fi
}
for s in "${all[@]}"; do
	from_help "$s" | normalise >"$tmp/table"
	n=$(wc -l <"$tmp/table")
	[ "$n" -ge 2 ] || { echo "only $n bindings read from xgtop --help for '$s'"; fail=1; }
	[ "$s" = "$LIST" ] && [ "$n" -lt 15 ] && { echo "only $n bindings for the list in xgtop --help"; fail=1; }
	total=$((total + n))
	for doc in README.md doc/tui.md; do
		from_md "$doc" "$(md_heading "$s")" | normalise >"$tmp/md"
		check "$s" "$doc" "$tmp/md"
	done
	from_man "$s" | normalise >"$tmp/man"
	check "$s" man/xgtop.1.in "$tmp/man"
done

# No screen the monitor does not have (a renamed or removed one).
printf '%s\n' "${all[@]:1}" | LC_ALL=C sort >"$tmp/screens"
for doc in README.md doc/tui.md; do
	sed -n 's/^### \(Keys .*\)/\1/p' "$doc" | LC_ALL=C sort | diff - "$tmp/screens" >/dev/null ||
		{ echo "$doc: its '### Keys ...' headings are not the screens of xgtop --help: $(sed -n 's/^### \(Keys .*\)/\1/p' "$doc" | tr '\n' ';')"; fail=1; }
done
sed -n 's/^\.SS "\{0,1\}\(Keys [^"]*\)"\{0,1\}$/\1/p' man/xgtop.1.in | LC_ALL=C sort | diff - "$tmp/screens" >/dev/null ||
	{ echo "man/xgtop.1.in: its '.SS Keys ...' subsections are not the screens of xgtop --help"; fail=1; }

[ $fail -eq 0 ] && echo "ok: README, doc/tui.md, the man page and --help list the $total key bindings of ${#all[@]} screens' tables"
exit $fail
