#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The column chooser (C) hides MAXMEM and moves CPU(s) right of VCPU; the
# toggles still work on top; on quit the change goes to the settings file
# ($HOME/.config/xgtop/xgtoprc here: no XDG_CONFIG_HOME), so a restart
# shows the same columns; --no-config shows the defaults and leaves the
# file alone; F2 opens the chooser too and Esc closes it.
. "$(dirname "$0")/lib.sh"
make_rec 4
start_shell
RC=$TMP/.config/xgtop/xgtoprc

# The header's words in order, one line.
titles() { header | tr -s ' ' | sed 's/^ //'; }
has_title() { titles | tr ' ' '\n' | grep -qxF -- "$1"; }
# "a b" when title a comes right before title b.
adjacent() { titles | grep -qF -- "$1 $2"; }

start_xgtop --speed 50
wait_for "end of recording"
has_title MAXMEM || fail "no MAXMEM at first: $(titles)"
adjacent 'CPU(s)' VCPU || fail "CPU(s) not before VCPU at first: $(titles)"
keys C
wait_for 'Columns: space show/hide'
# The list is in display order: HOST ID NAME STATE CPU% CPU(s) VCPU MEM MEM%
# MAXMEM (HOST, the pool view's, marked as such); the selection moves with
# the column it moves.
wait_for 'HOST        host                  pool view only'
keys Down Down Down Down Down ']'
keys Down Down Down Space
keys Escape
wait_gone 'Columns: space show/hide'
wait_for 'rows 11'
t0=$SECONDS
while has_title MAXMEM || ! adjacent VCPU 'CPU(s)'; do
	[ $((SECONDS - t0)) -ge 5 ] && fail "chooser: header is $(titles)"
	sleep 0.05
done
# d still hides the disk group on top of the chooser, and brings it back.
keys d
wait_for 'disk columns off'
has_title DISK-RD/s && fail "d did not hide the disk columns"
keys d
wait_for 'disk columns on'
has_title MAXMEM && fail "d brought MAXMEM back"
keys q
check_restored
[ -f "$RC" ] || fail "no settings file at $RC after quitting"
grep -qE '^columns = host id name state cpu_pct vcpus cpu_s mem_bytes mem_pct -maxmem_bytes ' "$RC" ||
	fail "settings file: $(cat "$RC")"
grep -qE '^(disk|sort|delay) =' "$RC" && fail "unchanged settings were written: $(cat "$RC")"
cp "$RC" "$TMP/rc.saved"

# A restart keeps the layout.
start_xgtop --speed 50
wait_for "end of recording"
has_title MAXMEM && fail "MAXMEM is back after a restart: $(titles)"
adjacent VCPU 'CPU(s)' || fail "order lost after a restart: $(titles)"
keys F2
wait_for 'Columns: space show/hide'
# The last column is the vm group's SWAP, which no toggle shows (the
# recording's domains are not VMs).
keys End
wait_for 'SWAP        swap_bytes            KVM VMs only'
keys Escape
wait_gone 'Columns: space show/hide'
keys q
check_restored
cmp -s "$RC" "$TMP/rc.saved" || fail "the file changed though nothing did"

# --no-config: the defaults, and the file is left alone.
start_xgtop --speed 50 --no-config
wait_for "end of recording"
has_title MAXMEM || fail "--no-config: no MAXMEM: $(titles)"
adjacent 'CPU(s)' VCPU || fail "--no-config: not the default order: $(titles)"
keys w
wait_for 'scheduler columns off'
keys q
check_restored
cmp -s "$RC" "$TMP/rc.saved" || fail "--no-config wrote the settings file"
echo "ok: the chooser hides and moves columns, kept across a restart, not with --no-config"
