#!/bin/bash
# README, --help and the man page must stay in step with the code: every
# option of --help is documented in both, and the man page's COLUMNS
# section is what `make man` generates from the column table today, and the
# rest of it is man/xgtop.1.in.
set -u
cd "$(dirname "$0")/../.." || exit 2
fail=0
opts=$(./xgtop --help | grep -oE -- '--[a-z][a-z-]+' | sort -u)
[ -n "$opts" ] || { echo "no options found in --help"; exit 1; }
for o in $opts; do
	m=${o//-/\\\\-}
	grep -q -- "$m" man/xgtop.1.in || { echo "man page lacks $o"; fail=1; }
	grep -q -- "$o" README.md || { echo "README lacks $o"; fail=1; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
contrib/man-columns.sh ./xgtop > "$tmp/columns.man"
awk '/^\.\\" BEGIN COLUMNS/{f=1;next} /^\.\\" END COLUMNS/{f=0} f' man/xgtop.1 > "$tmp/committed.man"
if ! diff -u "$tmp/committed.man" "$tmp/columns.man" > "$tmp/diff"; then
	echo "man/xgtop.1 COLUMNS section is stale: run 'make man'"
	head -20 "$tmp/diff"
	fail=1
fi
# and the rest of it is man/xgtop.1.in as it is today
version=$(sed -n 's/.*XG_VERSION "\(.*\)"/\1/p' include/xgtop/core/common.h)
awk '/^\.\\" BEGIN COLUMNS/{print; f=1; next} /^\.\\" END COLUMNS/{f=0} !f' man/xgtop.1 > "$tmp/rest.man"
sed "s/@VERSION@/$version/" man/xgtop.1.in > "$tmp/in.man"
if ! diff -u "$tmp/in.man" "$tmp/rest.man" > "$tmp/diff"; then
	echo "man/xgtop.1 is older than man/xgtop.1.in: run 'make man'"
	head -20 "$tmp/diff"
	fail=1
fi
n=$(./xgtop --list-columns | wc -l)
[ "$n" -ge 27 ] || { echo "only $n columns listed"; fail=1; }
exit $fail
