#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Resizing reflows: a narrow window drops the lowest-priority columns
# first (CPU% and MEM stay), nothing spills or garbles, and widening brings
# the columns back.
. "$(dirname "$0")/lib.sh"
make_rec 4
start_shell
start_xgtop --speed 50
wait_for "end of recording"
wide=$(header | wc -w)

# Every row's cells line up under the header: same number of fields (the
# names here have no blanks), and no line longer than the window.
check_grid() {  # width
	local s hdr n
	s=$(screen)
	hdr=$(header)
	n=$(echo "$hdr" | wc -w)
	echo "$s" | awk -v w="$1" 'length($0) > w { exit 1 }' || fail "a line is wider than $1"
	rows | awk -v n="$n" 'NF != n { exit 1 }' || fail "rows do not have the header's $n fields"
}
check_grid 160

tm resize-window -t t -x 80 -y 30
wait_match '^.{0,80}$' 5
t0=$SECONDS
while [ "$(header | wc -w)" -ge "$wide" ]; do
	[ $((SECONDS - t0)) -ge 10 ] && fail "header did not lose columns at 80 wide"
	sleep 0.05
done
narrow=$(header)
for c in CPU% MEM NAME; do
	echo "$narrow" | grep -qF -- "$c" || fail "narrow header lost $c: $narrow"
done
for c in LLC-REF/s OFF% PKT-RX/s; do
	echo "$narrow" | grep -qF -- "$c" && fail "narrow header kept low-priority $c: $narrow"
done
check_grid 80
wait_names "$BY_CPU"

tm resize-window -t t -x 40 -y 12
t0=$SECONDS
while [ "$(header | wc -w)" -gt 4 ]; do
	[ $((SECONDS - t0)) -ge 10 ] && fail "header at 40 wide: $(header)"
	sleep 0.05
done
check_grid 40

tm resize-window -t t -x 200 -y 50
t0=$SECONDS
while [ "$(header | wc -w)" -le "$wide" ]; do
	[ $((SECONDS - t0)) -ge 10 ] && fail "header did not gain columns at 200 wide"
	sleep 0.05
done
check_grid 200
keys q
check_restored
echo "ok: narrow drops low-priority columns cleanly; wide restores them"
