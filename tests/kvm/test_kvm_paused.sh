#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A KVM guest stopped by QEMU's monitor ("stop", as virsh suspend and qm
# suspend do) is shown paused: its vCPU threads sleep in QEMU instead of
# in KVM's halt. "cont" makes it run again. Needs only a KVM VM, so it
# runs wherever /dev/kvm can start one.
. "$(dirname "$0")/lib.sh"
kvm_guest xgtest-kvm-stop 2
sleep 1
state() {  # the guest's STATE in a one-interval batch run
	./xgtop -b -o csv --group vm -n 1 -d 1 2>"$tmp/err" |
		awk -F, -v id="$(guest_pid xgtest-kvm-stop)" '$3 == id { print $5 }'
}
s0=$(state)
qmp xgtest-kvm-stop stop || fail "QMP stop failed"
s1=$(state)
qmp xgtest-kvm-stop cont || fail "QMP cont failed"
sleep 0.5
s2=$(state)
echo "states: running $s0, stopped $s1, continued $s2"
case $s0 in *p*) fail "paused before the stop: $s0" ;; esac
case $s1 in *p*) ;; *) fail "not paused after the monitor's stop: $s1 ($(cat "$tmp/err"))" ;; esac
case $s2 in *p*) fail "still paused after cont: $s2" ;; esac
echo "ok: a KVM guest stopped by the monitor shows as paused, and runs again after cont"
