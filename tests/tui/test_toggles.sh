#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Column toggles d n c m w and the per-vCPU rows (v).
. "$(dirname "$0")/lib.sh"
make_rec 600
start_shell
start_xgtop
# Frozen once rates are there, so every check sees the same data.
wait_match 'Interval [0-9.]+s'
keys Space
wait_for FROZEN

has() { header | grep -qF -- "$1"; }
wait_header() {  # wait_header yes|no TEXT
	local t0=$SECONDS
	while :; do
		[ "$1" = no ] && settle
		if has "$2"; then [ "$1" = yes ] && return 0; else [ "$1" = no ] && return 0; fi
		[ $((SECONDS - t0)) -ge 10 ] && fail "header: wanted $1 '$2'"
		sleep 0.05
	done
}

for c in NET-RX/s DISK-RD/s RUN% LLC-MISS/s; do
	has "$c" || fail "default header lacks $c"
done
keys d; wait_header no DISK-RD/s; wait_for 'disk columns off'
keys n; wait_header no NET-RX/s; wait_for 'network columns off'
keys w; wait_header no RUN%; wait_for 'scheduler columns off'
has WAIT% && fail "WAIT% still shown with the scheduler columns off"
# m: the cache counters broken down by where they happened.
keys m; wait_header yes MISS-GU/s; wait_header no LLC-MISS/s
wait_for 'by where they happened'
keys m; wait_header yes LLC-MISS/s; wait_header no MISS-GU/s
keys c; wait_header no LLC-MISS/s; wait_for 'cache columns off'
has HIT% && fail "HIT% still shown with the cache columns off"
keys d n w c
wait_header yes DISK-RD/s; wait_header yes NET-RX/s; wait_header yes RUN%; wait_header yes LLC-MISS/s

# v: vCPU rows under each domain, indented, none before.
settle
screen | grep -q 'vCPU 0' && fail "vCPU rows before v"
keys v
wait_for 'vCPU rows on'
wait_for '  vCPU 0'
# The first domain row is followed by its vCPU rows.
first=$(list_lines | head -n 3)
echo "$first" | sed -n 1p | grep -q 'busy-03' || fail "first row is not busy-03: $first"
echo "$first" | sed -n 2p | grep -qE '^ +vCPU 0 ' || fail "no vCPU 0 row under busy-03: $first"
echo "$first" | sed -n 3p | grep -qE '^ +vCPU 1 ' || fail "no vCPU 1 row under busy-03: $first"
keys v
wait_gone 'vCPU 0'
keys q
check_restored
echo "ok: d n c m w v change the columns and rows"
