# SPDX-License-Identifier: GPL-2.0-or-later
# Shared by tests/pmu/test_pmu_*.sh: runs build/tools/xgtop-pmu-probe and
# reads its key=value output.
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 2
PROBE=build/tools/xgtop-pmu-probe
WORK=build/tools/xgtop-pmu-work
[ -x "$PROBE" ] && [ -x "$WORK" ] || { echo "build the tools first (make tools)"; exit 77; }
SW=page-faults,context-switches

fail() { echo "FAIL: $*"; echo "--- probe output:"; echo "$out"; exit 1; }
# get KEY: the value of KEY= in $out
get() { sed -n "s/^$1=//p" <<<"$out" | head -n 1; }
# atleast KEY N: KEY is a number >= N
atleast() {
	local v; v=$(get "$1")
	[[ "$v" =~ ^[0-9]+$ ]] || fail "$1 is '$v', expected a number >= $2 ($(get "why.${1##*.}"))"
	[ "$v" -ge "$2" ] || fail "$1 = $v, expected >= $2"
	echo "ok: $1 = $v >= $2"
}
atmost() {
	local v; v=$(get "$1")
	[[ "$v" =~ ^[0-9]+$ ]] || fail "$1 is '$v', expected a number <= $2"
	[ "$v" -le "$2" ] || fail "$1 = $v, expected <= $2"
	echo "ok: $1 = $v <= $2"
}
# has KEY TEXT: the value of KEY contains TEXT
has() {
	local v; v=$(get "$1")
	[[ "$v" == *"$2"* ]] || fail "$1 = '$v', expected to contain '$2'"
	echo "ok: $1 mentions '$2'"
}

# The cgroup v2 mount (pure v2 or the hybrid 'unified' one), or skip.
cgroup2_root() {
	local m
	m=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/self/mounts)
	[ -n "$m" ] || { echo "no cgroup v2 mount on this host"; exit 77; }
	[ -w "$m" ] || { echo "cgroup v2 root $m is not writable (run as root)"; exit 77; }
	echo "$m"
}

# Skips when this user may not count even software events here (e.g. an
# unprivileged CI runner with perf_event_paranoid >= 2), saying why.
need_counting() {
	local o
	o=$($PROBE --events page-faults -- true 2>&1)
	if [[ "$o" == *"why.ref="* ]]; then
		echo "cannot count software events here: $(sed -n 's/^why.ref=//p' <<<"$o")"
		exit 77
	fi
}
