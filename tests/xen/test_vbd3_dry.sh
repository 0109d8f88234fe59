#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The dom0 script for tapdisk3 disks (dom0-vbd3.sh) runs only in the Xen
# 4.20 lab; what of it can run without Xen runs here, with its own
# functions: the statistics page it writes is read by xgtop's real VBD
# reader (build/tools/xgtop-vbd3-read) with the figures it expects; each
# hostile file it makes gets the reason its --explain check looks for; its
# parsers of xentop's output read a real XCP-ng xentop capture (shared
# data) to the figures of the libxenstat snapshot behind it.
cd "$(dirname "$0")/../.." || exit 2
ROOT=$PWD
. tests/shared-data.sh
TOOL=build/tools/xgtop-vbd3-read
[ -x $TOOL ] || { echo "FAIL: $TOOL is not built (make tools)"; exit 1; }
VBD3_SOURCE_ONLY=1
. tests/xen/dom0-vbd3.sh
status=0
bad() { echo "FAIL: $*"; status=1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
D=5 DEV=51792 PID=$$
mkdir -p "$tmp/sys/bus/xen-backend/devices/vbd3-$D-$DEV" "$tmp/dev/shm"
mkdir -m 700 "$tmp/dev/shm/td3-$PID"
F=$tmp/dev/shm/td3-$PID/vbd-$D-$DEV

# 1. The page as the script writes it, read by the reader.
good_stats "$F"
[ "$(stat -c %s "$F")" = 4096 ] || bad "the page is $(stat -c %s "$F") bytes, not 4096"
got=$($TOOL "$tmp" "$D/$DEV=$PID")
[ "$got" = "vbd3-$D-$DEV ok $WANT" ] || bad "reader on the script's page: '$got', want 'ok $WANT'"
# Every u64 in its place, little-endian (od reads the host's order: x86).
words=$(od -An -v -tu8 -N 96 "$F" | tr -s ' \n' ' ' | sed 's/^ //; s/ $//')
[ "$words" = "1 3 1005218 1005200 84687195 11 8634509 8634000 87613628 22 0 0" ] ||
	bad "layout: u64 words '$words'"
le64 1099511627781 > "$tmp/big"
[ "$(od -An -tx1 "$tmp/big" | tr -d ' \n')" = "0500000000010000" ] || bad "le64 of 2^40+5"

# 2. No kthread-pid: the device is left out.
got=$($TOOL "$tmp")
[ -z "$got" ] || bad "without kthread-pid the reader listed '$got'"

# 3. Each hostile file: the reason the dom0 script looks for. (owner needs
#    root to give the file away.)
for kind in $HOSTILE; do
	if [ "$kind" = owner ] && [ "$(id -u)" != 0 ]; then
		echo "not checked here: $kind (needs root)"
		continue
	fi
	make_hostile "$kind" "$F"
	got=$($TOOL "$tmp" "$D/$DEV=$PID")
	want=$(hostile_reason "$kind")
	case $got in
	"vbd3-$D-$DEV bad "*"$want"*) echo "ok: $kind: ${got#* bad }" ;;
	*) bad "$kind: reader said '$got', the script looks for '$want'" ;;
	esac
	rm -f "$F" "$F.real"
	good_stats "$F"
done

# 4. The parsers, on real xentop output (XCP-ng 8.3, -b -i 1 -n -x -v, of
#    the libxenstat snapshot beside it).
X=$SHARED_DATA/xentop-xcpng83/libxenstat-replay
if [ ! -r "$X/host-nxv.out" ]; then
	echo "parsers not checked: no shared data (../shared/data/xentop-xcpng83)"
	[ $status = 0 ] && exit 77
	exit $status
fi
# The snapshot's first sample: per domain, VBDS and the VBD sums; per
# domain and device, the VBD's figures.
awk '/^node/ { s++ } s == 1 && /^dom / { n = $8; for (i = 9; i <= NF; i++) n = n " " $i; d = n }
	s == 1 && /^vbd / { c[d]++; for (i = 5; i <= 9; i++) t[d, i] += $i
		print "dev", d "|" $3 "|" $5 " " $6 " " $7 " " $8 " " $9 }
	END { for (k in c) print "dom", k "|" c[k] " " t[k, 5] " " t[k, 6] " " t[k, 7] " " t[k, 8] " " t[k, 9] }' \
	"$X/xcpng-host.snap" > "$tmp/snap"
checked=0
while IFS='|' read -r kind name rest; do
	case $kind in
	"dom ")
		want=$rest
		got=$(vbd_cols "$name" < "$X/host-nxv.out")
		short=$(printf %.10s "$name")
		[ "$got" = "$want" ] || bad "vbd_cols '$short': '$got', snapshot '$want'" ;;
	"dev ")
		dev=${rest%%|*} want=${rest#*|}
		# The -x lines under that domain's row only.
		got=$(awk -v n="$(printf %.10s "$name")" "$ROWS_AWK"'
			row() { on = name() == n } on && /^VBD /' "$X/host-nxv.out" | tapdisk3_line "$dev")
		[ "$got" = "$want" ] || bad "tapdisk3_line $name $dev: '$got', snapshot '$want'" ;;
	esac
	checked=$((checked + 1))
done < <(sed 's/^dom /dom |/; s/^dev /dev |/' "$tmp/snap")
[ $checked -ge 20 ] || bad "only $checked figures compared"
echo "ok: parsers on the XCP-ng capture: $checked domains and VBDs"
# Names with a space, and the last iteration only.
got=$(other_rows b-vm-01 < "$SHARED_DATA/xentop-xcpng83/captured/xcpng-8.3-b-i2-d1.txt" | grep -c .)
[ "$got" = 8 ] || bad "other_rows on a two-iteration capture gave $got rows, want 8 (9 domains)"
other_rows b-vm-01 < "$SHARED_DATA/xentop-xcpng83/captured/xcpng-8.3-b-i2-d1.txt" |
	grep -q '^s-vm 007 2 ' || bad "other_rows lost the name with a space"
# "no limit" makes MAXMEM(k) two words: the columns are counted from the end.
line='  Domain-0 -----r       1234   12.3    4194304   12.5   no limit       n/a     4    0        0        0    3        7       11       13         17         19    0'
[ "$(echo "$line" | vbd_cols Domain-0)" = "3 7 11 13 17 19" ] || bad "a 'no limit' row"
[ $status = 0 ] && echo "ok: dom0-vbd3.sh's dry parts"
exit $status
