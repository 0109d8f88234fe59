#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The header meters on recordings with the generator's known pCPU load
# (pCPU p busy 10 * (p mod 11) %): two pCPUs get a bar each with their
# figure; 64 pCPUs one heat-strip line of 64 cells in groups of 16; 512
# pCPUs four lines of 128 starting at 0, 128, 256, 384 (every cell the
# height its load asks for); outside UTF-8 the strip is ASCII; t hides and
# shows the meters; a recording without pCPU times says so; and the cache
# part of line 2 says why nothing is counted instead of naming events.
. "$(dirname "$0")/lib.sh"
start_shell

# The meter lines: between the summary's triage line (its fourth) and the status line.
meters() { screen | awk 'NR > 4 && /^Mem\[/ { exit } NR > 4'; }
memline() { screen | grep -m1 '^Mem\['; }

# want_strip N RAMP: the strip cells of pCPUs 0..N-1 as this program's
# pattern and the 8-step RAMP (one character per step) draw them, in
# lines of PER cells (groups of 16 with a blank between), each starting
# with its first pCPU's number and ':', the numbers right-aligned to WIDTH.
want_strip() {
	local n=$1 per=$2 width=$3 p lv line="" out=""
	local -a ramp
	read -r -a ramp <<<"$4"
	for ((p = 0; p < n; p++)); do
		if ((p % per == 0)); then
			[ -n "$line" ] && out+="$line"$'\n'
			line=$(printf '%*d:' "$width" "$p")
		elif ((p % 16 == 0)); then
			line+=" "
		fi
		lv=$((10 * (p % 11) * 8 / 100))
		((lv > 7)) && lv=7
		line+=${ramp[lv]}
	done
	printf '%s%s' "$out" "$line"
}
UTF8_RAMP='▁ ▂ ▃ ▄ ▅ ▆ ▇ █'

# Two pCPUs: bars, 0 % and 10 %.
make_rec 4 --pcpus 2
start_xgtop --speed 50
wait_for "end of recording"
m=$(meters)
[ "$(echo "$m" | wc -l)" -eq 1 ] || fail "2 pCPUs: want one line of bars, got: $m"
echo "$m" | grep -qE '^0\[ +0\.0%\] 1\[\|+ +10\.0%\]' || fail "2 pCPUs: bars are '$m'"
memline | grep -qE '^Mem\[\|+ +31\.0G/64\.0G\] +WAIT\[' || fail "memory / WAIT meters: $(memline)"
memline | grep -qF 'pCPU busy: avg 5.0%, max 10.0%, 0 at 95% or more' || fail "pCPU summary: $(memline)"
# t hides the meters (the header moves up) and shows them again.
[ "$(header_no)" -eq 8 ] || fail "header on line $(header_no) with two meter lines"
keys t
wait_for 'header meters off'
[ "$(header_no)" -eq 6 ] || fail "header on line $(header_no) without meters"
screen | grep -q '^Mem\[' && fail "meters still shown after t"
keys t
wait_for 'header meters on'
wait_match '^Mem\['
keys q
check_restored

# check_strip N WIDTH RAMP [ENV]: xgtop (with ENV) on a recording of N
# pCPUs shows the strip want_strip describes, lines of 128 at 160 columns.
check_strip() {
	local want
	XENV="${4:-}" start_xgtop --speed 50
	wait_for "end of recording"
	want=$(want_strip "$1" 128 "$2" "$3")
	[ "$(meters)" = "$want" ] || fail "$1 pCPUs (${4:-UTF-8}): strip is
$(meters)
want
$want"
	[ "$(meters | sed 's/^ *[0-9]*://' | tr -d ' \n' | wc -m)" -eq "$1" ] || fail "$1 pCPUs: not $1 cells"
}

# 64 pCPUs: one strip line at 160 columns.
make_rec 4 --pcpus 64
check_strip 64 2 "$UTF8_RAMP"
memline | grep -qF 'pCPU busy: avg 48.6%, max 100.0%, 5 at 95% or more' || fail "pCPU summary: $(memline)"
keys q
check_restored

# 512 pCPUs: four lines of 128 (8 groups of 16).
make_rec 4 --pcpus 512
check_strip 512 3 "$UTF8_RAMP"
keys q
check_restored

# Outside UTF-8: the ASCII ramp.
check_strip 512 3 '. : - = + * # @' "LANG=C LC_ALL=C"
keys q
check_restored

# No pCPU times (and no PMU figures): the reasons instead.
make_rec 4 --nopmu
start_xgtop --speed 50
wait_for "end of recording"
memline | grep -qF 'pCPU meters: - (no per-pCPU times in this sample' || fail "no reason for missing pCPU meters: $(memline)"
screen | sed -n 2p | grep -qF 'cache not counted: no PMU access for this domain (xgtop-gen)' ||
	fail "line 2 does not say why cache is not counted: $(screen | sed -n 2p)"
screen | grep -qF 'cache counts' && fail "line 2 names events nothing counts"
keys q
check_restored
echo "ok: meters at 2, 64 and 512 pCPUs, ASCII, t, and the reasons when there is nothing to show"
