# SPDX-License-Identifier: GPL-2.0-or-later
# Shell helpers shared by the scripts that run inside the lab's dom0
# (dom0-tests.sh, dom0-sched.sh, cmt-agent-dom0.sh); sourced, with $OUT
# (the results directory) and $CON (the guest console log directory) set.

# note TEXT: a progress line on the console, which the host's run.sh follows.
note() { echo "XGLAB: $* t=$(cut -d' ' -f1 /proc/uptime)" > /dev/console; }

# run NAME TIMEOUT CMD...: leaves NAME.out, NAME.err and NAME.rc in $OUT.
run() {
	n=$1 t=$2
	shift 2
	timeout "$t" "$@" > "$OUT/$n.out" 2> "$OUT/$n.err"
	echo $? > "$OUT/$n.rc"
}
# bg NAME TIMEOUT CMD...: like run, in the background
bg() { run "$@" & }

# wait_guest NAME PATTERN SECONDS: until the guest's console shows PATTERN.
wait_guest() {
	i=0
	while [ $i -lt $(($3 * 4)) ]; do
		grep -q "$2" "$CON/guest-$1.log" 2>/dev/null && return 0
		sleep 0.25
		i=$((i + 1))
	done
	return 1
}
