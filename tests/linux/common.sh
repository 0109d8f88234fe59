#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Shared by the Linux-source script tests: real processes in a session of
# their own, the real ./xgtop in batch CSV mode, and cleanup by pid.
cd "$(dirname "$0")/../.." || exit 2
tmp=$(mktemp -d /tmp/xgtop-linux-test.XXXXXX) || exit 2
pids=()
cgdirs=()

cleanup() {
	local p d
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
	for p in "${pids[@]}"; do wait "$p" 2>/dev/null; done
	# workers first (their pids are in $tmp/pids), then the leader
	if [ -s "$tmp/pids" ]; then
		while read -r _ p; do kill "$p" 2>/dev/null; done <"$tmp/pids"
	fi
	sleep 0.2
	for d in "${cgdirs[@]}"; do rmdir "$d" 2>/dev/null; done
	rm -rf "$tmp" /var/tmp/xgtop-linux-test.$$.*
}
trap cleanup EXIT

fail() { echo "FAIL: $*"; exit 1; }
skip() { echo "SKIP: $*"; exit 77; }

[ -x ./xgtop ] || fail "./xgtop is not built (run make)"
command -v python3 >/dev/null || skip "python3 is not installed"
command -v setsid >/dev/null || skip "setsid (util-linux) is not installed"

# A CPU we may run on (the first of our affinity list), for taskset.
first_cpu() {
	local list
	list=$(taskset -pc $$ 2>/dev/null | sed 's/.*: //')
	echo "${list%%[,-]*}"
}

# Starts the workers given as "name command" lines on stdin, each as a
# child of one setsid'd leader, so that in process mode every worker is a
# domain of its own (a child of a session leader below init starts a
# group). Writes "name pid" lines to $tmp/pids and waits until all are up.
spawn() {
	local script=$tmp/leader.sh n=0 name cmd
	echo 'cd /' >"$script"
	while read -r name cmd; do
		[ -z "$name" ] && continue
		printf '%s &\necho "%s $!" >>%s\n' "$cmd" "$name" "$tmp/pids" >>"$script"
		n=$((n + 1))
	done
	echo 'wait' >>"$script"
	setsid -w bash "$script" </dev/null >/dev/null 2>&1 &
	pids+=($!)
	for _ in $(seq 50); do
		[ -s "$tmp/pids" ] && [ "$(wc -l <"$tmp/pids")" -ge "$n" ] && return 0
		sleep 0.1
	done
	fail "workers did not start"
}

pid_of() { awk -v n="$1" '$1 == n { print $2 }' "$tmp/pids"; }

# Runs xgtop in batch CSV mode: xg_csv OUT [options...]
xg_csv() {
	local out=$1
	shift
	./xgtop -b -o csv --source linux "$@" >"$out" 2>"$tmp/xgtop.err" ||
		fail "xgtop $*: exit $?: $(cat "$tmp/xgtop.err")"
}

# Mean of a CSV column over the rows of one domain id, skipping the first
# printed iteration when more than one: csv_mean FILE ID KEY
csv_mean() {
	python3 - "$@" <<'PY'
import csv, sys
path, ident, key = sys.argv[1:4]
rows = [r for r in csv.DictReader(open(path, newline="")) if r["id"] == ident and r.get("vcpu", "") == ""]
vals = [float(r[key]) for r in rows if r[key] != ""]
if not vals:
    print("missing")
else:
    if len(vals) > 1:
        vals = vals[1:]
    print("%.3f" % (sum(vals) / len(vals)))
PY
}

# True when "$1 $2 $3" (a op b) holds for decimals.
check() { python3 -c "import sys; a, b = float(sys.argv[1]), float(sys.argv[3]); sys.exit(0 if {'<': a < b, '>': a > b, '<=': a <= b, '>=': a >= b}[sys.argv[2]] else 1)" "$@"; }

expect() {  # expect LABEL VALUE OP LIMIT
	local label=$1 v=$2 op=$3 lim=$4
	[ "$v" = missing ] && fail "$label: no value in xgtop's output"
	check "$v" "$op" "$lim" || fail "$label = $v, want $op $lim"
	echo "ok: $label = $v ($op $lim)"
}
