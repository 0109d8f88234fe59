#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tapdisk3 (vbd3) disks, side by side with xentop, in a Xen >= 4.19 dom0
# (the 4.20 lab runs it as a dom0 hook: as root, guests up, xgtop, xentop,
# xl and the xenstore tools on the PATH). No tapdisk runs here, so this
# script makes what one leaves behind for a running guest, the same tree
# XCP-ng's dom0 has and that xentop (libxenstat, since 4.19) and xgtop read:
#   - xenstore /local/domain/0/backend/vbd3/D/N with kthread-pid = the pid
#     of a stand-in process (alive, as tapdisk would be);
#   - /sys/bus/xen-backend/devices/vbd3-D-N: made by dom0's kernel itself,
#     which registers a xen-backend device for any backend node whose
#     frontend exists and whose state is 1 (Initialising), driver or not;
#     if it does not appear, a copy of that directory with the entry added
#     is bind-mounted over it, in a mount namespace of this script's own;
#   - /dev/shm/td3-PID/vbd-D-N: tapdisk's statistics page, layout
#     vbd3_stats version 1, root's, 0600 in a 0700 directory.
# Then: xentop shows the disk as Tapdisk3 with exactly the counters written
# (so xentop did read the tree), xgtop's VBD columns equal xentop's, an
# empty CD drive (no kthread-pid) is left out by both, and each hostile
# file (short, version 2, a link, not root's, huge) makes that domain's
# disk columns `-` in xgtop with the reason in --explain while every other
# domain's figures stay as they were. The guests are paused meanwhile, so
# their real disks' counters hold still.
# Prints one PASS/FAIL line per check and "N passed, N failed"; exits 1
# when a check failed. Usage: dom0-vbd3.sh [GUEST]   (default: the first
# guest in `xl list`). VBD3_SOURCE_ONLY=1: define the functions only (the
# dry test, tests/xen/test_vbd3_dry.sh, uses them).

XGTOP=${XGTOP:-xgtop}
XENTOP=${XENTOP:-xentop}
DEV=51792                 # xvdf: a device number the lab's guests do not use
pass=0 fail=0

ok() { echo "PASS vbd3: $1${2:+: $2}"; pass=$((pass + 1)); }
ko() { echo "FAIL vbd3: $1${2:+: $2}"; fail=$((fail + 1)); }
info() { echo "INFO vbd3: $*"; }
verdict() {  # NAME DETAIL: PASS when the command just before succeeded
	if [ $? = 0 ]; then ok "$1" "$2"; else ko "$1" "$2"; fi
}

# le64 N: N as 8 bytes, least significant first (x86, tapdisk's order).
le64() {
	v=$1 i=0
	while [ $i -lt 8 ]; do
		# shellcheck disable=SC2059  # the format is the byte, by design
		printf "\\$(printf %03o $((v & 255)))"
		v=$((v >> 8))
		i=$((i + 1))
	done
}

# write_stats FILE VERSION OO RD_SUB RD_DONE RD_SECT WR_SUB WR_DONE WR_SECT:
# tapdisk's statistics page (4096 bytes): u32 version, u32 pad, eleven
# u64 (the ticks, io_errors and flags set to small numbers of their own).
write_stats() {
	f=$1 ver=$2
	{
		le64 "$ver"                     # u32 version + u32 pad, both LE
		le64 "$3"                       # oo_reqs
		le64 "$4"; le64 "$5"; le64 "$6" # read submitted, completed, sectors
		le64 11                         # read_total_ticks
		le64 "$7"; le64 "$8"; le64 "$9" # write submitted, completed, sectors
		le64 22; le64 0; le64 0         # write_total_ticks, io_errors, flags
	} > "$f.new"
	truncate -s 4096 "$f.new"
	chmod 600 "$f.new"
	mv -f "$f.new" "$f"
}

# tapdisk3_line DEV < `xentop -x` output: "OO RD WR RSECT WSECT" of the last
# `VBD Tapdisk3 DEV [..]` line.
tapdisk3_line() {
	sed -n "s/^VBD Tapdisk3 *$1 .*OO: *\\([0-9]*\\) *RD: *\\([0-9]*\\) *WR: *\\([0-9]*\\) *RSECT: *\\([0-9]*\\) *WSECT: *\\([0-9]*\\).*/\\1 \\2 \\3 \\4 \\5/p" |
		tail -n 1
}

# The xentop layout's rows: the name right-aligned in its first 10 bytes
# (it may hold spaces), the columns counted from the end (MAXMEM(k) may be
# two words, "no limit"). Fields: VBDS is $(NF-6) ... VBD_WSECT $(NF-1).
# shellcheck disable=SC2016  # awk's own $ fields
ROWS_AWK='function name() { s = substr($0, 1, 10); sub(/^ +/, "", s); return s }
	function vbd() { return $(NF-6) " " $(NF-5) " " $(NF-4) " " $(NF-3) " " $(NF-2) " " $(NF-1) }
	function row() { return NF >= 19 && $(NF-6) ~ /^[0-9-]+$/ && $0 !~ /^ *NAME /}'

# vbd_cols NAME < xentop-layout output: "VBDS OO RD WR RSECT WSECT" of the
# last row of domain NAME (cut to 10 bytes, as both print it).
vbd_cols() {
	awk -v n="$(printf %.10s "$1")" "$ROWS_AWK"'
		row() && name() == n { r = vbd() } END { print r }'
}

# other_rows NAME < xentop-layout output: the VBD columns of every other
# domain in the last iteration, one "NAME VBDS OO RD WR RSECT WSECT" a line.
other_rows() {
	awk -v n="$(printf %.10s "$1")" "$ROWS_AWK"'
		/^ *NAME / { k = 0 }
		row() && name() != n { r[k++] = name() " " vbd() }
		END { for (i = 0; i < k; i++) print r[i] }' | sort
}

# good_stats FILE: the figures this script gives the disk, with
# submitted != completed, so that taking the wrong one shows; WANT is what
# xentop -x shows for them (OO RD WR RSECT WSECT).
good_stats() { write_stats "$1" 1 3 1005218 1005200 84687195 8634509 8634000 87613628; }
WANT="3 1005218 8634509 84687195 87613628"

# The hostile files, made from a good one at FILE, and the words of the
# reason xgtop gives for each.
HOSTILE="short version symlink owner huge"
make_hostile() {  # KIND FILE
	case $1 in
	short) rm -f "$2"; printf 'short' > "$2" ;;
	version) write_stats "$2" 2 3 1005218 1005200 84687195 8634509 8634000 87613628 ;;
	symlink) mv "$2" "$2.real"; ln -s "$2.real" "$2" ;;
	owner) chown 65534 "$2" ;;
	huge) truncate -s 1G "$2" ;;
	esac
}
hostile_reason() {  # KIND
	case $1 in
	short) echo "is 5 bytes, shorter than tapdisk's statistics (96)" ;;
	version) echo "layout version 2, xgtop reads version 1" ;;
	symlink) echo "is a symbolic link" ;;
	owner) echo "is owned by uid 65534, not by root" ;;
	huge) echo "is 1073741824 bytes, larger than tapdisk's statistics page" ;;
	esac
}

if [ -n "${VBD3_SOURCE_ONLY:-}" ]; then
	return 0
fi

# ---------------------------------------------------------------------------
W=$(mktemp -d /tmp/xgtop-vbd3.XXXXXX) || exit 2
NS=""          # set to the bind-mount prefix when the kernel made no entry
STANDIN=""
GUESTS=""
cleanup() {
	[ -n "$B" ] && xenstore-rm "$B" > /dev/null 2>&1
	[ -n "$STANDIN" ] && kill "$STANDIN" 2> /dev/null
	[ -n "$STANDIN" ] && rm -rf "/dev/shm/td3-$STANDIN"
	for g in $GUESTS; do xl unpause "$g" > /dev/null 2>&1; done
	umount "$W/sysdev" 2> /dev/null
	rm -rf "$W"
}
trap cleanup EXIT
trap 'exit 2' INT TERM

# in_tree CMD...: runs CMD where the vbd3 device is listed (the plain host,
# or the mount namespace with the copy bind-mounted).
in_tree() {
	if [ -z "$NS" ]; then
		"$@"
	else
		# shellcheck disable=SC2016  # expanded by the inner sh
		unshare -m sh -c 'mount --bind "$0" /sys/bus/xen-backend/devices && exec "$@"' "$W/sysdev" "$@"
	fi
}

ver=$(xl info 2> /dev/null | sed -n 's/^xen_version *: *//p')
info "Xen $ver, xentop $(command -v "$XENTOP"), xgtop $(command -v "$XGTOP")"
case $ver in
4.1[0-8].*|4.[0-9].*|[0-3].*)
	ko "xen version" "xentop of Xen $ver reads no vbd3 statistics (4.19 and later do)"
	echo "$pass passed, $fail failed"
	exit 1 ;;
esac

GUEST=${1:-$(xl list | awk 'NR > 1 && $2 != 0 { print $1; exit }')}
D=$(xl domid "$GUEST" 2> /dev/null)
if [ -z "$D" ]; then
	ko "guest" "no running guest to give a vbd3 disk to"
	echo "$pass passed, $fail failed"
	exit 1
fi
info "guest $GUEST (domain $D), device $DEV"
B=/local/domain/0/backend/vbd3/$D/$DEV

# The stand-in tapdisk: a live process whose pid names the directory.
sleep 100000 &
STANDIN=$!
T=/dev/shm/td3-$STANDIN
mkdir -m 700 "$T"
good_stats "$T/vbd-$D-$DEV"

# xenstore: tapdisk's pid, then what the kernel needs to register the
# device; state last, so that every other key is there when it looks.
xenstore-write "$B/frontend" "/local/domain/$D" "$B/frontend-id" "$D" "$B/kthread-pid" "$STANDIN"
xenstore-write "$B/state" 1
i=0
while [ ! -e "/sys/bus/xen-backend/devices/vbd3-$D-$DEV" ] && [ $i -lt 40 ]; do
	sleep 0.25
	i=$((i + 1))
done
if [ -e "/sys/bus/xen-backend/devices/vbd3-$D-$DEV" ]; then
	info "dom0's kernel registered /sys/bus/xen-backend/devices/vbd3-$D-$DEV"
else
	info "no sysfs entry from the kernel after 10 s: bind-mounting a copy with vbd3-$D-$DEV"
	mkdir -p "$W/sysdev"
	mount -t tmpfs none "$W/sysdev"
	cp -a /sys/bus/xen-backend/devices/. "$W/sysdev/"
	mkdir "$W/sysdev/vbd3-$D-$DEV"
	NS=1
fi

# The guests hold still while the readers run (those running now; they
# run again at the end).
GUESTS=$(xl list | awk 'NR > 1 && $2 != 0 && $5 !~ /p/ { print $1 }')
for g in $GUESTS; do xl pause "$g"; done

# snap NAME: xentop -x, and xgtop in xentop's layout (the same cumulative
# VBD columns) and --explain, now.
snap() {
	in_tree "$XENTOP" -b -i 2 -d 1 -x > "$W/$1.xentop" 2> "$W/$1.xentop.err"
	in_tree "$XGTOP" --source xen -b -n 1 -d 1 -o xentop --notrace --nocache \
		> "$W/$1.xgtop" 2> "$W/$1.xgtop.err"
	in_tree "$XGTOP" --source xen --explain --notrace --nocache \
		> "$W/$1.explain" 2> "$W/$1.explain.err"
}

# 1. The good file: xentop reads it, xgtop agrees with xentop.
snap good
got=$(tapdisk3_line "$DEV" < "$W/good.xentop")
[ "$got" = "$WANT" ]
verdict "xentop reads the tree" "xentop's Tapdisk3 $DEV line: OO RD WR RSECT WSECT = '$got', written '$WANT'"
xt=$(vbd_cols "$GUEST" < "$W/good.xentop")
xg=$(vbd_cols "$GUEST" < "$W/good.xgtop")
[ -n "$xt" ] && [ "$xt" = "$xg" ]
verdict "xgtop equals xentop" "$GUEST VBDS OO RD WR RSECT WSECT: xentop '$xt', xgtop '$xg'"
other_rows "$GUEST" < "$W/good.xgtop" > "$W/others.base"
other_rows "$GUEST" < "$W/good.xentop" > "$W/others.xentop"
cmp -s "$W/others.base" "$W/others.xentop"
verdict "other domains equal xentop's" "$(wc -l < "$W/others.base") domains"

# 2. An empty CD drive: a vbd3 device whose tapdisk is gone (no
#    kthread-pid). Both leave it out of VBDS.
xenstore-rm "$B/kthread-pid"
snap nocd
xt=$(vbd_cols "$GUEST" < "$W/nocd.xentop")
xg=$(vbd_cols "$GUEST" < "$W/nocd.xgtop")
had=$(vbd_cols "$GUEST" < "$W/good.xentop" | cut -d' ' -f1)
[ -n "$xt" ] && [ "$xt" = "$xg" ] && [ "${xt%% *}" -eq $((had - 1)) ]
verdict "no tapdisk: left out by both" "$GUEST VBDS OO RD WR RSECT WSECT: xentop '$xt', xgtop '$xg' (VBDS was $had)"
xenstore-write "$B/kthread-pid" "$STANDIN"

# 3. Hostile files: each blanks this domain's disk columns in xgtop, with
#    the reason in --explain, and nothing else.
F=$T/vbd-$D-$DEV
for kind in $HOSTILE; do
	make_hostile "$kind" "$F"
	snap "$kind"
	xg=$(vbd_cols "$GUEST" < "$W/$kind.xgtop")
	[ "${xg#* }" = "- - - - -" ]
	verdict "$kind: disk columns '-'" "$GUEST: xgtop '$xg' (xentop '$(vbd_cols "$GUEST" < "$W/$kind.xentop")')"
	grep -q -F "$(hostile_reason "$kind")" "$W/$kind.explain"
	verdict "$kind: reason in --explain" "$(grep -m1 -F "vbd3-$D-$DEV" "$W/$kind.explain")"
	other_rows "$GUEST" < "$W/$kind.xgtop" > "$W/others.$kind"
	cmp -s "$W/others.base" "$W/others.$kind"
	verdict "$kind: other domains unchanged" ""
	rm -f "$F" "$F.real"
	good_stats "$F"
done

# 4. Repaired: the figures are back and equal xentop's again.
snap again
xt=$(vbd_cols "$GUEST" < "$W/again.xentop")
xg=$(vbd_cols "$GUEST" < "$W/again.xgtop")
[ -n "$xt" ] && [ "$xt" = "$xg" ]
verdict "repaired: xgtop equals xentop again" "$GUEST: xentop '$xt', xgtop '$xg'"

for f in "$W"/*.err; do
	[ -s "$f" ] && info "$(basename "$f"): $(head -c 300 "$f" | tr '\n' ' ')"
done
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
