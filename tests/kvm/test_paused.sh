#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A booted guest, under KVM or TCG alike, whose QEMU is stopped as a
# debugger or `kill -STOP` stops it is shown paused (state p), and runs
# again once continued. (The monitor's "stop" is KVM-only:
# test_kvm_paused.) The states are read from one-interval batch runs,
# each waited for until it says what the test expects, within a bound.
. "$(dirname "$0")/lib.sh"
start_guest xgtest-sigstop idle 2 128
wait_ready xgtest-sigstop
gpid=$(guest_pid xgtest-sigstop)
state() {  # the guest's STATE in a one-interval batch run
	./xgtop -b -o csv --group vm -n 1 -d 1 2>"$tmp/err" |
		awk -F, -v id="$gpid" '$3 == id { print $5 }'
}
# until_state WANT(p or -p) WHAT: a run at a time until the state has (or
# lacks) the p, at most 10 runs.
until_state() {
	local s i
	for i in $(seq 10); do
		s=$(state)
		case $1 in
		p) case $s in *p*) echo "$s"; return 0 ;; esac ;;
		-p) case $s in '' | *p*) ;; *) echo "$s"; return 0 ;; esac ;;
		esac
	done
	fail "$2 after 10 intervals: state '$s' ($(cat "$tmp/err"))"
}
s0=$(until_state -p "listed and not paused before the stop")
kill -STOP "$gpid" || fail "cannot stop QEMU"
s1=$(until_state p "not shown paused while QEMU is stopped")
kill -CONT "$gpid"
s2=$(until_state -p "still paused after SIGCONT")
echo "ok ($ACCEL): states running '$s0', stopped '$s1', continued '$s2'"
