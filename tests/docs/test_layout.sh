#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The layout shows the pipeline and its dependencies point one way: every
# folder under src/ has a README.md whose "May include:" line lists the
# folders its code (and its headers under include/xgtop/<folder>/) may
# #include; this checks every #include "xgtop/<folder>/..." against that
# line, and that no file reaches into another folder's private headers.
# A declaration written by hand (extern) gets past an #include rule, so the
# same rule is checked on symbols too: every symbol an object of the build
# (build/obj/<folder>/) takes from another folder's objects must come from
# a folder its "May include:" line names.
cd "$(dirname "$0")/../.." || exit 2
fail=0
bad() { echo "FAIL: $*"; fail=1; }

declare -A may
for dir in src/*/; do
	d=$(basename "$dir")
	[ -f "$dir/README.md" ] || { bad "src/$d has no README.md"; continue; }
	line=$(sed -n 's/^May include: *//p' "$dir/README.md" | tr -d '.')
	[ -n "$line" ] || bad "src/$d/README.md has no 'May include:' line"
	may[$d]=" $(echo "$line" | tr ',' ' ') "
done
for dir in include/xgtop/*/; do
	d=$(basename "$dir")
	[ -n "${may[$d]+x}" ] || bad "include/xgtop/$d has no matching src/$d"
done

# The folders' rules form no circle: following "May include:" lines from
# any folder never leads back to it (each stage stays below the next).
declare -A seen
reach() {   # reach FROM AT PATH: bad if a folder AT may include leads to FROM
	local to
	for to in ${may[$2]}; do
		[ "$to" = "$2" ] && continue
		[ -n "${may[$to]+x}" ] || { bad "src/$2 may include $to: no such folder"; continue; }
		if [ "$to" = "$1" ]; then
			bad "folders include each other: $3 -> $to"
		elif [ -z "${seen[$1/$to]+x}" ]; then
			seen[$1/$to]=1
			reach "$1" "$to" "$3 -> $to"
		fi
	done
}
for d in "${!may[@]}"; do
	[ "${may[$d]}" = " everything " ] || reach "$d" "$d" "$d"
done

checked=0
while IFS= read -r f; do
	case $f in
	src/*) d=${f#src/}; d=${d%%/*} ;;
	include/xgtop/*) d=${f#include/xgtop/}; d=${d%%/*} ;;
	esac
	[ -n "${may[$d]+x}" ] || { bad "$f: in no known folder"; continue; }
	while IFS= read -r inc; do
		case $inc in
		xgtop/*/*)
			to=${inc#xgtop/}; to=${to%%/*}
			[ "$to" = "$d" ] || [[ "${may[$d]}" == *" $to "* ]] ||
				bad "$f includes $inc: src/$d may include only:${may[$d]}"
			;;
		*/*) bad "$f includes \"$inc\": another folder's private header" ;;
		*) [ -f "$(dirname "$f")/$inc" ] || bad "$f includes \"$inc\", not in its folder" ;;
		esac
		checked=$((checked + 1))
	done < <(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f")
done < <(find src include -name '*.[ch]' | sort)

[ $checked -gt 100 ] || bad "only $checked #include lines found: is the tree there?"
[ $fail = 0 ] && echo "$checked #include lines follow the folders' 'May include' rules"

# The objects of the sources that still exist (a build dir can hold stale ones).
objs=()
for o in build/obj/*/*.o; do
	s=src/${o#build/obj/}
	[ -f "${s%.o}.c" ] && objs+=("$o")
done
if [ ${#objs[@]} -lt 50 ]; then
	echo "SKIP: the symbol rule needs the objects of a build (make): ${#objs[@]} found under build/obj"
	[ $fail = 0 ] && exit 77
	exit $fail
fi
declare -A home
while read -r o sym; do
	d=${o#build/obj/}
	home[$sym]=${d%%/*}
done < <(nm -A --defined-only -g "${objs[@]}" | awk '$2 ~ /^[BCDGRSTVW]$/ { sub(/:.*/, "", $1); print $1, $3 }')
used=0
while read -r o sym; do
	d=${o#build/obj/}; d=${d%%/*}
	to=${home[$sym]:-}
	[ -n "$to" ] || continue   # libc or another library
	used=$((used + 1))
	[ "$to" = "$d" ] || [[ "${may[$d]}" == *" $to "* ]] ||
		bad "$o takes $sym from src/$to: src/$d may use only:${may[$d]}"
done < <(nm -A -u "${objs[@]}" | awk '{ sub(/:.*/, "", $1); print $1, $NF }')
[ $used -gt 100 ] || bad "only $used symbols taken between objects: is the build there?"
[ $fail = 0 ] && echo "$used symbols taken between the ${#objs[@]} objects follow the same rules"
exit $fail
