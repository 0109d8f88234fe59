#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# An XENLAB_DOM0_HOOK that checks the hook contract itself (make test-xen
# XENLAB_DOM0_HOOK=tests/xen/hook-example.sh): it runs as root in dom0 once
# the guests are up, finds xgtop, xentop, xl and the xenstore tools on the
# PATH, and reports through "XGLAB-CHECK PASS|FAIL NAME DETAIL" lines,
# which the lab's check.py counts (and its exit status, 0 here).
ok() { if [ "$1" = 0 ]; then echo "XGLAB-CHECK PASS $2 $3"; else echo "XGLAB-CHECK FAIL $2 $3"; fi; }
for t in xgtop xentop xl xenstore-read xenstore-ls; do
	command -v $t > /dev/null
	ok $? "on-path-$t" "$(command -v $t)"
done
[ "$(id -u)" = 0 ]
ok $? as-root "uid $(id -u)"
up=$(xl list | awk '$1 ~ /^xg-/ {print $1}' | tr '\n' ' ')
case " $up" in *" xg-io "*" xg-busy "* | *" xg-busy "*" xg-io "*) r=0 ;; *) r=1 ;; esac
ok $r guests-up "$up"
# Each tool sees the guests.
n=$(xentop -b -i 1 | grep -c ' xg-')
[ "$n" -ge 2 ]
ok $? xentop-sees-guests "$n rows"
n=$(xgtop --source xen -b -n 1 -d 0.5 -o xentop | grep -c ' xg-')
[ "$n" -ge 2 ]
ok $? xgtop-sees-guests "$n rows"
d=$(xenstore-read "/local/domain/$(xl domid xg-io)/name")
[ "$d" = xg-io ]
ok $? xenstore-names-guest "$d"
# A file of its own next to the results (run.sh exports them all).
echo "hook ran at $(cut -d' ' -f1 /proc/uptime)" > "$XGLAB_EXTRA_DIR/marker"
[ -s "$XGLAB_EXTRA_DIR/marker" ]
ok $? marker-written "$XGLAB_EXTRA_DIR/marker"
