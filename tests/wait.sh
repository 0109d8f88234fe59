# SPDX-License-Identifier: GPL-2.0-or-later
# Sourced by the suites' libraries (and tests) that wait for something to
# happen: a process to start, a file to hold so many samples, a refresh.
# A test waits for its condition, within a generous bound, instead of
# sleeping a fixed time and assuming the condition holds by then: a loaded
# machine (2 shared cores in CI) can take many times longer than a quiet one.
#
# wait_until SECONDS CMD [ARG...]: runs CMD every 0.1 s until it succeeds
# (returns 0) or SECONDS have passed (returns 1, after one last try). The
# caller says what did not happen:
#   wait_until 30 grep -q started "$log" || fail "the daemon never logged 'started'"
wait_until() {
	local limit=$1 t0=$SECONDS
	shift
	until "$@"; do
		[ $((SECONDS - t0)) -ge "$limit" ] && { "$@"; return; }
		sleep 0.1
	done
}
