#!/bin/sh
# Prints the COLUMNS section body of man/xgtop.1 from `xgtop --list-columns`,
# so the man page cannot drift from the column table.
# Usage: contrib/man-columns.sh [./xgtop]
set -e
bin=${1:-./xgtop}
"$bin" --list-columns | awk -F '\t' '
function esc(s) { gsub(/\\/, "\\e", s); gsub(/-/, "\\-", s); return s }
{
	printf ".TP\n.B %s\n", esc($1)
	printf "Key \\fB%s\\fR, unit %s, group %s.\n%s\n", esc($2), esc($3), esc($4), esc($5)
}'
